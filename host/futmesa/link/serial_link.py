"""The serial link to one table: the protocol state machine on a serial port, in a thread.

`SerialTransport` opens the port (by path, by glob pattern, or by the board's
USB serial number, reopened automatically after an unplug), reads and writes
bytes. `HostLink` is the protocol (`LinkProtocol`, protocol.py) given that
transport, plus the thread that feeds it what arrives and lets time pass.
The protocol is described in docs/protocol.md.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable

import serial

from futmesa.i18n import _
from futmesa.link import ports
from futmesa.link.protocol import (
    BAD_FRAME_LOG_S,
    BOOT_PERIOD,
    CMD_RETRY_S,
    HELLO_RETRY_S,
    PING_S,
    SILENCE_S,
    LinkProtocol,
    LinkSink,
    LinkStats,
    extend_boot,
    wire_boot,
)

log = logging.getLogger("futmesa.link")

REOPEN_S = 0.5  # between attempts to reopen a vanished port
READ_TIMEOUT_S = 0.02

__all__ = ["BAD_FRAME_LOG_S", "BOOT_PERIOD", "CMD_RETRY_S", "HELLO_RETRY_S", "PING_S",
           "REOPEN_S", "SILENCE_S", "HostLink", "LinkSink", "LinkStats", "SerialTransport",
           "extend_boot", "wire_boot"]

def missing_port_line(path: str) -> str:
    """The one line said while a table's port does not exist (not plugged in yet)."""
    return _("port {path} does not exist: plug the table into USB (or check --device); "
             "waiting for it to appear").format(path=path)


class SerialTransport:
    """A table's serial port: found, opened exclusively, read, written, reopened."""

    def __init__(self, port: str, baudrate: int = 115200,
                 explain: Callable[[str], str | None] | None = None) -> None:
        """``explain(path)`` says why a port cannot be opened (not a serial port, held by
        another program), for the one warning logged while it stays closed; the daemon
        gives it (futmesa.portcheck), the link itself knows nothing of the machine."""
        self.port_spec = port
        self.explain = explain
        self.baudrate = baudrate
        self.name = port
        self.usb_serial: str | None = None
        self._serial: serial.Serial | None = None
        self._try_index = 0
        self._open_error_logged = False

    @property
    def is_open(self) -> bool:
        return self._serial is not None

    def open(self) -> bool:
        """Try the next candidate port; True when one is open."""
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
                problem = self.explain(path) if self.explain else None
                if not os.path.exists(path):
                    log.warning("%s", missing_port_line(path))
                elif problem:
                    log.warning(_("cannot open %s: %s; retrying every %.1f s"), path, problem,
                                REOPEN_S)
                else:
                    log.warning(_("cannot open %s (%s); retrying every %.1f s — is the table "
                                  "plugged in?"), path, exc, REOPEN_S)
                self._open_error_logged = True
            return False
        self._serial = ser
        self.name = path
        self._open_error_logged = False
        serial_no = ports.usb_serial_of(path)
        if serial_no:
            self.usb_serial = serial_no
        if serial_no:
            log.info(_("opened %s (USB serial number %s)"), path, serial_no)
        else:
            log.info(_("opened %s"), path)
        return True

    def read(self) -> bytes:
        """What has arrived: blocks up to READ_TIMEOUT_S for the first byte only."""
        ser = self._serial
        if ser is None:
            return b""
        try:
            data = ser.read(1)
            if data and ser.in_waiting:
                data += ser.read(min(ser.in_waiting, 4096))
        except (serial.SerialException, OSError, TypeError, AttributeError) as exc:
            raise OSError(_("port error: {error}").format(error=exc)) from exc
        return data

    def write(self, data: bytes) -> None:
        ser = self._serial
        if ser is None:
            return
        try:
            ser.write(data)
        except (serial.SerialException, OSError) as exc:
            log.warning(_("write to %s failed: %s"), self.name, exc)

    def close(self) -> bool:
        """Close the port; True if one was open."""
        ser, self._serial = self._serial, None
        if ser is None:
            return False
        try:
            ser.close()
        except (serial.SerialException, OSError):
            pass
        return True


class HostLink(LinkProtocol):
    """The link protocol on a serial port, in its own thread."""

    def __init__(self, port: str, sink: LinkSink, baudrate: int = 115200,
                 expected_uid: str | None = None, pin_uid: bool = True,
                 transport: SerialTransport | None = None,
                 explain: Callable[[str], str | None] | None = None) -> None:
        """port: a path, or a glob pattern (e.g. /dev/ttyACM*) to search."""
        self.serial = transport or SerialTransport(port, baudrate, explain)
        super().__init__(sink, self.serial, expected_uid=expected_uid, pin_uid=pin_uid)
        self.port_spec = port
        self.port_name = port
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    # -- lifecycle ---------------------------------------------------------------
    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name=f"link {self.port_spec}",
                                        daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread:
            self._thread.join(timeout=2)
        self._close(_("stopped"))

    def _close(self, reason: str) -> None:
        if self.serial.close():
            self.closed(reason)
        else:
            self._set_connected(False, reason)

    def wrong_board(self) -> None:
        self._close(_("another table's board"))

    # -- the thread ------------------------------------------------------------------
    def _run(self) -> None:
        while not self._stop.is_set():
            if not self.serial.is_open:
                if not self.serial.open():
                    self._stop.wait(REOPEN_S)
                    continue
                self.opened(self.serial.name, self.serial.usb_serial)
            try:
                data = self.serial.read()
            except OSError as exc:
                self._close(str(exc))
                continue
            if data:
                self.receive(data)
            try:
                self.tick()
            except Exception:  # noqa: BLE001 - a sink callback failed: log it, keep serving
                log.exception(_("link housekeeping failed on %s; carrying on"), self.port_name)
                self._stop.wait(0.2)
