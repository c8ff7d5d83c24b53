"""Reusable checks for any screen a person reads (kiosk, console, history, súmula, venue board).

Each check runs in the page (real Chromium through Playwright) and returns what it found, so a
test can assert on an empty list and print every offender at once:

- ``overflow(page)``: the page, or a visible element, reaches past the viewport's width;
- ``cut_texts(page)``: an element whose text is cut (overflow hidden / clip / ellipsis / line
  clamp with ``scrollWidth > clientWidth`` or ``scrollHeight > clientHeight``);
- ``internal_codes(text)`` / ``visible_codes(page)``: internal codes in visible text (rule-file
  numbers before "Art.", board uids, ruleset ids, zone ids, time-zone ids, JSON, snake_case);
- ``check_screen(page, name, output_dir)``: all three, plus a screenshot ``<name>.png``;
  raises AssertionError listing every problem.

``VIEWPORTS`` holds the four sizes every screen is checked at (two TVs, two phones).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

VIEWPORTS: dict[str, dict[str, int]] = {
    "tv": {"width": 1920, "height": 1080},
    "hd": {"width": 1280, "height": 720},
    "phone": {"width": 390, "height": 844},
    "small": {"width": 360, "height": 740},
}

# Internal codes that must never reach a person's eyes: (what it is, pattern).
CODE_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    ("rule-file number before an article",
     re.compile(r"\b00[0-9]\s+(?:Art\b|Art\.|Regra\b|Rule\b|Cap\b)", re.IGNORECASE)),
    ("board uid", re.compile(r"\b(?:sim|pico|esp32|rp2040|rpi)-[0-9A-Za-z]{1,}")),
    ("ruleset id", re.compile(
        r"\b(?:cbfm-1toque|pastilha-8x2(?:-clube)?|mesa-posta)\b|(?<![\wÀ-ÿ])gaucha\b")),
    ("zone / sensor id", re.compile(
        r"\b(?:zona|zone|sensor)\s+\d+\b|\blinha do gol\s+\d|\bgoal line\s+\d"
        r"|\b(?:gol|goal)\s+[0-9]\b(?!\s*[×x:-])", re.IGNORECASE)),
    ("time-zone id", re.compile(r"\b(?:America|Europe|Africa|Asia|Atlantic|Pacific|Etc)/[A-Z]")),
    ("JSON", re.compile(r"[{}]|\"\w+\"\s*:|\[\s*\"")),
    ("snake_case code", re.compile(r"\b[a-z]+_[a-z_]+\b")),
    ("referee id", re.compile(r"\b(?:demo|sim|scripted)-referee\b")),
    ("raw lance length", re.compile(r"\bLANCE\s+\d{3,}\b")),
]


# every shown team name has been fitted to its box for this layout and text
# (static/kiosk-venue.js fitNames marks each one with data-fit, a frame after it is drawn);
# a page that is not the kiosk fits no names: nothing to wait for
NAMES_FITTED = """() => !window.futmesaKiosk ||
  [...document.querySelectorAll('.name, .card-name')].every((el) =>
  !el.offsetParent || el.dataset.fit ===
    `${innerWidth}x${innerHeight}:${document.body.className}:${el.textContent}`)"""


# every entrance animation on the page (a GOL popping in, an announcement sliding in) has
# ended; endless ones (a pulse, a blink) never end and are not waited for
SETTLED = """sel => (sel ? document.querySelector(sel).getAnimations() : document.getAnimations())
  .every((a) => a.effect.getComputedTiming().iterations === Infinity
    || a.playState === 'finished')"""


def wait_settled(page: Any, selector: str | None = None) -> None:
    """Until the page's (or one element's) entrance animations have landed: for a
    screenshot a person looks at, and for checks on where things are."""
    page.wait_for_function(SETTLED, arg=selector)


def wait_names_fitted(page: Any) -> None:
    """Until the kiosk has fitted every team name it shows (a condition, not a pause)."""
    page.wait_for_function(NAMES_FITTED)


def internal_codes(text: str) -> list[str]:
    """Every internal code found in ``text``: "what: the match (…context…)"."""
    found: list[str] = []
    for what, pattern in CODE_PATTERNS:
        for m in pattern.finditer(text):
            start, end = max(0, m.start() - 30), min(len(text), m.end() + 30)
            context = text[start:end].replace("\n", " ⏎ ")
            found.append(f"{what}: {m.group(0)!r} in …{context}…")
    return found


def visible_text(page: Any) -> str:
    """The text a person sees (``innerText`` of the body: hidden elements are left out)."""
    return str(page.evaluate("document.body ? document.body.innerText : ''"))


def visible_codes(page: Any) -> list[str]:
    return internal_codes(visible_text(page))


_NAME_JS = r"""
const name = (el) => el.id ? `#${el.id}`
  : typeof el.className === "string" && el.className ? `.${el.className.split(" ")[0]}`
  : el.tagName.toLowerCase();
