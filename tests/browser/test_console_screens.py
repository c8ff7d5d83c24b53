"""The referee console on two phones and two screens (issue 20 item 3), in headless Chromium.

The first screen holds what a lance needs without scrolling: the question the rules are
asking, the side on turn, the disc keypad with "Chute pedido", and the outcome. Every sheet
(fouls, discipline, clock, the log, the match) opens with one tap. Nothing is wider than the
screen, no text is cut, no internal code is shown, and no keyboard badge appears on a touch
screen. Screenshots of each in test-output/ (console-<size>-<what>.png).
"""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

import httpx
import pytest
from phone_console import console_page
from screen_checks import VIEWPORTS, check_screen

from futmesa.rules.answers import answer_words
from futmesa_testkit.liveserver import TOKEN, LiveServer, ScriptedTable

pytestmark = pytest.mark.browser

WAIT_MS = 60_000
PHONES = ("phone", "small")
SHEETS = ("sheet-foul", "sheet-discipline", "sheet-clock", "sheet-log", "sheet-more")
QUESTION = {"id": 2, "kind": "goal_no_shot", "pt": "Gol sem chute pedido: o gol vale?",
            "options": ["counts", "no_goal"], "default": "no_goal",
            "answers": {"pt": answer_words(["counts", "no_goal"], "pt_BR")}}
FIRST_SCREEN = ("#pending-card", "#side-A", "#side-B", ".lance .keypad", "#act-shot",
                "#act-outcome")
# the longest word of each visible button, measured in the button's font: none is broken
WORDS_FIT = """() => [...document.querySelectorAll('button')].filter(b => b.offsetParent).map(b => {
  const word = b.textContent.trim().split(/\\s+/)
    .reduce((a, w) => (w.length > a.length ? w : a), "");
  const probe = document.createElement("span");
  probe.style.font = getComputedStyle(b).font;
  probe.style.whiteSpace = "nowrap"; probe.style.position = "absolute";
  probe.textContent = word;
  document.body.appendChild(probe);
  const need = probe.getBoundingClientRect().width;
  probe.remove();
  const cs = getComputedStyle(b);
  const have = b.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
  return need > have + 1 ? `${word}: ${Math.round(need)} px in ${Math.round(have)} px` : null;
}).filter(Boolean)"""


def _context(browser: Any, size: str) -> Any:
    touch = size in PHONES
    return browser.new_context(viewport=VIEWPORTS[size], is_mobile=touch, has_touch=touch)


def _asking(live: LiveServer, table: ScriptedTable) -> None:
    """A few entries in the log and a question from the rules waiting for the referee."""
    auth = {"Authorization": f"Bearer {TOKEN}"}
    for body in ({"kind": "start_period"}, {"kind": "goal", "data": {"side": "B"}},
                 {"kind": "shot_asked", "data": {"side": "A", "disc": 7}}):
        assert httpx.post(live.url + "/api/referee", json={**body, "input_id": uuid.uuid4().hex},
                          headers=auth, timeout=10).status_code == 200
    state = live.call(table.state)
    state["match"]["pending"] = [QUESTION]
    state["match"]["turn"] = "B"
    live.publish(state)


