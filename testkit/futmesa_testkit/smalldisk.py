"""A real small filesystem (tmpfs) that a test fills up and frees, for disk-full tests.

The databases of the venue (the desk's, a table's event log and outbox) live on it; ``fill``
first empties their SQLite write-ahead logs (``wal_checkpoint(TRUNCATE)``: a WAL left large
by earlier writes would take new writes without growing), then writes a filler file until
the filesystem says ENOSPC, so the very next write of any of them fails as on a full disk.
``free`` deletes the filler. Mounting needs root (the suite runs as root, like CI).
"""

from __future__ import annotations

import errno
import os
import sqlite3
import subprocess
import time
from pathlib import Path


class SmallDisk:
    def __init__(self, path: Path, size_mb: int = 16) -> None:
        self.path = path
        path.mkdir(parents=True, exist_ok=True)
        out = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size_mb}m,mode=1777",
                              "tmpfs", str(path)], capture_output=True, text=True)
        if out.returncode:
            raise RuntimeError(f"cannot mount a small filesystem at {path} (root needed): "
                               f"{out.stderr.strip()}")
        self.filler = path / "filler.bin"

    def fill(self, *dbs: Path) -> int:
        """Fill the disk (after emptying the WALs of ``dbs``); returns the filler's size."""
        for db in dbs:
            _truncate_wal(db)
        chunk = b"\0" * 65536
        written = 0
        with self.filler.open("ab", buffering=0) as f:  # nothing left to flush at close
            while True:
                try:
                    f.write(chunk)
                    f.flush()
                    written += len(chunk)
                except OSError as exc:
                    if exc.errno != errno.ENOSPC:
                        raise
                    break
            for size in (4096, 512, 1):  # the last bytes too
                while True:
                    try:
                        os.write(f.fileno(), b"\0" * size)
                        written += size
                    except OSError:
                        break
        return written

    def free(self) -> None:
        self.filler.unlink(missing_ok=True)

    def close(self) -> None:
        self.free()
        subprocess.run(["umount", "-l", str(self.path)], capture_output=True)


def _truncate_wal(db: Path) -> None:
    """Checkpoint ``db`` and truncate its WAL to nothing (retried while a reader holds it)."""
    con = sqlite3.connect(db, timeout=30)
    try:
        deadline = time.monotonic() + 30
        while True:
            busy, _log, _done = con.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
            if not busy:
                return
            if time.monotonic() > deadline:
                raise AssertionError(f"{db}: its WAL could not be emptied (always busy)")
            time.sleep(0.05)
    finally:
        con.close()
