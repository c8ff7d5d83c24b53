"""The history's summaries: derived data, never the truth — one per match, valid while its
version and the match's entries (count, newest id) are what they were when it was made."""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from futmesa.store.base import LogFile
from futmesa.store.rows import chunks, marks


class SummaryCache(LogFile):
    """Summaries kept beside the log (a read-only log keeps none: the history is rebuilt)."""

    def entry_marks(self, ids: list[int]) -> dict[int, tuple[int, int]]:
        """Per match: (number of entries, newest entry id) — what a summary is valid for."""
        out: dict[int, tuple[int, int]] = {}
        with self._lock:
            for chunk in chunks(ids):
                out.update((int(m), (int(n), int(last))) for m, n, last in self._db.execute(
                    "SELECT match_id, COUNT(*), MAX(id) FROM entries"
                    f" WHERE match_id IN ({marks(chunk)}) GROUP BY match_id", chunk))
        return out

    def summaries(self, ids: list[int]) -> dict[int, tuple[str, int, int, dict[str, Any]]]:
        """Stored summaries: match id → (version, entry count, newest entry id, summary)."""
        rows: list[tuple[Any, ...]] = []
        try:
            with self._lock:
                for chunk in chunks(ids):
                    rows += self._db.execute(
                        "SELECT match_id, version, entry_count, last_entry_id, summary"
                        f" FROM match_summaries WHERE match_id IN ({marks(chunk)})",
                        chunk).fetchall()
        except sqlite3.OperationalError:
            return {}
        out: dict[int, tuple[str, int, int, dict[str, Any]]] = {}
        for m, version, n, last, text in rows:
            try:
                out[int(m)] = (str(version), int(n), int(last), json.loads(text))
            except ValueError:
                continue  # a damaged summary is simply rebuilt
        return out

    def put_summaries(self, rows: list[tuple[int, str, int, int, dict[str, Any]]]) -> bool:
        """Keep summaries (match id, version, count, newest id, summary); False if not writable."""
        if not rows:
            return True
        try:
            with self.transaction() as db:
                db.executemany(
                    "INSERT OR REPLACE INTO match_summaries(match_id, version, entry_count,"
                    " last_entry_id, summary) VALUES (?,?,?,?,?)",
                    [(m, v, n, last, json.dumps(s)) for m, v, n, last, s in rows])
        except sqlite3.OperationalError:
            return False  # a read-only log: the history is still right, only not cached
        return True

