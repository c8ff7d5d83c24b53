"""The host's link protocol, frame by frame, with the device's frames built by futmesa_wire.

No serial port and no thread here: the protocol state machine (LinkProtocol) is
given a transport that records what it writes and a clock the test moves;
device frames go straight into its receive path. The fault tests cover the same
code end to end on real ptys.
"""

from __future__ import annotations

import logging
import struct
from pathlib import Path
from types import SimpleNamespace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import futmesa_wire as W
from futmesa.link.ports import candidates, usb_serial_of
from futmesa.link.protocol import BAD_FRAME_LOG_S, LinkProtocol, extend_boot, wire_boot
from futmesa.store import EventLog

from .harness import RecordingSink, stored

PROFILE = struct.pack(W.PROFILE_FMT, 2, 0, 0, 0, 1_500_000, 300_000, 0, 15_000, 0, 0)


def hello_ack(boot: int, seq: int, newest: int, last_cmd: int = 0, oldest: int = 1,
              uid: bytes = b"UID00001") -> bytes:
    """The device's answer: seq 0 the full identification, seq 1 the small RESUME answer."""
    if seq == 1:
        payload = struct.pack(W.RESUME_ACK_FMT, W.PROTO_VERSION, uid, oldest, newest, last_cmd)
    else:
        payload = struct.pack(W.HELLO_ACK_FMT, W.PROTO_VERSION, 0, 1, 0, b"sim", uid, oldest,
                              newest, 1000, 32) + PROFILE + struct.pack("<I", last_cmd)
    return W.encode_frame(W.MSG_HELLO_ACK, boot, seq, 0, payload)[:-1]


def event(boot: int, seq: int, kind: int = W.EV_BUTTON) -> bytes:
    return W.encode_frame(W.MSG_EVENT, boot, seq, 1000 + seq,
                          struct.pack(W.EVENT_FMT, kind, 0, 0, 1, seq, 0))[:-1]


def status(boot: int, newest: int) -> bytes:
    return W.encode_frame(W.MSG_STATUS, boot, newest, 5000, struct.pack(
        W.STATUS_FMT, 1, W.ST_RUNNING, 1, 2, 1000, 1_500_000, 0, 0, 15_000, newest, 0))[:-1]


class Recorder:
    """A transport that keeps every frame the protocol writes, decoded."""

    def __init__(self) -> None:
        self.sent: list[W.Frame] = []

    def write(self, data: bytes) -> None:
        assert data.endswith(b"\x00") and data.count(0) == 1, "one delimited frame per write"
        self.sent.append(W.decode_frame(data[:-1]))


class FakeClock:
    """Monotonic seconds that move only when the test says so."""

    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t

    def advance(self, seconds: float) -> None:
        self.t += seconds


class Rig:
    def __init__(self, tmp_path: Path) -> None:
        self.store = EventLog(tmp_path / "log.sqlite")
        self.sink = RecordingSink(self.store)
        self.transport = Recorder()
        self.sent = self.transport.sent
        self.clock = FakeClock()
        self.link = LinkProtocol(self.sink, self.transport, clock=self.clock)
        self.link.opened("test")

    def feed(self, *blocks: bytes) -> None:
        for block in blocks:
            self.link.handle_block(block)

    def connect(self, boot: int, newest: int, last_cmd: int = 0) -> None:
        self.feed(hello_ack(boot, 0, newest, last_cmd))
        # the cursor HELLO, then a PING so a time-sync sample precedes the replay
        assert [f.msg_type for f in self.sent[-2:]] == [W.MSG_HELLO, W.MSG_PING]
        self.feed(hello_ack(boot, 1, newest, last_cmd))
        assert self.link.connected

    def hellos(self) -> list[tuple[int, int, int]]:
        return [struct.unpack(W.HELLO_FMT, f.payload) for f in self.sent
                if f.msg_type == W.MSG_HELLO]

    def acks(self) -> list[tuple[int, int]]:
        return [struct.unpack(W.ACK_FMT, f.payload) for f in self.sent if f.msg_type == W.MSG_ACK]


