"""The competition's own tables in the event log's SQLite file.

Teams, competitions, their matches (with the planned slot and table), the
results received from the tables (one per competition match, keyed by the
table's match: receiving the same result twice changes nothing) and
sanctions. Nothing here is a running total: standings are recomputed.

A table's result keeps its proof (``comp_results.proof``, JSON, added to older files when
they are opened): the table match's final chain hash, how many entries it chains, and the
referee's signature (its entry number, hash, name and time; the drawing stays in the
message the desk received) or none — "sem assinatura".
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

from futmesa.competition import actions, planning, progression
from futmesa.competition.decisions import Decisions
from futmesa.competition.errors import CompetitionError
from futmesa.competition.settings import CompetitionSettings
from futmesa.competition.standings import standings
from futmesa.competition.teams import MAX_TEAMS, Team
from futmesa.i18n import _
from futmesa.store.db import add_column, connect, migrate, write_transaction

SCHEMA = """
CREATE TABLE IF NOT EXISTS comp_teams (
    key TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    short TEXT NOT NULL DEFAULT '',
    color TEXT NOT NULL,
    logo TEXT NOT NULL DEFAULT '',
    players TEXT NOT NULL DEFAULT '[]',
    position INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS competitions (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    settings TEXT NOT NULL,
    groups TEXT NOT NULL DEFAULT '{}',
    created_at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS comp_matches (
    id INTEGER PRIMARY KEY,
    competition_id INTEGER NOT NULL REFERENCES competitions(id),
    seq INTEGER NOT NULL,
    stage TEXT NOT NULL,
    grp TEXT NOT NULL,
    round INTEGER NOT NULL,
    label TEXT NOT NULL DEFAULT '',
    slot INTEGER NOT NULL,
    planned_table INTEGER NOT NULL,
    team_a TEXT,
    team_b TEXT,
    src_a TEXT NOT NULL DEFAULT '',
    src_b TEXT NOT NULL DEFAULT '',
    status TEXT NOT NULL DEFAULT 'scheduled',
    table_id TEXT,
    replay_of INTEGER REFERENCES comp_matches(id),
    note TEXT NOT NULL DEFAULT '',
    updated_at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS comp_results (
    match_id INTEGER PRIMARY KEY REFERENCES comp_matches(id),
    uid TEXT NOT NULL,
    score_a INTEGER NOT NULL,
    score_b INTEGER NOT NULL,
    winner TEXT,
    reason TEXT NOT NULL,
    rule TEXT NOT NULL DEFAULT '',
    detail TEXT NOT NULL DEFAULT '{}',
    source TEXT NOT NULL,
    received_at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS comp_shootouts (
    competition_id INTEGER NOT NULL,
    grp TEXT NOT NULL,
    ranking TEXT NOT NULL,
    note TEXT NOT NULL DEFAULT '',
    created_at REAL NOT NULL,
    PRIMARY KEY (competition_id, grp)
);
CREATE TABLE IF NOT EXISTS comp_sanctions (
    id INTEGER PRIMARY KEY,
    competition_id INTEGER NOT NULL,
    team TEXT NOT NULL,
    kind TEXT NOT NULL,
    match_id INTEGER,
    rule TEXT NOT NULL,
    note TEXT NOT NULL DEFAULT '',
    created_at REAL NOT NULL,
    revoked_at REAL
);
CREATE TABLE IF NOT EXISTS comp_reports (
    id INTEGER PRIMARY KEY,
    competition_id INTEGER NOT NULL,
    match_id INTEGER NOT NULL,
    team TEXT NOT NULL,
    rule TEXT NOT NULL,
    uid TEXT NOT NULL,
    note TEXT NOT NULL DEFAULT '',
    created_at REAL NOT NULL,
    decision TEXT,
    decided_at REAL,
    sanction_id INTEGER,
    UNIQUE (match_id, team, uid)
);
"""




class CompetitionDB:
    """The competition tables; one connection of its own to the same SQLite file."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.RLock()
        # competition id -> (the file's revision, its matches) (matches())
        self._cache: dict[int, tuple[tuple[Any, ...], list[dict[str, Any]]]] = {}
        self.decisions = Decisions(self)  # sanctions, reports, shoot-outs
        self._db = connect(self.path)
        migrate(self._db, "competition", [
            lambda db: db.executescript(SCHEMA),
            # a file from before results carried their proof
            lambda db: add_column(db, "comp_results", "proof", "TEXT"),
            # a file from before the draw knew clubs and pots
            lambda db: add_column(db, "comp_teams", "club", "TEXT NOT NULL DEFAULT ''"),
            lambda db: add_column(db, "comp_teams", "pot", "INTEGER"),
            lambda db: db.executescript(actions.SCHEMA),  # the organiser's commands
        ])

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def tx(self) -> AbstractContextManager[sqlite3.Connection]:
        """A write transaction that survives a full disk (:mod:`futmesa.store.db`, as the event
        log's, the outbox's and the desk's)."""
        return write_transaction(self._db, self._lock)

    def rows(self, sql: str, args: tuple[Any, ...] = ()) -> list[dict[str, Any]]:
        with self._lock:
            cur = self._db.execute(sql, args)
            names = [d[0] for d in cur.description]
            return [dict(zip(names, r, strict=True)) for r in cur.fetchall()]

    # -- teams -----------------------------------------------------------------------
    def import_teams(self, teams: list[Team]) -> int:
        """Add or update teams by name; the list order is the seeding order."""
        with self.tx() as db:
            base = db.execute("SELECT COALESCE(MAX(position), 0) FROM comp_teams").fetchone()[0]
            for i, t in enumerate(teams, start=1):
                db.execute(
                    "INSERT INTO comp_teams(key, name, short, color, logo, players, position,"
                    " club, pot) VALUES (?,?,?,?,?,?,?,?,?) ON CONFLICT(key) DO UPDATE SET"
                    " name=excluded.name, short=excluded.short, color=excluded.color,"
                    " logo=excluded.logo, players=excluded.players, club=excluded.club,"
                    " pot=excluded.pot",
                    (t.key, t.name, t.short, t.color, t.logo, json.dumps(t.players), base + i,
                     t.club, t.pot))
        return len(teams)

    def teams(self) -> list[Team]:
        return [Team(name=r["name"], short=r["short"], color=r["color"], logo=r["logo"],
                     players=json.loads(r["players"]), club=r["club"], pot=r["pot"])
                for r in self.rows("SELECT * FROM comp_teams ORDER BY position")]

    def team_map(self) -> dict[str, Team]:
        return {t.key: t for t in self.teams()}

    # -- competitions ------------------------------------------------------------------
    def create(self, settings: CompetitionSettings, team_keys: list[str] | None = None) -> int:
        """Draw the groups, generate the schedule and store the competition."""
        teams = self.team_map()
        keys = team_keys or list(teams)
        missing = [k for k in keys if k not in teams]
        if missing:
            raise CompetitionError(_("unknown team {team!r}: import the teams CSV first").format(
                team=missing[0]))
        if len(keys) < 2:
            raise CompetitionError(_("a competition needs at least two teams: import a teams CSV"))
        if len(keys) > MAX_TEAMS:
            raise CompetitionError(_("{count} teams: a competition has at most {max}; split it "
                                     "into smaller competitions").format(count=len(keys),
                                                                         max=MAX_TEAMS))
        try:
            settings, planned, groups, bye = planning.plan(settings, keys, teams)
        except ValueError as exc:
            raise CompetitionError(str(exc)) from exc
        now = time.time()
        with self.tx() as db:
            cid = int(db.execute(
                "INSERT INTO competitions(name, settings, groups, created_at) VALUES (?,?,?,?)",
                (settings.name, settings.model_dump_json(), json.dumps(groups), now)).lastrowid
                or 0)
            ids: list[int] = []
            for i, p in enumerate(planned):
                src = [self._src(s, ids) for s in (p.src_a, p.src_b)]
                ids.append(int(db.execute(
                    "INSERT INTO comp_matches(competition_id, seq, stage, grp, round, label, slot,"
                    " planned_table, team_a, team_b, src_a, src_b, updated_at)"
                    " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
                    (cid, i, p.stage, p.group, p.round, p.label, p.slot, p.table, p.team_a,
                     p.team_b, src[0], src[1], now)).lastrowid or 0))
            if bye:
                progression.insert_bye(db, cid, 1, bye, now)
        return cid

    @staticmethod
    def _src(src: str, ids: list[int]) -> str:
        if src.startswith("winner:"):
            return f"winner:{ids[int(src.split(':')[1])]}"
        return src

    def active(self) -> list[dict[str, Any]]:
        """The day's competitions: the newest of each category (a competition created again
        for a category replaces the one before, as `competition new` always did), oldest
        category first. They share the venue's tables; a table is never booked twice."""
        latest: dict[str, dict[str, Any]] = {}
        for cid in self.competition_ids():
            comp = self.competition(cid)
            latest[comp["settings"].category] = comp
        return sorted(latest.values(), key=lambda c: c["id"])

    def revision(self) -> tuple[Any, ...]:
        """A stamp that changes whenever a competition, match, result or sanction does (by
        this process or another): what was worked out from the file before still holds
        while it is the same."""
        row = self.rows(
            "SELECT (SELECT COUNT(*) FROM competitions), (SELECT MAX(updated_at) FROM"
            " comp_matches), (SELECT COUNT(*) FROM comp_results), (SELECT MAX(received_at)"
            " FROM comp_results), (SELECT COUNT(*) FROM comp_sanctions), (SELECT"
            " MAX(COALESCE(revoked_at, created_at)) FROM comp_sanctions), (SELECT COUNT(*)"
            " FROM comp_reports), (SELECT MAX(COALESCE(decided_at, created_at)) FROM"
            " comp_reports), (SELECT COUNT(*) || ':' || MAX(created_at) FROM"
            f" comp_shootouts), {actions.REVISION_SQL}")[0]
        return tuple(row.values())

    def competition_ids(self) -> list[int]:
        """Every competition in the file, the oldest first (a season's)."""
        return [r["id"] for r in self.rows("SELECT id FROM competitions ORDER BY created_at,"
                                            " id")]

    def competition(self, cid: int | None = None) -> dict[str, Any]:
        rows = (self.rows("SELECT * FROM competitions WHERE id=?", (cid,)) if cid else
                self.rows("SELECT * FROM competitions ORDER BY id DESC LIMIT 1"))
        if not rows:
            raise CompetitionError(_("no competition yet: run `futmesa competition new` first"))
        r = rows[0]
        return {"id": r["id"], "name": r["name"],
                "settings": CompetitionSettings.model_validate_json(r["settings"]),
                "groups": json.loads(r["groups"]), "created_at": r["created_at"]}

    def matches(self, cid: int) -> list[dict[str, Any]]:
        """The competition's matches with their results, in schedule order. Read again only
        when the file changed (:meth:`revision`): a day's pages and the desk's every tick
        ask for them often (each caller gets its own dicts)."""
        stamp = self.revision()
        hit = self._cache.get(cid)
        if hit is None or hit[0] != stamp:
            hit = (stamp, self._matches("m.competition_id=?", cid))
            self._cache[cid] = hit
        return [dict(m) for m in hit[1]]

    def _matches(self, where: str, arg: int) -> list[dict[str, Any]]:
        rows = self.rows(
            "SELECT m.*, r.uid, r.score_a, r.score_b, r.winner, r.reason, r.rule, r.detail,"
            f" r.source, r.received_at, r.proof, {actions.DECIDED_SQL} AS decided"
            " FROM comp_matches m LEFT JOIN comp_results r"
            f" ON r.match_id = m.id WHERE {where} ORDER BY m.slot, m.seq, m.id", (arg,))
        out = []
        for r in rows:
            result = None
            if r["uid"] is not None:
                result = {"uid": r["uid"], "score_a": r["score_a"], "score_b": r["score_b"],
                          "winner": r["winner"], "reason": r["reason"], "rule": r["rule"],
                          "detail": json.loads(r["detail"]), "source": r["source"],
                          "received_at": r["received_at"],
                          "proof": json.loads(r["proof"]) if r["proof"] else None}
                actions.apply_decision(result, r["decided"])  # a level knockout decided
            out.append({"id": r["id"], "competition_id": r["competition_id"], "seq": r["seq"],
                        "stage": r["stage"], "group": r["grp"], "round": r["round"],
                        "label": r["label"], "slot": r["slot"],
                        "planned_table": r["planned_table"], "team_a": r["team_a"],
                        "team_b": r["team_b"], "src_a": r["src_a"], "src_b": r["src_b"],
                        "status": r["status"], "table_id": r["table_id"],
                        "replay_of": r["replay_of"], "note": r["note"], "result": result,
                        # when the row last changed: for a match at a table, when the desk
                        # gave it (its start, for the estimated times)
                        "updated_at": r["updated_at"]})
        return out

    def match(self, match_id: int) -> dict[str, Any]:
        found = self._matches("m.id=?", match_id)
        if not found:
            raise CompetitionError(_("no competition match {id}: see `futmesa competition "
                                     "schedule`").format(id=match_id))
        return found[0]

    # -- what happens during the day ---------------------------------------------------
    def set_assigned(self, match_id: int, table_id: str) -> None:
        with self.tx() as db:
            db.execute("UPDATE comp_matches SET status='assigned', table_id=?, updated_at=?"
                       " WHERE id=? AND status IN ('scheduled', 'assigned')",
                       (table_id, time.time(), match_id))

    def record_result(self, match_id: int, uid: str, result: dict[str, Any],
                      source: str = "table") -> bool:
        """Store a match's result; the same uid again is a no-op. True when something changed.

        A corrected result from the same table match (same uid, new content) replaces it.
        """
        m = self.match(match_id)
        if m["status"] == "abandoned":
            return False  # the replay counts, not a late result of the abandoned match
        old = m["result"]
        new = (int(result["score_a"]), int(result["score_b"]), result.get("winner"),
               str(result.get("reason", "")), str(result.get("rule", "")))
        proof = stored_proof(result.get("proof"))
        if old and old["uid"] == uid and (old["score_a"], old["score_b"], actions.sent(old),
                                          old["reason"], old["rule"],
                                          old.get("proof")) == (*new, proof):
            return False
        if old and old["uid"] != uid and old["source"] == "desk":
            return False  # the desk decided it (walk-over): a table result does not override
        status = "walkover" if source == "desk" else "finished"
        with self.tx() as db:
            db.execute(
                "INSERT INTO comp_results(match_id, uid, score_a, score_b, winner, reason, rule,"
                " detail, source, received_at, proof) VALUES (?,?,?,?,?,?,?,?,?,?,?)"
                " ON CONFLICT(match_id) DO UPDATE SET uid=excluded.uid, score_a=excluded.score_a,"
                " score_b=excluded.score_b, winner=excluded.winner, reason=excluded.reason,"
                " rule=excluded.rule, detail=excluded.detail, source=excluded.source,"
                " received_at=excluded.received_at, proof=excluded.proof",
                (match_id, uid, *new, json.dumps(result.get("detail", {})), source, time.time(),
                 json.dumps(proof) if proof else None))
            db.execute("UPDATE comp_matches SET status=?, updated_at=? WHERE id=?",
                       (status, time.time(), match_id))
        return True

    # -- derived ---------------------------------------------------------------------------
    def table(self, cid: int | None = None) -> dict[str, list[dict[str, Any]]]:
        comp = self.competition(cid)
        return standings(self.matches(comp["id"]), self.decisions.sanctions(comp["id"]),
                         comp["settings"], groups=comp["groups"],
                         shootouts=self.decisions.shootouts(comp["id"]))

    def advance(self, cid: int | None = None) -> list[int]:
        """Fill what the results decided (:func:`futmesa.competition.progression.advance`)."""
        return progression.advance(self, cid)

    def playable(self, cid: int, busy_teams: set[str]) -> list[dict[str, Any]]:
        """Matches a free table may be given now, in schedule order (:func:`playable`)."""
        return playable(self.matches(cid), busy_teams)


def playable(matches: list[dict[str, Any]], busy_teams: set[str]) -> list[dict[str, Any]]:
    """Of one competition's ``matches``, those a free table may be given now, in order.

    Both teams known, neither playing elsewhere, and neither has an earlier match of the
    schedule still to play (so the slots, and the rest they leave, keep their order). One
    pass over the matches: each team's earliest slot still waiting is counted first.
    """
    first_waiting: dict[str, int] = {}
    for m in matches:
        if m["status"] in ("scheduled", "assigned"):
            for t in (m["team_a"], m["team_b"]):
                if t and m["slot"] < first_waiting.get(t, m["slot"] + 1):
                    first_waiting[t] = m["slot"]
    out = []
    for m in matches:
        a, b = m["team_a"], m["team_b"]
        if m["status"] != "scheduled" or not (a and b) or a in busy_teams or b in busy_teams:
            continue
        if first_waiting[a] < m["slot"] or first_waiting[b] < m["slot"]:
            continue
        out.append(m)
    return out


def stored_proof(proof: Any) -> dict[str, Any] | None:
    """What the competition keeps of a result's proof (checked by the desk before): the
    final hash, the entries chained, and the referee's signature without its drawing."""
    if not isinstance(proof, dict):
        return None
    entry = proof.get("referee_signature")
    signature = None
    if isinstance(entry, dict):
        data = entry.get("data") or {}
        signature = {"entry": entry.get("id"), "hash": entry.get("hash"),
                     "name": data.get("name"), "at": entry.get("created_at")}
    return {"final_hash": proof.get("final_hash"), "chain_ok": bool(proof.get("chain_ok")),
            "chained": proof.get("chained"), "signature": signature}
