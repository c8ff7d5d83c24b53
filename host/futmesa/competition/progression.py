"""How a competition moves on as results come in: the knockout places that are decided are
filled, re-derived from the standings while their match is not played (an undo re-opens
them; a group's places wait for a tie-break shoot-out still to play), the next Swiss round
is drawn once the last is over, and a disqualified team's remaining matches become
walk-overs. Safe to run as often as wanted; what another process (the desk, the CLI) did
meanwhile is not done twice.
"""

from __future__ import annotations

import sqlite3
import time
from typing import TYPE_CHECKING, Any

from futmesa.competition import swissphase
from futmesa.competition.errors import CompetitionError
from futmesa.competition.settings import CompetitionSettings
from futmesa.competition.standings import knockout_winner, standings

if TYPE_CHECKING:
    from futmesa.competition.db import CompetitionDB


def advance(store: CompetitionDB, cid: int | None = None) -> list[int]:
    """Fill knockout places that are decided and empty again those whose source is no
    longer decided (an undo), in matches not played yet; walk-overs against disqualified
    teams.

    Returns the ids of matches that changed. Safe to call as often as wanted.
    """
    comp = store.competition(cid)
    cid = comp["id"]
    settings = comp["settings"]
    changed: list[int] = []
    for _round in range(8 + settings.swiss_rounds):
        matches = store.matches(cid)
        if settings.format == "swiss_knockout":
            added = _next_swiss_round(store, cid, matches, settings)
            if added:
                changed.extend(added)
                continue
            last, done = swissphase.phase_state(matches)
            group_done = done and last >= settings.swiss_rounds
        else:
            group_done = all(m["status"] in ("finished", "walkover", "abandoned")
                             for m in matches if m["stage"] == "group")
        table = store.table(cid) if group_done else {}
        by_id = {m["id"]: m for m in matches}
        progress = False
        for m in matches:
            if m["stage"] != "ko" or m["status"] != "scheduled":
                continue
            # a place with a source is re-derived every time (an undo, a changed result
            # re-opens or re-fills it); only a place named at creation stays as it is
            sides = [resolve(src, table, by_id) if src else team
                     for team, src in ((m["team_a"], m["src_a"]), (m["team_b"], m["src_b"]))]
            if sides != [m["team_a"], m["team_b"]]:
                with store.tx() as db:
                    db.execute("UPDATE comp_matches SET team_a=?, team_b=?, updated_at=?"
                               " WHERE id=?", (sides[0], sides[1], time.time(), m["id"]))
                changed.append(m["id"])
                progress = True
        out = store.decisions.disqualified(cid)
        for m in store.matches(cid):
            if m["status"] != "scheduled" or not (m["team_a"] and m["team_b"]):
                continue
            for side, team in (("A", m["team_a"]), ("B", m["team_b"])):
                if team in out:
                    try:
                        store.decisions.walkover(m["id"], side, "003 Art. 85: desclassificado")
                    except CompetitionError:
                        break  # another process (the desk, the CLI) did it meanwhile
                    changed.append(m["id"])
                    progress = True
                    break
        if not progress:
            break
    return changed


def _next_swiss_round(store: CompetitionDB, cid: int, matches: list[dict[str, Any]],
                      settings: CompetitionSettings) -> list[int]:
    """Store the next Swiss round once the last one is decided (swissphase)."""
    club_of = {k: t.club_key for k, t in store.team_map().items()}
    table = standings(matches, store.decisions.sanctions(cid), settings,
                      groups=store.competition(cid)["groups"]).get("", [])
    out = store.decisions.disqualified(cid)
    nxt = swissphase.next_round(matches, table, club_of, out, settings)
    if nxt is None:
        return []
    round_no, planned, bye = nxt
    now = time.time()
    ids = []
    with store.tx() as db:
        if db.execute("SELECT 1 FROM comp_matches WHERE competition_id=? AND stage='swiss'"
                      " AND round=?", (cid, round_no)).fetchone():
            return []  # another process (the desk, the CLI) stored it meanwhile
        seq = db.execute("SELECT COALESCE(MAX(seq), 0) FROM comp_matches WHERE"
                         " competition_id=?", (cid,)).fetchone()[0]
        for i, p in enumerate(planned, start=1):
            ids.append(int(db.execute(
                "INSERT INTO comp_matches(competition_id, seq, stage, grp, round, label,"
                " slot, planned_table, team_a, team_b, updated_at)"
                " VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                (cid, seq + i, p.stage, p.group, p.round, p.label, p.slot, p.table,
                 p.team_a, p.team_b, now)).lastrowid or 0))
        if bye:
            insert_bye(db, cid, round_no, bye, now)
    return ids


def resolve(src: str, table: dict[str, list[dict[str, Any]]],
             by_id: dict[int, dict[str, Any]]) -> str | None:
    # a group whose places wait for a tie-break shoot-out fills no knockout place yet
    if src.startswith("swiss:") and table:
        if any(r.get("shootout_due") for r in table.get("", [])):
            return None
        rows = [r for r in table.get("", []) if not r["disqualified"]]
        pos = int(src.split(":")[1])
        return rows[pos - 1]["team"] if len(rows) >= pos else None
    if src.startswith("group:") and table:
        _, g, pos = src.split(":")
        if any(r.get("shootout_due") for r in table.get(g, [])):
            return None
        rows = [r for r in table.get(g, []) if not r["disqualified"]]
        return rows[int(pos) - 1]["team"] if len(rows) >= int(pos) else None
    if src.startswith("winner:"):
        m = by_id.get(int(src.split(":")[1]))
        return knockout_winner(m) if m else None
    return None


def insert_bye(db: sqlite3.Connection, cid: int, round_no: int, team: str,
                now: float) -> None:
    """A Swiss bye: a match row of one team, counted as the configured win."""
    db.execute("INSERT INTO comp_matches(competition_id, seq, stage, grp, round, label,"
               " slot, planned_table, team_a, team_b, status, updated_at)"
               " VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
               (cid, -1, "swiss", "", round_no, "", 0, 0, team, None, "bye", now))
