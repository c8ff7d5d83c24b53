"""The organiser's commands that change a result, each kept with its reason and each
undoable with one (issue 47 §4, §13): a walk-over, an abandoned match (its replay), and a
knockout draw decided at the desk (``competition decide``: the winner of a match the
table ended level, by lots, by a shoot-out played at the desk…).

``comp_actions`` keeps every one, undone or not (``undone_at``, ``undo_reason``): the
record of what the desk did to the day's results. A decision is applied where the
matches are read (:meth:`~futmesa.competition.db.CompetitionDB.matches`): the table's own
result stays as the table sent it.
"""

from __future__ import annotations

import json
import time
from typing import TYPE_CHECKING, Any

from futmesa.competition.errors import CompetitionError
from futmesa.i18n import N_, _

if TYPE_CHECKING:
    from futmesa.competition.db import CompetitionDB

SCHEMA = """
CREATE TABLE IF NOT EXISTS comp_actions (
    id INTEGER PRIMARY KEY,
    competition_id INTEGER NOT NULL,
    match_id INTEGER NOT NULL,
    kind TEXT NOT NULL,
    data TEXT NOT NULL DEFAULT '{}',
    reason TEXT NOT NULL DEFAULT '',
    created_at REAL NOT NULL,
    undone_at REAL,
    undo_reason TEXT
);
"""
# the newest decision in force on a match, for the matches' query
DECIDED_SQL = ("(SELECT json_set(a.data, '$.reason', a.reason) FROM comp_actions a"
               " WHERE a.match_id = m.id AND"
               " a.kind = 'decide' AND a.undone_at IS NULL ORDER BY a.id DESC LIMIT 1)")
REVISION_SQL = "(SELECT COUNT(*) || ':' || MAX(COALESCE(undone_at, created_at)) FROM comp_actions)"
# a match's status as the organiser reads it (never the stored word)
STATUS_WORDS = {"scheduled": N_("still to play"), "assigned": N_("being played"),
                "finished": N_("over"), "walkover": N_("decided by walkover"),
                "abandoned": N_("abandoned"), "bye": N_("a bye")}
KIND_WORDS = {"walkover": N_("walkover"), "abandon": N_("abandoned"),
              "decide": N_("decided at the desk")}


def status_word(status: str) -> str:
    return _(STATUS_WORDS.get(status, status))


def apply_decision(result: dict[str, Any] | None, decided: str | None) -> None:
    """A desk decision in force on a level match: its winner, and why (kept beside)."""
    if result is None or not decided:
        return
    d = json.loads(decided)
    result["decided"] = {"winner": d["winner"], "table_winner": result["winner"],
                         "reason": d.get("reason", "")}
    result["winner"] = d["winner"]


def sent(result: dict[str, Any]) -> str | None:
    """The winner as the table sent it (before a desk decision)."""
    return (result.get("decided") or {}).get("table_winner", result["winner"])


def record(store: CompetitionDB, match: dict[str, Any], kind: str, reason: str,
           **data: Any) -> int:
    with store.tx() as db:
        return int(db.execute(
            "INSERT INTO comp_actions(competition_id, match_id, kind, data, reason, created_at)"
            " VALUES (?,?,?,?,?,?)", (match["competition_id"], match["id"], kind,
                                      json.dumps(data), reason, time.time())).lastrowid or 0)


