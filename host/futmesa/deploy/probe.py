"""Ask a board who it is over the futmesa link without taking its events.

Used by `futmesa flash` (version after reboot) and `futmesa doctor`. The probe
opens the port with the real `HostLink` and answers the handshake with the
device's own newest sequence number, so nothing is replayed; with
`replay=True` it asks for the whole ring instead (doctor reads the sensors'
fault history from it). With `diag_s` it also collects the device's live raw
readings (CMD_DIAG -> MSG_DIAG) for that long. Nothing is lost for the daemon that serves the table
later: an acknowledgement only moves the device's send pointer, and the
daemon's own handshake cursor moves it back to whatever the daemon lacks.
"""

from __future__ import annotations

import os
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from serial.tools import list_ports

from futmesa.i18n import _
from futmesa.link import DeviceInfo, HostLink, Status


class ProbeError(RuntimeError):
    """No board answered; the message says what to do."""


@dataclass
class ProbeResult:
    port: str
    info: DeviceInfo
    status: Status | None = None
    # (seq, ticks, (kind, a, b, period, clock_ms, value)) in sequence order
    events: list[tuple[int, int, tuple[int, int, int, int, int, int]]] = field(
        default_factory=list)
    # live raw readings (futmesa_wire.DIAG_FMT tuples), oldest first, when asked for
    diag: list[tuple[int, ...]] = field(default_factory=list)


class _ProbeSink:
    def __init__(self, replay: bool = False) -> None:
        self.replay = replay
        self.info: DeviceInfo | None = None
        self.status: Status | None = None
        self.events: list[tuple[int, int, tuple[int, int, int, int, int, int]]] = []
        self.diag: list[tuple[int, ...]] = []
        self.reasons: list[str] = []
        self.lock = threading.Lock()
        self.got_info = threading.Event()
        self.got_status = threading.Event()

    def on_device(self, info: DeviceInfo) -> tuple[int, int]:
        with self.lock:
            self.info = info
        self.got_info.set()
        if self.replay:
            return info.boot_id, max(0, info.oldest - 1)
        return info.boot_id, info.newest

    def on_event(self, info: DeviceInfo, boot_id: int, seq: int, ticks: int,
                 payload: tuple[int, int, int, int, int, int]) -> None:
        with self.lock:
            self.events.append((seq, ticks, payload))

    def on_gap(self, info: DeviceInfo, boot_id: int, first_seq: int, last_seq: int) -> None:
        pass

    def on_diag(self, info: DeviceInfo, ticks: int, values: tuple[int, ...]) -> None:
        with self.lock:
            self.diag.append(values)

    def on_status(self, info: DeviceInfo, status: Status, wall_ms: float) -> None:
        with self.lock:
            self.status = status
        self.got_status.set()

    def on_connection(self, connected: bool, reason: str) -> None:
        with self.lock:
            self.reasons.append(reason)


def serial_ports() -> list[Any]:
    """The serial ports the OS lists (pyserial's ListPortInfo)."""
    return sorted(list_ports.comports(), key=lambda p: p.device)


def describe_ports() -> str:
    ports = serial_ports()
    if not ports:
        return _("no serial ports found")
    serial_word = _("serial number")
    return "; ".join(f"{p.device} ({p.description}, {serial_word} {p.serial_number or '-'})"
                     for p in ports)


def find_port(serial_number: str | None = None) -> str:
    """The port of a board: by USB serial number if given, else the only USB serial port."""
    ports = [p for p in serial_ports() if p.vid is not None]
    if serial_number:
        ports = [p for p in ports if (p.serial_number or "").lower() == serial_number.lower()]
        if not ports:
            raise ProbeError(_("no USB serial port with serial number {serial}; found: "
                               "{ports}. Check the cable or the number.").format(
                                   serial=serial_number, ports=describe_ports()))
    if not ports:
        raise ProbeError(_("no board found on USB: plug it in with a data USB cable (some "
                           "cables only charge), or pass --port. Ports seen: {ports}").format(
                               ports=describe_ports()))
    if len(ports) > 1:
        raise ProbeError(_("several USB serial ports: pass --port or --serial. Found: {ports}")
                         .format(ports=describe_ports()))
    return str(ports[0].device)


def probe(port: str, timeout_s: float = 5.0, want_status: bool = True,
          baudrate: int = 115200, replay: bool = False, settle_s: float = 0.0,
          diag_s: float = 0.0) -> ProbeResult:
    """Handshake with the board on `port`; ProbeError says what to do when nothing answers."""
    if not os.path.exists(port):
        raise ProbeError(_("{port} does not exist: is the board plugged in? Ports seen: {ports}")
                         .format(port=port, ports=describe_ports()))
    sink = _ProbeSink(replay)
    link = HostLink(port, sink, baudrate=baudrate)
    link.start()
    try:
        deadline = time.monotonic() + timeout_s
        if not sink.got_info.wait(timeout_s):
            raise ProbeError(_(
                "nothing on {port} answered the futmesa handshake within {seconds} s. If the "
                "board is new, flash it: `futmesa flash --board pico --port {port}`. If another "
                "program has the port open (futmesa serve, Thonny, screen), close it."
            ).format(port=port, seconds=f"{timeout_s:g}"))
        if want_status:
            sink.got_status.wait(max(0.0, deadline - time.monotonic()) + 1.5)
        if replay:
            _wait_replay(sink, settle_s or 3.0)
        if diag_s > 0:
            _collect_diag(link, diag_s)
        with sink.lock:
            assert sink.info is not None
            return ProbeResult(port, sink.info, sink.status, list(sink.events), list(sink.diag))
    finally:
        link.stop()


def _collect_diag(link: HostLink, seconds: float) -> None:
    """Live readings for `seconds`; a firmware without CMD_DIAG simply sends none."""
    import futmesa_wire as W

    try:
        link.command(W.CMD_DIAG, 1).result(timeout=2.0)
    except Exception:  # noqa: BLE001 - no answer: the doctor reports no live readings
        return
    time.sleep(seconds)
    link.command(W.CMD_DIAG, 0)  # it also ends with the session (silence or the next HELLO)


def _wait_replay(sink: _ProbeSink, max_s: float) -> None:
    """Wait until the replayed events reach the newest one the device announced."""
    assert sink.info is not None
    end = time.monotonic() + max_s
    while time.monotonic() < end:
        with sink.lock:
            last = sink.events[-1][0] if sink.events else 0
        if last >= sink.info.newest:
            return
        time.sleep(0.02)
