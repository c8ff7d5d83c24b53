"""A table agent cannot fail silently either (issue 21, item 2), on a real mosquitto: malformed
assignments and acknowledgements are dropped and logged while the agent goes on; an error that
escapes a handler does not end the MQTT loop (it starts again and reconnects); a lost broker
is noticed and the agent comes back online by itself."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from futmesa.hub import StateHub
from futmesa.store import EventLog
from futmesa.venue import mqtt as vm
from futmesa.venue.broker import Mosquitto
from futmesa.venue.mqtt import Broker
from futmesa.venue.outbox import Outbox
from futmesa.venue.table_agent import TableAgent
from futmesa_testkit.venue import wait_for


@pytest.fixture
def event_loop_thread() -> Iterator[asyncio.AbstractEventLoop]:
    loop = asyncio.new_event_loop()
    t = threading.Thread(target=loop.run_forever, daemon=True)
    t.start()
    yield loop
    loop.call_soon_threadsafe(loop.stop)
    t.join(5)


class Observer:
    """The read-only observer: what the broker holds for a topic."""

    def __init__(self, broker: Mosquitto, topic: str) -> None:
        self.got: list[bytes] = []
        self.c = vm.client("obs", vm.OBSERVER_USER, broker.credentials["observer"])
        self.c.on_connect = lambda c, u, f, rc, p=None: c.subscribe(topic, 1)
        self.c.on_message = lambda c, u, m: self.got.append(m.payload)
        self.c.connect("127.0.0.1", broker.port)
        self.c.loop_start()

    def stop(self) -> None:
        self.c.loop_stop()
        self.c.disconnect()


def test_a_table_agent_drops_bad_messages_and_comes_back(
        tmp_path: Path, event_loop_thread: asyncio.AbstractEventLoop) -> None:
    broker = Mosquitto(tmp_path / "broker", ["mesa-1"])
    broker.start()
    log = EventLog(tmp_path / "mesa.sqlite")
    outbox = Outbox(log)
    agent = TableAgent("mesa-1", broker.credentials["tables"]["mesa-1"],
                       Broker("127.0.0.1", broker.port), outbox, StateHub(),
                       event_loop_thread, SimpleNamespace(match=None))
    desk = vm.client("desk", vm.DESK_USER, broker.credentials["desk"])
    status = Observer(broker, vm.t_status("mesa-1"))
    try:
        agent.start()
        wait_for(lambda: agent.connected, 10, "the agent to connect")
        desk.connect("127.0.0.1", broker.port)
        desk.loop_start()
        for topic, payload in [
            (vm.t_ack("mesa-1"), b"[1, 2]"), (vm.t_ack("mesa-1"), b'{"acked": [1, 2]}'),
            (vm.t_ack("mesa-1"), b"\xff\xfe"), (vm.t_ack("mesa-1"), b"[" * 50000),
            (vm.t_assign("mesa-1"), b'"text"'), (vm.t_assign("mesa-1"), b"7"),
        ]:
            desk.publish(topic, payload, qos=1).wait_for_publish(5)
        good = {"competition_match": 3, "label": "Rodada 1", "teams": {
            "A": {"name": "Alfa", "color": "#ff0000"}, "B": {"name": "Beta", "color": "#00ff00"}},
            "ruleset": "pastilha-8x2", "settings": {}}
        desk.publish(vm.t_assign("mesa-1"), vm.dumps(good), qos=1).wait_for_publish(5)
        wait_for(lambda: agent.assignment == good, 10, "the good assignment after the bad ones")
        assert agent.connected and agent.loop.alive and agent.loop.restarts == 0

        # a lost broker is noticed; the agent comes back and says "online" again
        broker.kill()
        t0 = time.monotonic()
        wait_for(lambda: not agent.connected, 5, "the agent to notice the lost broker")
        noticed = time.monotonic() - t0
        status.got.clear()
        broker.start()
        wait_for(lambda: agent.connected, 30, "the agent to reconnect")
        status.stop()
        status = Observer(broker, vm.t_status("mesa-1"))
        wait_for(lambda: b"online" in status.got, 10, "the table to be online again")
        print(f"\ntable agent: broker loss noticed after {noticed:.2f} s, back online")
    finally:
        agent.stop()
        desk.loop_stop()
        status.stop()
        outbox.close()
        log.close()
        broker.stop()


def test_an_error_escaping_a_handler_does_not_end_the_loop(tmp_path: Path) -> None:
    """paho re-raises a handler's exception out of its network loop (the desk's 2**63
    killed it so); under Supervised the loop starts again and the client reconnects."""
    with Mosquitto(tmp_path / "broker", ["mesa-1"]) as broker:
        got: list[bytes] = []
        connects: list[Any] = []

        def handler(c: Any, u: Any, msg: Any) -> None:
            if msg.payload == b"boom":
                raise OverflowError("Python int too large to convert to SQLite INTEGER")
            got.append(msg.payload)

        c = vm.client("sup", vm.DESK_USER, broker.credentials["desk"])
        c.on_connect = lambda cl, u, f, rc, p=None: (connects.append(rc),
                                                     cl.subscribe(vm.t_result("mesa-1"), 1))
        c.on_message = handler  # deliberately not guarded
        downs: list[float] = []
        sup = vm.Supervised(c, "test-sup", lambda: downs.append(time.monotonic()))
        sup.start(Broker("127.0.0.1", broker.port))
        table = vm.client("t", "mesa-1", broker.credentials["tables"]["mesa-1"])
        table.connect("127.0.0.1", broker.port)
        table.loop_start()
        try:
            wait_for(lambda: connects, 10, "the supervised client to connect")
            table.publish(vm.t_result("mesa-1"), b"boom", qos=1).wait_for_publish(5)
            # restarts counts up before the loop marks the connection down: wait for both
            wait_for(lambda: sup.restarts >= 1 and downs, 10,
                     "the loop to fail, say it is down and start again")
            assert downs and sup.alive

            def after() -> bool:
                table.publish(vm.t_result("mesa-1"), b"after", qos=0)
                return b"after" in got

            wait_for(after, 20, "a message after the failure", every=0.5)
        finally:
            table.loop_stop()
            sup.stop()
