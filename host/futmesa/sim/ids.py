"""Each running `futmesa sim` its own table id: SIM00001, SIM00002, … ("Mesa 1", "Mesa 2"), so
two simulated tables on one computer never merge into one table on the host.

A number is held by a socket bound in Linux's abstract namespace (``\\0futmesa-sim-<uid>-N``)
while its sim runs: the kernel releases it when the process ends, even killed, and nothing is
left in the temporary folder. The first free number is taken, or the one asked for with
``futmesa sim --table N`` (refused with what to do when another sim holds it).
"""

from __future__ import annotations

import errno
import os
import socket

from futmesa.i18n import _

MAX_TABLES = 99


class TableIdInUse(Exception):
    """The table number asked for is held by another running `futmesa sim`."""


def uid_of(number: int) -> str:
    return f"SIM{number:05d}"


def _try(number: int) -> socket.socket | None:
    held = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        held.bind(f"\0futmesa-sim-{os.getuid()}-{uid_of(number)}")
    except OSError as exc:
        held.close()
        if exc.errno == errno.EADDRINUSE:
            return None
        raise
    return held


def claim(number: int | None = None) -> tuple[str, socket.socket]:
    """(the uid, the held socket: keep it open while the sim runs)."""
    if number is not None:
        held = _try(number)
        if held is None:
            raise TableIdInUse(_(
                "table {n} is already simulated by another futmesa sim on this computer: "
                "stop that one, or give this one another number (--table {free})").format(
                    n=number, free=number + 1))
        return uid_of(number), held
    for n in range(1, MAX_TABLES + 1):
        held = _try(n)
        if held is not None:
            return uid_of(n), held
    raise TableIdInUse(_("{count} simulated tables already run on this computer: stop one "
                         "first").format(count=MAX_TABLES))
