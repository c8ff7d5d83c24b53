"""The host's serial link to one table: pyserial transport, handshake, acks, commands, time sync.

Runs in its own thread. The port is reopened automatically after an unplug.
Each connection starts with HELLO (identify only), then HELLO with the last
(boot id, seq) the event log has committed for that device, so the device
replays exactly what the host lacks. An event is acknowledged only after
the sink has committed it; a frame out of sequence is not applied (a repeated
ack asks the device to resend), so the log never has a hole or a duplicate.
"""

from __future__ import annotations

import logging
import struct
import threading
import time
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Protocol

import serial

import futmesa_wire as W
from futmesa.link.events import unpack_event
from futmesa.link.messages import DeviceInfo, Gap, Profile, Status
from futmesa.link.timesync import TimeSync

log = logging.getLogger("futmesa.link")

HELLO_RETRY_S = 1.0  # how often to ask an unknown device who it is
PING_S = 1.0  # heartbeat and time-sync round trip
SILENCE_S = 3.0  # nothing heard this long: the table is disconnected
CMD_RETRY_S = 0.5  # a command not acknowledged this long is sent again (same seq)
REOPEN_S = 0.5  # between attempts to reopen a vanished port
BAD_FRAME_LOG_S = 5.0  # bad frames are counted always, logged at most once per burst
READ_TIMEOUT_S = 0.02


class LinkSink(Protocol):
    """What the link reports to (the daemon). Called from the link thread."""

    def on_device(self, info: DeviceInfo) -> tuple[int, int]:
        """A device identified itself; return the (boot id, seq) committed for it."""

    def on_event(self, info: DeviceInfo, boot_id: int, seq: int, ticks: int,
                 payload: tuple[int, int, int, int, int, int]) -> None:
        """Commit one event (raise to refuse; it will be resent)."""

    def on_gap(self, info: DeviceInfo, boot_id: int, first_seq: int, last_seq: int) -> None: ...

    def on_status(self, info: DeviceInfo, status: Status, wall_ms: float) -> None: ...

    def on_connection(self, connected: bool, reason: str) -> None: ...


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
    last_rx: float = 0.0
    extra: dict[str, int] = field(default_factory=dict)