def test_events_in_order_duplicates_dropped_out_of_order_nacked(rig):
    rig.connect(5, 0)
    rig.feed(event(5, 1), event(5, 2), event(5, 2), event(5, 4), event(5, 3), event(5, 4))
    assert stored(rig.store) == [(5, 1, 9), (5, 2, 9), (5, 3, 9), (5, 4, 9)]
    # every frame is answered with the cumulative ack of what is committed
    assert rig.acks() == [(5, 1), (5, 2), (5, 2), (5, 2), (5, 3), (5, 4)]
    assert rig.link.stats.duplicates == 1 and rig.link.stats.out_of_order == 1


def test_ack_only_after_the_commit_and_a_failing_sink_does_not_kill_the_link(rig, caplog):
    real = rig.sink.on_event
    calls = []

    def flaky(*args):
        calls.append(args[2])
        if len(calls) == 1:
            raise RuntimeError("disk full")
        real(*args)

    rig.connect(5, 0)
    rig.sink.on_event = flaky  # type: ignore[method-assign]
    rig.link.receive(event(5, 1) + b"\x00")  # the sink fails: logged, not raised ...
    assert rig.acks() == [] and stored(rig.store) == []  # ... and nothing was acknowledged
    assert any("vai reenviá-lo" in r.getMessage() for r in caplog.records)
    rig.link.receive(event(5, 1) + b"\x00")  # the device's resend
    assert rig.acks() == [(5, 1)] and stored(rig.store) == [(5, 1, 9)]


def test_reset_with_unacknowledged_events_records_a_gap(rig):
    rig.connect(5, 0)
    rig.feed(event(5, 1), event(5, 2), status(5, 4))  # the device made 4, we have 2
    rig.feed(hello_ack(6, 0, newest=1))  # it was reset: boot 6
    assert rig.sink.gaps == [(5, 3, 4)]
    assert rig.store.gaps() == [(5, 3, 4)]
    assert rig.hellos()[-1] == (W.PROTO_VERSION, 0, 0)  # nothing of boot 6 yet: from its first
    rig.feed(hello_ack(6, 1, newest=1), event(6, 1))
    assert stored(rig.store)[-1] == (6, 1, 9)


def test_boot_id_wrap_gets_a_new_extended_boot(rig):
    assert wire_boot(65535) == 65535 and wire_boot(65536) == 1 and wire_boot(65537) == 2
    assert extend_boot(1, 65535, 10, newest=3) == 65536
    assert extend_boot(9, 0, 0, newest=3) == 9
    assert extend_boot(7, 7, 10, newest=12) == 7  # same boot: it has at least what we have
    assert extend_boot(7, 7, 10, newest=3) == 7 + 65535  # same id, fewer events: wiped flash
    # end to end: the log holds boot 65535 up to seq 2, the device comes back as boot 1
    rig.connect(65535, 0)
    rig.feed(event(65535, 1), event(65535, 2))
    rig.link.info = None  # a host restart: the link knows only the log
    rig.feed(hello_ack(1, 0, newest=2))
    assert rig.link.boot == 65536
    rig.feed(hello_ack(1, 1, newest=2), event(1, 1), event(1, 2))
    assert stored(rig.store) == [(65535, 1, 9), (65535, 2, 9), (65536, 1, 9), (65536, 2, 9)]
    assert rig.acks()[-1] == (1, 2)  # acks carry the wire boot id


def test_commands_renumbered_after_the_devices_last(rig):
    f1 = rig.link.command(W.CMD_START)  # queued before any handshake
    f2 = rig.link.command(W.CMD_BEEP, a=1)
    rig.connect(5, 0, last_cmd=41)  # the device ran commands up to 41 (another host's)
    cmds = [f for f in rig.sent if f.msg_type == W.MSG_CMD]
    assert [(f.seq, f.payload[0]) for f in cmds] == [(42, W.CMD_START), (43, W.CMD_BEEP)]
    ack = W.encode_frame(W.MSG_CMD_ACK, 5, 42, 0, struct.pack(W.CMD_ACK_FMT, W.ACK_OK,
                                                               W.CMD_START, 0))[:-1]
    rig.feed(ack)
    assert f1.result(timeout=0) == W.ACK_OK and not f2.done()
    # the link drops; on reconnection the device says it ran 43: settled, not resent
    rig.link.closed("unplugged")
    rig.link.opened("test")
    rig.sent.clear()
    rig.link.tick()  # a table it knows: straight to the cursor HELLO
    rig.feed(hello_ack(5, 1, newest=0, last_cmd=43))
    assert f2.result(timeout=0) == W.ACK_DUPLICATE
    assert not [f for f in rig.sent if f.msg_type == W.MSG_CMD]


