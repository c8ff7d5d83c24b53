"""What every room of the event log shares: the connection, its lock, the write transaction."""

from __future__ import annotations

import sqlite3
import threading
from contextlib import AbstractContextManager

from futmesa import chain
from futmesa.store.db import write_transaction


class LogFile:
    """The event log's file; its rooms (devices, matches, summaries) read and write through it."""

    _db: sqlite3.Connection
    _lock: threading.RLock
    # every entry is chained in the transaction that stores it (futmesa/chain.py)
    _seal = staticmethod(chain.seal)

    def transaction(self) -> AbstractContextManager[sqlite3.Connection]:
        """A write transaction on the log (:func:`futmesa.store.db.write_transaction`)."""
        return write_transaction(self._db, self._lock)
