"""Issue 21 against a real mosquitto and a real ``futmesa desk`` process: a table's own
credentials, publishing on its own result topic, cannot overwrite another table's result,
finish a match it was not given, disqualify a team by a forged forfeit, put impossible goals
into the standings or stop the desk (a ``competition_match`` of 2**63 killed its MQTT thread);
every refusal is on the desk's screen with why; the desk records the next real result; a
lost broker shows "sem conexão" within seconds and the desk comes back by itself."""

from __future__ import annotations

import json
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import paho.mqtt.client as mqtt
import pytest

from futmesa.venue import mqtt as vm
from futmesa.venue.broker import Mosquitto, free_port
from futmesa_testkit.venue import FUTMESA, wait_for

TEAMS = "name,color\nAlfa,#ff0000\nBeta,#00ff00\nGama,#0000ff\nDelta,#ffff00\n"
SETTINGS = {"format": "league", "tables": 2, "ruleset": "pastilha-8x2"}


class FakeTable:
    """A table as the desk sees it on the broker: its status, its assignment, its results."""

    def __init__(self, broker: Mosquitto, table: str, online: bool = True) -> None:
        self.table = table
        self.assigned: dict[str, Any] = {}
        self.acked: dict[str, str] = {}
        self.up = threading.Event()
        self.c = vm.client(f"table-{table}", table, broker.credentials["tables"][table])
        self.c.on_connect = self._on_connect
        self.c.on_message = self._on_message
        self.online = online
        self.c.connect("127.0.0.1", broker.port, keepalive=5)
        self.c.loop_start()
        assert self.up.wait(10)

    def _on_connect(self, c: mqtt.Client, u: Any, f: Any, rc: Any, p: Any = None) -> None:
        c.subscribe([(vm.t_assign(self.table), 1), (vm.t_ack(self.table), 1)])
        if self.online:
            c.publish(vm.t_status(self.table), b"online", qos=1, retain=True)
        self.up.set()

    def _on_message(self, c: mqtt.Client, u: Any, msg: mqtt.MQTTMessage) -> None:
        body = json.loads(msg.payload or b"{}")
        if msg.topic == vm.t_assign(self.table):
            self.assigned = body
        else:
            self.acked = body.get("acked", {})

    def send(self, payload: bytes | dict[str, Any]) -> None:
        raw = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
        self.c.publish(vm.t_result(self.table), raw, qos=1).wait_for_publish(5)

    def result(self, n: int, cm: Any, a: Any, b: Any, **kw: Any) -> dict[str, Any]:
        winner = None if a == b else ("A" if a > b else "B")
        body = {"uid": f"{self.table}:{n}", "table_id": self.table, "match_id": n,
                "competition_match": cm, "ruleset": "pastilha-8x2",
                "teams": {"A": "x", "B": "y"}, "score_a": a, "score_b": b,
                "winner": winner, "reason": "time", "rule": "", "detail": {}}
        body.update(kw)
        body["digest"] = f"d{n}-{a}-{b}-{len(json.dumps(kw))}"
        return body

    def stop(self) -> None:
        self.c.loop_stop()
        self.c.disconnect()


class DeskProcess:
    def __init__(self, folder: Path, broker: Mosquitto, db: Path | None = None) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = folder / "desk.log"
        self.proc = subprocess.Popen(
            [FUTMESA, "desk", "--db", str(db or folder / "desk.sqlite"), "--broker", broker.url,
             "--credentials", str(folder / "broker" / "credentials" / "desk.json"),
             "--http-host", "127.0.0.1", "--http-port", str(self.port)],
            stdout=self.log.open("a"), stderr=subprocess.STDOUT, text=True, process_group=0)

    def venue(self) -> dict[str, Any]:
        return dict(httpx.get(f"{self.url}/api/venue", timeout=5).json())

    def competition(self) -> dict[str, Any]:
        return dict(httpx.get(f"{self.url}/api/competition", timeout=5).json())

    def match(self, cm: int) -> dict[str, Any]:
        return next(m for m in self.competition()["matches"] if m["id"] == cm)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(timeout=20)


