"""The console's Registro on a 390×844 touch phone, with the real firmware, daemon and
SQLite behind it (issue 31 §4–§5): new entries arrive without moving the entry under the
referee's thumb, and the correction form names every field in Portuguese, with a time in
min:s (never "period ms 180000", "ring" or "pattern")."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from phone_console import phone_console, wait_js

from futmesa_testkit.livetable import LiveTable

pytestmark = pytest.mark.browser

TEAMS = {"A": {"name": "Grêmio", "color": "#1040c0"},
         "B": {"name": "Internacional", "color": "#c02020"}}
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
WAIT_MS = 90_000
SETTINGS = {"period_ms": 180_000, "lance_ms": 3_600_000, "lance_warn_ms": 5_000}

ROWS = "document.querySelectorAll('#log li[data-id]').length"
TOP_OF = """(id) => document.querySelector(`#log li[data-id="${id}"]`)
    .getBoundingClientRect().top"""


def play_lances(live: LiveTable, n: int) -> None:
    """`n` lances by whichever team has the lance (the kick-off's two, then one a side); each
    by another disc than the last, as the kick-off's two lances must be (000 Art. 9)."""
    for i in range(n):
        side = live.match()["possession"]["side"]
        live.referee("touch", {"side": side, "disc": 5 + i % 2})


def test_the_log_holds_still_and_the_form_speaks_words(browser: Any, output_dir: Path) -> None:
    with LiveTable(speed=10, settings=SETTINGS) as live:
        live.start_match(teams=TEAMS, kickoff="A")
        play_lances(live, 14)
        context = browser.new_context(**PHONE)
        page = context.new_page()
        try:
            page.goto(f"{live.base_url}/console?token={live.token}")
            page.wait_for_function("document.getElementById('act-shot-team').textContent"
                                   " !== ''", timeout=WAIT_MS)
            page.tap("[data-sheet=sheet-log]")
            page.wait_for_function(f"{ROWS} >= 19", timeout=WAIT_MS)
            # the referee scrolls down to read an older entry
            page.evaluate("document.getElementById('sheet-log').scrollTop = 500")
            anchor = page.evaluate("""() => {
                const head = document.querySelector('#sheet-log .sheet-head')
                    .getBoundingClientRect();
                const li = [...document.querySelectorAll('#log li[data-id]')]
                    .find((x) => x.getBoundingClientRect().top >= head.bottom);
                return li.dataset.id;
            }""")
            before = page.evaluate(TOP_OF, anchor)
            rows = page.evaluate(ROWS)
            play_lances(live, 3)  # the match goes on while he reads
            page.wait_for_function(f"{ROWS} >= {rows + 3}", timeout=WAIT_MS)
            after = page.evaluate(TOP_OF, anchor)
            assert abs(after - before) <= 2, f"entry {anchor} moved {after - before:.0f} px"
            page.screenshot(path=str(output_dir / "console-phone-log.png"))

            # the table's own record of the half's length is not the referee's to correct
            # (walk #45: the table's clock rows offer neither Anular nor Corrigir)
            page.evaluate("document.getElementById('sheet-log').scrollTop = 1e6")
            profile = page.evaluate("""() => [...document.querySelectorAll('#log li[data-id]')]
                .find((li) => li.textContent.includes('Mesa configurada')).dataset.id""")
            assert page.locator(f"#log li[data-id='{profile}'] [data-fix]").count() == 0
            # a touch's correction form, in words: the disc by its number, no field's code
            touch = page.evaluate("""() => [...document.querySelectorAll('#log li[data-id]')]
                .find((li) => li.textContent.includes('Toque')
                      && li.querySelector('[data-fix=amend]')).dataset.id""")
            page.tap(f"#log li[data-id='{touch}'] [data-fix=amend]")
            page.wait_for_selector("#fix[open]")
            form = page.text_content("#fix-fields") or ""
            value = page.input_value("#fix-fields [data-key=disc]")
            page.screenshot(path=str(output_dir / "console-phone-correction-form.png"))
            assert "Botão" in form, form
            assert value in ("5", "6"), value
            for raw in ("disc", "side", "touch", "data"):
                assert raw not in form, (raw, form)
        finally:
            context.close()


def test_before_the_kick_off_starting_is_on_the_first_screen(browser: Any) -> None:
    """Issue 31 §11: before kick-off "Iniciar período" was in a sheet; it is the first thing
    on the first screen, and it starts the half."""
    with LiveTable(speed=10, settings=SETTINGS) as live:
        live.wait(lambda: live.running is not None and live.daemon.connected
                  and live.daemon.match is not None, 90, "the table")
        live.referee("set_up", {"teams": TEAMS, "kickoff": "A"})
        context = browser.new_context(**PHONE)
        page = context.new_page()
        try:
            page.goto(f"{live.base_url}/console?token={live.token}")
            page.wait_for_selector("#start-main:not(.hidden)", timeout=WAIT_MS)
            assert page.text_content("#start-main") == "▶ Iniciar o 1º tempo"
            box = page.locator("#start-main").bounding_box()
            assert box and box["y"] + box["height"] <= PHONE["viewport"]["height"], box
            page.tap("#start-main")
            live.wait(lambda: live.daemon.status is not None and live.daemon.status.running,
                      60, "the clock to start")
            page.wait_for_selector("#start-main.hidden", state="attached", timeout=WAIT_MS)
        finally:
            context.close()


def test_the_registro_opens_on_its_newest_entry(browser: Any, output_dir: Path) -> None:
    """Walk50c L3: right after the penalty goal the referee opened the Registro and the goal's
    card was cut off above the fold — the page's copy of the log was a moment old, and the
    newer entries, arriving as the sheet opened, were put above the entry it held still (issue
    31 §4, for a referee who reads). A sheet just opened shows the newest entry at its top."""
    with phone_console(browser, "gaucha") as (live, page):
        play_lances(live, 8)
        page.tap("[data-sheet=sheet-log]")
        wait_js(page, f"{ROWS} >= 10")
        page.tap("#sheet-log [data-close]")
        # the log's answers held back while the sheet opens: its copy is the old one
        waiting: list[Any] = []
        page.route("**/api/log*", lambda route: route.continue_() if waiting == [None]
                   else waiting.append(route))
        rows = page.evaluate(ROWS)
        play_lances(live, 3)  # the page asks for the new entries: the answer waits
        # (asked for now or a moment before — one request at a time: a request of the page's
        # that was on its way as the route came is held as well, and answered from the log as
        # it is when it goes through)
        deadline = time.monotonic() + WAIT_MS / 1000
        while not waiting and time.monotonic() < deadline:
            page.wait_for_timeout(100)  # the route's handler runs while the page waits
        assert waiting, "the page never asked for the log's new entries"
        page.tap("[data-sheet=sheet-log]")
        page.wait_for_function("document.getElementById('sheet-log').hidden === false")
        held, waiting[:] = list(waiting), [None]  # from now on they go through
        for route in held:
            route.continue_()
        wait_js(page, f"{ROWS} >= {rows + 3}")
        newest = max(e.id for e in live.daemon.store.entries(live.daemon.match["id"])
                     if e.source == "referee")
        wait_js(page, f"document.querySelector('#log li[data-id=\"{newest}\"]') !== null")
        page.screenshot(path=str(output_dir / "console-phone-log-opened.png"))
        shown = page.evaluate("""(id) => {
            const head = document.querySelector('#sheet-log .sheet-head').getBoundingClientRect();
            return document.querySelector(`#log li[data-id="${id}"]`).getBoundingClientRect().top
                - head.bottom; }""", newest)
        assert shown >= 0, f"the newest entry's top is {-shown:.0f} px above the fold"
