// The console's link to its host: the token check, the outbox shown while actions wait for
// the connection, and the last state kept for a reload without the network.

import { $, _, forTable, table, view } from "./page.js";

// The last state seen, slimmed to what the first screen shows, for a reload while offline
export const LAST_KEY = `futmesa.console.last.${table || "-"}`;
let lastKept = "";
export function keepLastState(st) {
  const m = st.match || {};
  const slim = {
    match_id: st.match_id, table_name: st.table_name, teams: st.teams, score: st.score,
    period: st.period, periods: st.periods, status: st.status, finished: st.finished,
    match: { turn: m.turn, possession: m.possession, ends: m.ends, restart: m.restart,
             shot_asked: m.shot_asked, phase: m.phase },
  };
  const text = JSON.stringify(slim);
  if (text === lastKept) return;
  lastKept = text;
  try { localStorage.setItem(LAST_KEY, text); } catch (e) { /* full or private: no cache */ }
}
export function lastState() {
  try { return JSON.parse(localStorage.getItem(LAST_KEY) || "null"); } catch (e) { return null; }
}

export function showQueue(items, offline) {
  const el = $("outbox");
  el.hidden = !items.length;
  if (!items.length) return;
  const n = items.length;
  const what = items.map((i) => i.label).join(" · ");
  el.textContent = offline
    ? (n === 1 ? _("⚠ waiting for the connection — 1 action kept ({what}); it will be sent with the time it was made", { what })
      : _("⚠ waiting for the connection — {n} actions kept ({what}); they will be sent in order, with the time each was made", { n, what }))
    : (n === 1 ? _("… sending 1 action: {what}", { what }) : _("… sending {n} actions: {what}", { n, what }));
  el.className = `outbox ${offline ? "offline" : ""}`;
}

// the latest check only, asked with the key the page holds now, speaks: an answer for a key
// the page has since replaced (a new link opened) must not overwrite the newer one (walk #45 H2)
let asked = 0;
export async function checkToken() {
  const el = $("token-status");
  const mine = ++asked;
  const sent = Referee.token;
  try {
    const r = await fetch(`/api/token${forTable ? `?${forTable}` : ""}`, { headers: Referee.headers() });
    const body = r.ok ? {} : await r.json().catch(() => ({ error: `HTTP ${r.status}` }));
    if (mine !== asked || sent !== Referee.token) return;
    el.replaceChildren();
    if (r.ok) {
      // the words go on a narrow phone (the ✓ stays): the header keeps to one line
      const words = document.createElement("span");
      words.className = "wide";
      words.textContent = ` ${_("✓ referee access").replace(/^✓\s*/, "")}`;
      el.textContent = "✓";
      el.append(words);
      el.title = _("✓ referee access");
      el.className = "token ok";
      view.tokenWorked = true;
      fitToken();
      return;
    }
    el.className = "token bad";
    // the host says why (a link replaced by `serve --new-referee-token`, another table's, a
    // forged one): a restart alone keeps the link (futmesa.store.tokens)
    el.append(`✗ ${body.error} `);
    const a = document.createElement("a");
    a.href = `/console/recover${forTable ? `?${forTable}` : ""}`;
    a.textContent = _("recover (on the table computer only)");
    el.append(a);
  } catch (e) {
    if (mine !== asked) return;
    el.textContent = Referee.queued().length ? "" : _("✗ server unreachable");
    el.className = "token bad";
  }
}

// "✓ acesso de árbitro" keeps the line under the score to one line: where its words do not
// fit beside the period, the clock and the lance (a 390 px phone, the lance reading TEMPO!:
// walk 45h-a, low), they go and the ✓ stays (its words in its title). Checked whenever that
// line's text changes, as the page draws it.
export function fitToken() {
  const el = $("token-status");
  const words = el.querySelector(".wide");
  if (!words) return;
  words.hidden = false;
  const line = $("c-period").getBoundingClientRect();
  if (el.getBoundingClientRect().top >= line.bottom) words.hidden = true;
}
new MutationObserver(fitToken).observe(document.querySelector(".mini2"),
  { childList: true, characterData: true, subtree: true });
window.addEventListener("resize", fitToken);
