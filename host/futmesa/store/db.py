"""Every SQLite file futmesa writes (the event log, the outbox, the desk, the competition):
how it is opened, the one write transaction, and the schema's steps.

The transaction survives a full disk: SQLite may roll a transaction back by itself when a
write or the COMMIT fails (SQLITE_FULL): a ROLLBACK then fails with "cannot rollback - no
transaction is active" and hides the real error; a failed COMMIT that leaves the transaction
open makes every later BEGIN fail, so the fault never clears. This handles both.

A schema is a list of steps, each applied once, in order; the steps a file has taken are
counted per part (several parts share one file: the event log and the outbox, the desk and
the competition) in ``futmesa_schema``. A step must also be safe on a file written before
the count was kept (``CREATE … IF NOT EXISTS``, a column added only when missing).
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

Step = Callable[[sqlite3.Connection], None]


def connect(path: str | Path, *, timeout: float = 30.0) -> sqlite3.Connection:
    """The file opened for a thread-shared, autocommit connection: WAL, every commit synced."""
    db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None,
                         timeout=timeout)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=FULL")
    return db


@contextmanager
def write_transaction(db: sqlite3.Connection,
                      lock: threading.Lock | threading.RLock) -> Iterator[sqlite3.Connection]:
    """``BEGIN IMMEDIATE`` … ``COMMIT`` on ``db`` (autocommit mode) under ``lock``."""
    with lock:
        db.execute("BEGIN IMMEDIATE")
        try:
            yield db
        except BaseException:
            if db.in_transaction:  # SQLite may have rolled back already (disk full)
                db.execute("ROLLBACK")
            raise
        try:
            db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:  # never leave it open: every later BEGIN would fail
                db.execute("ROLLBACK")
            raise


def add_column(db: sqlite3.Connection, table: str, column: str, spec: str) -> None:
    """``ALTER TABLE … ADD COLUMN`` unless the table has it already (a step's building block)."""
    if column not in {r[1] for r in db.execute(f"PRAGMA table_info({table})")}:
        db.execute(f"ALTER TABLE {table} ADD COLUMN {column} {spec}")


def migrate(db: sqlite3.Connection, part: str, steps: Sequence[Step]) -> int:
    """Take the steps of ``part`` the file has not taken yet; returns how many it has now.

    A file that cannot be written (a read-only copy) is read as it is: the steps it lacks
    are skipped, and a read that needs them fails as a write would."""
    try:
        db.execute("CREATE TABLE IF NOT EXISTS futmesa_schema ("
                   "part TEXT PRIMARY KEY, version INTEGER NOT NULL)")
        row = db.execute("SELECT version FROM futmesa_schema WHERE part=?", (part,)).fetchone()
    except sqlite3.OperationalError:  # read-only, and from before the count was kept
        row = None
        done = 0
        for step in steps:
            try:
                step(db)
            except sqlite3.OperationalError:
                continue
            done += 1
        return done
    done = int(row[0]) if row else 0
    for version, step in enumerate(steps[done:], start=done + 1):
        try:
            step(db)
            db.execute("INSERT INTO futmesa_schema(part, version) VALUES (?,?) ON CONFLICT"
                       "(part) DO UPDATE SET version=excluded.version", (part, version))
        except sqlite3.OperationalError:  # read-only: the file stays as it was written
            break
        done = version
    return done