"""

_OVERFLOW_JS = r"""
() => {
  const W = window.innerWidth;
  const out = [];
  const doc = document.documentElement;
  if (doc.scrollWidth > W + 1) out.push(`the page is ${doc.scrollWidth} px wide in ${W} px`);
  if (document.body && document.body.scrollWidth > W + 1)
    out.push(`the body is ${document.body.scrollWidth} px wide in ${W} px`);
  for (const el of document.body.querySelectorAll("*")) {
    const cs = getComputedStyle(el);
    if (cs.display === "none" || cs.visibility === "hidden") continue;
    if (cs.position === "fixed" && cs.opacity === "0") continue;
    if (!el.getClientRects().length) continue;
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    if (r.right > W + 1 || r.left < -1) {
      // an element inside a scrolling box is fine: it is reached by scrolling that box
      let p = el.parentElement, scrolled = false;
      while (p && p !== document.body) {
        const ps = getComputedStyle(p);
        if (/(auto|scroll)/.test(ps.overflowX)) { scrolled = true; break; }
        p = p.parentElement;
      }
      if (scrolled) continue;
      const where = `${Math.round(r.left)}..${Math.round(r.right)} px in ${W} px`;
      out.push(`${name(el)} spans ${where}: ${(el.innerText || "").slice(0, 40)}`);
    }
  }
  return out.slice(0, 20);
}
"""

_CUT_JS = r"""
() => {
  const out = [];
  for (const el of document.body.querySelectorAll("*")) {
    const hasText = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    if (!hasText) continue;
    const cs = getComputedStyle(el);
    if (cs.display === "none" || cs.visibility === "hidden") continue;
    if (!el.getClientRects().length) continue;
    const clipsX = /(hidden|clip)/.test(cs.overflowX) || cs.textOverflow === "ellipsis";
    const clamp = cs.webkitLineClamp !== "none" && cs.webkitLineClamp;
    const clipsY = /(hidden|clip)/.test(cs.overflowY) || clamp;
    const wide = el.scrollWidth > el.clientWidth + 1;
    const tall = el.scrollHeight > el.clientHeight + 1;
    if ((clipsX && wide) || (clipsY && tall)) {
      const size = `${el.scrollWidth}x${el.scrollHeight} in ${el.clientWidth}x${el.clientHeight}`;
      out.push(`${name(el)} cuts "${el.textContent.trim().slice(0, 50)}" (${size})`);
    }
  }
  return out.slice(0, 20);
}
"""


def _run(page: Any, check: str) -> list[str]:
    return list(page.evaluate(f"(() => {{ {_NAME_JS} return ({check})(); }})()"))


def overflow(page: Any) -> list[str]:
    """Anything reaching past the viewport's width (the page itself or a visible element)."""
    return _run(page, _OVERFLOW_JS)


def cut_texts(page: Any) -> list[str]:
    """Visible elements whose own text is cut by overflow hidden / ellipsis / line clamp."""
    return _run(page, _CUT_JS)


def check_screen(page: Any, name: str, output_dir: Path | None = None, *,
                 allow_codes: tuple[str, ...] = ()) -> None:
    """All checks on the page as it is now; a screenshot ``<name>.png`` first, if asked.

    ``allow_codes``: substrings of findings a screen may legitimately show (use sparingly).
    """
    wait_names_fitted(page)  # the kiosk's names are checked as fitted, never mid-fit
    if output_dir is not None:
        output_dir.mkdir(exist_ok=True)
        page.screenshot(path=str(output_dir / f"{name}.png"))
    problems = [f"overflow: {p}" for p in overflow(page)]
    problems += [f"cut text: {p}" for p in cut_texts(page)]
    problems += [f"internal code: {p}" for p in visible_codes(page)
                 if not any(a in p for a in allow_codes)]
    assert not problems, f"{name}:\n  " + "\n  ".join(problems)
