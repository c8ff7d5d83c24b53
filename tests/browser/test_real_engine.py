"""Console and kiosk with the real rules engine behind the hub (no device): the goalkeeper's
secret choice from a second device (004 Pênaltis), and a pending confirmation answered from
the console (000 Art. 12 §1)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from rules_table import RulesTable, kicked_off, rules_served

from futmesa_testkit.liveserver import TOKEN, LiveServer

pytestmark = pytest.mark.browser


@pytest.fixture
def rules_server() -> Iterator[tuple[LiveServer, RulesTable]]:
    with rules_served(RulesTable, "mesa-posta") as served:
        yield served


def test_keeper_choice_stays_secret_until_the_kick(
    rules_server: tuple[LiveServer, RulesTable], browser: Any, output_dir: Path
) -> None:
    live, table = rules_server
    # a level match to the end of the second half: mesa-posta goes to penalties
    for kind, source in (("set_up", "referee"), ("start_period", "referee"),
                         ("clock_started", "device"), ("period_over", "device"),
                         ("start_period", "referee"), ("clock_started", "device"),
                         ("period_over", "device")):
        live.call(table.apply, kind, {"kickoff": "A"} if kind == "set_up" else {}, source, "t")
    assert table.state.to_dict()["phase"] == "shootout"

    kiosk = browser.new_page()
    keeper = browser.new_context().new_page()  # the second device
    console = browser.new_page()
    try:
        kiosk.goto(live.url + "/")
        kiosk.wait_for_selector("#shootout:not(.hidden)")
        keeper.goto(live.url + f"/console/keeper?token={TOKEN}")
        keeper.click("[data-side=B]")
        keeper.click("[data-choice=left]")
        keeper.wait_for_function(
            "document.getElementById('out').textContent === '✓ escolha registrada (oculta)'")

        # nobody can read it: not the kiosk's state, not /api/state, not the public log
        kiosk.wait_for_function("window.futmesaKiosk.state.match.shootout"
                                ".keeper_choice_recorded === true")
        assert "left" not in json.dumps(kiosk.evaluate("window.futmesaKiosk.state"))
        assert "left" not in httpx.get(live.url + "/api/state").text
        logged = httpx.get(live.url + "/api/log").json()["entries"]
        assert logged[-1]["kind"] == "keeper_choice"
        assert logged[-1]["data"] == {"side": "B", "choice": "secreta"}

        # the kick, from the console: A's disc 7 kicks, and misses
        console.goto(live.url + f"/console?token={TOKEN}")
        console.wait_for_selector("#shootout-box button[data-act=kick]")
        # the header says the shoot-out as the TV does (issue 45 walk, H6: "2º tempo · 02:02")
        console.wait_for_function(
            "document.getElementById('c-period').textContent === 'Pênaltis'", timeout=5000)
        assert kiosk.text_content("#period") == "Pênaltis"
        console.click("#side-A")
        console.click("[data-key='7']")
        console.click("button[data-act=kick]")
        console.wait_for_function(
            "document.getElementById('result').textContent.startsWith('✓ cobrança')")
        console.click("button[data-act=kick-miss]")
        console.wait_for_function(
            "document.getElementById('result').textContent.startsWith('✓ pênalti: perdido')")
        kiosk.wait_for_function("document.getElementById('so-A').textContent.startsWith('✕')")
        kicks = kiosk.evaluate("window.futmesaKiosk.state.match.shootout.kicks")
        assert kicks[0]["keeper_choice"] == "left"  # revealed with the kick
        kiosk.screenshot(path=str(output_dir / "kiosk-shootout.png"))
    finally:
        kiosk.close()
        keeper.context.close()
        console.close()


def test_pending_goal_confirmed_from_the_console(browser: Any) -> None:
    with rules_served(RulesTable, "cbfm-1toque") as (live, table):
        kicked_off(live, table, "t")
        ends = table.state.to_dict()["ends"]
        # A's kick-off taken (a shot from it is none, 000 Art. 12 §5) and a lance after it
        # (straight from the kick-off no shot is offered: walk52a M3), then the ball crosses
        # the line B defends with no shot asked: the rules ask the referee
        live.call(table.apply, "touch", {"side": "A", "disc": 6}, "referee", "t")
        live.call(table.apply, "touch", {"side": "A", "disc": 7}, "referee", "t")
        live.call(table.apply, "goal_line", {"goal": ends["B"]}, "device", "SIM")
        kiosk = browser.new_page()
        console = browser.new_page()
        try:
            kiosk.goto(live.url + "/")
            kiosk.wait_for_function("document.getElementById('status').textContent"
                                    ".includes('a confirmar')")
            console.goto(live.url + f"/console?token={TOKEN}")
            console.wait_for_selector("#pending button[data-choice=shot_asked]")
            question = console.text_content("#pending .question")
            assert "sem chute pedido" in question
            # the question names the answers its buttons offer, in their words and order,
            # and no other (walk45h-b B1: "gol contra" said, no button for it)
            buttons = [b.strip().removesuffix(" sugerido") for b in
                       console.locator("#pending button[data-choice]").all_text_contents()]
            assert question.endswith(": " + ", ".join(buttons[:-1]) + f" ou {buttons[-1]}?"), (
                question, buttons)
            suggested = console.text_content("#pending button[data-choice=no_goal]")
            assert suggested == "sem gol sugerido", suggested
            console.click("#pending button[data-choice=shot_asked]")
            kiosk.wait_for_function("document.getElementById('score-A').textContent === '1'")
            # the answer's own line, never the table's news of the goal it made (walk #45g G9)
            console.wait_for_function("document.getElementById('c-score').textContent"
                                      " === '1 × 0' && Referee.queued().length === 0")
            assert (console.text_content("#result") or "").startswith(
                "✓ confirmado: chute pedido"), console.text_content("#result")
            # 000 does not say who kicks off after a goal: the referee is asked, B proposed
            console.wait_for_selector("#pending button[data-choice=B]")
            assert "Quem dá a saída depois do gol" in console.text_content("#pending li")
            assert console.text_content("#pending button[data-choice=B]").endswith(" sugerido")
            console.click("#pending button[data-choice=B]")
            console.wait_for_function("document.getElementById('pending').textContent"
                                      ".includes('nada pendente')")
        finally:
            kiosk.close()
            console.close()
