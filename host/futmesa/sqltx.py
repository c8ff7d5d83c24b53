"""One SQLite write transaction that survives a full disk (event log, outbox, desk).

SQLite may roll a transaction back by itself when a write or the COMMIT fails
(SQLITE_FULL): a ROLLBACK then fails with "cannot rollback - no transaction is
active" and hides the real error; a failed COMMIT that leaves the transaction
open makes every later BEGIN fail, so the fault never clears. This handles both.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager


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