def test_a_command_sent_as_the_link_connects_follows_the_devices_last(rig):
    """The link says «connected» only once its command numbers follow the device's last: a
    command sent at that moment (here from the sink's callback; in `futmesa calibrate` and
    the daemon from another thread) is not numbered from this process's 0, which the device
    would answer as an old retry (ACK_DUPLICATE) and never run — CI on aa12e6e:
    test_signals' calibrate «refused a calibration command (result 1)»."""
    futures = []
    rig.sink.on_connection = lambda up, reason: futures.append(rig.link.command(W.CMD_BEEP))
    rig.connect(5, 0, last_cmd=41)  # a host restarted: the device ran commands up to 41
    cmds = [f for f in rig.sent if f.msg_type == W.MSG_CMD]
    assert len(futures) == 1 and [f.seq for f in cmds] == [42]


def test_bad_frames_logged_once_per_burst(rig, caplog):
    rig.connect(5, 0)
    caplog.set_level(logging.WARNING, logger="futmesa.link")
    good = bytearray(event(5, 1))
    good[3] ^= 0x10
    for _ in range(200):
        rig.feed(bytes(good), b"\x01\x02\x03", b"")
    assert rig.link.stats.bad_frames == 600
    starts = [r for r in caplog.records if "quadro com defeito vindo de" in r.getMessage()]
    assert len(starts) == 1
    rig.clock.advance(BAD_FRAME_LOG_S)
    rig.link.tick()  # the burst is over (BAD_FRAME_LOG_S of quiet)
    summaries = [r for r in caplog.records if "600 quadro(s) com defeito" in r.getMessage()]
    assert len(summaries) == 1
    assert stored(rig.store) == []


def test_another_tables_board_is_refused(rig, caplog):
    rig.link.expected_uid = "UID00001"
    rig.feed(hello_ack(3, 0, 0, uid=b"OTHER001"))
    assert rig.link.info is None and rig.sink.devices == []
    assert any("não a mesa UID00001" in r.getMessage() for r in caplog.records)


def test_usb_serial_number_finds_the_board_on_another_port(tmp_path):
    ports = [SimpleNamespace(device="/dev/ttyACM0", serial_number="E6614C311B7A2F2D"),
             SimpleNamespace(device="/dev/ttyACM3", serial_number="DEADBEEF00000001")]
    assert candidates("/dev/ttyACM0", "DEADBEEF00000001", lambda: ports) == [
        "/dev/ttyACM3", "/dev/ttyACM0"]
    assert candidates("/dev/ttyACM0", None, lambda: ports) == ["/dev/ttyACM0"]
    assert usb_serial_of("/dev/ttyACM3", lambda: ports) == "DEADBEEF00000001"
    assert usb_serial_of("/dev/pts/9", lambda: ports) is None
    (tmp_path / "b.tty").touch()
    (tmp_path / "a.tty").touch()
    assert candidates(str(tmp_path / "*.tty"), None, lambda: []) == [
        str(tmp_path / "a.tty"), str(tmp_path / "b.tty")]


@settings(max_examples=400, deadline=None, database=None,
          suppress_health_check=list(HealthCheck))
@given(st.lists(st.tuples(st.sampled_from([W.MSG_EVENT, W.MSG_STATUS, W.MSG_HELLO_ACK,
                                           W.MSG_CMD_ACK, W.MSG_PONG, W.MSG_GAP, W.MSG_REFUSE,
                                           W.MSG_LOG, W.MSG_ACK, 0x00, 0x7F]),
                          st.sampled_from([5, 6]), st.integers(0, 8),
                          st.binary(max_size=W.MAX_PAYLOAD)), max_size=12))
def test_any_well_formed_frame_sequence_never_crashes_the_link(tmp_path_factory, frames):
    """Frames with valid CRCs but arbitrary types, boots, seqs and payloads (a buggy or
    hostile device): the receive path counts what it cannot use and never raises."""
    r = Rig(tmp_path_factory.mktemp("h"))
    try:
        r.connect(5, 0)
        for msg_type, boot, seq, payload in frames:
            r.link.handle_block(W.encode_frame(msg_type, boot, seq, 0, payload)[:-1])
        got = stored(r.store)
        assert got == sorted(set(got))  # still in order, no duplicates
    finally:
        r.store.close()