@pytest.fixture
def day(tmp_path: Path) -> Iterator[tuple[Mosquitto, DeskProcess]]:
    broker = Mosquitto(tmp_path / "broker", ["mesa-1", "mesa-2", "mesa-x"])
    broker.start()
    (tmp_path / "teams.csv").write_text(TEAMS)
    (tmp_path / "settings.json").write_text(json.dumps(SETTINGS))
    subprocess.run([FUTMESA, "competition", "new", "--db", str(tmp_path / "desk.sqlite"),
                    "--teams", str(tmp_path / "teams.csv"), "--settings",
                    str(tmp_path / "settings.json")], check=True, capture_output=True,
                   timeout=60)
    desk = DeskProcess(tmp_path, broker)
    try:
        wait_for(lambda: desk.venue()["connected"], 30, "the desk to connect")
        yield broker, desk
    finally:
        desk.stop()
        broker.stop()
        log = desk.log.read_text()
        assert "Traceback" not in log, log


def test_a_rogue_table_writes_no_result_and_the_desk_goes_on(day: Any) -> None:
    broker, desk = day
    mesa1, mesa2 = FakeTable(broker, "mesa-1"), FakeTable(broker, "mesa-2")
    rogue = FakeTable(broker, "mesa-x", online=False)  # never given a match
    wait_for(lambda: mesa1.assigned.get("competition_match")
             and mesa2.assigned.get("competition_match"), 20, "both tables to get a match")
    m1, m2 = mesa1.assigned["competition_match"], mesa2.assigned["competition_match"]
    # mesa-1 plays its match: 0 x 0, stored and acknowledged
    mesa1.send(mesa1.result(1, m1, 0, 0))
    wait_for(lambda: mesa1.acked.get("mesa-1:1"), 20, "the desk to store mesa-1's result")
    before = desk.competition()
    scheduled = next(m["id"] for m in before["matches"] if m["status"] == "a jogar"
                     or m["status"] == "scheduled")

    attacks = [
        # (who, message, what the desk's screen must say)
        (mesa2, mesa2.result(7, m1, 0, 7), f"a partida {m1} foi dada à mesa mesa-1"),
        (rogue, rogue.result(1, m1, 0, 7), f"a partida {m1} foi dada à mesa mesa-1"),
        (mesa2, mesa2.result(8, scheduled, 5, 0), f"a partida {scheduled} ainda não foi dada"),
        (rogue, rogue.result(2, m2, 2, 0, reason="forfeit", rule="003 Art. 85",
                             winner="A", detail={"loser": "B"}), f"a partida {m2} foi dada"),
        (mesa2, mesa2.result(9, m2, -5, 10**12), "placar impossível"),
        (mesa2, mesa2.result(10, m2, 10**12, 0), "placar impossível"),
        (mesa2, mesa2.result(11, 2**63, 1, 0), "número de partida impossível"),
        (mesa2, mesa2.result(12, m2, True, 0), "placar impossível"),
        (mesa2, mesa2.result(13, m2, 3, 0, winner="B"), "resultado incoerente"),
        (mesa2, b"\xff\xfe not json", "ilegível"),
        (mesa2, b"[1, 2, 3]", "ilegível"),
        (mesa2, b"[" * 100000, "ilegível"),
        (mesa2, {"uid": "mesa-1:1", "digest": "x"}, "não é de uma partida desta mesa"),
    ]
    for who, message, _ in attacks:
        who.send(message)
    # the desk is still there: mesa-2's real result of its own match is recorded
    mesa2.send(mesa2.result(3, m2, 2, 1))
    wait_for(lambda: mesa2.acked.get("mesa-2:3"), 30,
             "the desk to store mesa-2's real result after the attacks")
    venue = desk.venue()
    assert venue["connected"]
    reasons = [f"{r['table_id']}: {r['reason']}" for r in venue["refused"]]
    wait_for(lambda: len(desk.venue()["refused"]) >= len({a[2] for a in attacks}) - 2, 10,
             "every refusal on the desk's screen")
    reasons = [f"{r['table_id']}: {r['reason']}" for r in desk.venue()["refused"]]
    for who, _, why in attacks:
        assert any(r.startswith(who.table) and why in r for r in reasons), (why, reasons)
    assert desk.venue()["notice"].startswith("recusado da Mesa")
    after = desk.competition()
    by_id = {m["id"]: m for m in after["matches"]}
    assert by_id[m1]["score"] == "0 × 0" and by_id[m1]["status"] == "finished"
    assert by_id[m2]["score"] == "2 × 1"
    assert by_id[scheduled]["score"] == "×"  # no result: it was not played
    assert after["sanctions"] == []
    rows = [r for g in after["standings"].values() for r in g]
    assert all(0 <= r["goals_for"] <= 99 and 0 <= r["goals_against"] <= 99 for r in rows)
    assert sum(r["goals_for"] for r in rows) == 3
    print(f"\n{len(attacks)} forged messages, 0 accepted; {len(reasons)} refusals shown")
    for t in (mesa1, mesa2, rogue):
        t.stop()


