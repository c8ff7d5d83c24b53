"""The host side of the link protocol as a state machine: handshake, acks, gaps, commands.

No thread and no port here: bytes received are handed to `receive()`, time
passes through `tick()`, and every frame the host sends goes to the
`Transport` it is given (anything with `write(bytes)`). `HostLink`
(serial_link.py) runs it on a serial port in a thread; tests drive it
directly with a transport that records what it writes.

Each connection starts with HELLO (identify only), then HELLO with the last
(boot id, seq) the event log has committed for that device, so the device
replays exactly what the host lacks. An event is acknowledged only after
the sink has committed it; a frame out of sequence is not applied (a repeated
ack asks the device to resend), so the log never has a hole or a duplicate.
Everything a device says is checked against what is possible (sizes,
sequence ranges, kinds) before it can move the cursor: a frame that fails is
counted as bad and logged, never applied. The protocol is described in
docs/protocol.md.

Boot ids on the wire are 16 bits (1..65535, then 1 again); the link extends
them to an ever-increasing number (`ext boot`) from the last one committed,
so a wrapped boot id never collides with an old boot in the log.
"""

from __future__ import annotations

import dataclasses
import logging
import struct
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Protocol

import futmesa_wire as W
from futmesa.i18n import _
from futmesa.link.events import unpack_event
from futmesa.link.messages import (
    HELLO_ACK_SIZE,
    DeviceInfo,
    Gap,
    Profile,
    Status,
    decode_diag,
)
from futmesa.link.timesync import TimeSync
from futmesa.link.validate import (
    SEQ_MAX,
    SEQ_WINDOW_MAX,
    Invalid,
    check_event,
    check_gap,
    check_hello_ack,
    check_lost,
    check_status,
    printable,
)

log = logging.getLogger("futmesa.link")

HELLO_RETRY_S = 0.3  # how often to repeat an unanswered HELLO (a lost one costs this much)
PING_S = 1.0  # heartbeat and time-sync round trip
SILENCE_S = 3.0  # nothing heard this long: the table is disconnected
# A PING's token is host ms in 30 bits: a small int on a 32-bit board (an RP2040 would box a
# larger one on the heap at every PONG). A PONG older than PONG_MAX_AGE_S answers no PING
# of ours; one slower than SILENCE_S (an emulated board on a busy host) is a real answer
# but says too little about the time to be a time-sync sample.
TOKEN_MASK = 0x3FFFFFFF
PONG_MAX_AGE_S = 60.0
CMD_RETRY_S = 0.5  # a command not acknowledged this long is sent again (same seq)
BAD_FRAME_LOG_S = 5.0  # a burst of bad frames ends after this long without one
BOOT_PERIOD = 0xFFFF  # wire boot ids run 1..65535 and wrap to 1
MAX_UNNUMBERED = 64  # commands waiting for a handshake; older ones are refused beyond this


def version_mismatch(device_proto: int, host_proto: int) -> str:
    """The one line (in the process language) saying a table and this host speak other
    protocols, and what to do."""
    if device_proto < host_proto:
        return _("the table's firmware is old (protocol {device}; this futmesa speaks "
                 "{host}): update it with `futmesa flash`").format(device=device_proto,
                                                                   host=host_proto)
    return _("this futmesa is older than the table's firmware (protocol {device}; it "
             "speaks {host}): update futmesa").format(device=device_proto, host=host_proto)


def wire_boot(ext_boot: int) -> int:
    """The 16-bit boot id on the wire for an extended boot number (1..65535)."""
    return (ext_boot - 1) % BOOT_PERIOD + 1 if ext_boot > 0 else 0


def extend_boot(wire: int, cursor_boot: int, cursor_seq: int, newest: int) -> int:
    """The extended boot number of a device now on wire boot `wire`.

    cursor_* is what the log holds for the device. The boot id only ever
    moves forward, so the new boot is the first number after the cursor's
    with that wire id; the same wire id is the same boot unless the device
    has fewer events than the log (its flash was wiped), then it is a new one.
    """
    if cursor_boot <= 0:
        return wire
    d = (wire - wire_boot(cursor_boot)) % BOOT_PERIOD
    if d == 0 and newest < cursor_seq:
        d = BOOT_PERIOD
    return cursor_boot + d


