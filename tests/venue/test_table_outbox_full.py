"""Issue 37, a table's side: its outbox of results on a real small filesystem that fills just
after a match ends, the table's real venue agent on a real mosquitto, a desk listening.

Before: ``Outbox.scan`` ran an unconditional ROLLBACK after a COMMIT that SQLite had already
rolled back ("cannot rollback - no transaction is active": 118 tracebacks, the real error
hidden), nothing told the kiosk or the console, and while new results could not be queued
the ones already queued were not resent either. Now the fault is in the table's health (so
the kiosk, the console and the venue board show it), logged once, the queued results still
go out, and the new result is queued and sent once space is freed.
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import paho.mqtt.client as mqtt
import pytest

from futmesa.health import Health
from futmesa.hub import StateHub
from futmesa.store import EventLog
from futmesa.venue import mqtt as vm
from futmesa.venue.broker import Mosquitto
from futmesa.venue.outbox import Outbox
from futmesa.venue.table_agent import TableAgent
from futmesa_testkit.smalldisk import SmallDisk
from futmesa_testkit.venue import wait_for

from .test_results_to_standings import play

DQ = [("discipline", {"side": "B", "type": "disqualify"})]  # a match that ends at once


class DeskEar:
    """What the desk hears on the broker: every result message, in order."""

    def __init__(self, broker: Mosquitto) -> None:
        self.results: list[dict[str, Any]] = []
        self.c = vm.client("futmesa-desk", vm.DESK_USER, broker.credentials["desk"])
        self.c.on_connect = lambda c, *a: c.subscribe(f"{vm.PREFIX}/table/+/result", 1)
        self.c.on_message = self._on_message
        self.c.connect("127.0.0.1", broker.port, keepalive=5)
        self.c.loop_start()

    def _on_message(self, c: mqtt.Client, u: Any, msg: mqtt.MQTTMessage) -> None:
        self.results.append(json.loads(msg.payload))

    def uids(self) -> list[str]:
        return [r["uid"] for r in self.results]

    def stop(self) -> None:
        self.c.loop_stop()
        self.c.disconnect()


@pytest.fixture
def table(tmp_path: Path) -> Iterator[tuple[TableAgent, EventLog, SmallDisk, DeskEar]]:
    disk = SmallDisk(tmp_path / "table-disk")
    broker = Mosquitto(tmp_path / "broker", ["mesa-1"])
    broker.start()
    log = EventLog(disk.path / "mesa.sqlite")
    outbox = Outbox(log)
    loop = asyncio.new_event_loop()
    runner = threading.Thread(target=loop.run_forever, daemon=True)
    runner.start()
    daemon = SimpleNamespace(health=Health(), match=None)
    agent = TableAgent("mesa-1", broker.credentials["tables"]["mesa-1"], vm.Broker(
        "127.0.0.1", broker.port), outbox, StateHub(), loop, daemon)
    ear = DeskEar(broker)
    agent.start()
    try:
        wait_for(lambda: agent.connected, 20, "the table to connect to the broker")
        yield agent, log, disk, ear
    finally:
        agent.stop()
        ear.stop()
        loop.call_soon_threadsafe(loop.stop)
        runner.join(5)
        outbox.close()
        log.close()
        broker.stop()
        disk.close()


def test_a_full_outbox_is_shown_and_queued_results_still_go_out(
        table: Any, caplog: pytest.LogCaptureFixture) -> None:
    agent, log, disk, ear = table
    caplog.set_level(logging.INFO)
    play(log, "mesa-1", 1, DQ)
    agent._resent = 0.0  # (the sweeper's resend period, not waited here)
    assert agent.send_results() == 1
    wait_for(lambda: ear.uids() == ["mesa-1:1"], 10, "the first result at the desk")

    play(log, "mesa-1", 2, DQ)  # the second match ends; then the disk fills
    disk.fill(log.path)
    agent._resent = 0.0
    sent = agent.send_results()
    health = agent.daemon.health.to_json()
    assert [f["code"] for f in health["faults"]] == ["outbox_full"], health
    assert "disco cheio" in health["faults"][0]["pt"] and "nada se perde" in \
        health["faults"][0]["pt"]
    assert sent == 1  # the result already queued (not acknowledged) still goes out
    wait_for(lambda: ear.uids().count("mesa-1:1") >= 2, 10, "the queued result sent again")
    for _ in range(3):  # the sweeper goes on trying: one log line, no traceback
        agent._resent = 0.0
        agent.send_results()
    assert "mesa-1:2" not in ear.uids()

    disk.free()
    agent._resent = 0.0
    assert agent.send_results() == 2  # both (the desk never acknowledged: a real one would)
    wait_for(lambda: "mesa-1:2" in ear.uids(), 10, "the second result once space is freed")
    assert agent.daemon.health.ok
    text = "\n".join(r.getMessage() for r in caplog.records)
    assert not any(r.exc_info for r in caplog.records), "no traceback"
    assert "cannot rollback" not in text
    assert sum("resultados para a mesa de controle sem gravação (disco cheio)" in r.getMessage()
               and r.levelno == logging.ERROR for r in caplog.records) == 1, text