@pytest.mark.parametrize("size", list(VIEWPORTS))
def test_the_first_screen_holds_the_lance_and_every_sheet_fits(
        table_server: tuple[LiveServer, ScriptedTable], browser: Any, output_dir: Path,
        size: str) -> None:
    live, table = table_server
    _asking(live, table)
    ctx = _context(browser, size)
    try:
        page = console_page(ctx, live.url, TOKEN)
        page.wait_for_selector("#pending [data-choice=counts]", timeout=WAIT_MS)
        # the side on turn is the one the keypad serves, named by its team
        assert page.get_attribute("#side-B", "aria-pressed") == "true"
        assert "Botafogo" in page.text_content("#side-B")
        check_screen(page, f"console-{size}-first", output_dir)
        vw, vh = VIEWPORTS[size]["width"], VIEWPORTS[size]["height"]
        bar = page.locator(".sheet-bar").bounding_box()
        assert bar is not None
        floor = bar["y"] if bar["y"] > vh / 2 else vh  # the bar is fixed at a phone's bottom
        for sel in FIRST_SCREEN:
            box = page.locator(sel).first.bounding_box()
            assert box is not None, sel
            assert box["x"] >= 0 and box["x"] + box["width"] <= vw + 1, (sel, box)
            assert box["y"] >= 0 and box["y"] + box["height"] <= floor + 1, (sel, box, floor)
        assert page.evaluate("window.scrollY") == 0
        assert "o gol vale?" in page.text_content("#pending-card")
        # every button a thumb presses is at least 44 px tall
        small = page.evaluate("""() => [...document.querySelectorAll('button')]
            .filter(b => b.offsetParent && b.getBoundingClientRect().height < 44)
            .map(b => b.textContent.trim())""")
        assert small == [], small
        assert page.evaluate(WORDS_FIT) == []  # no word broken in two
        kbd = page.evaluate("[...document.querySelectorAll('kbd')]"
                            ".filter(k => k.getClientRects().length).length")
        if size in PHONES:
            assert kbd == 0, "keyboard badges on a touch screen"
        else:
            assert kbd > 0, "the shortcuts are shown where there is a keyboard"
        for sheet in SHEETS:
            tab = page.locator(f"[data-sheet={sheet}]")
            if not tab.is_visible():  # a wide screen keeps the log open beside the lance
                assert page.is_visible(f"#{sheet}"), sheet
            else:
                tab.click()
                page.wait_for_selector(f"#{sheet}", state="visible")
            if sheet == "sheet-log":
                page.wait_for_selector("#log li[data-id='3']", timeout=WAIT_MS)
            check_screen(page, f"console-{size}-{sheet.removeprefix('sheet-')}", output_dir)
            assert page.evaluate(WORDS_FIT) == [], sheet
            if sheet == "sheet-log":
                sizes = page.evaluate("""() => [...document.querySelectorAll('#log button')]
                    .map(b => b.getBoundingClientRect().height)""")
                assert sizes and min(sizes) >= 44, sizes
                page.click("#log li[data-id='2'] button[data-fix=amend]")  # the form
                page.wait_for_selector("#fix[open] select[data-key=side]")
                assert not page.is_visible("#fix-trip-row")  # only for a sensor's goal
                check_screen(page, f"console-{size}-correction", output_dir)
                page.click("#fix-cancel")
            if tab.is_visible():
                page.locator(f"#{sheet} [data-close]").click()
                page.wait_for_selector(f"#{sheet}", state="hidden")
    finally:
        ctx.close()
    assert page.js_errors == []


def test_the_expert_page_keeps_the_raw_form_off_the_console(
        table_server: tuple[LiveServer, ScriptedTable], browser: Any) -> None:
    live, table = table_server
    ctx = _context(browser, "phone")
    try:
        page = console_page(ctx, live.url, TOKEN)
        text = page.evaluate("document.body.innerText")
        assert "JSON" not in text and "kind" not in text
        assert page.locator("textarea").count() == 0
        page.goto(live.url + "/console/expert")  # the same token, kept on the phone
        page.fill("#raw input[name=kind]", "goal")
        page.fill("#raw textarea[name=data]", '{"side": "A"}')
        page.click("#raw button[type=submit]")
        page.wait_for_function("document.getElementById('result').textContent"
                               ".startsWith('✓ goal')", timeout=WAIT_MS)
        assert [e["kind"] for e in table.entries] == ["goal"]
    finally:
        ctx.close()


