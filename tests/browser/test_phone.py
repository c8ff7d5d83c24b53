"""The kiosk, venue board, history and súmula on a phone (390×844) and a TV (1920×1080),
in headless Chromium; and the kiosk's full-screen button, wake lock and optional sounds
(issue 14). Screenshots in test-output/.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from futmesa_testkit.liveserver import TOKEN, LiveServer, ScriptedTable, make_state

pytestmark = pytest.mark.browser

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True,
         "device_scale_factor": 2}
TV = {"viewport": {"width": 1920, "height": 1080}}
SIZES = {"phone": PHONE, "tv": TV}
WAIT_MS = 60_000  # generous: every wait ends as soon as its condition holds

TEAMS = {"A": {"name": "Internacional", "color": "#c62828"},
         "B": {"name": "Grêmio Foot-Ball", "color": "#1040c0"}}

# the longest word of an element's text, measured in the element's own font
WORD_FITS = """el => {
  const word = el.textContent.split(/\\s+/).reduce((a, b) => (b.length > a.length ? b : a), "");
  const probe = document.createElement("span");
  const cs = getComputedStyle(el);
  probe.style.font = cs.font; probe.style.whiteSpace = "nowrap"; probe.style.position = "absolute";
  probe.textContent = word;
  document.body.appendChild(probe);
  const need = probe.getBoundingClientRect().width;
  probe.remove();
  return {need, have: el.clientWidth, clipped: el.scrollHeight > el.clientHeight + 1};
}"""


def _boxes_apart(a: dict, b: dict) -> bool:
    return (a["x"] + a["width"] <= b["x"] or b["x"] + b["width"] <= a["x"]
            or a["y"] + a["height"] <= b["y"] or b["y"] + b["height"] <= a["y"])


def _page(browser: Any, size: str) -> tuple[Any, Any, list[str]]:
    ctx = browser.new_context(**SIZES[size])
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    return ctx, page, errors


def _names_fitted(page: Any, selector: str) -> None:
    """Wait until the kiosk has drawn and fitted these names (or has no fitting at all)."""
    page.wait_for_function(
        "s => !window.futmesaVenue || [...document.querySelectorAll(s)].every("
        "e => e.dataset.fit && e.dataset.fit.endsWith(':' + e.textContent))",
        arg=selector, timeout=WAIT_MS)


def _running_state(**over: Any) -> dict[str, Any]:
    st = make_state(teams=TEAMS, score={"A": 10, "B": 12}, **over)
    now = int(time.time() * 1000)
    st["clock"].update(ms=1_234_000, running=True, at=now)
    st["lance"].update(ms=14_000, running=True, at=now)
    return st


@pytest.mark.parametrize("size", ["phone", "tv"])
def test_kiosk_scores_clock_and_names_fit(live: LiveServer, browser: Any, output_dir: Path,
                                          size: str) -> None:
    live.publish(_running_state())
    ctx, page, errors = _page(browser, size)
    try:
        page.goto(live.url + "/")
        page.wait_for_function("document.getElementById('score-B').textContent === '12'",
                               timeout=WAIT_MS)
        _names_fitted(page, "#name-A, #name-B")
        page.screenshot(path=str(output_dir / f"kiosk-{size}.png"))
        vw, vh = SIZES[size]["viewport"]["width"], SIZES[size]["viewport"]["height"]
        boxes = {sel: page.locator(sel).bounding_box()
                 for sel in ("#score-A", "#score-B", "#clock", "#lance", "#name-A", "#name-B")}
        for sel, box in boxes.items():
            assert box is not None and box["width"] > 0, sel
            assert box["x"] >= 0 and box["x"] + box["width"] <= vw + 1, (sel, box)
            assert box["y"] + box["height"] <= vh + 1, (sel, box)
        for a, b in (("#score-A", "#clock"), ("#score-B", "#clock"), ("#score-A", "#score-B"),
                     ("#score-A", "#lance"), ("#score-B", "#lance")):
            assert _boxes_apart(boxes[a], boxes[b]), (a, b, boxes[a], boxes[b])
        for sel in ("#name-A", "#name-B"):
            fit = page.locator(sel).evaluate(WORD_FITS)
            assert fit["need"] <= fit["have"] + 1, (sel, fit)  # no word cut in two
            assert not fit["clipped"], (sel, fit)  # no line hidden by the clamp
        assert page.evaluate("document.documentElement.scrollWidth") <= vw
        assert errors == []
    finally:
        ctx.close()


@pytest.mark.parametrize("size", ["phone", "tv"])
def test_venue_board_shows_whole_team_names(live: LiveServer, browser: Any, output_dir: Path,
                                            size: str) -> None:
    for i, (a, b) in enumerate([("Internacional", "Grêmio"), ("Palmeiras", "Corinthians"),
                                ("Flamengo", "Fluminense")]):
        live.publish(make_state(table_id=f"mesa-{i + 1}",
                                teams={"A": {"name": a, "color": "#c62828"},
                                       "B": {"name": b, "color": "#1040c0"}}))
    ctx, page, errors = _page(browser, size)
    try:
        page.goto(live.url + "/?mode=board")
        page.wait_for_function("document.querySelectorAll('.card').length === 3",
                               timeout=WAIT_MS)
        _names_fitted(page, ".card-name")
        page.screenshot(path=str(output_dir / f"board-{size}.png"))
        names = page.locator(".card-name").evaluate_all(
            "els => els.map(e => [e.textContent, e.scrollWidth, e.clientWidth])")
        assert len(names) == 6
        for text, scroll, client in names:
            assert scroll <= client, f"{text!r} is cut: {scroll} > {client} px"
        assert errors == []
    finally:
        ctx.close()


def test_history_and_sumula_fit_a_phone(
        table_server: tuple[LiveServer, ScriptedTable], browser: Any, output_dir: Path) -> None:
    live, _table = table_server
    for path in ("/history", "/report/1"):
        html = httpx.get(live.url + path, timeout=10).text
        assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in html
    ctx, page, errors = _page(browser, "phone")
    try:
        for path, shot in (("/history", "history-phone.png"), ("/report/1", "sumula-phone.png")):
            page.goto(live.url + path)
            page.screenshot(path=str(output_dir / shot), full_page=True)
            # the page is laid out for the phone's width, not a shrunk desktop page
            assert page.evaluate("window.innerWidth") == 390
            assert page.evaluate("document.documentElement.scrollWidth") <= 390, path
        assert errors == []
    finally:
        ctx.close()


def test_kiosk_offers_fullscreen_and_keeps_the_screen_awake(live: LiveServer, browser: Any,
                                                            output_dir: Path) -> None:
    live.publish(_running_state())
    ctx, page, errors = _page(browser, "phone")
    try:
        page.goto(live.url + "/")
        page.wait_for_function("window.futmesaVenue && "
                               "window.futmesaVenue.wakeLock !== 'not requested'",
                               timeout=WAIT_MS)
        # the screen-awake request was made (headless Chromium may refuse it: no screen)
        wake = page.evaluate("window.futmesaVenue.wakeLock")
        assert wake == "active" or wake.startswith("refused"), wake
        button = page.locator("#fullscreen")
        assert button.is_visible() and "Tela cheia" in button.text_content()
        page.screenshot(path=str(output_dir / "kiosk-phone-fullscreen-button.png"))
        button.click()
        page.wait_for_function("document.fullscreenElement !== null", timeout=WAIT_MS)
        page.wait_for_function("getComputedStyle(document.getElementById('fullscreen'))"
                               ".display === 'none'", timeout=WAIT_MS)
        assert errors == []
    finally:
        ctx.close()


def _played(page: Any) -> list[str]:
    return page.evaluate("window.futmesaVenue.played.map(p => p.name)")


def _wait_played(page: Any, name: str) -> None:
    page.wait_for_function("n => window.futmesaVenue.played.some(p => p.name === n)", arg=name,
                           timeout=WAIT_MS)


def test_sounds_are_off_by_default_and_follow_the_match_when_on(
        live: LiveServer, browser: Any) -> None:
    st = make_state(teams=TEAMS)
    live.publish(st)
    ctx, page, errors = _page(browser, "tv")
    try:
        page.goto(live.url + "/")
        page.wait_for_function("window.futmesaKiosk.state && "
                               "window.futmesaKiosk.state.match_id === 1", timeout=WAIT_MS)
        live.publish(make_state(teams=TEAMS, score={"A": 1, "B": 0}))
        page.wait_for_function("document.getElementById('score-A').textContent === '1'",
                               timeout=WAIT_MS)
        assert _played(page) == []  # off by default
        # the console's "Som ligado" (a display setting) turns them on
        r = httpx.post(live.url + "/api/display", json={"sound": "on"},
                       headers={"Authorization": f"Bearer {TOKEN}"}, timeout=10)
        assert r.status_code == 200 and r.json()["sound"] == "on"
        page.wait_for_function("window.futmesaVenue.sound === true", timeout=WAIT_MS)
        live.publish(make_state(teams=TEAMS, score={"A": 2, "B": 0}))
        _wait_played(page, "goal")
        # the lance crossing its last 5 s
        lance = make_state(teams=TEAMS, score={"A": 2, "B": 0})
        lance["lance"].update(ms=7_000, running=True, at=int(time.time() * 1000))
        live.publish(lance)
        _wait_played(page, "lance_warning")
        # the end of a period
        live.publish(make_state(teams=TEAMS, score={"A": 2, "B": 0}, status="interval"))
        _wait_played(page, "period_end")
        assert _played(page).count("goal") == 1
        assert _played(page).count("lance_warning") == 1
        assert errors == []
    finally:
        ctx.close()
