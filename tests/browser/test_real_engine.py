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

from futmesa.hub import RefusedError, StateHub
from futmesa.rules import Engine, Entry, load_ruleset
from futmesa_testkit.liveserver import TOKEN, LiveServer, make_state, serving

pytestmark = pytest.mark.browser


class RulesTable:
    """A real rules engine fed by the test, publishing like the daemon does."""

    def __init__(self, hub: StateHub, ruleset: str = "mesa-posta") -> None:
        self.hub = hub
        self.engine = Engine(load_ruleset(ruleset), {})
        self.state = self.engine.initial_state()
        self.entries: list[dict[str, Any]] = []
        hub.set_referee_handler("sim-1", self.handle)
        self.publish()

    def apply(self, kind: str, data: dict[str, Any], source: str, author: str) -> int:
        entry_id = len(self.entries) + 1
        period = self.state.to_dict().get("period", 1)
        entry = Entry(id=entry_id, kind=kind, data=data, source=source, period=period,
                      clock_ms=0)
        new, effects = self.engine.apply(self.state, entry)
        for effect in effects:
            if effect.kind == "announce" and effect.data.get("code") == "refused":
                raise RefusedError(effect.data["pt"])
        self.state = new
        self.effects = effects  # what the rules made of it (the daemon answers with them)
        self.entries.append({"id": entry_id, "kind": kind, "data": data, "source": source,
                             "period": period, "clock_ms": 0, "created_at": 0,
                             "author": author, "voided": False, "amended_by": None})
        self.publish()
        return entry_id

    def publish(self) -> None:
        m = self.state.to_dict()
        st = make_state(score=m["score"], teams=m["teams"], period=m["period"],
                        status=m["status"], finished=m["finished"])
        st["match"] = m
        self.published = st
        self.hub.publish("sim-1", st)

    async def handle(self, kind: str, data: dict[str, Any], author: str) -> dict[str, Any]:
        # answered as the daemon answers (table/referee.py): the entry and the new state
        entry_id = self.apply(kind, data, "referee", author)
        return {"entry_id": entry_id, "state": self.published}

    # HistoryProvider for /api/log
    def list_matches(self, limit: int | None = None,
                     before: int | None = None) -> list[dict[str, Any]]:
        return []

    def match_record(self, match_id: int) -> dict[str, Any]:
        return {"match": {"id": 1}, "entries": list(self.entries),
                "state": {"finished": self.state.to_dict()["finished"]}}


@pytest.fixture
def rules_server() -> Iterator[tuple[LiveServer, RulesTable]]:
    hub = StateHub()
    table = RulesTable(hub)
    with serving(hub, history=table) as server:
        yield server, table


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
    hub = StateHub()
    table = RulesTable(hub, "cbfm-1toque")
    with serving(hub, history=table) as live:
        for kind, source in (("set_up", "referee"), ("start_period", "referee"),
                             ("clock_started", "device")):
            live.call(table.apply, kind, {"kickoff": "A"} if kind == "set_up" else {}, source,
                      "t")
        ends = table.state.to_dict()["ends"]
        # the ball crosses the line B defends with no shot asked: the rules ask the referee
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
            buttons = [b.strip().lstrip("✓ ") for b in
                       console.locator("#pending button[data-choice]").all_text_contents()]
            assert question.endswith(": " + ", ".join(buttons[:-1]) + f" ou {buttons[-1]}?"), (
                question, buttons)
            assert console.text_content("#pending button[data-choice=no_goal]") == "✓ sem gol"
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
            assert console.text_content("#pending button[data-choice=B]").startswith("✓")
            console.click("#pending button[data-choice=B]")
            console.wait_for_function("document.getElementById('pending').textContent"
                                      ".includes('nada pendente')")
        finally:
            kiosk.close()
            console.close()