class Transport(Protocol):
    """Where the protocol's frames go: a serial port, or a test's recorder."""

    def write(self, data: bytes) -> None: ...


class LinkSink(Protocol):
    """What the link reports to (the daemon). Called from the link thread."""

    def on_device(self, info: DeviceInfo) -> tuple[int, int]:
        """A device identified itself; return the (ext boot, seq) committed for it."""

    def on_event(self, info: DeviceInfo, boot_id: int, seq: int, ticks: int,
                 payload: tuple[int, int, int, int, int, int]) -> None:
        """Commit one event (raise to refuse; it will be resent). boot_id is the ext boot."""

    def on_gap(self, info: DeviceInfo, boot_id: int, first_seq: int, last_seq: int) -> None:
        """Commit a gap: events first..last of boot_id will never arrive."""

    def on_status(self, info: DeviceInfo, status: Status, wall_ms: float) -> None: ...

    def on_connection(self, connected: bool, reason: str) -> None: ...

    # Optional: on_lost(info, boot_id, first_seq, last_seq, kinds) hears of a reset boot's
    # events the device kept on flash as unacknowledged (EV_LOST): the log records what
    # of first..last it does not hold as a gap (EventLog.record_lost).
    # Optional: a sink that defines on_diag(info, ticks, values) gets each MSG_DIAG (the
    # raw readings the device streams after CMD_DIAG; see messages.decode_diag). One that
    # defines on_sink_error(exc) / on_sink_ok() hears when committing starts failing and
    # when it works again (the daemon turns them into the table's health). The link looks
    # them up with getattr, so sinks without them are unaffected.


class LiveSink:
    """A sink for tools that watch the table live and store nothing (calibrate, benches):
    it asks for no replay (everything the device holds counts as committed) and ignores
    what it is handed; a subclass overrides what it needs (e.g. on_diag, on_event)."""

    def on_device(self, info: DeviceInfo) -> tuple[int, int]:
        return info.boot_id, info.newest

    def on_event(self, info: DeviceInfo, boot_id: int, seq: int, ticks: int,
                 payload: tuple[int, int, int, int, int, int]) -> None:
        pass

    def on_gap(self, info: DeviceInfo, boot_id: int, first_seq: int, last_seq: int) -> None:
        pass

    def on_status(self, info: DeviceInfo, status: Status, wall_ms: float) -> None:
        pass

    def on_connection(self, connected: bool, reason: str) -> None:
        pass


@dataclass
class _Pending:
    seq: int
    msg_type: int
    payload: bytes
    future: Future[int]
    sent_at: float = 0.0


@dataclass
class LinkStats:
    frames_in: int = 0
    bad_frames: int = 0
    events: int = 0
    duplicates: int = 0
    out_of_order: int = 0
    reconnects: int = 0
    gaps: int = 0
    resyncs: int = 0
    refused_events: int = 0  # well-formed events whose fields were impossible (kept as gaps)
    possible_losses: int = 0  # a reset boot's seq reservation beyond what the log holds
    last_rx: float = 0.0