class HostLink:
    def __init__(self, port: str, sink: LinkSink, next_cmd_seq, baudrate: int = 115200,
                 expected_uid: str | None = None) -> None:
        self.port_name = port
        self.sink = sink
        self.baudrate = baudrate
        self.expected_uid = expected_uid
        self._next_cmd_seq = next_cmd_seq  # callable returning a persistent increasing int
        self.stats = LinkStats()
        self.timesync = TimeSync()
        self.info: DeviceInfo | None = None
        self.connected = False
        self._serial: serial.Serial | None = None
        self._deframer = W.Deframer()
        self._cursor = (0, 0)
        self._synced = False
        self._pending: dict[int, _Pending] = {}
        self._lock = threading.RLock()
        self._write_lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._last_hello = 0.0
        self._hello_sent = False
        self._last_ping = 0.0
        self._last_bad_log = 0.0
        self._bad_since_log = 0
        self._open_error_logged = False

    # -- lifecycle ---------------------------------------------------------------
    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name=f"link {self.port_name}",
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
            seq = self._next_cmd_seq()
            pending = _Pending(seq, msg_type, payload, future)
            self._pending[seq] = pending
            if self._synced:
                self._send_pending(pending)
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
                data = self._serial.read(4096) if self._serial else b""
            except (serial.SerialException, OSError, TypeError, AttributeError) as exc:
                self._close(f"port error: {exc}")
                continue
            if data:
                for block in self._deframer.feed(data):
                    self._handle_block(block)
            self._tick()

    def _open(self) -> bool:
        try:
            self._serial = serial.Serial(self.port_name, self.baudrate, timeout=READ_TIMEOUT_S,
                                         write_timeout=0.5, exclusive=True)
        except (serial.SerialException, OSError) as exc:
            if not self._open_error_logged:
                log.warning("cannot open %s (%s); retrying every %.1f s — is the table plugged in?",
                            self.port_name, exc, REOPEN_S)
                self._open_error_logged = True
            return False
        self._open_error_logged = False
        self._deframer = W.Deframer()
        self._synced = False
        self._hello_sent = False
        self._last_hello = 0.0
        self.stats.last_rx = time.monotonic()
        log.info("opened %s", self.port_name)
        return True

    def _close(self, reason: str) -> None:
        ser, self._serial = self._serial, None
        if ser is not None:
            try:
                ser.close()
            except (serial.SerialException, OSError):
                pass
            self.stats.reconnects += 1
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
            if now - self._last_hello >= HELLO_RETRY_S and self._hello_sent and self.info:
                self._send_cursor_hello()
            elif now - self._last_hello >= HELLO_RETRY_S:
                self._last_hello = now
                self._write(W.encode_frame(W.MSG_HELLO, 0, 0, 0, struct.pack(
                    W.HELLO_FMT, W.PROTO_VERSION, 0, W.IDENTIFY_ONLY)))
        else:
            if now - self._last_ping >= PING_S:
                self._last_ping = now
                self._write(W.encode_frame(W.MSG_PING, self.info.boot_id if self.info else 0, 0, 0,
                                           struct.pack(W.PING_FMT, int(now * 1000) & 0xFFFFFFFF)))
            with self._lock:
                for p in self._pending.values():
                    if now - p.sent_at >= CMD_RETRY_S:
                        self._send_pending(p)
        if now - self.stats.last_rx >= SILENCE_S:
            if self.connected or self._synced:
                self._synced = False
                self._hello_sent = False
                self._set_connected(False, f"no answer for {SILENCE_S:.0f} s")
            self.stats.last_rx = now  # re-arm; HELLO keeps being retried meanwhile

    # -- receiving -------------------------------------------------------------------
    def _bad(self, why: str) -> None:
        self.stats.bad_frames += 1
        self._bad_since_log += 1
        now = time.monotonic()
        if now - self._last_bad_log >= BAD_FRAME_LOG_S:
            log.warning("%d bad frame(s) from %s (last: %s); line noise or a loose cable?",
                        self._bad_since_log, self.port_name, why)
            self._last_bad_log = now
            self._bad_since_log = 0

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
                log.error("the table speaks protocol %d and this host %d: update the firmware "
                          "(futmesa flash) or futmesa so they match", dev, host)
                self._set_connected(False, f"protocol mismatch (device {dev}, host {host})")
            elif self.info is None or frame.boot_id != self.info.boot_id:
                if t != W.MSG_LOG:
                    self._synced = False  # a device we have not identified (rebooted?)
            elif t == W.MSG_EVENT and self._synced:
                self._on_event(frame)
            elif t == W.MSG_STATUS and self._synced:
                status = Status.decode(frame.ticks, frame.payload)
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
                self._on_gap(Gap.decode(frame.payload))
            elif t == W.MSG_LOG:
                log.info("device: %s", frame.payload.decode(errors="replace"))
        except (struct.error, W.FrameError, ValueError) as exc:
            self._bad(f"bad payload for message 0x{t:02x}: {exc}")

    def _on_hello_ack(self, frame: W.Frame) -> None:
        info = DeviceInfo.decode(frame.boot_id, frame.payload)
        if info.proto != W.PROTO_VERSION:
            log.error("table protocol %d, host %d: update the firmware with futmesa flash",
                      info.proto, W.PROTO_VERSION)
            self._set_connected(False, "protocol mismatch")
            return
        if self.expected_uid and info.uid != self.expected_uid:
            log.error("the board on %s is %s, not the table %s this daemon serves; "
                      "check which USB port each table is on", self.port_name, info.uid,
                      self.expected_uid)
            self._close("another table's board")
            return
        same = self.info is not None and (info.uid, info.boot_id) == (
            self.info.uid, self.info.boot_id)
        if frame.seq == 1 and same and self._hello_sent:
            if self._synced:
                return  # a repeated answer to a repeated HELLO
            # the device now replays from our cursor
            self.info = info
            self._synced = True
            self._set_connected(True, f"{info.board} {info.uid} boot {info.boot_id}")
            with self._lock:
                for seq in [s for s in self._pending if s <= info.last_cmd_seq]:
                    # executed before the link dropped; the device will not ack it again
                    self._pending.pop(seq).future.set_result(W.ACK_DUPLICATE)
                for p in self._pending.values():
                    self._send_pending(p)
            return
        # the device identified itself (or rebooted): fetch our cursor and say HELLO
        if not same:
            self.timesync.reset(info.tick_rate, info.tick_bits)
        self.info = info
        self._synced = False
        self._cursor = self.sink.on_device(info)
        self._send_cursor_hello()

    def _send_cursor_hello(self) -> None:
        assert self.info is not None
        boot, seq = self._cursor
        self._hello_sent = True
        self._last_hello = time.monotonic()
        self._write(W.encode_frame(W.MSG_HELLO, self.info.boot_id, 0, 0,
                                   struct.pack(W.HELLO_FMT, W.PROTO_VERSION, boot, seq)))

    def _expected(self, boot_id: int) -> int:
        boot, seq = self._cursor
        return seq + 1 if boot == boot_id else 1

    def _ack(self) -> None:
        boot, seq = self._cursor
        if self.info and boot == self.info.boot_id:
            self._write(W.encode_frame(W.MSG_ACK, boot, 0, 0, struct.pack(W.ACK_FMT, boot, seq)))

    def _on_event(self, frame: W.Frame) -> None:
        assert self.info is not None
        expected = self._expected(frame.boot_id)
        if frame.seq < expected:
            self.stats.duplicates += 1
            self._ack()
            return
        if frame.seq > expected:
            self.stats.out_of_order += 1
            if self._cursor[0] != frame.boot_id:
                # nothing of this boot yet: ack 0 so the device resends from its oldest
                self._write(W.encode_frame(W.MSG_ACK, frame.boot_id, 0, 0,
                                           struct.pack(W.ACK_FMT, frame.boot_id, 0)))
            else:
                self._ack()
            return
        payload = unpack_event(frame.payload)
        self.sink.on_event(self.info, frame.boot_id, frame.seq, frame.ticks, payload)
        self._cursor = (frame.boot_id, frame.seq)
        self.stats.events += 1
        self._ack()

    def _on_gap(self, gap: Gap) -> None:
        assert self.info is not None
        boot = self.info.boot_id
        first = self._expected(boot)
        last = gap.oldest - 1
        if last >= first:
            self.stats.gaps += 1
            log.warning("table %s lost events %d..%d of boot %d while the host was away; "
                        "recorded as a gap, the state snapshot restores the match",
                        self.info.uid, first, last, boot)
            self.sink.on_gap(self.info, boot, first, last)
            self._cursor = (boot, last)
        elif self._cursor[0] != boot:
            self._cursor = (boot, 0)
        self._ack()
