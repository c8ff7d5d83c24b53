"""The messages the desk refused, kept in its file (``venue_refusals``): the same refusal
again only counts up, and only the newest few hundred are kept; the board shows the newest."""

from __future__ import annotations

import sqlite3
import threading
import time
from typing import Any

from futmesa.store.db import write_transaction

SCHEMA = """
CREATE TABLE IF NOT EXISTS venue_refusals (
    id INTEGER PRIMARY KEY,
    table_id TEXT NOT NULL,
    what TEXT NOT NULL,
    reason TEXT NOT NULL,
    excerpt TEXT NOT NULL,
    first_at REAL NOT NULL,
    last_at REAL NOT NULL,
    times INTEGER NOT NULL DEFAULT 1,
    UNIQUE (table_id, what, reason)
);
"""
REFUSALS_KEPT = 500


class RefusalLog:
    def __init__(self, db: sqlite3.Connection, lock: threading.RLock) -> None:
        self._db = db
        self._lock = lock
        db.executescript(SCHEMA)

    def keep(self, table: str, what: str, reason: str, payload: bytes = b"") -> int:
        """Store one refusal; how many times it has now been made. A failed write raises
        (the caller says so on the board)."""
        excerpt = payload[:160].decode("utf-8", errors="replace")
        now = time.time()
        with write_transaction(self._db, self._lock) as db:
            cur = db.execute(
                "INSERT INTO venue_refusals(table_id, what, reason, excerpt, first_at,"
                " last_at) VALUES (?,?,?,?,?,?) ON CONFLICT(table_id, what, reason) DO"
                " UPDATE SET times=times+1, last_at=excluded.last_at,"
                " excerpt=excluded.excerpt RETURNING times",
                (table, what, reason, excerpt, now, now))
            times = int(cur.fetchone()[0])
            db.execute("DELETE FROM venue_refusals WHERE id NOT IN (SELECT id FROM"
                       " venue_refusals ORDER BY last_at DESC LIMIT ?)", (REFUSALS_KEPT,))
        return times

    def newest(self, limit: int = 20) -> list[dict[str, Any]]:
        with self._lock:
            cur = self._db.execute(
                "SELECT table_id, what, reason, excerpt, first_at, last_at, times FROM"
                " venue_refusals ORDER BY last_at DESC, id DESC LIMIT ?", (limit,))
            names = [d[0] for d in cur.description]
            return [dict(zip(names, r, strict=True)) for r in cur.fetchall()]
