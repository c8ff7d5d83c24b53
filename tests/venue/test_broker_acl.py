"""The venue broker's access rules, on a real mosquitto: per-table passwords, a table writes
only its own topics, only the desk assigns."""

from __future__ import annotations

import threading
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest

from futmesa.venue import mqtt as vm
from futmesa.venue.broker import Mosquitto, write_config
from futmesa.venue.mqtt import VenueConfigError
from futmesa.venue.testing import wait_for


class Listener:
    def __init__(self, broker: Mosquitto, user: str, password: str, topic: str) -> None:
        self.got: list[tuple[str, bytes]] = []
        self.ready = threading.Event()
        self.c = vm.client(f"listen-{user}", user, password)
        self.c.on_connect = lambda c, u, f, rc, p=None: c.subscribe(topic, 1)
        self.c.on_subscribe = lambda *a: self.ready.set()
        self.c.on_message = lambda c, u, m: self.got.append((m.topic, m.payload))
        self.c.connect("127.0.0.1", broker.port)
        self.c.loop_start()
        assert self.ready.wait(10)

    def stop(self) -> None:
        self.c.loop_stop()
        self.c.disconnect()


def connect(broker: Mosquitto, user: str, password: str) -> tuple[mqtt.Client, list]:
    codes: list = []
    c = vm.client(f"c-{user}-{len(password)}", user, password)
    c.on_connect = lambda cl, u, f, rc, p=None: codes.append(rc)
    c.connect("127.0.0.1", broker.port)
    c.loop_start()
    wait_for(lambda: codes, 10, "the broker to answer")
    return c, codes


def test_tables_write_only_their_own_topics_and_only_the_desk_assigns(tmp_path: Path) -> None:
    with Mosquitto(tmp_path / "broker", ["mesa-1", "mesa-2"]) as broker:
        creds = broker.credentials
        desk = Listener(broker, "desk", creds["desk"], f"{vm.PREFIX}/#")
        mesa2 = Listener(broker, "mesa-2", creds["tables"]["mesa-2"],
                         vm.t_assign("mesa-2"))
        t1, codes = connect(broker, "mesa-1", creds["tables"]["mesa-1"])
        assert not codes[0].is_failure
        # allowed: its own state; refused (silently dropped): another table's topics and
        # an assignment, which only the desk may publish
        t1.publish(vm.t_state("mesa-2"), b"forged", qos=1).wait_for_publish(5)
        t1.publish(vm.t_assign("mesa-2"), b"forged", qos=1).wait_for_publish(5)
        t1.publish(vm.t_state("mesa-1"), b"mine", qos=1).wait_for_publish(5)
        wait_for(lambda: (vm.t_state("mesa-1"), b"mine") in desk.got, 10,
                 "the desk to hear table 1's own state")
        d, _ = connect(broker, "desk", creds["desk"])
        d.publish(vm.t_assign("mesa-2"), b"from the desk", qos=1).wait_for_publish(5)
        wait_for(lambda: mesa2.got, 10, "table 2 to get the desk's assignment")
        assert mesa2.got == [(vm.t_assign("mesa-2"), b"from the desk")]
        assert (vm.t_state("mesa-2"), b"forged") not in desk.got
        assert (vm.t_assign("mesa-2"), b"forged") not in desk.got
        # a wrong password, or another table's password, does not get in
        _, bad = connect(broker, "mesa-1", creds["tables"]["mesa-2"])
        assert bad[0].is_failure
        for c in (t1, d):
            c.loop_stop()
            c.disconnect()
        desk.stop()
        mesa2.stop()


def test_broker_config_refuses_bad_table_ids(tmp_path: Path) -> None:
    with pytest.raises(VenueConfigError, match="table id 'mesa 1'"):
        write_config(tmp_path, ["mesa 1"])
    with pytest.raises(VenueConfigError, match="desk's user name"):
        write_config(tmp_path, ["desk"])
    conf = write_config(tmp_path, ["mesa-1"], port=18830)
    text = conf.read_text()
    assert "allow_anonymous false" in text and "listener 18830 0.0.0.0" in text
    assert (tmp_path / "credentials" / "mesa-1.json").stat().st_mode & 0o077 == 0
