"""A table's match when it connects or the referee asks for a new one: its open match resumed,
or a new one (a stored match this version cannot load is ended, kept, and a new one opened)."""

from __future__ import annotations

import logging
from typing import Any

from futmesa.i18n import _
from futmesa.matchbook import MatchBook, UnloadableMatch
from futmesa.matchbook.live import names_of
from futmesa.matchbook.wording import ruleset_title
from futmesa.store import EventLog

log = logging.getLogger("futmesa.table")


def open_match(store: EventLog, table_id: str, ruleset: str,
               settings: dict[str, Any]) -> tuple[dict[str, Any], MatchBook, bool]:
    """(the match, its book, whether it is new) for the table."""
    match = store.open_match(table_id)
    if match is not None:
        try:
            book = MatchBook.opened(store, match)
        except UnloadableMatch as exc:  # never let a broken stored match block the table
            store.end_match(match["id"])
            log.warning(_("match %d on table %s cannot be loaded (%s): ended it as "
                          "\"cannot be loaded\" and starting a new one; its log is kept — "
                          "read it with the futmesa version that wrote it, or send the "
                          "database file with a report"), match["id"], table_id, exc.said())
        else:
            log.info(_("resuming match %d on %s"), match["id"],
                     names_of(table_id, match.get("settings")))
            return match, book, False
    match_id = store.new_match(table_id, ruleset, settings, settings.get("referee", ""))
    match = store.match(match_id)
    assert match is not None
    log.info(_("new match %d on %s, %s"), match_id, names_of(table_id, settings),  # its name
             ruleset_title(ruleset))
    return match, MatchBook.opened(store, match), True
