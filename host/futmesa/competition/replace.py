"""Creating a category again mid-day (issue 47 §14): the competition it replaces may have
matches at the tables and results. Refused, saying which, unless the organiser confirms;
confirmed, the old competition's matches still to play or in play are closed ("abandoned",
with a note), so no table keeps a match of a competition no longer played and no row stays
"at a table" for ever."""

from __future__ import annotations

import time
from typing import Any

from futmesa.competition.db import CompetitionDB
from futmesa.competition.errors import CompetitionError
from futmesa.i18n import _


def replaced(store: CompetitionDB, category: str) -> dict[str, Any] | None:
    """The day's competition of ``category`` a new one would replace, if any."""
    return next((c for c in store.active() if c["settings"].category == category), None)


def check_replace(store: CompetitionDB, category: str, confirm: bool) -> None:
    """CompetitionError unless creating ``category`` again loses nothing or is confirmed."""
    old = replaced(store, category)
    if old is None or confirm:
        return
    matches = store.matches(old["id"])
    playing = [m for m in matches if m["status"] == "assigned"]
    done = [m for m in matches if m["status"] in ("finished", "walkover")]
    if not playing and not done:
        return
    what = (_("match {id} is being played at a table").format(id=playing[0]["id"])
            if playing else _("{count} results are stored").format(count=len(done)))
    raise CompetitionError(_("the category {category} is under way ({what}): a new draw "
                             "replaces it; to do it anyway, add --replace").format(
        category=category or "—", what=what))


def retire(store: CompetitionDB, category: str) -> int:
    """Close the replaced competition's matches still to play or in play; how many."""
    old = replaced(store, category)
    if old is None:
        return 0
    note = _("competition created again")
    with store.tx() as db:
        cur = db.execute("UPDATE comp_matches SET status='abandoned', note=?, updated_at=?"
                         " WHERE competition_id=? AND status IN ('scheduled', 'assigned')",
                         (note, time.time(), old["id"]))
        return cur.rowcount