def test_a_reported_disqualification_waits_for_the_organiser(day: Any, tmp_path: Path) -> None:
    broker, desk = day
    mesa1 = FakeTable(broker, "mesa-1")
    wait_for(lambda: mesa1.assigned.get("competition_match"), 20, "a match for mesa-1")
    cm = mesa1.assigned["competition_match"]
    mesa1.send(mesa1.result(1, cm, 2, 0, reason="forfeit", rule="003 Art. 85", winner="A",
                            detail={"loser": "B"}))
    wait_for(lambda: mesa1.acked.get("mesa-1:1"), 20, "the desk to store the result")
    wait_for(lambda: desk.venue()["reports"], 10, "the report on the desk's screen")
    assert "1 relato de desclassificação a confirmar" in desk.venue()["notice"]
    assert desk.competition()["sanctions"] == []  # nothing applied by the table alone
    db = str(tmp_path / "desk.sqlite")
    listed = subprocess.run([FUTMESA, "competition", "reports", "--db", db],
                            capture_output=True, text=True, timeout=60).stdout
    assert "A CONFIRMAR" in listed and f"partida {cm}" in listed
    rid = listed.split()[0]
    out = subprocess.run([FUTMESA, "competition", "reports", "--confirm", rid, "--db", db],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and "confirmado" in out.stdout
    sanctions = desk.competition()["sanctions"]
    # the desk's pages cite the rule in words (matchbook/citations.py)
    assert [(s["kind"], s["rule"]) for s in sanctions] == [("competition_points",
                                                           "Pastilha 8x2, Art. 85")]
    again = subprocess.run([FUTMESA, "competition", "reports", "--confirm", rid, "--db", db],
                           capture_output=True, text=True, timeout=60)
    assert again.returncode == 1 and "já foi decidido" in again.stderr
    assert "Traceback" not in again.stderr
    mesa1.stop()


def test_a_lost_broker_shows_on_the_board_and_the_desk_comes_back(day: Any) -> None:
    broker, desk = day
    t0 = time.monotonic()
    broker.kill()
    wait_for(lambda: not desk.venue()["connected"], 5, "the desk to show the lost broker")
    lost_after = time.monotonic() - t0
    broker.start()
    wait_for(lambda: desk.venue()["connected"], 30, "the desk to reconnect")
    back_after = time.monotonic() - t0 - lost_after
    # a hung broker (stopped, its connections open): noticed by the keepalive
    broker.proc.send_signal(19)  # SIGSTOP
    t1 = time.monotonic()
    try:
        wait_for(lambda: not desk.venue()["connected"], 5, "the desk to notice a hung broker")
        hung_after = time.monotonic() - t1
    finally:
        broker.proc.send_signal(18)  # SIGCONT
    wait_for(lambda: desk.venue()["connected"], 30, "the desk to reconnect after the hang")
    print(f"\nbroker killed: 'sem conexão' after {lost_after:.2f} s, back after "
          f"{back_after:.2f} s; broker hung: noticed after {hung_after:.2f} s")
    # and it still records results
    mesa1 = FakeTable(broker, "mesa-1")
    wait_for(lambda: mesa1.assigned.get("competition_match"), 20, "a match for mesa-1")
    mesa1.send(mesa1.result(1, mesa1.assigned["competition_match"], 1, 0))
    wait_for(lambda: mesa1.acked.get("mesa-1:1"), 20, "the result after the reconnection")
    mesa1.stop()
