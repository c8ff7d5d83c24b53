"""The results the desk received (``venue_received``): each under its uid
(``<table>:<match>``), its newest version only; what the desk acknowledges to each table;
and taking one in (:func:`take_result`): checked, stored once, into the competition."""

from __future__ import annotations

import json
import logging
import sqlite3
import threading
import time
from typing import Any

from futmesa.competition.db import CompetitionDB, CompetitionError
from futmesa.i18n import _, ngettext
from futmesa.venue.checks import Refused, check_assignment, check_update, disqualified_side

log = logging.getLogger("futmesa.venue.desk")

SCHEMA = """
CREATE TABLE IF NOT EXISTS venue_received (
    uid TEXT PRIMARY KEY,
    table_id TEXT NOT NULL,
    digest TEXT NOT NULL,
    competition_match INTEGER,
    payload TEXT NOT NULL,
    received_at REAL NOT NULL
);
"""


class ReceivedLog:
    def __init__(self, db: sqlite3.Connection, lock: threading.RLock) -> None:
        self._db = db
        self._lock = lock
        db.executescript(SCHEMA)

    def stored(self, uid: str) -> tuple[str, dict[str, Any]] | None:
        """(digest, body) of the version stored under ``uid``, or None."""
        with self._lock:
            row = self._db.execute("SELECT digest, payload FROM venue_received WHERE uid=?",
                                   (uid,)).fetchone()
        return None if row is None else (row[0], json.loads(row[1]))

    def store(self, table: str, body: dict[str, Any]) -> None:
        cm = body.get("competition_match")
        with self._lock:
            self._db.execute(
                "INSERT INTO venue_received(uid, table_id, digest, competition_match, payload,"
                " received_at) VALUES (?,?,?,?,?,?) ON CONFLICT(uid) DO UPDATE SET"
                " digest=excluded.digest, payload=excluded.payload,"
                " received_at=excluded.received_at",
                (body["uid"], table, body["digest"], cm if isinstance(cm, int) else None,
                 json.dumps(body), time.time()))

    def tables(self) -> set[str]:
        with self._lock:
            return {r[0] for r in self._db.execute(
                "SELECT DISTINCT table_id FROM venue_received").fetchall()}

    def acked(self, table: str) -> dict[str, str]:
        """What the desk acknowledges to ``table``: uid -> the digest it stored."""
        with self._lock:
            rows = self._db.execute("SELECT uid, digest FROM venue_received WHERE table_id=?",
                                    (table,)).fetchall()
        return {r[0]: r[1] for r in rows}

    def all(self) -> list[dict[str, Any]]:
        with self._lock:
            rows = self._db.execute("SELECT payload FROM venue_received ORDER BY received_at"
                                    ).fetchall()
        return [json.loads(r[0]) for r in rows]


def take_result(comp: CompetitionDB, received: ReceivedLog, table: str,
                body: dict[str, Any]) -> bool:
    """One result message from ``table`` (parsed: venue.checks.parse_result): a new result,
    or a later version of one (a signature added), goes into the competition and is kept;
    the same again changes nothing (False). :class:`Refused` for a result this table may
    not give: nothing is stored."""
    uid, digest = body["uid"], body["digest"]
    before = received.stored(uid)
    if before is not None and before[0] == digest:
        return False
    if before is not None:
        check_update(before[1], body)  # a later version of the same result
    cm = body.get("competition_match")
    if isinstance(cm, int):
        try:
            m = comp.match(cm)
        except CompetitionError:
            raise Refused(_("the competition has no match {match}").format(match=cm)) from None
        check_assignment(table, body, m)
        _to_competition(comp, m, uid, body)
    received.store(table, body)
    log.info(_("result %s: %s %d × %d %s"), uid, body.get("teams", {}).get("A"),
             body.get("score_a", 0), body.get("score_b", 0), body.get("teams", {}).get("B"))
    return True


def _to_competition(comp: CompetitionDB, m: dict[str, Any], uid: str,
                    body: dict[str, Any]) -> None:
    """The match's result; a reported disqualification waits for the organiser."""
    cm = m["id"]
    comp.record_result(cm, uid, body)
    side = disqualified_side(body)
    team = (m["team_a"] if side == "A" else m["team_b"]) if side else None
    withdrawn = comp.decisions.withdraw_reports(cm, uid, keep=team)
    if withdrawn:
        log.info(ngettext("result %s corrected: %d disqualification report withdrawn",
                          "result %s corrected: %d disqualification reports withdrawn",
                          withdrawn), uid, withdrawn)
    if team and comp.decisions.add_report(cm, team, str(body.get("rule", "")), uid):
        log.warning(_("table report: %s disqualified in match %d (%s); the organiser "
                      "confirms it with `futmesa competition reports`"), team, cm,
                    body.get("rule"))