# the referee's inputs of docs/rulesets.md "Entradas do árbitro", in the states that offer them
RULE_STATES: dict[str, tuple[dict[str, Any], tuple[str, ...]]] = {
    # 001: a goal kick for Alvorada whose side and taker are a choice, after Botafogo's lance
    "goal-kick": ({"ruleset": "gaucha", "status": "running", "turn": "A", "last_player": "B",
                   "ends": {"A": 0, "B": 1},
                   "restart": {"kind": "tiro_de_meta", "side": "A", "taken": False,
                               "taker_choice": "disc", "side_choice": True, "waivable": True},
                   # what the engine publishes for it (rules/possession.py, offers; offside
                   # stands for a later moment, once a lance is played: it is against the
                   # side that played the last one, possession.offside_side)
                   "possession": {"offers": ["offside", "ball_on_arc", "discs_moved",
                                             "disc_out", "rebound_midline"],
                                  "offside_side": "B"}},
                  ("#restart-card", "#rc-taker", "#rc-left", "#rc-right", "#rc-waive",
                   "#rc-moved", "#act-offside")),
    # 004: a penalty for Alvorada, its set-up (Pênaltis); Botafogo's goalkeeper chooses first;
    # a chutão just kicked
    "penalty": ({"ruleset": "mesa-posta", "status": "running", "turn": "A",
                 "restart": {"kind": "penalti", "side": "A", "taken": False,
                             "keeper_choice_from": "B", "keeper_choice_recorded": False,
                             "spot": "penalty_mark", "spot_of": "B",
                             "setup": ["all_discs_out_of_area",
                                       "kicker_behind_ball_in_area_or_meia_lua",
                                       "goalkeeper_on_line"]}},
                ("#restart-card", "#rc-keeper", "#rc-keeper-note", "#rc-setup")),
    "chutao": ({"ruleset": "mesa-posta", "status": "running", "turn": "A",
                "restart": {"kind": "tiro_de_meta", "side": "A", "taken": True,
                            "touches_since": 0, "taker_choice": "goalkeeper"},
                "possession": {"offers": ["keeper_kick_hit"]}},
               ("#restart-card", "#rc-hit")),
}


@pytest.mark.parametrize("size", list(VIEWPORTS))
def test_the_rule_inputs_and_the_signing_fit_every_screen(
        table_server: tuple[LiveServer, ScriptedTable], browser: Any, output_dir: Path,
        size: str) -> None:
    live, table = table_server
    ctx = _context(browser, size)
    try:
        page = console_page(ctx, live.url, TOKEN)
        for what, (match, shown) in RULE_STATES.items():
            state = live.call(table.state)
            state["ruleset"] = match["ruleset"]
            state["match"].update(match)
            live.publish(state)
            for sel in shown:
                page.wait_for_selector(sel, state="visible", timeout=WAIT_MS)
            check_screen(page, f"console-{size}-rules-{what}", output_dir)
            assert page.evaluate(WORDS_FIT) == [], what
            small = page.evaluate("""() => [...document.querySelectorAll('button, a.button')]
                .filter(b => b.offsetParent && b.getBoundingClientRect().height < 44)
                .map(b => b.textContent.trim())""")
            assert small == [], (what, small)
            # no restart code on the card: its name and the team's
            assert "Alvorada" in page.text_content("#restart-title")
            if what == "goal-kick":
                assert page.text_content("#act-offside") == "Impedimento de Botafogo"
                page.click("[data-sheet=sheet-foul]")
                for sel in ("#act-keeper-foul", "#act-arc-0", "#act-arc-1"):
                    assert page.is_visible(sel), sel
                check_screen(page, f"console-{size}-rules-foul-sheet", output_dir)
                assert page.evaluate(WORDS_FIT) == []
                page.click("#sheet-foul [data-close]")
        # the final whistle: "Assinar a súmula", big, on the first screen
        state = live.call(table.state)
        state.update(finished=True, status="finished")
        state["match"].update(status="finished", restart=None)
        live.publish(state)
        page.wait_for_selector("#sign-link", state="visible", timeout=WAIT_MS)
        assert not page.is_visible("#restart-card") and not page.is_visible("#act-offside")
        check_screen(page, f"console-{size}-sign", output_dir)
        assert page.evaluate(WORDS_FIT) == []
        box = page.locator("#sign-link").bounding_box()
        assert box is not None and box["height"] >= 60 and box["y"] + box["height"] <= (
            VIEWPORTS[size]["height"] - 60)
    finally:
        ctx.close()
    assert page.js_errors == []