def undecided(matches: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Knockout matches the table ended level with no winner and no decision yet: the day
    waits on the desk for them."""
    return [m for m in matches if m["stage"] == "ko" and m["status"] == "finished"
            and m["result"] and m["result"].get("winner") not in ("A", "B")]


def decide(store: CompetitionDB, match_id: int, winner: str, reason: str) -> int:
    """The organiser names the winner of a knockout match that ended level (``winner``:
    "A" or "B"); the reason is required (by lots, a shoot-out at the desk…)."""
    m = store.match(match_id)
    reason = reason.strip()
    if not reason:
        raise CompetitionError(_("say why with --reason (e.g. \"sorteio\", \"pênaltis 4 × 3 "
                                 "na mesa de controle\")"))
    if winner not in ("A", "B"):
        raise CompetitionError(_("say which side goes through: A or B"))
    if m["stage"] != "ko":
        raise CompetitionError(_("match {id} is not a knockout match: a draw stands").format(
            id=match_id))
    if m["status"] != "finished" or not m["result"]:
        raise CompetitionError(_("match {id} is {status}: only a knockout match that ended "
                                 "level is decided at the desk").format(
            id=match_id, status=status_word(m["status"])))
    if m["result"].get("winner") in ("A", "B") and not m["result"].get("decided"):
        raise CompetitionError(_("match {id} has a winner already: to change a result, "
                                 "undo it first (futmesa competition undo {id})").format(
            id=match_id))
    return record(store, m, "decide", reason, winner=winner)


def actions(store: CompetitionDB, cid: int) -> list[dict[str, Any]]:
    """Every command the desk gave in competition ``cid``, the oldest first."""
    return [{**r, "data": json.loads(r["data"])} for r in store.rows(
        "SELECT * FROM comp_actions WHERE competition_id=? ORDER BY id", (cid,))]


def undo(store: CompetitionDB, match_id: int, reason: str) -> dict[str, Any]:
    """Undo the newest command in force on ``match_id`` (or on the match it replays), with
    ``reason``; returns it. The knockout places it filled are emptied while not played."""
    reason = reason.strip()
    if not reason:
        raise CompetitionError(_("say why with --reason: the undo is recorded with it"))
    m = store.match(match_id)
    ids = [match_id] + ([m["replay_of"]] if m["replay_of"] else [])
    rows = store.rows(f"SELECT * FROM comp_actions WHERE match_id IN ({','.join('?' * len(ids))})"
                      " AND undone_at IS NULL ORDER BY id DESC LIMIT 1", tuple(ids))
    if not rows:
        raise CompetitionError(_("match {id} has no walkover, abandonment or desk decision "
                                 "to undo").format(id=match_id))
    a = rows[0]
    target = store.match(a["match_id"])
    data = json.loads(a["data"])
    now = time.time()
    with store.tx() as db:
        if a["kind"] == "walkover":
            db.execute("DELETE FROM comp_results WHERE match_id=? AND source='desk'",
                       (target["id"],))
            db.execute("UPDATE comp_matches SET status='scheduled', table_id=NULL, updated_at=?"
                       " WHERE id=?", (now, target["id"]))
        elif a["kind"] == "abandon":
            replay = store.match(int(data["replay"]))
            if replay["status"] != "scheduled":
                raise CompetitionError(_("its replay (match {id}) is {status}: undo that "
                                         "first").format(id=replay["id"],
                                                         status=status_word(replay["status"])))
            db.execute("DELETE FROM comp_matches WHERE id=?", (replay["id"],))
            for side in ("src_a", "src_b"):
                db.execute(f"UPDATE comp_matches SET {side}=? WHERE {side}=?",  # noqa: S608
                           (f"winner:{target['id']}", f"winner:{replay['id']}"))
            db.execute("UPDATE comp_matches SET status=?, table_id=NULL, updated_at=?"
                       " WHERE id=?", (data.get("status", "scheduled"), now, target["id"]))
        _empty_places(db, target["id"], now)
        db.execute("UPDATE comp_actions SET undone_at=?, undo_reason=? WHERE id=?",
                   (now, reason, a["id"]))
    return {**a, "data": data}


def _empty_places(db: Any, match_id: int, now: float) -> None:
    """A knockout place the undone result filled, in a match not played yet, is empty again."""
    for side, src in (("team_a", "src_a"), ("team_b", "src_b")):
        db.execute(f"UPDATE comp_matches SET {side}=NULL, updated_at=? WHERE {src}=?"  # noqa: S608
                   " AND status='scheduled'", (now, f"winner:{match_id}"))
