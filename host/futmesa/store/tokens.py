"""The referee's console tokens, kept with the event log: a table's link (the QR printed once
and taped to the table) lasts across restarts of ``futmesa serve`` on the same log, until
``serve --new-referee-token`` retires it (the retired ones are kept, so a console still
holding one is told why it is refused: futmesa.web.access)."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable

from futmesa.store.base import LogFile

# the token of a host serving one table (and of a table not yet connected)
DEFAULT = ""


class RefereeTokens(LogFile):
    """Each table's current token, and those retired."""

    def referee_token(self, table: str, make: Callable[[], str]) -> str:
        """``table``'s token (DEFAULT: the host's own): the stored one, else ``make()``, stored.
        A read-only log keeps none: the token then lasts this serve session only."""
        try:
            with self.transaction() as db:
                row = db.execute("SELECT token FROM referee_tokens WHERE table_key=? AND"
                                 " retired_at IS NULL", (table,)).fetchone()
                if row:
                    return str(row[0])
                token = make()
                db.execute("INSERT INTO referee_tokens(token, table_key, made_at)"
                           " VALUES (?,?,?)", (token, table, time.time()))
                return token
        except sqlite3.OperationalError:
            return make()

    def retire_referee_tokens(self) -> None:
        """Every table's link stops working (a leaked one); each gets a new token when asked."""
        try:
            with self.transaction() as db:
                db.execute("UPDATE referee_tokens SET retired_at=? WHERE retired_at IS NULL",
                           (time.time(),))
        except sqlite3.OperationalError:
            pass  # a read-only log keeps no tokens: every start makes new ones anyway

    def retired_referee_tokens(self) -> set[str]:
        """The tokens retired so far: a console holding one is told its link was replaced."""
        try:
            with self._lock:
                rows = self._db.execute(
                    "SELECT token FROM referee_tokens WHERE retired_at IS NOT NULL").fetchall()
        except sqlite3.OperationalError:
            return set()
        return {str(r[0]) for r in rows}
