"""Is a path a usable event log? One line saying why not, before SQLite touches it.

A folder that does not exist is refused, never created: an unmounted USB stick's path
would otherwise log the match to the SD card. A path that cannot hold a file (``/proc``,
a read-only disk) is told apart from a file that is not an SQLite database.
"""

from __future__ import annotations

import os
from pathlib import Path

from futmesa.i18n import _

SQLITE_MAGIC = b"SQLite format 3\x00"


def db_problem(path: str | os.PathLike[str], *, create: bool) -> str | None:
    """None when ``path`` is (or, with ``create``, may become) an event log; else why not."""
    p = Path(path)
    folder = p.parent if str(p.parent) else Path(".")
    if not folder.is_dir():
        return _("the folder {folder} does not exist (is the USB stick or disk mounted?): "
                 "create it first, or give another --db; futmesa does not create folders").format(
            folder=folder)
    if p.is_dir():
        return _("{path} is a folder: give a file path for the event log, e.g. "
                 "{path}/futmesa.sqlite").format(path=p)
    if p.exists():
        if not p.is_file():
            return _("{path} is not a regular file: give a file on a disk for the event log"
                     ).format(path=p)
        try:
            with p.open("rb") as f:
                head = f.read(len(SQLITE_MAGIC))
        except OSError as exc:
            return _("cannot read {path} ({why}): check its permissions, or give another --db"
                     ).format(path=p, why=exc.strerror)
        if head and head != SQLITE_MAGIC:
            return _("{path} is not a futmesa event log (not an SQLite file): give another --db, "
                     "or move this file away").format(path=p)
        return None
    if not create:
        return _("{path} does not exist: give the event log a futmesa serve wrote (--db)"
                 ).format(path=p)
    try:
        fd = os.open(p, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
    except OSError as exc:
        return _("cannot create the event log {path} ({why}): the folder {folder} does not "
                 "take new files (a read-only or virtual file system?); give a path on a disk"
                 ).format(path=p, why=exc.strerror, folder=folder)
    os.close(fd)
    os.unlink(p)
    return None
