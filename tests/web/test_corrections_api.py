"""Void-of-void and amend-after-void sent through POST /api/referee to a real daemon and store.

The súmula served at /report/{id}.json and the console's /api/log must count the goal the
score counts (issue 11; 000 Art. 12 §1 for the goal).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

import futmesa_wire as W

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "record"))
from signed_table import SignedTable  # noqa: E402

from futmesa.web.public import stream_view  # noqa: E402
from futmesa_testkit.liveserver import TOKEN  # noqa: E402


class Table(SignedTable):
    """A daemon over a real SQLite log (no serial port), served by the real web app (the record
    tests' table): every referee action must be applied, its answer read."""

    def device(self, kind: int, a: int = 0) -> None:  # type: ignore[override]
        """A device event of the first period, a second after the last, held 40 ms."""
        self.seq += 1
        assert self.daemon.info is not None
        self.daemon.on_event(self.daemon.info, 1, self.seq, 1000 * self.seq,
                             (kind, a, 0, 1, 1000 * self.seq, 40))

    def referee(self, kind: str, data: dict[str, Any]) -> dict[str, Any]:  # type: ignore[override]
        body: dict[str, Any] = super().referee(kind, data).json()
        assert body["ok"], body
        return body

    def newest_entry(self) -> int:
        assert self.daemon.match is not None
        return self.store.entries(self.daemon.match["id"])[-1].id

    def goal_for_a(self) -> int:
        """Alvorada's kick-off (no shot from it, 000 Art. 12 §5), its shot and the goal."""
        self.referee("touch", {"side": "A", "disc": 8})
        self.referee("shot_asked", {"side": "A", "disc": 7})
        self.device(W.EV_GOAL_LINE, a=1)  # side A attacks goal line 1 at kick-off
        return self.newest_entry()


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    t = Table(tmp_path)
    t.start()
    t.referee("set_up", {"kickoff": "A", "teams": {"A": {"name": "Alvorada"},
                                                   "B": {"name": "Botafogo"}}})
    t.referee("start_period", {})
    t.device(W.EV_PERIOD_STARTED)
    t.device(W.EV_CLOCK_STARTED)
    try:
        yield t
    finally:
        t.stop()


def sumula(table: Table) -> dict[str, Any]:
    assert table.daemon.match is not None
    match_id = table.daemon.match["id"]
    return httpx.get(f"{table.live.url}/report/{match_id}.json", timeout=20).json()


def console_log(table: Table) -> dict[int, dict[str, Any]]:
    assert table.daemon.match is not None
    body = httpx.get(f"{table.live.url}/api/log?match={table.daemon.match['id']}",
                     timeout=20).json()
    return {e["id"]: e for e in body["entries"]}


def test_void_of_a_void_through_the_console_keeps_the_goal(table: Table) -> None:
    goal = table.goal_for_a()
    assert table.daemon.state_json()["score"] == {"A": 1, "B": 0}
    table.referee("void", {"target": goal, "reason": "trave"})
    void = table.newest_entry()
    assert table.daemon.state_json()["score"] == {"A": 0, "B": 0}
    table.referee("void", {"target": void, "reason": "foi gol"})
    assert table.daemon.state_json()["score"] == {"A": 1, "B": 0}
    report = sumula(table)
    assert report["summary"]["score"] == {"A": 1, "B": 0}
    assert [r["team"] for r in report["tables"]["goals"]["rows"]] == ["Alvorada"]
    log_rows = report["tables"]["log"]["rows"]
    struck = {log_rows[i]["number"] for i in report["tables"]["log"]["struck"]}
    assert str(goal) not in struck and str(void) in struck
    shown = console_log(table)
    assert shown[goal]["status"]["state"] == "effective" and shown[goal]["correctable"]
    assert shown[void]["status"]["state"] == "voided"


def test_amend_after_a_void_through_the_console_counts_the_goal(table: Table) -> None:
    goal = table.goal_for_a()
    table.referee("void", {"target": goal})
    table.referee("amend", {"target": goal, "data": {"goal": 1, "held_ms": 40},
                            "reason": "entrou"})
    assert table.daemon.state_json()["score"] == {"A": 1, "B": 0}
    report = sumula(table)
    assert len(report["tables"]["goals"]["rows"]) == 1
    log_rows = report["tables"]["log"]["rows"]
    struck = {log_rows[i]["number"] for i in report["tables"]["log"]["struck"]}
    assert str(goal) not in struck
    shown = console_log(table)
    assert shown[goal]["status"]["state"] == "amended"
    assert shown[goal]["text"] == "Sensor: bola na linha do gol de Botafogo"
    assert "Gol!" in " ".join(shown[goal]["meaning"])


def test_the_console_log_speaks_the_kiosk_language(table: Table) -> None:
    goal = table.goal_for_a()
    assert console_log(table)[goal]["origin"] == "Mesa"
    r = httpx.post(table.live.url + "/api/display", json={"lang": "en"},
                   headers={"Authorization": f"Bearer {TOKEN}"})
    assert r.status_code == 200
    shown = console_log(table)
    assert shown[goal]["text"] == "Sensor: ball on Botafogo's goal line"
    assert shown[goal]["origin"] == "Table"
    assert shown[goal]["meaning"][0].startswith("Goal! ")
    # a goal's row corrects its disc too (walk45h-b B5)
    assert [f["label"] for f in shown[goal]["fields"]] == ["Goal line", "Disc"]


def test_a_void_without_an_author_is_said_by_the_referee_in_portuguese(table: Table) -> None:
    """Issue 45 #3: a void sent through the HTTP API without an author read "Registro nº 6
    anulado por referee" (the rules' words in the answer) and "Anulado pelo registro nº 7
    (referee)" (its row's status in the Registro and the súmula): an internal word. A console
    that names nobody writes as the referee, said in Portuguese: "pelo árbitro"."""
    goal = table.goal_for_a()
    body = table.referee("void", {"target": goal, "reason": "trave"})
    said = [e["pt"] for e in body["result"]["effects"] if e.get("code") == "correction"]
    assert said == [f"Registro nº {goal} anulado pelo árbitro"], body
    void = table.newest_entry()
    shown = console_log(table)[goal]["status_text"]
    logged = next(r for r in sumula(table)["tables"]["log"]["rows"] if r["number"] == str(goal))
    assert shown == logged["status"] == f"Anulado pelo registro nº {void}", (shown, logged)


def test_a_correction_offers_only_the_documents_foul_kinds_and_restarts(table: Table) -> None:
    """Issue 45 (walk46b M1, b81d35e, 7ea40a9): the sheet offers only the foul kinds and
    restarts of the ruleset's document (000 Art. 17; Art. 9–26 here); the Registro's
    correction form offered every kind of every ruleset, "mão" and "lateral cavada" in the
    CBFM among them, which the engine then refused. It offers what the engine publishes."""
    table.referee("foul", {"side": "A", "disc": 4, "type": "falta", "where": "opponent_half"})
    foul = table.newest_entry()
    shown = console_log(table)
    (kinds,) = [f for f in shown[foul]["fields"] if f["key"] == "type"]
    offered = [o["value"] for o in kinds["options"]]
    assert table.daemon.state is not None
    published = table.daemon.state.m["possession"]
    assert sorted(offered) == sorted(published["foul_kinds"]), offered
    assert "mao" not in offered and "falta" in offered
    restart_kinds = published["restart_kinds"]
    assert "lateral_cavada" not in restart_kinds  # the CBFM has no 'lateral cavada'
    for entry in shown.values():
        for field in entry["fields"]:
            if field["key"] == "kind" and entry["kind"] == "restart":
                values = {o["value"] for o in field["options"]}
                assert values <= set(restart_kinds) | {field["value"]}, values


def test_an_answer_a_correction_made_moot_never_reaches_the_tv(table: Table) -> None:
    """Walk52b M1: a goal voided took its kick-off question with it, and its answer («saída
    para …», logged) was refused on the replay: the TV's announcement bar showed the console's
    «Essa pergunta não está mais pendente: já foi respondida ou retirada» and kept it up. A
    refusal answers one input on the console; no state a screen reads (/api/state, the /ws
    stream) carries it — the TV says the correction (000 Art. 12 §1: the goal that is no goal)."""
    goal = table.goal_for_a()
    ask = next(p for p in table.daemon.state_json()["match"]["pending"]
               if p["kind"] == "kickoff_side")
    table.referee("confirm", {"target": ask["id"], "choice": ask["options"][0]})
    # the line corrected to Alvorada's own: its shot ended in its own goal, no goal (the
    # walker's correction of a disc, walk52b H1)
    table.referee("amend", {"target": goal, "data": {"goal": 0, "held_ms": 40},
                            "reason": "linha"})
    assert table.daemon.state_json()["score"] == {"A": 0, "B": 0}
    assert table.daemon.state is not None  # the rules did refuse the answer on the replay
    assert any(a.get("code") == "refused" for a in table.daemon.state.m["announcements"])
    served = httpx.get(f"{table.live.url}/api/state", timeout=20).json()
    for state in (served, stream_view(served), table.daemon.state_json()):
        said = state["match"]["announcements"]
        assert said, state
        assert not [a for a in said if a.get("code") == "refused"], said
        assert "não está mais pendente" not in json.dumps(said, ensure_ascii=False)
    assert served["correction"]["pt"].startswith("Corrige «Sensor"), served["correction"]
