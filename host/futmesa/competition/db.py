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
import secrets
import sqlite3
import threading
import time
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

from futmesa.competition import schedule, swissphase
from futmesa.competition.draw import Entrant, club_mates_first, draw
from futmesa.competition.settings import CompetitionSettings
from futmesa.competition.standings import knockout_winner, standings
from futmesa.competition.teams import MAX_TEAMS, Team
from futmesa.i18n import _
from futmesa.sqltx import write_transaction

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

SANCTIONS = {"match_points": "001 Art. XLIII", "competition_points": "003 Art. 85"}


class CompetitionError(ValueError):
    """An organiser's request that cannot be done; the message says why."""


class CompetitionDB:
    """The competition tables; one connection of its own to the same SQLite file."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.RLock()
        # competition id -> (the file's revision, its matches) (matches())
        self._cache: dict[int, tuple[tuple[Any, ...], list[dict[str, Any]]]] = {}
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None,
                                   timeout=30)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.executescript(SCHEMA)
        columns = {r[1] for r in self._db.execute("PRAGMA table_info(comp_results)")}
        if "proof" not in columns:  # a file from before results carried their proof
            self._db.execute("ALTER TABLE comp_results ADD COLUMN proof TEXT")
        team_columns = {r[1] for r in self._db.execute("PRAGMA table_info(comp_teams)")}
        if "club" not in team_columns:  # a file from before the draw knew clubs and pots
            self._db.execute("ALTER TABLE comp_teams ADD COLUMN club TEXT NOT NULL DEFAULT ''")
            self._db.execute("ALTER TABLE comp_teams ADD COLUMN pot INTEGER")

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def _tx(self) -> AbstractContextManager[sqlite3.Connection]:
        """A write transaction that survives a full disk (:mod:`futmesa.sqltx`, as the event
        log's, the outbox's and the desk's)."""
        return write_transaction(self._db, self._lock)

    def _rows(self, sql: str, args: tuple[Any, ...] = ()) -> list[dict[str, Any]]:
        with self._lock:
            cur = self._db.execute(sql, args)
            names = [d[0] for d in cur.description]
            return [dict(zip(names, r, strict=True)) for r in cur.fetchall()]

    # -- teams -----------------------------------------------------------------------
    def import_teams(self, teams: list[Team]) -> int:
        """Add or update teams by name; the list order is the seeding order."""
        with self._tx() as db:
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
                for r in self._rows("SELECT * FROM comp_teams ORDER BY position")]

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
        club_of = {k: teams[k].club_key for k in keys}
        # a draw by pots and clubs when the teams file has them or the settings give a seed
        # (kept with the settings: the same seed draws the same groups); else the list
        # order is the seeding, snake-wise, as before
        drawing = (settings.seed is not None or any(club_of.values())
                   or any(teams[k].pot is not None for k in keys))
        seed = settings.seed if settings.seed is not None else secrets.randbelow(2**31)
        if drawing:
            settings = settings.model_copy(update={"seed": seed})
        bye: str | None = None
        try:
            if settings.format == "swiss_knockout":
                planned, groups, bye = self._plan_swiss(settings, keys, teams, club_of)
            else:
                groups = {"": list(keys)}
                if settings.format == "groups_knockout" and not drawing:
                    groups = schedule.draw_groups(keys, settings.groups)
                elif settings.format == "groups_knockout" and settings.groups * 2 <= len(keys):
                    drawn = draw([Entrant(k, club_of[k], teams[k].pot) for k in keys],
                                 settings.groups, seed)
                    # club-mates the pots left in one group meet in its first round
                    groups = {g: club_mates_first(ks, club_of)
                              for g, ks in drawn.groups.items()}
                planned = schedule.plan(keys, settings.format, settings.groups,
                                        settings.advance, drawn=groups,
                                        divisions=settings.divisions, legs=settings.legs)
                schedule.assign_slots(planned, settings.tables, settings.rest_slots)
        except ValueError as exc:
            raise CompetitionError(str(exc)) from exc
        now = time.time()
        with self._tx() as db:
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
                self._insert_bye(db, cid, 1, bye, now)
        return cid

    @staticmethod
    def _plan_swiss(settings: CompetitionSettings, keys: list[str], teams: dict[str, Team],
                    club_of: dict[str, str]
                    ) -> tuple[list[schedule.Planned], dict[str, list[str]], str | None]:
        """Round 1 of the Swiss phase (the seeding: pots, then the file's order) and the
        knockout of its first places; the later rounds come as rounds are decided."""
        if settings.swiss_rounds >= len(keys):
            raise ValueError(_("{rounds} Swiss rounds need more than {rounds} teams (there "
                               "are {count})").format(rounds=settings.swiss_rounds,
                                                     count=len(keys)))
        if settings.advance > len(keys):
            raise ValueError(_("{advance} teams into the knockout, but only {count} teams")
                             .format(advance=settings.advance, count=len(keys)))
        seeded = sorted(keys, key=lambda k: (teams[k].pot or 99, keys.index(k)))
        first, bye = swissphase.first_round(seeded, club_of, settings.tables)
        ko = swissphase.knockout(settings.advance, settings.swiss_rounds, len(keys),
                                 settings.tables, settings.rest_slots)
        for p in ko:
            p.src_a, p.src_b = (schedule.shift_source(s, len(first)) for s in (p.src_a, p.src_b))
        return first + ko, {"": seeded}, bye

    @staticmethod
    def _insert_bye(db: sqlite3.Connection, cid: int, round_no: int, team: str,
                    now: float) -> None:
        """A Swiss bye: a match row of one team, counted as the configured win."""
        db.execute("INSERT INTO comp_matches(competition_id, seq, stage, grp, round, label,"
                   " slot, planned_table, team_a, team_b, status, updated_at)"
                   " VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
                   (cid, -1, "swiss", "", round_no, "", 0, 0, team, None, "bye", now))

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
        row = self._rows(
            "SELECT (SELECT COUNT(*) FROM competitions), (SELECT MAX(updated_at) FROM"
            " comp_matches), (SELECT COUNT(*) FROM comp_results), (SELECT MAX(received_at)"
            " FROM comp_results), (SELECT COUNT(*) FROM comp_sanctions), (SELECT"
            " MAX(COALESCE(revoked_at, created_at)) FROM comp_sanctions), (SELECT COUNT(*)"
            " FROM comp_reports), (SELECT MAX(COALESCE(decided_at, created_at)) FROM"
            " comp_reports), (SELECT COUNT(*) || ':' || MAX(created_at) FROM"
            " comp_shootouts)")[0]
        return tuple(row.values())

    def competition_ids(self) -> list[int]:
        """Every competition in the file, the oldest first (a season's)."""
        return [r["id"] for r in self._rows("SELECT id FROM competitions ORDER BY created_at,"
                                            " id")]

    def competition(self, cid: int | None = None) -> dict[str, Any]:
        rows = (self._rows("SELECT * FROM competitions WHERE id=?", (cid,)) if cid else
                self._rows("SELECT * FROM competitions ORDER BY id DESC LIMIT 1"))
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
        rows = self._rows(
            "SELECT m.*, r.uid, r.score_a, r.score_b, r.winner, r.reason, r.rule, r.detail,"
            " r.source, r.received_at, r.proof FROM comp_matches m LEFT JOIN comp_results r"
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
            out.append({"id": r["id"], "competition_id": r["competition_id"], "seq": r["seq"],
                        "stage": r["stage"], "group": r["grp"], "round": r["round"],
                        "label": r["label"], "slot": r["slot"],
                        "planned_table": r["planned_table"], "team_a": r["team_a"],
                        "team_b": r["team_b"], "src_a": r["src_a"], "src_b": r["src_b"],
                        "status": r["status"], "table_id": r["table_id"],
                        "replay_of": r["replay_of"], "note": r["note"], "result": result})
        return out

    def match(self, match_id: int) -> dict[str, Any]:
        found = self._matches("m.id=?", match_id)
        if not found:
            raise CompetitionError(_("no competition match {id}: see `futmesa competition "
                                     "schedule`").format(id=match_id))
        return found[0]

    def sanctions(self, cid: int) -> list[dict[str, Any]]:
        return self._rows("SELECT * FROM comp_sanctions WHERE competition_id=?"
                          " AND revoked_at IS NULL ORDER BY id", (cid,))

    def revoke_sanction(self, sanction_id: int) -> None:
        """Withdraw a sanction (kept, marked revoked). A withdrawn disqualification also
        withdraws the walk-overs it gave the opponents: those matches are to be played."""
        rows = self._rows("SELECT * FROM comp_sanctions WHERE id=? AND revoked_at IS NULL",
                          (sanction_id,))
        if not rows:
            raise CompetitionError(_("no sanction {id} in force: see `futmesa competition "
                                     "standings`").format(id=sanction_id))
        s = rows[0]
        with self._tx() as db:
            db.execute("UPDATE comp_sanctions SET revoked_at=? WHERE id=?",
                       (time.time(), sanction_id))
            if s["kind"] == "competition_points":
                for m in self.matches(s["competition_id"]):
                    r = m["result"]
                    if (m["status"] == "walkover" and r and r["uid"] == f"desk:wo:{m['id']}"
                            and "desclassificado" in r["rule"]
                            and s["team"] in (m["team_a"], m["team_b"])):
                        db.execute("DELETE FROM comp_results WHERE match_id=?", (m["id"],))
                        db.execute("UPDATE comp_matches SET status='scheduled', updated_at=?"
                                   " WHERE id=?", (time.time(), m["id"]))

    # -- what happens during the day ---------------------------------------------------
    def set_assigned(self, match_id: int, table_id: str) -> None:
        with self._tx() as db:
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
        if old and old["uid"] == uid and (old["score_a"], old["score_b"], old["winner"],
                                          old["reason"], old["rule"],
                                          old.get("proof")) == (*new, proof):
            return False
        if old and old["uid"] != uid and old["source"] == "desk":
            return False  # the desk decided it (walk-over): a table result does not override
        status = "walkover" if source == "desk" else "finished"
        with self._tx() as db:
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

    def walkover(self, match_id: int, absent: str, note: str = "") -> None:
        """The side ``absent`` ('A'/'B') did not play: the other wins by walk-over (W.O.)."""
        m = self.match(match_id)
        if absent not in ("A", "B"):
            raise CompetitionError(_("say which side did not show up: A or B"))
        if m["status"] in ("finished", "walkover"):
            raise CompetitionError(_("match {id} already has a result").format(id=match_id))
        if not (m["team_a"] and m["team_b"]):
            raise CompetitionError(_("match {id} has no teams yet").format(id=match_id))
        s = self.competition(m["competition_id"])["settings"]
        goals = s.walkover_score
        score = (0, goals) if absent == "A" else (goals, 0)
        self.record_result(match_id, f"desk:wo:{match_id}", {
            "score_a": score[0], "score_b": score[1], "winner": "B" if absent == "A" else "A",
            "reason": "walkover", "rule": note or "W.O.", "detail": {"absent": absent}},
            source="desk")

    def abandon(self, match_id: int, note: str = "") -> int:
        """Abandon a match (no result counts) and schedule its replay; returns the replay's id."""
        m = self.match(match_id)
        if m["status"] in ("finished", "walkover", "abandoned"):
            raise CompetitionError(_("match {id} is {status}: it cannot be abandoned").format(
                id=match_id, status=m["status"]))
        now = time.time()
        with self._tx() as db:
            db.execute("UPDATE comp_matches SET status='abandoned', note=?, updated_at=?"
                       " WHERE id=?", (note, now, match_id))
            last = db.execute("SELECT MAX(slot) FROM comp_matches WHERE competition_id=?",
                              (m["competition_id"],)).fetchone()[0]
            seq = db.execute("SELECT MAX(seq) FROM comp_matches WHERE competition_id=?",
                             (m["competition_id"],)).fetchone()[0]
            rid = int(db.execute(
                "INSERT INTO comp_matches(competition_id, seq, stage, grp, round, label, slot,"
                " planned_table, team_a, team_b, src_a, src_b, replay_of, note, updated_at)"
                " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                (m["competition_id"], seq + 1, m["stage"], m["group"], m["round"],
                 m["label"], m["slot"] if m["stage"] == "ko" else last + 1, m["planned_table"],
                 m["team_a"], m["team_b"], m["src_a"], m["src_b"], match_id,
                 _("replay of match {id}").format(id=match_id), now)).lastrowid or 0)
            # a knockout waiting on the abandoned match now waits on its replay
            db.execute("UPDATE comp_matches SET src_a=? WHERE src_a=? AND competition_id=?",
                       (f"winner:{rid}", f"winner:{match_id}", m["competition_id"]))
            db.execute("UPDATE comp_matches SET src_b=? WHERE src_b=? AND competition_id=?",
                       (f"winner:{rid}", f"winner:{match_id}", m["competition_id"]))
        return rid

    def add_sanction(self, team: str, kind: str, match_id: int | None = None,
                     rule: str | None = None, note: str = "") -> int:
        """A competition-level sanction: ``match_points`` or ``competition_points``."""
        if kind not in SANCTIONS:
            raise CompetitionError(_("the sanction must be one of {kinds}").format(
                kinds=", ".join(SANCTIONS)))
        comp = self.competition()
        if team not in comp_teams(comp):
            raise CompetitionError(_("{team!r} does not play in {name}").format(
                team=team, name=comp["name"]))
        if kind == "match_points":
            if match_id is None:
                raise CompetitionError(_("loss of a match's points needs the match number"))
            m = self.match(match_id)
            if team not in (m["team_a"], m["team_b"]):
                raise CompetitionError(_("{team!r} did not play match {id}").format(
                    team=team, id=match_id))
        with self._tx() as db:
            return int(db.execute(
                "INSERT INTO comp_sanctions(competition_id, team, kind, match_id, rule, note,"
                " created_at) VALUES (?,?,?,?,?,?,?)",
                (comp["id"], team, kind, match_id, rule or SANCTIONS[kind], note,
                 time.time())).lastrowid or 0)

    # -- referees' reports: a disqualification a table reported, for the organiser to confirm
    def add_report(self, match_id: int, team: str, rule: str, uid: str, note: str = "") -> bool:
        """A table's result says ``team`` was disqualified (003 Art. 85); True when new.

        Nothing is applied: the organiser confirms (a sanction) or dismisses it."""
        m = self.match(match_id)
        with self._tx() as db:
            cur = db.execute(
                "INSERT OR IGNORE INTO comp_reports(competition_id, match_id, team, rule, uid,"
                " note, created_at) VALUES (?,?,?,?,?,?,?)",
                (m["competition_id"], match_id, team, rule, uid, note, time.time()))
            return cur.rowcount > 0

    def reports(self, cid: int, open_only: bool = False) -> list[dict[str, Any]]:
        return self._rows("SELECT * FROM comp_reports WHERE competition_id=?"
                          + (" AND decision IS NULL" if open_only else "") + " ORDER BY id",
                          (cid,))

    def withdraw_reports(self, match_id: int, uid: str, keep: str | None = None) -> int:
        """A corrected result no longer reports these: open reports of ``uid`` are dropped
        (except the one about ``keep``); returns how many."""
        with self._tx() as db:
            cur = db.execute(
                "UPDATE comp_reports SET decision='withdrawn', decided_at=? WHERE match_id=?"
                " AND uid=? AND decision IS NULL AND team IS NOT ?",
                (time.time(), match_id, uid, keep))
            return cur.rowcount

    def decide_report(self, report_id: int, confirm: bool) -> int | None:
        """The organiser's decision on a report; confirming adds the disqualification
        (``competition_points``) and returns the sanction's id."""
        rows = self._rows("SELECT * FROM comp_reports WHERE id=?", (report_id,))
        if not rows:
            raise CompetitionError(_("no report {id}: see `futmesa competition reports`").format(
                id=report_id))
        r = rows[0]
        if r["decision"] is not None:
            raise CompetitionError(_("report {id} was already decided ({decision})").format(
                id=report_id, decision=r["decision"]))
        sid = None
        if confirm:
            sid = self.add_sanction(r["team"], "competition_points", r["match_id"], r["rule"],
                                    _("table report confirmed ({uid})").format(uid=r["uid"]))
        with self._tx() as db:
            db.execute("UPDATE comp_reports SET decision=?, decided_at=?, sanction_id=?"
                       " WHERE id=?", ("confirmed" if confirm else "dismissed", time.time(),
                                       sid, report_id))
        return sid

    # -- derived ---------------------------------------------------------------------------
    def table(self, cid: int | None = None) -> dict[str, list[dict[str, Any]]]:
        comp = self.competition(cid)
        return standings(self.matches(comp["id"]), self.sanctions(comp["id"]),
                         comp["settings"], groups=comp["groups"],
                         shootouts=self.shootouts(comp["id"]))

    def shootouts(self, cid: int) -> dict[str, list[str]]:
        """Per group, the order the tie-break shoot-outs gave (the winner first)."""
        return {r["grp"]: json.loads(r["ranking"]) for r in self._rows(
            "SELECT grp, ranking FROM comp_shootouts WHERE competition_id=?", (cid,))}

    def record_shootout(self, cid: int, group: str, ranking: list[str], note: str = "") -> None:
        """The tie-break shoot-out among teams level on every criterion before it: ``ranking``
        (team keys, the winner first) must be exactly the teams it was due between in
        ``group``. CompetitionError saying what to write otherwise."""
        comp = self.competition(cid)
        if "shootout" not in comp["settings"].tie_breaks:
            raise CompetitionError(_('this competition has no shoot-out among its tie-breaks: '
                                     'add "shootout" to "tie_breaks" in its settings'))
        rows = self.table(cid).get(group)
        if rows is None:
            raise CompetitionError(_("no group {group}: the groups are {groups}").format(
                group=repr(group), groups=", ".join(sorted(self.table(cid))) or "—"))
        due = [r["team"] for r in rows if r["shootout_due"]]
        if not due:
            raise CompetitionError(_("no shoot-out is due in group {group}: its places are "
                                     "decided").format(group=group or "—"))
        if sorted(ranking) != sorted(due) or len(set(ranking)) != len(ranking):
            teams = self.team_map()
            raise CompetitionError(_("the shoot-out in group {group} is between {teams}: name "
                                     "each of them once, the winner first").format(
                group=group or "—", teams=", ".join(sorted(
                    (teams[k].name if k in teams else k for k in due), key=str.casefold))))
        with self._tx() as db:
            db.execute("INSERT INTO comp_shootouts(competition_id, grp, ranking, note,"
                       " created_at) VALUES (?,?,?,?,?) ON CONFLICT(competition_id, grp) DO"
                       " UPDATE SET ranking=excluded.ranking, note=excluded.note,"
                       " created_at=excluded.created_at",
                       (cid, group, json.dumps(ranking), note, time.time()))

    def disqualified(self, cid: int) -> set[str]:
        return {s["team"] for s in self.sanctions(cid) if s["kind"] == "competition_points"}

    def advance(self, cid: int | None = None) -> list[int]:
        """Fill knockout places that are decided; walk-overs against disqualified teams.

        Returns the ids of matches that changed. Safe to call as often as wanted.
        """
        comp = self.competition(cid)
        cid = comp["id"]
        settings = comp["settings"]
        changed: list[int] = []
        for _round in range(8 + settings.swiss_rounds):
            matches = self.matches(cid)
            if settings.format == "swiss_knockout":
                added = self._next_swiss_round(cid, matches, settings)
                if added:
                    changed.extend(added)
                    continue
                last, done = swissphase.phase_state(matches)
                group_done = done and last >= settings.swiss_rounds
            else:
                group_done = all(m["status"] in ("finished", "walkover", "abandoned")
                                 for m in matches if m["stage"] == "group")
            table = self.table(cid) if group_done else {}
            by_id = {m["id"]: m for m in matches}
            progress = False
            for m in matches:
                if m["stage"] != "ko" or m["status"] != "scheduled":
                    continue
                sides = []
                for team, src in ((m["team_a"], m["src_a"]), (m["team_b"], m["src_b"])):
                    sides.append(team or self._resolve(src, table, by_id))
                if sides != [m["team_a"], m["team_b"]]:
                    with self._tx() as db:
                        db.execute("UPDATE comp_matches SET team_a=?, team_b=?, updated_at=?"
                                   " WHERE id=?", (sides[0], sides[1], time.time(), m["id"]))
                    changed.append(m["id"])
                    progress = True
            out = self.disqualified(cid)
            for m in self.matches(cid):
                if m["status"] != "scheduled" or not (m["team_a"] and m["team_b"]):
                    continue
                for side, team in (("A", m["team_a"]), ("B", m["team_b"])):
                    if team in out:
                        try:
                            self.walkover(m["id"], side, "003 Art. 85: desclassificado")
                        except CompetitionError:
                            break  # another process (the desk, the CLI) did it meanwhile
                        changed.append(m["id"])
                        progress = True
                        break
            if not progress:
                break
        return changed

    def _next_swiss_round(self, cid: int, matches: list[dict[str, Any]],
                          settings: CompetitionSettings) -> list[int]:
        """Store the next Swiss round once the last one is decided (swissphase)."""
        club_of = {k: t.club_key for k, t in self.team_map().items()}
        table = standings(matches, self.sanctions(cid), settings,
                          groups=self.competition(cid)["groups"]).get("", [])
        nxt = swissphase.next_round(matches, table, club_of, self.disqualified(cid), settings)
        if nxt is None:
            return []
        round_no, planned, bye = nxt
        now = time.time()
        ids = []
        with self._tx() as db:
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
                self._insert_bye(db, cid, round_no, bye, now)
        return ids

    @staticmethod
    def _resolve(src: str, table: dict[str, list[dict[str, Any]]],
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


def comp_teams(comp: dict[str, Any]) -> set[str]:
    return {t for ts in comp["groups"].values() for t in ts}
