"""The venue broker's access rules, on a real mosquitto: per-table passwords, a table writes
only its own topics, only the desk assigns, no one's credentials knock another client off
(issue 21: client-id takeover), TLS when a certificate is given, the interface the organiser
names, never root."""

from __future__ import annotations

import getpass
import subprocess
import threading
import time
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest

from futmesa.venue import mqtt as vm
from futmesa.venue.broker import (
    Mosquitto,
    broker_user,
    listen_address,
    open_temp_path,
    write_config,
)
from futmesa.venue.mqtt import Broker, VenueConfigError
from futmesa_testkit.venue import wait_for


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
        desk = Listener(broker, vm.OBSERVER_USER, creds["observer"], f"{vm.PREFIX}/#")
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
    open_temp_path(tmp_path / "x")
    with pytest.raises(VenueConfigError, match="id de mesa 'mesa 1'"):
        write_config(tmp_path, ["mesa 1"])
    for reserved in ("desk", "observer"):
        with pytest.raises(VenueConfigError, match="nome de usuário reservado"):
            write_config(tmp_path, [reserved])
    conf = write_config(tmp_path, ["mesa-1"], port=18830, host="0.0.0.0")
    text = conf.read_text()
    assert "allow_anonymous false" in text and "listener 18830 0.0.0.0" in text
    assert "use_username_as_clientid true" in text
    assert "user root" not in text
    assert (tmp_path / "credentials" / "mesa-1.json").stat().st_mode & 0o077 == 0
    with pytest.raises(VenueConfigError, match="interface de rede"):
        write_config(tmp_path, ["mesa-1"], host="nao-existe0")


def test_the_broker_listens_where_the_organiser_says_and_never_as_root(tmp_path: Path) -> None:
    assert listen_address("lo") == "127.0.0.1"  # an interface, by name
    assert listen_address("192.168.0.10") == "192.168.0.10"
    with pytest.raises(VenueConfigError, match="nem uma interface"):
        listen_address("eth-que-nao-existe")
    assert broker_user("ana") == "ana"
    try:
        import pwd

        pwd.getpwnam("mosquitto")
        assert broker_user("root") == "mosquitto"
    except KeyError:
        with pytest.raises(VenueConfigError, match="root"):
            broker_user("root")
    (tmp_path / "b").mkdir()
    open_temp_path(tmp_path / "b")  # as root, the broker's own user must reach the folder
    conf = write_config(tmp_path / "b", ["mesa-1"], host="lo").read_text()
    assert "listener 1883 127.0.0.1" in conf
    assert f"user {broker_user(getpass.getuser())}" in conf and "user root" not in conf


def _watch(broker: Mosquitto, client_id: str, user: str, password: str) -> tuple[mqtt.Client,
                                                                                  list[str]]:
    """A client that records its connects and disconnects."""
    events: list[str] = []
    c = vm.client(client_id, user, password)
    c.on_connect = lambda cl, u, f, rc, p=None: events.append(f"up {rc}")
    c.on_disconnect = lambda cl, u, f, rc, p=None: events.append(f"down {rc}")
    c.connect("127.0.0.1", broker.port, keepalive=5)
    c.loop_start()
    wait_for(lambda: events, 10, f"{client_id} to connect")
    return c, events


def test_one_tables_credentials_cannot_knock_anyone_off(tmp_path: Path) -> None:
    """Issue 21: a table's credentials with the client id "futmesa-desk" knocked the desk off
    the broker, with "table-<other>" another table. The broker now replaces every client id
    with the user name, so the rogue only ever replaces itself."""
    with Mosquitto(tmp_path / "broker", ["mesa-1", "mesa-2"]) as broker:
        creds = broker.credentials
        desk, desk_events = _watch(broker, "futmesa-desk", "desk", creds["desk"])
        mesa1, mesa1_events = _watch(broker, "table-mesa-1", "mesa-1",
                                     creds["tables"]["mesa-1"])
        attempts = 0
        for rogue_id in ("futmesa-desk", "table-mesa-1", "desk", "mesa-1") * 3:
            rogue, rogue_events = _watch(broker, rogue_id, "mesa-2", creds["tables"]["mesa-2"])
            assert rogue_events[0] == "up Success", rogue_events
            attempts += 1
            rogue.loop_stop()
            rogue.disconnect()
        # a last round trip through the broker: had anyone been knocked off, it would show
        mark = threading.Event()
        # the callbacks first: the broker's SUBACK can come back before the next line runs
        desk.on_message = lambda c, u, m: mark.set()
        desk.on_subscribe = lambda *a: mesa1.publish(vm.t_state("mesa-1"), b"x", qos=1)
        desk.subscribe(vm.t_state("mesa-1"), 1)
        assert mark.wait(10)
        print(f"\n{attempts} takeover attempts: desk {desk_events}, mesa-1 {mesa1_events}")
        assert desk_events == ["up Success"] and mesa1_events == ["up Success"]
        for c in (desk, mesa1):
            c.loop_stop()
            c.disconnect()


def _make_cert(folder: Path) -> tuple[Path, Path]:
    cert, key = folder / "broker.crt", folder / "broker.key"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
         "-nodes", "-days", "2", "-subj", "/CN=localhost",
         "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
         "-keyout", str(key), "-out", str(cert)],
        check=True, capture_output=True, timeout=60)
    return cert, key


def test_with_a_certificate_the_broker_speaks_only_tls(tmp_path: Path) -> None:
    cert, key = _make_cert(tmp_path)
    with Mosquitto(tmp_path / "broker", ["mesa-1"], certfile=cert, keyfile=key) as broker:
        creds = broker.credentials
        assert "BEGIN CERTIFICATE" in creds["ca"] and broker.url.startswith("mqtts://")
        mine = vm.load_credentials(tmp_path / "broker" / "credentials" / "mesa-1.json")
        b = Broker.parse(broker.url).with_credentials(mine)
        assert b.tls and b.ca == creds["ca"]
        codes: list = []
        c = vm.client("x", "mesa-1", creds["tables"]["mesa-1"], broker=b)
        c.on_connect = lambda cl, u, f, rc, p=None: codes.append(rc)
        c.connect(b.host, b.port)
        c.loop_start()
        wait_for(lambda: codes, 10, "the TLS connection")
        assert not codes[0].is_failure
        c.loop_stop()
        c.disconnect()
        # a plain client gets nowhere
        plain = vm.client("y", "mesa-1", creds["tables"]["mesa-1"])
        plain_codes: list = []
        plain.on_connect = lambda cl, u, f, rc, p=None: plain_codes.append(rc)
        try:
            plain.connect("127.0.0.1", broker.port)
            plain.loop_start()
            time_left = time.monotonic() + 3
            while time.monotonic() < time_left and not plain_codes:
                time.sleep(0.05)
        except OSError:
            pass
        finally:
            plain.loop_stop()
        assert not any(not rc.is_failure for rc in plain_codes)
    with pytest.raises(VenueConfigError, match="certificado do broker"):
        Broker.parse("mqtts://127.0.0.1:8883").with_credentials({"tables": {}})
