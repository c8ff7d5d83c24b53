"""The host's serial link to one table: pyserial transport, handshake, acks, commands, time sync.

Runs in its own thread. The port is reopened automatically after an unplug
(by path, by glob pattern, or by the board's USB serial number). Each
connection starts with HELLO (identify only), then HELLO with the last
(boot id, seq) the event log has committed for that device, so the device
replays exactly what the host lacks. An event is acknowledged only after
the sink has committed it; a frame out of sequence is not applied (a repeated
ack asks the device to resend), so the log never has a hole or a duplicate.
The protocol is described in docs/protocol.md.

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
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Protocol

import serial

import futmesa_wire as W
from futmesa.link import ports
from futmesa.link.events import unpack_event
from futmesa.link.messages import DeviceInfo, Gap, Profile, Status, decode_diag
from futmesa.link.timesync import TimeSync

log = logging.getLogger("futmesa.link")

HELLO_RETRY_S = 1.0  # how often to repeat an unanswered HELLO
PING_S = 1.0  # heartbeat and time-sync round trip
SILENCE_S = 3.0  # nothing heard this long: the table is disconnected
CMD_RETRY_S = 0.5  # a command not acknowledged this long is sent again (same seq)
REOPEN_S = 0.5  # between attempts to reopen a vanished port
BAD_FRAME_LOG_S = 5.0  # a burst of bad frames ends after this long without one
READ_TIMEOUT_S = 0.02
BOOT_PERIOD = 0xFFFF  # wire boot ids run 1..65535 and wrap to 1


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

    # Optional: a sink that defines on_diag(info, ticks, values) gets each MSG_DIAG (the
    # raw readings the device streams after CMD_DIAG; see messages.decode_diag). The link
    # looks it up with getattr, so sinks without it (the daemon) are unaffected.


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
    last_rx: float = 0.0


class HostLink:
    def __init__(self, port: str, sink: LinkSink, baudrate: int = 115200,
                 expected_uid: str | None = None, pin_uid: bool = True) -> None:
        """port: a path, or a glob pattern (e.g. /dev/ttyACM*) to search.

        Commands are numbered by the link itself, contiguously after the last
        command the device says (in HELLO_ACK) it executed. With pin_uid the first board
        identified is the only one this link will talk to.
        """
        self.port_spec = port
        self.port_name = port
        self.sink = sink
        self.baudrate = baudrate
        self.expected_uid = expected_uid
        self.pin_uid = pin_uid
        self._cmd_last = 0  # last command seq allocated (or executed by the device)
        self.stats = LinkStats()
        self.timesync = TimeSync()
        self.info: DeviceInfo | None = None
        self.boot = 0  # extended boot number of the connected device
        self.usb_serial: str | None = None
        self.connected = False
        self.refused: str | None = None
        self._serial: serial.Serial | None = None
        self._deframer = W.Deframer()
        self._overruns = 0
        self._cursor = (0, 0)
        self._newest = 0  # newest seq the current boot has reported
        self._synced = False
        self._pending: dict[int, _Pending] = {}  # numbered, sent, not yet acknowledged
        self._unnumbered: list[_Pending] = []
        self._lock = threading.RLock()
        self._write_lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._last_hello = 0.0
        self._hello_sent = False
        self._last_ping = 0.0
        self._bad_burst = 0
        self._bad_first_at = 0.0
        self._bad_last_at = 0.0
        self._open_error_logged = False
        self._sink_error_logged = False
        self._try_index = 0
        self._wrong_board_logged: set[str] = set()

    # -- lifecycle ---------------------------------------------------------------
    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name=f"link {self.port_spec}",
                                        daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread:
            self._thread.join(timeout=2)
        self._close("stopped")

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
        return future

    def _send_pending(self, p: _Pending) -> None:
        boot = self.info.boot_id if self.info else 0
        p.sent_at = time.monotonic()
        self._write(W.encode_frame(p.msg_type, boot, p.seq, 0, p.payload))

    # -- the thread ------------------------------------------------------------------
    def _run(self) -> None:
        while not self._stop.is_set():
            if self._serial is None:
                if not self._open():
                    self._stop.wait(REOPEN_S)
                    continue
            try:
                ser = self._serial
                # block (up to READ_TIMEOUT_S) for the first byte only, then take what is there
                data = ser.read(1) if ser else b""
                if data and ser is not None and ser.in_waiting:
                    data += ser.read(min(ser.in_waiting, 4096))
            except (serial.SerialException, OSError, TypeError, AttributeError) as exc:
                self._close(f"port error: {exc}")
                continue
            if data:
                self._receive(data)
            try:
                self._tick()
            except Exception:  # noqa: BLE001 - a sink callback failed: log it, keep serving
                log.exception("link housekeeping failed on %s; carrying on", self.port_name)
                self._stop.wait(0.2)

    def _open(self) -> bool:
        paths = ports.candidates(self.port_spec, self.usb_serial)
        if not paths:
            return False
        path = paths[self._try_index % len(paths)]
        self._try_index += 1
        try:
            ser = serial.Serial(path, self.baudrate, timeout=READ_TIMEOUT_S,
                                write_timeout=0.5, exclusive=True)
        except (serial.SerialException, OSError, ValueError) as exc:
            if not self._open_error_logged:
                from futmesa.portcheck import port_problem

                problem = port_problem(path)
                if problem:
                    log.warning("cannot open %s: %s; retrying every %.1f s", path, problem,
                                REOPEN_S)
                else:
                    log.warning("cannot open %s (%s); retrying every %.1f s — is the table "
                                "plugged in?", path, exc, REOPEN_S)
                self._open_error_logged = True
            return False
        self._serial = ser
        self.port_name = path
        self._open_error_logged = False
        self._deframer = W.Deframer()
        self._overruns = 0
        self._synced = False
        self._hello_sent = False
        self._last_hello = 0.0
        self.stats.last_rx = time.monotonic()
        serial_no = ports.usb_serial_of(path)
        if serial_no:
            self.usb_serial = serial_no
        log.info("opened %s%s", path, f" (USB serial {serial_no})" if serial_no else "")
        return True

    def _close(self, reason: str) -> None:
        ser, self._serial = self._serial, None
        if ser is not None:
            try:
                ser.close()
            except (serial.SerialException, OSError):
                pass
            self.stats.reconnects += 1
        self._synced = False
        self._hello_sent = False
        self._set_connected(False, reason)

    def _set_connected(self, value: bool, reason: str) -> None:
        if value != self.connected:
            self.connected = value
            if not value:
                self._synced = False
            log.info("table %s: %s", "connected" if value else "disconnected", reason)
            self.sink.on_connection(value, reason)

    def _write(self, frame: bytes) -> None:
        ser = self._serial
        if ser is None:
            return
        with self._write_lock:
            try:
                ser.write(frame)
            except (serial.SerialException, OSError) as exc:
                log.warning("write to %s failed: %s", self.port_name, exc)

    def _tick(self) -> None:
        now = time.monotonic()
        if not self._synced:
            if now - self._last_hello >= HELLO_RETRY_S:
                if self._hello_sent and self.info:
                    self._send_cursor_hello()
                else:
                    self._last_hello = now
                    self._write(W.encode_frame(W.MSG_HELLO, 0, 0, 0, struct.pack(
                        W.HELLO_FMT, W.PROTO_VERSION, 0, W.IDENTIFY_ONLY)))
        else:
            if now - self._last_ping >= PING_S:
                self._last_ping = now
                self._write(W.encode_frame(W.MSG_PING, self.info.boot_id if self.info else 0, 0, 0,
                                           struct.pack(W.PING_FMT, int(now * 1000) & 0xFFFFFFFF)))
            with self._lock:
                if any(now - p.sent_at >= CMD_RETRY_S for p in self._pending.values()):
                    # the device runs them strictly in order: resend them all, in order
                    for seq in sorted(self._pending):
                        self._send_pending(self._pending[seq])
        if now - self.stats.last_rx >= SILENCE_S:
            if self.connected or self._synced:
                self._synced = False
                self._hello_sent = False
                self._set_connected(False, f"no answer for {SILENCE_S:.0f} s")
            self.stats.last_rx = now  # re-arm; HELLO keeps being retried meanwhile
        if self._bad_burst and now - self._bad_last_at >= BAD_FRAME_LOG_S:
            log.warning("%d bad frame(s) from %s over %.1f s (now clean again)",
                        self._bad_burst, self.port_name, self._bad_last_at - self._bad_first_at)
            self._bad_burst = 0

    # -- receiving -------------------------------------------------------------------
    def _receive(self, data: bytes) -> None:
        for block in self._deframer.feed(data):
            try:
                self._handle_block(block)
            except Exception:  # noqa: BLE001 - the sink failed: never kill the link
                # nothing was acknowledged: the device resends and we try again
                if not self._sink_error_logged:
                    log.exception("storing a frame from %s failed; the table will resend it "
                                  "(is the disk full?)", self.port_name)
                    self._sink_error_logged = True
                continue
            self._sink_error_logged = False
        if self._deframer.overruns != self._overruns:
            self._overruns = self._deframer.overruns
            self._bad("overlong frame (no delimiter)")

    def _bad(self, why: str) -> None:
        """Count a bad frame; log the first of a burst, and a summary when the burst ends."""
        self.stats.bad_frames += 1
        now = time.monotonic()
        if not self._bad_burst:
            log.warning("bad frame from %s (%s); line noise or a loose cable? "
                        "Counting them until the line is clean again", self.port_name, why)
            self._bad_first_at = now
        self._bad_burst += 1
        self._bad_last_at = now

    def _handle_block(self, block: bytes) -> None:
        try:
            frame = W.decode_frame(block)
        except W.FrameError as exc:
            self._bad(str(exc))
            return
        self.stats.frames_in += 1
        self.stats.last_rx = time.monotonic()
        t = frame.msg_type
        try:
            if t == W.MSG_HELLO_ACK:
                self._on_hello_ack(frame)
            elif t == W.MSG_REFUSE:
                dev, host = struct.unpack(W.REFUSE_FMT, frame.payload[:4])
                self._refuse(dev, host)
            elif self.info is None or frame.boot_id != self.info.boot_id:
                if self._synced and t != W.MSG_LOG:
                    # a boot we have not identified (the device was reset): start over
                    self.stats.resyncs += 1
                    self._synced = False
                    self._hello_sent = False
                    self._last_hello = 0.0
            elif t == W.MSG_EVENT and self._synced:
                self._on_event(frame)
            elif t == W.MSG_STATUS and self._synced:
                status = Status.decode(frame.ticks, frame.payload)
                self._newest = max(self._newest, status.newest)
                self.sink.on_status(self.info, status, self.timesync.wall_ms(frame.ticks))
            elif t == W.MSG_CMD_ACK:
                result = frame.payload[0]
                with self._lock:
                    p = self._pending.pop(frame.seq, None)
                if p is not None and not p.future.done():
                    p.future.set_result(result)
            elif t == W.MSG_PONG:
                sent = struct.unpack(W.PING_FMT, frame.payload[:4])[0]
                now_ms = time.monotonic() * 1000
                sent_ms = now_ms - ((int(now_ms) - sent) & 0xFFFFFFFF)
                self.timesync.add(sent_ms, now_ms, frame.ticks)
            elif t == W.MSG_GAP and self._synced:
                self._on_gap(Gap.decode(frame.payload[:14]))
            elif t == W.MSG_DIAG:
                on_diag = getattr(self.sink, "on_diag", None)
                if on_diag is not None:
                    on_diag(self.info, frame.ticks, decode_diag(frame.payload))
            elif t == W.MSG_LOG:
                log.info("device: %s", frame.payload.decode(errors="replace"))
        except (struct.error, W.FrameError, ValueError, IndexError) as exc:
            self._bad(f"bad payload for message 0x{t:02x}: {exc}")

    def _refuse(self, device_proto: int, host_proto: int) -> None:
        reason = (f"protocol mismatch: the table speaks protocol {device_proto}, this host "
                  f"{host_proto}")
        if self.refused != reason:
            log.error("%s — update the firmware (futmesa flash) or futmesa so they match", reason)
        self.refused = reason
        self._set_connected(False, reason)

    def _on_hello_ack(self, frame: W.Frame) -> None:
        if frame.version != W.PROTO_VERSION or frame.payload[:2] != struct.pack(
                "<H", W.PROTO_VERSION):
            dev = frame.version if frame.version != W.PROTO_VERSION else struct.unpack_from(
                "<H", frame.payload)[0]
            self._refuse(dev, W.PROTO_VERSION)
            return
        info = DeviceInfo.decode(frame.boot_id, frame.payload)
        if self.usb_serial:
            info = dataclasses.replace(info, usb_serial=self.usb_serial)
        if self.expected_uid and info.uid != self.expected_uid:
            if self.port_name not in self._wrong_board_logged:
                log.error("the board on %s is %s, not the table %s this daemon serves; "
                          "check which USB port each table is on (restart futmesa to serve "
                          "another board)", self.port_name, info.uid, self.expected_uid)
                self._wrong_board_logged.add(self.port_name)
            self._close("another table's board")
            return
        self.refused = None
        same = self.info is not None and (info.uid, info.boot_id) == (
            self.info.uid, self.info.boot_id)
        if frame.seq == 1 and same and self._hello_sent:
            if self._synced:
                return  # a repeated answer to a repeated HELLO
            # the device now replays from our cursor
            self.info = info
            self._newest = max(self._newest, info.newest)
            self._synced = True
            self._set_connected(True, f"{info.board} {info.uid} boot {info.boot_id}")
            self._resend_commands(info)
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

    def _device_changed(self, info: DeviceInfo) -> None:
        """A new device or a new boot: close the old boot, find our cursor for the new one."""
        old = self.info
        if old is not None and old.uid == info.uid and self.boot:
            # the device was reset: what it made but we never got is gone with its RAM
            boot, seq = self._cursor
            first = seq + 1 if boot == self.boot else 1
            if self._newest >= first:
                self._record_gap(old, self.boot, first, self._newest, "the table was reset")
        cursor = self.sink.on_device(info)
        self.boot = extend_boot(info.boot_id, cursor[0], cursor[1], info.newest)
        self._cursor = cursor
        self._newest = 0
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
        self._last_hello = time.monotonic()
        self._write(W.encode_frame(W.MSG_HELLO, self.info.boot_id, 0, 0,
                                   struct.pack(W.HELLO_FMT, W.PROTO_VERSION, wire_boot(boot),
                                               seq)))
        # a round trip right away: the device answers it before it starts replaying, so
        # replayed events are placed in time by a real sample, not by their arrival
        now = time.monotonic()
        self._last_ping = now
        self._write(W.encode_frame(W.MSG_PING, self.info.boot_id, 0, 0,
                                   struct.pack(W.PING_FMT, int(now * 1000) & 0xFFFFFFFF)))

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
        if frame.seq > self._newest:
            self._newest = frame.seq
        if frame.seq < expected:
            self.stats.duplicates += 1
            self._ack()
            return
        if frame.seq > expected:
            self.stats.out_of_order += 1
            self._ack()  # a repeated ack: the device resends from expected
            return
        payload = unpack_event(frame.payload)
        self.sink.on_event(self.info, self.boot, frame.seq, frame.ticks, payload)
        self._cursor = (self.boot, frame.seq)
        self.stats.events += 1
        self._ack()

    def _record_gap(self, info: DeviceInfo, boot: int, first: int, last: int, why: str) -> None:
        self.stats.gaps += 1
        log.warning("table %s: events %d..%d of boot %d will never arrive (%s); recorded as "
                    "a gap", info.uid, first, last, boot, why)
        self.sink.on_gap(info, boot, first, last)
        self._cursor = (boot, last)

    def _on_gap(self, gap: Gap) -> None:
        assert self.info is not None
        first = self._expected()
        last = gap.oldest - 1
        if last >= first:
            self._record_gap(self.info, self.boot, first, last,
                             "the table's ring overflowed while the host was away")
        self._ack()
