"""Is a path a usable event log? One line saying why not, before SQLite touches it.

A folder that does not exist is refused, never created: an unmounted USB stick's path
would otherwise log the match to the SD card. A path that cannot hold a file (``/proc``,
a read-only disk) is told apart from a file that is not an SQLite database.
"""

from __future__ import annotations

import os
from pathlib import Path

SQLITE_MAGIC = b"SQLite format 3\x00"


def db_problem(path: str | os.PathLike[str], *, create: bool) -> str | None:
    """None when ``path`` is (or, with ``create``, may become) an event log; else why not."""
    p = Path(path)
    folder = p.parent if str(p.parent) else Path(".")
    if not folder.is_dir():
        return (f"the folder {folder} does not exist (is the USB stick or disk mounted?): "
                f"create it first, or pass another --db; futmesa does not create folders")
    if p.is_dir():
        return f"{p} is a folder: pass a file path for the event log, e.g. {p}/futmesa.sqlite"
    if p.exists():
        if not p.is_file():
            return f"{p} is not a regular file: pass a file on a disk for the event log"
        try:
            with p.open("rb") as f:
                head = f.read(len(SQLITE_MAGIC))
        except OSError as exc:
            return f"cannot read {p} ({exc.strerror}): check its permissions, or pass another --db"
        if head and head != SQLITE_MAGIC:
            return (f"{p} is not a futmesa event log (not an SQLite file): pass another --db, "
                    "or move this file away")
        return None
    if not create:
        return f"{p} does not exist: pass the event log a futmesa serve wrote (--db)"
    try:
        fd = os.open(p, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
    except OSError as exc:
        return (f"cannot create the event log {p} ({exc.strerror}): the folder {folder} does "
                "not take new files (a read-only or virtual file system?); pass a path on a disk")
    os.close(fd)
    os.unlink(p)
    return None
