// The goalkeeper's page for his secret choice (004 Pênaltis), as the console hands it over:
// the host gives its link with a key that makes only that choice (GET /api/keeper:
// web/access.py), never the referee's token; the console shows it as a QR code to read on
// the goalkeeper's phone and opens it in a tab of its own, the console staying where it is
// (issue #45). One link per side, match and token, asked once.

import { forTable, view } from "./page.js";

const links = new Map(); // "token|match|side" -> Promise of {url, qr_svg} (dropped on failure)

// the goalkeeper's page for `side` ("A", "B"; "" for either: the shoot-out's page)
export function keeperPass(side) {
  const key = `${Referee.token}|${view.state ? view.state.match_id : ""}|${side}`;
  if (!links.has(key)) {
    const q = [forTable, side ? `side=${side}` : ""].filter(Boolean).join("&");
    const asked = fetch(`/api/keeper${q ? `?${q}` : ""}`, { headers: Referee.headers() })
      .then((r) => (r.ok ? r.json() : null))
      .catch(() => null)
      .then((body) => {
        if (!body || !body.url) links.delete(key); // asked again at the next drawing
        return body && body.url ? body : null;
      });
    links.set(key, asked);
  }
  return links.get(key);
}

// draw the page's link on `button` (opened in a new tab) and its QR code in `qr` (optional),
// while `box` shows (the card asking for the choice); the button stays hidden until the host
// gave the link, and once the box went meanwhile (the choice made)
export function showKeeperPass(side, box, button, qr) {
  keeperPass(side).then((pass) => {
    if (!pass || box.hidden) return;
    if (button.getAttribute("href") !== pass.url) button.setAttribute("href", pass.url);
    button.hidden = false;
    if (qr && qr.dataset.url !== pass.url) {
      qr.innerHTML = pass.qr_svg; // the host's own SVG (segno), not the referee's words
      qr.dataset.url = pass.url;
    }
  });
}