class LinkProtocol:
    """The host's protocol state for one table, driven by receive() and tick()."""

    def __init__(self, sink: LinkSink, transport: Transport | None = None,
                 expected_uid: str | None = None, pin_uid: bool = True,
                 clock: Callable[[], float] = time.monotonic) -> None:
        """Commands are numbered by the link itself, contiguously after the last
        command the device says (in HELLO_ACK) it executed. With pin_uid the first board
        identified is the only one this link will talk to. clock gives monotonic seconds.
        """
        self.sink = sink
        self.transport = transport
        self.expected_uid = expected_uid
        self.pin_uid = pin_uid
        self.clock = clock
        self.port_name = "(no port)"
        self.usb_serial: str | None = None
        self._cmd_last = 0  # last command seq allocated (or executed by the device)
        self.stats = LinkStats()
        self.timesync = TimeSync()
        self.info: DeviceInfo | None = None
        self.boot = 0  # extended boot number of the connected device
        self.connected = False
        self.refused: str | None = None  # why the table is refused, or None
        self._identify = False  # a RESUME answer from a boot we do not know: ask who it is
        self._deframer = W.Deframer()
        self._overruns = 0
        self._cursor = (0, 0)
        self._newest = 0  # newest seq the current boot has reported
        self._synced = False
        self._pending: dict[int, _Pending] = {}  # numbered, sent, not yet acknowledged
        self._unnumbered: list[_Pending] = []
        self._lock = threading.RLock()
        self._write_lock = threading.Lock()
        self._last_hello = 0.0
        self._hello_sent = False
        self._last_ping = 0.0
        self._bad_burst = 0
        self._bad_first_at = 0.0
        self._bad_last_at = 0.0
        self._sink_failing = False
        self._wrong_board_logged: set[str] = set()
        self._lost_kinds: dict[str, int] = {}  # a reset boot's lost kinds, as the device reports

    # -- the transport's life ------------------------------------------------------------
    def opened(self, name: str, usb_serial: str | None = None) -> None:
        """The transport (re)opened: start a new handshake on a fresh byte stream."""
        self.port_name = name
        if usb_serial:
            self.usb_serial = usb_serial
        self._deframer = W.Deframer()
        self._overruns = 0
        self._synced = False
        self._hello_sent = False
        self._last_hello = 0.0
        self.stats.last_rx = self.clock()

    def closed(self, reason: str) -> None:
        """The transport is gone (unplugged, error, stopped)."""
        self.stats.reconnects += 1
        self._synced = False
        self._hello_sent = False
        self._set_connected(False, reason)

    def _set_connected(self, value: bool, reason: str) -> None:
        if value != self.connected:
            self.connected = value
            if not value:
                self._synced = False
            if value:
                log.info(_("table connected: %s"), reason)
            else:
                log.info(_("table disconnected: %s"), reason)
            self.sink.on_connection(value, reason)

    def _write(self, frame: bytes) -> None:
        transport = self.transport
        if transport is None:
            return
        with self._write_lock:
            transport.write(frame)

    # -- commands (any thread) -------------------------------------------------------
    def command(self, code: int, a: int = 0, b: int = 0, c: int = 0, x: int = 0,
                y: int = 0) -> Future[int]:
        """Send a command; the future resolves to the device's ACK_* result."""
        payload = struct.pack(W.CMD_FMT, code, a, b, c, x, y)
        return self._queue(W.MSG_CMD, payload)

    def send_profile(self, profile: Profile) -> Future[int]:
        return self._queue(W.MSG_PROFILE, profile.pack())

    def _queue(self, msg_type: int, payload: bytes) -> Future[int]:
        future: Future[int] = Future()
        with self._lock:
            if self._synced:
                self._cmd_last += 1
                pending = _Pending(self._cmd_last, msg_type, payload, future)
                self._pending[pending.seq] = pending
                self._send_pending(pending)
            else:
                # numbered once the device says which command it executed last
                self._unnumbered.append(_Pending(0, msg_type, payload, future))
                if len(self._unnumbered) > MAX_UNNUMBERED:
                    # the table has been away long: the oldest waiting command is dropped
                    # (answered as refused) rather than the queue growing without end
                    old = self._unnumbered.pop(0)
                    if not old.future.done():
                        old.future.set_result(W.ACK_REFUSED)
        return future

    def _send_pending(self, p: _Pending) -> None:
        boot = self.info.boot_id if self.info else 0
        p.sent_at = self.clock()
        self._write(W.encode_frame(p.msg_type, boot, p.seq, 0, p.payload))

    # -- time ----------------------------------------------------------------------------
    def tick(self) -> None:
        """Housekeeping: handshake retries, heartbeat, command retries, silence, bad-frame log."""
        now = self.clock()
        if not self._synced:
            if now - self._last_hello >= HELLO_RETRY_S:
                if self.info is not None and self.refused is None and not self._identify:
                    # a table we know: one round trip (the cursor HELLO); its answer says
                    # who it is, and a reset or another board is handled from there
                    self._send_cursor_hello()
                else:
                    self._last_hello = now
                    self._write(W.encode_frame(W.MSG_HELLO, 0, 0, 0, struct.pack(
                        W.HELLO_FMT, W.PROTO_VERSION, 0, W.IDENTIFY_ONLY)))
        else:
            if now - self._last_ping >= PING_S:
                self._last_ping = now
                self._write(W.encode_frame(W.MSG_PING, self.info.boot_id if self.info else 0, 0, 0,
                                           struct.pack(W.PING_FMT, int(now * 1000) & TOKEN_MASK)))
            with self._lock:
                if any(now - p.sent_at >= CMD_RETRY_S for p in self._pending.values()):
                    # the device runs them strictly in order: resend them all, in order
                    for seq in sorted(self._pending):
                        self._send_pending(self._pending[seq])
        if now - self.stats.last_rx >= SILENCE_S:
            if self.connected or self._synced:
                self._synced = False
                self._hello_sent = False
                self._set_connected(False, _("no answer for {seconds} s").format(
                    seconds=f"{SILENCE_S:.0f}"))
            self.stats.last_rx = now  # re-arm; HELLO keeps being retried meanwhile
        if self._bad_burst and now - self._bad_last_at >= BAD_FRAME_LOG_S:
            log.warning(_("%d bad frame(s) from %s over %.1f s (now clean again)"),
                        self._bad_burst, self.port_name, self._bad_last_at - self._bad_first_at)
            self._bad_burst = 0

    # -- receiving -------------------------------------------------------------------
    def receive(self, data: bytes) -> None:
        """Bytes from the transport: split into frames and handle each."""
        for block in self._deframer.feed(data):
            self.handle_block(block)
        if self._deframer.overruns != self._overruns:
            self._overruns = self._deframer.overruns
            self._bad(_("overlong frame (no delimiter)"))

    def handle_block(self, block: bytes) -> None:
        """One COBS block (without its delimiter). A failing sink never escapes from here."""
        try:
            self._handle_block(block)
        except Exception as exc:  # noqa: BLE001 - the sink failed: never kill the link
            # nothing was acknowledged: the device resends and we try again
            self._sink_failed(exc)

    def _sink_worked(self) -> None:
        """A commit went through: a failure before it is over."""
        if self._sink_failing:
            self._sink_failing = False
            log.info(_("storing frames from %s works again"), self.port_name)
            on_ok = getattr(self.sink, "on_sink_ok", None)
            if on_ok is not None:
                on_ok()

    def _sink_failed(self, exc: Exception) -> None:
        on_error = getattr(self.sink, "on_sink_error", None)
        if not self._sink_failing:
            self._sink_failing = True
            if on_error is None:
                log.exception(_("storing a frame from %s failed; the table will resend it"),
                              self.port_name)
        if on_error is not None:
            try:
                on_error(exc)  # the sink logs it once, with what to do
            except Exception:  # noqa: BLE001 - reporting must not kill the link either
                log.exception(_("reporting a storage failure on %s failed"), self.port_name)

    def _bad(self, why: str) -> None:
        """Count a bad frame; log the first of a burst, and a summary when the burst ends."""
        self.stats.bad_frames += 1
        now = self.clock()
        if not self._bad_burst:
            log.warning(_("bad frame from %s (%s); line noise, a loose cable or a faulty "
                          "firmware? Counting them until the line is clean again"),
                        self.port_name, why)
            self._bad_first_at = now
        self._bad_burst += 1
        self._bad_last_at = now

    def _handle_block(self, block: bytes) -> None:
        try:
            frame = W.decode_frame(block)
        except W.FrameError as exc:
            self._bad(str(exc))
            return
        t = frame.msg_type
        if t not in _DEVICE_TYPES:
            self._bad(f"message type 0x{t:02x} is not one a device sends")
            return
        size = _PAYLOAD_SIZE.get(t)
        if size is not None and len(frame.payload) != size:
            self._bad(f"message 0x{t:02x} with a {len(frame.payload)}-byte payload "
                      f"(its layout has {size})")
            return
        self.stats.frames_in += 1
        self.stats.last_rx = self.clock()
        try:
            self._dispatch(frame)
        except (Invalid, struct.error, W.FrameError, ValueError, IndexError) as exc:
            self._bad(f"bad payload for message 0x{t:02x}: {exc}")

    def _dispatch(self, frame: W.Frame) -> None:
        t = frame.msg_type
        if t == W.MSG_HELLO_ACK:
            self._on_hello_ack(frame)
        elif t == W.MSG_REFUSE:
            dev, host = struct.unpack(W.REFUSE_FMT, frame.payload)
            self._refuse(dev, host)
        elif t == W.MSG_LOG:
            log.info(_("the table says: %s"), printable(frame.payload))
        elif self.info is None or frame.boot_id != self.info.boot_id:
            if self._synced:
                # a boot we have not identified (the device was reset): start over
                self.stats.resyncs += 1
                self._synced = False
                self._hello_sent = False
                self._last_hello = 0.0
        elif t == W.MSG_EVENT and self._synced:
            self._on_event(frame)
        elif t == W.MSG_STATUS and self._synced:
            status = Status.decode(frame.ticks, frame.payload)
            check_status(status)
            self._newest = max(self._newest, status.newest)
            self.sink.on_status(self.info, status, self.timesync.wall_ms(frame.ticks))
        elif t == W.MSG_CMD_ACK:
            result = frame.payload[0]
            if result > W.ACK_UNKNOWN:
                raise Invalid(f"command result {result}")
            with self._lock:
                p = self._pending.pop(frame.seq, None)
            if p is not None and not p.future.done():
                p.future.set_result(result)
        elif t == W.MSG_PONG:
            sent = struct.unpack(W.PING_FMT, frame.payload)[0]
            now_ms = self.clock() * 1000
            age = (int(now_ms) - sent) & TOKEN_MASK
            if age > PONG_MAX_AGE_S * 1000 or sent > TOKEN_MASK:
                raise Invalid("a PONG for a PING never sent")
            if age <= SILENCE_S * 1000:
                self.timesync.add(now_ms - age, now_ms, frame.ticks)
        elif t == W.MSG_GAP and self._synced:
            self._on_gap(Gap.decode(frame.payload))
        elif t == W.MSG_DIAG:
            on_diag = getattr(self.sink, "on_diag", None)
            if on_diag is not None:
                on_diag(self.info, frame.ticks, decode_diag(frame.payload))

    def _refuse(self, device_proto: int, host_proto: int) -> None:
        why = version_mismatch(device_proto, host_proto)
        if self.refused != why:
            log.error("%s", why)
        self.refused = why
        self._set_connected(False, why)

    def _on_hello_ack(self, frame: W.Frame) -> None:
        if frame.version != W.PROTO_VERSION or frame.payload[:2] != struct.pack(
                "<H", W.PROTO_VERSION):
            dev = frame.version if frame.version != W.PROTO_VERSION else struct.unpack_from(
                "<H", frame.payload)[0]
            self._refuse(dev, W.PROTO_VERSION)
            return
        if frame.seq == 1 and len(frame.payload) != HELLO_ACK_SIZE:
            self._on_resume_ack(frame)
            return
        if len(frame.payload) != HELLO_ACK_SIZE:
            raise Invalid(f"HELLO_ACK of {len(frame.payload)} bytes")
        self._identify = False
        info = DeviceInfo.decode(frame.boot_id, frame.payload)
        check_hello_ack(info, frame.seq)
        if self.usb_serial:
            info = dataclasses.replace(info, usb_serial=self.usb_serial)
        if self.expected_uid and info.uid != self.expected_uid:
            if self.port_name not in self._wrong_board_logged:
                log.error(_("the board on %s is %s, not the table %s this daemon serves; "
                            "check which USB port each table is on (restart futmesa to serve "
                            "another board)"), self.port_name, info.uid, self.expected_uid)
                self._wrong_board_logged.add(self.port_name)
            self.wrong_board()
            return
        self.refused = None
        same = self.info is not None and (info.uid, info.boot_id) == (
            self.info.uid, self.info.boot_id) and not self._wiped(info)
        if frame.seq == 1 and same and self._hello_sent:
            if self._synced:
                return  # a repeated answer to a repeated HELLO
            # the device now replays from our cursor
            self.info = info
            self._newest = max(self._newest, info.newest)
            self._synchronised(info)
            return
        # the device identified itself (maybe rebooted): fetch our cursor and say HELLO
        if not same:
            self._device_changed(info)
        self.info = info
        self._synced = False
        self._newest = max(self._newest, info.newest)
        if self.pin_uid and not self.expected_uid:
            self.expected_uid = info.uid
        self._send_cursor_hello()

    def _on_resume_ack(self, frame: W.Frame) -> None:
        """The small answer to a cursor HELLO: the device replays from our cursor.

        It carries only what resuming needs (seqs, last command); from a board or
        boot we have not identified, the host asks who it is (identify-only HELLO).
        """
        info = self.info.resumed(frame.boot_id, frame.payload) if self.info else None
        if info is not None and self._wiped(info):
            info = None  # a new boot under the same id: who it is, first
        if info is None or not self._hello_sent:
            if info is None and not self._identify:
                self._identify = True
                self._synced = False
                self._hello_sent = False
                self._last_hello = 0.0  # ask at the next tick
            return
        check_hello_ack(info, frame.seq)
        if self._synced:
            return  # a repeated answer to a repeated HELLO
        self.refused = None
        self.info = info
        self._newest = max(self._newest, info.newest)
        self._synchronised(info)

    def _synchronised(self, info: DeviceInfo) -> None:
        """The device replays from our cursor: commands are numbered after its last one, and
        only then is the link synced and «connected» — a command sent at that moment (from
        any thread) must not take a number from before the device's last, which it would
        answer as an old retry and never run."""
        with self._lock:
            self._resend_commands(info)
            self._synced = True
        self._set_connected(True, _("{board} {uid} boot {boot}").format(
            board=info.board, uid=info.uid, boot=info.boot_id))

    def _wiped(self, info: DeviceInfo) -> bool:
        """The boot id the link serves, with fewer events than that boot has reported: a
        board with no state of its own started again at boot 1 — a new boot (extend_boot
        numbers it so), whose seqs restart."""
        return info.newest < self._newest

    def wrong_board(self) -> None:
        """Another table's board answered: HostLink closes the port (and tries the next)."""
        self._set_connected(False, _("another table's board"))

    def _device_changed(self, info: DeviceInfo) -> None:
        """A new device or a new boot: close the old boot, find our cursor for the new one."""
        old = self.info
        if old is not None and old.uid == info.uid and self.boot:
            # the device was reset: what it made but we never got is gone with its RAM
            boot, seq = self._cursor
            first = seq + 1 if boot == self.boot else 1
            if self._newest >= first:
                self._record_gap(old, self.boot, first, self._newest, _("the table was reset"))
        cursor = self.sink.on_device(info)
        self._sink_worked()
        self.boot = extend_boot(info.boot_id, cursor[0], cursor[1], info.newest)
        self._cursor = cursor
        self._newest = 0
        self._lost_kinds = {}
        self.timesync.reset(info.tick_rate, info.tick_bits)
        self._last_ping = 0.0

    def _resend_commands(self, info: DeviceInfo) -> None:
        """On (re)connection: settle what the device already ran, renumber and send the rest.

        The device runs command seq n only right after n-1 (commands are never
        reordered) and tells in HELLO_ACK the last one it ran: anything up to it
        is done; the rest never ran, so it is renumbered from there in order.
        """
        with self._lock:
            waiting = []
            for seq in sorted(self._pending):
                p = self._pending[seq]
                if seq <= info.last_cmd_seq:
                    if not p.future.done():
                        p.future.set_result(W.ACK_DUPLICATE)  # ran; its answer was lost
                else:
                    waiting.append(p)
            waiting += self._unnumbered
            self._unnumbered = []
            self._pending = {}
            self._cmd_last = info.last_cmd_seq
            for p in waiting:
                self._cmd_last += 1
                p.seq = self._cmd_last
                self._pending[p.seq] = p
                self._send_pending(p)

    def _send_cursor_hello(self) -> None:
        assert self.info is not None
        boot, seq = self._cursor
        if boot != self.boot:
            boot, seq = 0, 0  # nothing of this boot yet: the device replays from its oldest
        self._hello_sent = True
        now = self.clock()
        self._last_hello = now
        self._write(W.encode_frame(W.MSG_HELLO, self.info.boot_id, 0, 0,
                                   struct.pack(W.HELLO_FMT, W.PROTO_VERSION, wire_boot(boot),
                                               seq)))
        # a round trip right away: the device answers it before it starts replaying, so
        # replayed events are placed in time by a real sample, not by their arrival
        self._last_ping = now
        self._write(W.encode_frame(W.MSG_PING, self.info.boot_id, 0, 0,
                                   struct.pack(W.PING_FMT, int(now * 1000) & TOKEN_MASK)))

    def _expected(self) -> int:
        boot, seq = self._cursor
        return seq + 1 if boot == self.boot else 1

    def _ack(self) -> None:
        assert self.info is not None
        boot, seq = self._cursor
        if boot != self.boot:
            seq = 0  # nothing of this boot yet: the device resends from its oldest
        self._write(W.encode_frame(W.MSG_ACK, self.info.boot_id, 0, 0,
                                   struct.pack(W.ACK_FMT, self.info.boot_id, seq)))

    def _on_event(self, frame: W.Frame) -> None:
        assert self.info is not None
        expected = self._expected()
        if not 1 <= frame.seq <= SEQ_MAX:
            raise Invalid(f"event seq {frame.seq} outside 1..{SEQ_MAX}")
        if frame.seq < expected:
            self.stats.duplicates += 1
            self._ack()
            return
        if frame.seq > expected:
            if frame.seq - expected <= SEQ_WINDOW_MAX:
                self._newest = max(self._newest, frame.seq)
            self.stats.out_of_order += 1
            self._ack()  # a repeated ack: the device resends from expected
            return
        payload = unpack_event(frame.payload)
        self._newest = max(self._newest, frame.seq)
        try:
            check_event(payload)
        except Invalid as exc:
            # numbered, so the device resends it until acked: keep the stream moving by
            # recording this one seq as a gap (it is never made up into an event)
            self.stats.refused_events += 1
            self._bad(_("event {seq} refused: {why}").format(seq=frame.seq, why=exc))
            self._record_gap(self.info, self.boot, frame.seq, frame.seq,
                             _("the table sent an impossible event ({why})").format(why=exc))
            self._ack()
            return
        self.sink.on_event(self.info, self.boot, frame.seq, frame.ticks, payload)
        self._sink_worked()
        self._cursor = (self.boot, frame.seq)
        self.stats.events += 1
        if payload[0] == W.EV_LOST:
            self._on_lost(payload)
        self._ack()

    def _on_lost(self, payload: tuple[int, int, int, int, int, int]) -> None:
        """A reset boot's unacknowledged events, as the device kept them on flash.

        Per-kind events (a = kind, value = count) come first, then the summary (a = 0,
        clock_ms = first seq, value = last seq): the summary records the gap of the
        previous boot with the kinds, for whatever part the log does not hold yet.
        """
        assert self.info is not None
        kind = payload[1]
        first, last = payload[4], payload[5]
        check_lost(kind, first, last)
        if not kind and payload[2] == W.LOST_RESERVED:
            self._on_reservation(first, last)
            return
        if kind:
            name = W.EVENT_NAMES.get(kind, f"unknown_{kind}")
            self._lost_kinds[name] = self._lost_kinds.get(name, 0) + last
            return
        old_boot = self.boot - 1
        kinds, self._lost_kinds = self._lost_kinds, {}
        if old_boot < 1:
            return
        self.stats.gaps += 1
        log.warning(_("table %s: events %d..%d of boot %d were made but never acknowledged "
                      "before the table was reset (%s)"), self.info.uid, first, last, old_boot,
                    ", ".join(f"{n}× {k}" for k, n in kinds.items()) or _("kinds unknown"))
        on_lost = getattr(self.sink, "on_lost", None)
        if on_lost is not None:
            on_lost(self.info, old_boot, first, last, kinds)

    def _on_reservation(self, made: int, reserved: int) -> None:
        """The previous boot made event `made` and numbered at most up to `reserved` (its
        flash seq reservation): what the log lacks of that is recorded, as a gap up to
        `made` and as "up to N events may be lost after seq S" beyond (sink.on_reservation)."""
        assert self.info is not None
        old_boot = self.boot - 1
        on_reservation = getattr(self.sink, "on_reservation", None)
        if old_boot < 1 or on_reservation is None:
            return
        gap, maybe = on_reservation(self.info, old_boot, made, reserved)
        self._sink_worked()
        if gap is not None:
            self.stats.gaps += 1
            log.warning(_("table %s: events %d..%d of boot %d were made but never reached "
                          "the log before the table was reset; recorded as a gap"), self.info.uid,
                        gap[0], gap[1], old_boot)
        if maybe is not None:
            self.stats.possible_losses += 1
            log.warning(_("table %s: up to %d events of boot %d made after seq %d, in its "
                          "last moments before the reset, may be lost (recorded)"), self.info.uid,
                        maybe[1] - maybe[0], old_boot, maybe[0])

    def _record_gap(self, info: DeviceInfo, boot: int, first: int, last: int, why: str) -> None:
        self.stats.gaps += 1
        log.warning(_("table %s: events %d..%d of boot %d will never arrive (%s); recorded "
                      "as a gap"), info.uid, first, last, boot, why)
        self.sink.on_gap(info, boot, first, last)
        self._sink_worked()
        self._cursor = (boot, last)

    def _on_gap(self, gap: Gap) -> None:
        assert self.info is not None
        first = self._expected()
        check_gap(gap, self.info.boot_id, first)
        self._newest = max(self._newest, gap.newest)
        last = gap.oldest - 1
        if last >= first:
            self._record_gap(self.info, self.boot, first, last,
                             _("the table's ring overflowed while the host was away"))
        self._ack()


_DEVICE_TYPES = {W.MSG_EVENT, W.MSG_HELLO_ACK, W.MSG_STATUS, W.MSG_CMD_ACK, W.MSG_PONG,
                 W.MSG_GAP, W.MSG_REFUSE, W.MSG_LOG, W.MSG_DIAG}
# exact payload sizes (HELLO_ACK is checked after its version, so a newer device's
# longer answer is still refused by version; LOG is text of any length)
_PAYLOAD_SIZE = {
    W.MSG_EVENT: struct.calcsize(W.EVENT_FMT),
    W.MSG_STATUS: struct.calcsize(W.STATUS_FMT),
    W.MSG_CMD_ACK: struct.calcsize(W.CMD_ACK_FMT),
    W.MSG_PONG: struct.calcsize(W.PING_FMT),
    W.MSG_GAP: struct.calcsize(W.GAP_FMT),
    W.MSG_REFUSE: struct.calcsize(W.REFUSE_FMT),
    W.MSG_DIAG: struct.calcsize(W.DIAG_FMT),
}
