"""The durable event log: one SQLite file, committed per event.

Every device event is written and committed here before it is acknowledged to the device or
applied by the rules. Match entries (device events that belong to a match, referee inputs,
corrections) are appended and never updated or deleted, so a match is always a replay of its
log; a match's header records when it ended, and the history's summaries are derived data
kept beside it. The rooms: devices.py (the device ledger), matches.py (matches, entries, the
chain), summaries.py (the history's cache), tokens.py (the referee's console tokens),
schema.py (the tables and their steps), db.py (how every futmesa file is opened and written).
"""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

from futmesa.i18n import _
from futmesa.store.db import connect, migrate
from futmesa.store.devices import DeviceLedger
from futmesa.store.matches import MatchRecords
from futmesa.store.schema import STEPS
from futmesa.store.summaries import SummaryCache
from futmesa.store.tokens import RefereeTokens


class EventLog(DeviceLedger, MatchRecords, SummaryCache, RefereeTokens):
    """One SQLite file; safe to share between the table's thread and the web server."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.RLock()
        try:
            self._db = connect(self.path, timeout=5.0)
            migrate(self._db, "event-log", STEPS)
        except sqlite3.DatabaseError as exc:  # not a database file (a read-only one opens)
            raise SystemExit(_(
                "error: {path} is not a futmesa event log ({error}). Pass another --db path, "
                "or move this file away.").format(path=self.path, error=exc)) from exc

    def close(self) -> None:
        with self._lock:
            self._db.close()
