"""Walk48a M1 («A mesa está posta»): after a restart the ball-in-play clock stood still until the
referee found **Toque** in the Falta / toque sheet — the first screen said only "Relógio parado:
volta a correr na cobrança de …" above a card whose one button moved a disc; a 2-minute half
took 6 real minutes. The kick-off card now has **▶ Cobrança dada (bola em jogo)**, offered
where the engine says the restart may be recorded taken (possession.restart_tap): one tap is
the taker's touch, the restart is taken and the clock runs (004 A partida "num relógio que só
corre com a bola rolando"). Real parts: the simulated table (the firmware's clock), the daemon,
SQLite and uvicorn (LiveTable); headless Chromium on a 390×844 touch phone."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from phone_console import ALVORADA, phone_on, stored, wait_js

from futmesa_testkit.livetable import LiveTable

pytestmark = pytest.mark.browser

# a half long enough for the goal and the kick-off at 10× (its clock runs only with the ball)
SETTINGS = {"period_ms": 20 * 60_000}


def test_one_tap_on_the_kick_off_card_runs_the_clock(browser: Any, output_dir: Path) -> None:
    with LiveTable(speed=10, ruleset="mesa-posta", settings=SETTINGS) as live:
        live.start_match(teams=ALVORADA)
        d = live.daemon
        # Alvorada's kick-off, then its shot asked and struck into Botafogo's goal
        live.referee("touch", {"side": "A", "disc": 9})
        live.referee("shot_asked", {"side": "A", "disc": 9})
        live.referee("touch", {"side": "A", "disc": 9})
        live.sim.goal(live.match()["ends"]["B"])
        live.wait(lambda: live.match()["score"]["A"] == 1 and not d.status.running
                  and not live.match()["clock_running"], 60,
                  "the goal, and the table's clock stopped at it")
        r = live.match()["restart"]
        assert (r["kind"], r["side"], r["taken"]) == ("saida", "B", False)
        stopped = d.clock_now_ms()
        with phone_on(browser, live) as page:
            wait_js(page, "document.getElementById('c-name-A').textContent === 'Alvorada'")
            # the kick-off card, and on it the one button that says the kick-off was taken
            page.wait_for_selector("#rc-taken", state="visible", timeout=60_000)
            assert page.text_content("#restart-title") == "Saída de jogo para Botafogo"
            assert page.text_content("#rc-taken") == "▶ Cobrança dada (bola em jogo)"
            wait_js(page, "document.getElementById('pending').textContent.includes("
                          "'toque «▶ Cobrança dada» quando for dada')")
            shown = page.text_content("#c-clock")
            page.screenshot(path=str(output_dir / "console-restart-taken-before.png"))
            assert not d.status.running and d.clock_now_ms() == stopped
            page.tap("#rc-taken")
            # the console answers the tap on its result line (sent, then stored or refused)
            wait_js(page, "/^(…|✓|✗|⚠)/.test(document.getElementById('result').textContent)")
            # the taker's touch, stored as the console's Toque is; the restart taken; the
            # table's clock running and counting on, and the phone's clock with it
            try:
                live.wait(lambda: stored(live, "touch")[-1:] == [{"side": "B", "disc": None}],
                          60, "the kick-off's touch stored")
            except AssertionError as e:
                raise AssertionError(f"{e}; the console said {page.text_content('#result')!r}; "
                                     f"touches stored {stored(live, 'touch')}") from None
            live.wait(lambda: live.match()["restart"]["taken"] and d.status.running, 60,
                      "the kick-off taken and the table's clock running")
            live.wait(lambda: d.clock_now_ms() >= stopped + 3_000, 60,
                      "the table's clock to count on")
            wait_js(page, f"document.getElementById('c-clock').textContent !== {shown!r}")
            page.wait_for_selector("#rc-taken", state="hidden", timeout=60_000)
            wait_js(page, "/^✓/.test(document.getElementById('result').textContent)")
            assert "Botafogo" in (page.text_content("#result") or "")
            page.screenshot(path=str(output_dir / "console-restart-taken-after.png"))
            assert page.js_errors == [], page.js_errors


def test_a_period_starts_with_the_clock_held_until_the_kick_off(browser: Any,
                                                                output_dir: Path) -> None:
    """Walk49a M1: «▶ Iniciar o 1º tempo» started the ball-in-play clock, which ran 3–5 s
    while the kick-off card still said «A saída ainda não foi dada». Now the period starts with
    the clock held at 00:00, as after a goal: the card offers «▶ Cobrança dada», whose tap runs
    it."""
    with LiveTable(speed=10, ruleset="mesa-posta", settings=SETTINGS) as live:
        d = live.daemon
        live.wait(lambda: d.connected and d.match is not None, 90, "the table to connect")
        live.referee("set_up", {"teams": ALVORADA, "kickoff": "A"})
        with phone_on(browser, live) as page:
            wait_js(page, "document.getElementById('c-name-A').textContent === 'Alvorada'")
            page.wait_for_selector("#start-main", state="visible", timeout=60_000)
            page.tap("#start-main")
            # the period under way, its kick-off card with the one tap, the clock held
            live.wait(lambda: live.match().get("status") == "running", 60, "the 1st half")
            page.wait_for_selector("#rc-taken", state="visible", timeout=60_000)
            assert page.text_content("#restart-title") == "Saída de jogo para Alvorada"
            wait_js(page, "document.getElementById('pending').textContent.includes("
                          "'toque «▶ Cobrança dada» quando for dada')")
            live.wait(lambda: d.status is not None and d.status.period == 1
                      and not d.status.running, 60, "the table's clock held")
            held = d.clock_now_ms()
            assert held < 1_000, held  # 00:00: what the start counted before the hold
            assert page.text_content("#c-clock") == "00:00"
            assert not live.match()["clock_running"]
            page.screenshot(path=str(output_dir / "console-period-start-held.png"))
            assert not d.status.running and d.clock_now_ms() == held
            page.tap("#rc-taken")
            live.wait(lambda: stored(live, "touch")[-1:] == [{"side": "A", "disc": None}], 60,
                      "the kick-off's touch stored")
            live.wait(lambda: d.status.running and d.clock_now_ms() >= held + 3_000, 60,
                      "the table's clock to run from the kick-off")
            wait_js(page, "document.getElementById('c-clock').textContent !== '00:00'")
            assert page.js_errors == [], page.js_errors
