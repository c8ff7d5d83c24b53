"""A table's finished matches waiting for the desk: read from the log behind a cursor.

Own tables in the event log's SQLite file. ``scan`` walks the table's ended
matches after the cursor, rebuilds each one's final state from the log (the
súmula's source) and keeps a result for every finished one. A result stays
in the outbox, and is published again, until the desk acknowledges exactly
that result (its ``uid`` and ``digest``); the desk stores it under the uid,
so sending it twice never counts it twice. A match corrected after its end
(a void or amend at the console before the table's next match) is rebuilt
and, if its result changed, sent again under the same uid with the new digest:
the desk replaces the result.

Every write is one hardened transaction (:mod:`futmesa.store.db`): on a full disk the
real error comes out, and results already queued can still be read and resent.

A result carries its proof (issue 25): the match's final chain hash, how many entries the
chain holds, and the referee's signature entry (None: "sem assinatura"). The proof is part
of the digest, so a signature or a reopening made after the result was acknowledged makes
a new version of the same result, sent again like a correction.
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
from typing import Any

from futmesa.matchbook import MatchLibrary
from futmesa.matchbook.proof import result_proof
from futmesa.store import EventLog
from futmesa.store.db import add_column, connect, migrate, write_transaction

SCHEMA = """
CREATE TABLE IF NOT EXISTS venue_outbox (
    uid TEXT PRIMARY KEY,
    table_id TEXT NOT NULL,
    match_id INTEGER NOT NULL,
    payload TEXT NOT NULL,
    digest TEXT NOT NULL,
    created_at REAL NOT NULL,
    acked_at REAL,
    last_entry INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS venue_cursor (
    table_id TEXT PRIMARY KEY,
    match_id INTEGER NOT NULL
);
"""


def result_of(record: dict[str, Any], table_id: str) -> dict[str, Any] | None:
    """The result message of a stored match record (MatchLibrary.match_record), or None."""
    state = record["state"]["match"]
    if not state.get("finished"):
        return None
    match = record["match"]
    r = state.get("result") or {}
    score = state.get("score") or {}
    body = {
        "uid": f"{table_id}:{match['id']}",
        "table_id": table_id,
        "match_id": match["id"],
        "competition_match": match["settings"].get("competition_match"),
        "ruleset": match["ruleset"],
        "teams": {s: (state.get("teams") or {}).get(s, {}).get("name", s) for s in "AB"},
        "score_a": int(score.get("A", 0)),
        "score_b": int(score.get("B", 0)),
        "winner": r.get("winner"),
        "reason": str(r.get("reason", "")),
        "rule": str(r.get("rule", "")),
        "detail": {**{k: v for k, v in r.items() if k in ("loser", "shootout", "score_rule")},
                   # for the day's exports: who scored, and the discipline of the match
                   "goals": [{"side": g.get("side"), "disc": g.get("disc"),
                              "own_goal": bool(g.get("own_goal"))}
                             for g in state.get("goals") or [] if isinstance(g, dict)],
                   "discipline": {s: {"disciplinary": int(((state.get("fouls") or {}).get(s)
                                                           or {}).get("disciplinary", 0)),
                                      "expelled": len((state.get("expelled") or {}).get(s)
                                                      or [])}
                                  for s in "AB"}},
    }
    proof = result_proof(record)  # before the digest: a later signature makes a new version
    body["proof"] = proof if proof["final_hash"] else None  # a log from before the chain
    body["digest"] = hashlib.sha1(json.dumps(body, sort_keys=True).encode()).hexdigest()[:16]
    return body


class Outbox:
    def __init__(self, store: EventLog) -> None:
        self.store = store
        self.history = MatchLibrary(store)
        self._lock = threading.RLock()
        self._db = connect(store.path)
        migrate(self._db, "outbox", [
            lambda db: db.executescript(SCHEMA),
            # an outbox from before: each result rechecked once
            lambda db: add_column(db, "venue_outbox", "last_entry", "INTEGER NOT NULL DEFAULT 0"),
        ])

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def cursor(self, table_id: str) -> int:
        with self._lock:
            row = self._db.execute("SELECT match_id FROM venue_cursor WHERE table_id=?",
                                   (table_id,)).fetchone()
        return int(row[0]) if row else 0

    def scan(self, table_id: str) -> int:
        """Add the results of this table's matches ended since the cursor; returns how many.

        An ended match whose log does not give a result now (a goal after the whistle
        waiting for the referee's answer, a final whistle voided) is left for the next scan
        while it is the table's newest match; the cursor passes it only once the table has
        started another (a match replaced unfinished has no result)."""
        after = self.cursor(table_id)
        mine = [m for m in self.store.list_matches() if m["table_id"] == table_id]
        newest = max((m["id"] for m in mine), default=0)
        ended = sorted((m for m in mine if m["id"] > after and m["ended_at"] is not None),
                       key=lambda m: m["id"])
        added = 0
        for m in ended:
            seen = self._last_entry(m["id"])  # before the record: what comes later is newer
            body = result_of(self.history.match_record(m["id"]), table_id)
            if body is None and m["id"] >= newest:
                break  # it may still end with a result: scanned again next time
            with write_transaction(self._db, self._lock) as db:
                if body is not None:
                    db.execute(
                        "INSERT OR IGNORE INTO venue_outbox(uid, table_id, match_id, payload,"
                        " digest, created_at, last_entry) VALUES (?,?,?,?,?,?,?)",
                        (body["uid"], table_id, m["id"], json.dumps(body), body["digest"],
                         time.time(), seen))
                    added += 1
                db.execute(
                    "INSERT INTO venue_cursor(table_id, match_id) VALUES (?,?) ON CONFLICT"
                    "(table_id) DO UPDATE SET match_id=excluded.match_id", (table_id, m["id"]))
        return added

    def recheck(self, table_id: str) -> int:
        """Rebuild results whose match got log entries after the result was made.

        "After" by the entries' numbers, not their clock: an entry stamped just before the
        result was built can be written just after (found by `competition sumulas` on a
        demo day: the desk kept a result one entry short of the table's log)."""
        with self._lock:
            rows = self._db.execute(
                "SELECT o.uid, o.match_id, o.digest FROM venue_outbox o WHERE o.table_id=?"
                " AND EXISTS (SELECT 1 FROM entries e WHERE e.match_id = o.match_id"
                " AND e.id > o.last_entry)", (table_id,)).fetchall()
        changed = 0
        for uid, match_id, digest in rows:
            seen = self._last_entry(match_id)
            body = result_of(self.history.match_record(match_id), table_id)
            with write_transaction(self._db, self._lock) as db:
                if body is None or body["digest"] == digest:
                    db.execute("UPDATE venue_outbox SET last_entry=? WHERE uid=?", (seen, uid))
                    continue
                db.execute(
                    "UPDATE venue_outbox SET payload=?, digest=?, created_at=?, acked_at=NULL,"
                    " last_entry=? WHERE uid=?",
                    (json.dumps(body), body["digest"], time.time(), seen, uid))
                changed += 1
        return changed

    def _last_entry(self, match_id: int) -> int:
        """The newest entry of the match written so far."""
        with self._lock:
            row = self._db.execute("SELECT MAX(id) FROM entries WHERE match_id=?",
                                   (match_id,)).fetchone()
        return int(row[0] or 0)

    def pending(self, table_id: str) -> list[dict[str, Any]]:
        with self._lock:
            rows = self._db.execute(
                "SELECT payload FROM venue_outbox WHERE table_id=? AND acked_at IS NULL"
                " ORDER BY match_id", (table_id,)).fetchall()
        return [json.loads(r[0]) for r in rows]

    def acknowledge(self, table_id: str, acked: dict[str, str]) -> int:
        """Mark the results the desk has stored (uid -> digest); returns how many are new."""
        n = 0
        with write_transaction(self._db, self._lock) as db:
            for body in self.pending(table_id):
                if acked.get(body["uid"]) == body["digest"]:
                    db.execute("UPDATE venue_outbox SET acked_at=? WHERE uid=?",
                               (time.time(), body["uid"]))
                    n += 1
        return n
