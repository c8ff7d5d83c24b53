"""Each running `futmesa sim` its own table id: SIM00001, SIM00002, … ("Mesa 1", "Mesa 2"), so
two simulated tables on one computer never merge into one table on the host.

A number is held by a lock file in the temporary folder while its sim runs (released when
the process ends, even killed); the first free one is taken, or the one asked for with
``futmesa sim --table N`` (refused with what to do when another sim holds it).
"""

from __future__ import annotations

import fcntl
import os
import tempfile
from pathlib import Path
from typing import IO

from futmesa.i18n import _

MAX_TABLES = 99


class TableIdInUse(Exception):
    """The table number asked for is held by another running `futmesa sim`."""


def uid_of(number: int) -> str:
    return f"SIM{number:05d}"


def _folder() -> Path:
    path = Path(tempfile.gettempdir()) / f"futmesa-sim-ids-{os.getuid()}"
    path.mkdir(mode=0o700, exist_ok=True)
    return path


def _try(number: int) -> IO[str] | None:
    handle = (_folder() / f"{uid_of(number)}.lock").open("a")
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.close()
        return None
    return handle


def claim(number: int | None = None) -> tuple[str, IO[str]]:
    """(the uid, the held lock: keep it open while the sim runs)."""
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
