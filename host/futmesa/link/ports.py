"""Finding a table's serial port: a fixed path, a glob pattern, or its USB serial number.

A board that comes back on another port (ttyACM0 → ttyACM1 after a replug)
is found again by the USB serial number `serial.tools.list_ports` reported
when it was first seen, or by trying every port a glob pattern matches;
either way the handshake's unique id decides whether it is the same table.
"""

from __future__ import annotations

import glob
import os
from collections.abc import Callable, Iterable
from typing import Any

from serial.tools import list_ports

GLOB_CHARS = "*?["


def _comports() -> list[Any]:
    try:
        return list(list_ports.comports())
    except OSError:
        return []


def usb_serial_of(path: str, comports: Callable[[], Iterable[Any]] = _comports) -> str | None:
    """The USB serial number of the device behind `path`, or None (e.g. a pty)."""
    real = os.path.realpath(path)
    for port in comports():
        if os.path.realpath(port.device) == real and port.serial_number:
            return str(port.serial_number)
    return None


def candidates(spec: str, usb_serial: str | None = None,
               comports: Callable[[], Iterable[Any]] = _comports) -> list[str]:
    """Ports to try, best first: the known board's USB serial number, then `spec`."""
    found: list[str] = []
    if usb_serial:
        found += [p.device for p in comports() if p.serial_number == usb_serial]
    if any(c in spec for c in GLOB_CHARS):
        found += sorted(glob.glob(spec))
    else:
        found.append(spec)
    seen: set[str] = set()
    out = []
    for path in found:
        if path not in seen:
            seen.add(path)
            out.append(path)
    return out
