"""The durable event log: SQLite, append-only, committed per event.

Every device event is written and committed here before it is acknowledged
to the device or applied by the rules. Match entries (device events that
belong to a match, referee inputs, corrections) are appended too; nothing is
ever updated in place or deleted, so a match is always a replay of its log.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from futmesa import chain
from futmesa.i18n import _
from futmesa.rules.ordering import in_time_order
from futmesa.sqltx import write_transaction

SCHEMA = """
CREATE TABLE IF NOT EXISTS devices (
    device_uid TEXT PRIMARY KEY,
    board TEXT NOT NULL,
    first_seen REAL NOT NULL,
    last_seen REAL NOT NULL,
    usb_serial TEXT
);
CREATE TABLE IF NOT EXISTS device_events (
    id INTEGER PRIMARY KEY,
    device_uid TEXT NOT NULL,
    boot_id INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    ticks INTEGER NOT NULL,
    kind TEXT NOT NULL,
    a INTEGER NOT NULL,
    b INTEGER NOT NULL,
    period INTEGER NOT NULL,
    clock_ms INTEGER NOT NULL,
    value INTEGER NOT NULL,
    received_at REAL NOT NULL,
    UNIQUE (device_uid, boot_id, seq)
);
CREATE TABLE IF NOT EXISTS gaps (
    id INTEGER PRIMARY KEY,
    device_uid TEXT NOT NULL,
    boot_id INTEGER NOT NULL,
    first_seq INTEGER NOT NULL,
    last_seq INTEGER NOT NULL,
    recorded_at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS matches (
    id INTEGER PRIMARY KEY,
    table_id TEXT NOT NULL,
    ruleset TEXT NOT NULL,
    settings TEXT NOT NULL,
    referee TEXT NOT NULL DEFAULT '',
    created_at REAL NOT NULL,
    ended_at REAL
);
CREATE TABLE IF NOT EXISTS entries (
    id INTEGER PRIMARY KEY,
    match_id INTEGER NOT NULL REFERENCES matches(id),
    source TEXT NOT NULL,
    kind TEXT NOT NULL,
    data TEXT NOT NULL,
    period INTEGER NOT NULL,
    clock_ms INTEGER NOT NULL,
    ticks INTEGER NOT NULL,
    device_event_id INTEGER REFERENCES device_events(id),
    author TEXT NOT NULL DEFAULT '',
    created_at REAL NOT NULL,
    occurred_at REAL
);
CREATE TABLE IF NOT EXISTS cursors (
    device_uid TEXT PRIMARY KEY,
    boot_id INTEGER NOT NULL,
    seq INTEGER NOT NULL
);
"""

# A reset boot's events that may have been lost without the device's record naming them: the
# boot had numbered events up to at most up_to_seq (its flash seq reservation), the log holds
# them up to after_seq (docs/protocol.md section 7, "Sequence reservation"). Kept apart from the
# gaps: those seqs may never have been made.
LOSS_SCHEMA = """
CREATE TABLE IF NOT EXISTS possible_losses (
    id INTEGER PRIMARY KEY,
    device_uid TEXT NOT NULL,
    boot_id INTEGER NOT NULL,
    after_seq INTEGER NOT NULL,
    up_to_seq INTEGER NOT NULL,
    recorded_at REAL NOT NULL
);
"""

# The id a phone gave each referee input (web/static/referee.js): a press sent again after its
# answer was lost, even across a restart of the host, finds its entry and is not applied twice.
INPUT_SCHEMA = """
CREATE TABLE IF NOT EXISTS referee_inputs (
    input_id TEXT PRIMARY KEY,
    match_id INTEGER NOT NULL,
    entry_id INTEGER NOT NULL
);
"""

# Derived data, never the truth: one summary per match for the history list, valid while its
# version and the match's entries (count, newest id) are what they were when it was made; and
# an index so reading one match's log does not scan every match's entries.
SUMMARY_SCHEMA = """
CREATE TABLE IF NOT EXISTS match_summaries (
    match_id INTEGER PRIMARY KEY REFERENCES matches(id),
    version TEXT NOT NULL,
    entry_count INTEGER NOT NULL,
    last_entry_id INTEGER NOT NULL,
    summary TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS entries_by_match ON entries(match_id, id);
CREATE INDEX IF NOT EXISTS matches_by_table ON matches(table_id, id);
"""


@dataclass(frozen=True)
class DeviceEvent:
    device_uid: str
    boot_id: int
    seq: int
    ticks: int
    kind: str
    a: int
    b: int
    period: int
    clock_ms: int
    value: int


@dataclass(frozen=True)
class StoredEntry:
    id: int
    match_id: int
    source: str
    kind: str
    data: dict[str, Any]
    period: int
    clock_ms: int
    ticks: int
    author: str
    created_at: float  # Unix seconds when it was stored
    occurred_at: float  # Unix ms when it happened (device time, for device events)

    @property
    def at(self) -> float:
        """When it happened, as the log's order reads it (futmesa.rules.ordering)."""
        return self.occurred_at


def _chunks(ids: list[int], size: int = 500) -> list[list[int]]:
    """``ids`` in pieces small enough for one SQL ``IN (…)``."""
    return [ids[i:i + size] for i in range(0, len(ids), size)]


def _marks(chunk: list[int]) -> str:
    return ",".join("?" * len(chunk))


class EventLog:
    """One SQLite file; safe to share between the link thread and the web server."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.RLock()
        try:
            self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.executescript(SCHEMA)
            columns = {r[1] for r in self._db.execute("PRAGMA table_info(entries)")}
            if "occurred_at" not in columns:  # a log written by futmesa before 0.1.0
                self._db.execute("ALTER TABLE entries ADD COLUMN occurred_at REAL")
        except sqlite3.DatabaseError as exc:
            raise SystemExit(_(
                "error: {path} is not a futmesa event log ({error}). Pass another --db path, "
                "or move this file away.").format(path=self.path, error=exc)) from exc
        try:
            self._db.executescript(SUMMARY_SCHEMA)
        except sqlite3.OperationalError:  # a read-only copy of an older log: no summaries kept
            pass
        try:
            self._db.executescript(LOSS_SCHEMA)
        except sqlite3.OperationalError:  # read-only: recording one fails like any write
            pass
        try:
            self._db.executescript(INPUT_SCHEMA)  # a log from before input ids gets the table
        except sqlite3.OperationalError:  # read-only: recording one fails like any write
            pass
        try:
            chain.migrate(self._db)  # an older log: its entries stay unchained
        except sqlite3.OperationalError:  # read-only: `futmesa verify` reports them unchained
            pass

    # every entry is chained in the transaction that stores it (futmesa/chain.py)
    _seal = staticmethod(chain.seal)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def transaction(self) -> AbstractContextManager[sqlite3.Connection]:
        """A write transaction on the log (:func:`futmesa.sqltx.write_transaction`)."""
        return write_transaction(self._db, self._lock)

    # -- devices ---------------------------------------------------------------
    def seen_device(self, uid: str, board: str, usb_serial: str | None = None) -> None:
        now = time.time()
        with self.transaction() as db:
            db.execute(
                "INSERT INTO devices(device_uid, board, first_seen, last_seen, usb_serial) "
                "VALUES (?,?,?,?,?) ON CONFLICT(device_uid) DO UPDATE SET"
                " last_seen=excluded.last_seen, board=excluded.board,"
                " usb_serial=COALESCE(excluded.usb_serial, usb_serial)",
                (uid, board, now, now, usb_serial),
            )

    def last_committed(self, uid: str) -> tuple[int, int]:
        """(boot id, seq) up to which a device's events are committed (or recorded as a gap)."""
        with self._lock:
            row = self._db.execute(
                "SELECT boot_id, seq FROM cursors WHERE device_uid=?", (uid,)
            ).fetchone()
        return (int(row[0]), int(row[1])) if row else (0, 0)

    @staticmethod
    def _advance(db: sqlite3.Connection, uid: str, boot_id: int, seq: int) -> None:
        db.execute(
            "INSERT INTO cursors(device_uid, boot_id, seq) VALUES (?,?,?) "
            "ON CONFLICT(device_uid) DO UPDATE SET boot_id=excluded.boot_id, seq=excluded.seq",
            (uid, boot_id, seq),
        )

    def append_device_event(
        self, ev: DeviceEvent, match_id: int | None, entry_kind: str, entry_data: dict[str, Any],
        occurred_at: float | None = None,
    ) -> tuple[int, int | None] | None:
        """Store one device event (and its match entry) in one committed transaction.

        Returns (device_event_id, entry_id), or None when the event is a duplicate.
        """
        now = time.time()
        with self.transaction() as db:
            try:
                cur = db.execute(
                    "INSERT INTO device_events(device_uid, boot_id, seq, ticks, kind, a, b, period,"
                    " clock_ms, value, received_at) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                    (ev.device_uid, ev.boot_id, ev.seq, ev.ticks, ev.kind, ev.a, ev.b, ev.period,
                     ev.clock_ms, ev.value, now),
                )
            except sqlite3.IntegrityError:
                return None
            self._advance(db, ev.device_uid, ev.boot_id, ev.seq)
            dev_id = int(cur.lastrowid or 0)
            entry_id = None
            if match_id is not None:
                cur = db.execute(
                    "INSERT INTO entries(match_id, source, kind, data, period, clock_ms, ticks,"
                    " device_event_id, author, created_at, occurred_at)"
                    " VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                    (match_id, "device", entry_kind, json.dumps(entry_data), ev.period,
                     ev.clock_ms, ev.ticks, dev_id, ev.device_uid, now,
                     occurred_at if occurred_at is not None else now * 1000),
                )
                entry_id = int(cur.lastrowid or 0)
                self._seal(db, entry_id)
        return dev_id, entry_id

    def record_gap(self, uid: str, boot_id: int, first_seq: int, last_seq: int,
                   match_id: int | None) -> int | None:
        now = time.time()
        with self.transaction() as db:
            db.execute(
                "INSERT INTO gaps(device_uid, boot_id, first_seq, last_seq, recorded_at)"
                " VALUES (?,?,?,?,?)",
                (uid, boot_id, first_seq, last_seq, now),
            )
            self._advance(db, uid, boot_id, last_seq)
            if match_id is None:
                return None
            cur = db.execute(
                "INSERT INTO entries(match_id, source, kind, data, period, clock_ms, ticks,"
                " device_event_id, author, created_at, occurred_at)"
                " VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                (match_id, "system", "gap", json.dumps(
                    {"boot_id": boot_id, "first_seq": first_seq, "last_seq": last_seq}),
                 0, 0, 0, None, "link", now, now * 1000),
            )
            self._seal(db, int(cur.lastrowid or 0))
            return int(cur.lastrowid or 0)

    def record_lost(self, uid: str, boot_id: int, first_seq: int,
                    last_seq: int) -> tuple[int, int] | None:
        """A reset boot's unacknowledged events (the device's own record): add to the gaps
        the part of first..last the log holds neither as events nor as gaps already.

        The cursor stays where it is (on the new boot). Returns the range added, if any.
        """
        with self.transaction() as db:
            held = db.execute(
                "SELECT MAX(m) FROM (SELECT MAX(seq) AS m FROM device_events WHERE device_uid=?"
                " AND boot_id=? UNION ALL SELECT MAX(last_seq) FROM gaps WHERE device_uid=?"
                " AND boot_id=?)", (uid, boot_id, uid, boot_id)).fetchone()[0] or 0
            first = max(first_seq, int(held) + 1)
            if first > last_seq:
                return None
            db.execute(
                "INSERT INTO gaps(device_uid, boot_id, first_seq, last_seq, recorded_at)"
                " VALUES (?,?,?,?,?)", (uid, boot_id, first, last_seq, time.time()))
        return first, last_seq

    def _held(self, db: sqlite3.Connection, uid: str, boot_id: int) -> int:
        """The highest seq of a boot the log holds, as an event or inside a gap (0: none)."""
        return int(db.execute(
            "SELECT MAX(m) FROM (SELECT MAX(seq) AS m FROM device_events WHERE device_uid=?"
            " AND boot_id=? UNION ALL SELECT MAX(last_seq) FROM gaps WHERE device_uid=?"
            " AND boot_id=?)", (uid, boot_id, uid, boot_id)).fetchone()[0] or 0)

    def record_reservation(self, uid: str, boot_id: int, made_seq: int,
                           reserved_seq: int) -> tuple[tuple[int, int] | None,
                                                     tuple[int, int] | None]:
        """A reset boot's seq reservation: it made event made_seq and at most reserved_seq.

        What the log lacks up to made_seq is a gap (those events were made); beyond, up to
        reserved_seq, a possible loss "up to N events after seq S". Returns (the gap added,
        (S, reserved_seq) of the possible loss added), each None when the log already has it.
        """
        with self.transaction() as db:
            held = self._held(db, uid, boot_id)
            gap = None
            if held < made_seq:
                gap = (held + 1, made_seq)
                db.execute(
                    "INSERT INTO gaps(device_uid, boot_id, first_seq, last_seq, recorded_at)"
                    " VALUES (?,?,?,?,?)", (uid, boot_id, held + 1, made_seq, time.time()))
                held = made_seq
            if held >= reserved_seq:
                return gap, None
            db.execute(
                "INSERT INTO possible_losses(device_uid, boot_id, after_seq, up_to_seq,"
                " recorded_at) VALUES (?,?,?,?,?)",
                (uid, boot_id, held, reserved_seq, time.time()))
        return gap, (held, reserved_seq)

    def possible_losses(self, uid: str | None = None) -> list[tuple[int, int, int]]:
        """(boot, after_seq, up_to_seq): events after_seq+1..up_to_seq may be made and lost."""
        with self._lock:
            try:
                rows = self._db.execute(
                    "SELECT boot_id, after_seq, up_to_seq FROM possible_losses"
                    + (" WHERE device_uid=?" if uid else "") + " ORDER BY id",
                    (uid,) if uid else (),
                ).fetchall()
            except sqlite3.OperationalError:  # an older read-only log: none recorded
                return []
        return [(int(a), int(b), int(c)) for a, b, c in rows]

    def device_events(self, uid: str | None = None) -> list[DeviceEvent]:
        with self._lock:
            sql = ("SELECT device_uid, boot_id, seq, ticks, kind, a, b, period, clock_ms, value"
                   " FROM device_events")
            rows = (self._db.execute(sql + " WHERE device_uid=? ORDER BY id", (uid,))
                    if uid else self._db.execute(sql + " ORDER BY id"))
            return [DeviceEvent(*row) for row in rows.fetchall()]

    def gaps(self, uid: str | None = None) -> list[tuple[int, int, int]]:
        with self._lock:
            rows = self._db.execute(
                "SELECT boot_id, first_seq, last_seq FROM gaps"
                + (" WHERE device_uid=?" if uid else "") + " ORDER BY id",
                (uid,) if uid else (),
            ).fetchall()
        return [(int(a), int(b), int(c)) for a, b, c in rows]

    # -- matches -----------------------------------------------------------------
    def new_match(self, table_id: str, ruleset: str, settings: dict[str, Any],
                  referee: str = "") -> int:
        with self.transaction() as db:
            cur = db.execute(
                "INSERT INTO matches(table_id, ruleset, settings, referee, created_at)"
                " VALUES (?,?,?,?,?)",
                (table_id, ruleset, json.dumps(settings), referee, time.time()),
            )
            return int(cur.lastrowid or 0)

    def open_match(self, table_id: str) -> dict[str, Any] | None:
        """The newest unfinished match of a table, if any."""
        with self._lock:
            row = self._db.execute(
                "SELECT id FROM matches WHERE table_id=? AND ended_at IS NULL"
                " ORDER BY id DESC LIMIT 1",
                (table_id,),
            ).fetchone()
        return self.match(int(row[0])) if row else None

    _MATCH_COLUMNS = "id, table_id, ruleset, settings, referee, created_at, ended_at"

    @staticmethod
    def _match_row(row: tuple[Any, ...]) -> dict[str, Any]:
        """A stored match; settings that are not a JSON object are kept, with ``load_error``."""
        match: dict[str, Any] = {
            "id": row[0], "table_id": row[1], "ruleset": row[2], "settings": {},
            "referee": row[4], "created_at": row[5], "ended_at": row[6],
        }
        try:
            settings = json.loads(row[3])
        except (ValueError, TypeError) as exc:
            match["load_error"] = _("settings are not valid JSON ({error})").format(error=exc)
            return match
        if isinstance(settings, dict):
            match["settings"] = settings
        else:
            match["load_error"] = _("settings are not a JSON object")
        return match

    def match(self, match_id: int) -> dict[str, Any] | None:
        with self._lock:
            row = self._db.execute(
                f"SELECT {self._MATCH_COLUMNS} FROM matches WHERE id=?", (match_id,),
            ).fetchone()
        return None if row is None else self._match_row(row)

    def list_matches(self, limit: int | None = None,
                     before: int | None = None) -> list[dict[str, Any]]:
        """Stored matches, newest first (one query): all, or ``limit`` older than ``before``."""
        sql = f"SELECT {self._MATCH_COLUMNS} FROM matches"
        args: list[int] = []
        if before is not None:
            sql += " WHERE id<?"
            args.append(before)
        sql += " ORDER BY id DESC"
        if limit is not None:
            sql += " LIMIT ?"
            args.append(limit)
        with self._lock:
            rows = self._db.execute(sql, args).fetchall()
        return [self._match_row(r) for r in rows]

    def next_match_ids(self, ids: list[int]) -> dict[int, int]:
        """For each match id, the next match on the same table (the one that replaced it)."""
        out: dict[int, int] = {}
        with self._lock:
            for chunk in _chunks(ids):
                out.update((int(a), int(b)) for a, b in self._db.execute(
                    "SELECT m.id, (SELECT MIN(n.id) FROM matches n WHERE n.table_id=m.table_id"
                    f" AND n.id>m.id) FROM matches m WHERE m.id IN ({_marks(chunk)})", chunk)
                    if b is not None)
        return out

    # -- match summaries (derived data, see SUMMARY_SCHEMA) -------------------------------
    def entry_marks(self, ids: list[int]) -> dict[int, tuple[int, int]]:
        """Per match: (number of entries, newest entry id) — what a summary is valid for."""
        out: dict[int, tuple[int, int]] = {}
        with self._lock:
            for chunk in _chunks(ids):
                out.update((int(m), (int(n), int(last))) for m, n, last in self._db.execute(
                    "SELECT match_id, COUNT(*), MAX(id) FROM entries"
                    f" WHERE match_id IN ({_marks(chunk)}) GROUP BY match_id", chunk))
        return out

    def summaries(self, ids: list[int]) -> dict[int, tuple[str, int, int, dict[str, Any]]]:
        """Stored summaries: match id → (version, entry count, newest entry id, summary)."""
        rows: list[tuple[Any, ...]] = []
        try:
            with self._lock:
                for chunk in _chunks(ids):
                    rows += self._db.execute(
                        "SELECT match_id, version, entry_count, last_entry_id, summary"
                        f" FROM match_summaries WHERE match_id IN ({_marks(chunk)})",
                        chunk).fetchall()
        except sqlite3.OperationalError:
            return {}
        out: dict[int, tuple[str, int, int, dict[str, Any]]] = {}
        for m, version, n, last, text in rows:
            try:
                out[int(m)] = (str(version), int(n), int(last), json.loads(text))
            except ValueError:
                continue  # a damaged summary is simply rebuilt
        return out

    def put_summaries(self, rows: list[tuple[int, str, int, int, dict[str, Any]]]) -> bool:
        """Keep summaries (match id, version, count, newest id, summary); False if not writable."""
        if not rows:
            return True
        try:
            with self.transaction() as db:
                db.executemany(
                    "INSERT OR REPLACE INTO match_summaries(match_id, version, entry_count,"
                    " last_entry_id, summary) VALUES (?,?,?,?,?)",
                    [(m, v, n, last, json.dumps(s)) for m, v, n, last, s in rows])
        except sqlite3.OperationalError:
            return False  # a read-only log: the history is still right, only not cached
        return True

    def end_match(self, match_id: int) -> None:
        with self.transaction() as db:
            db.execute("UPDATE matches SET ended_at=? WHERE id=? AND ended_at IS NULL",
                       (time.time(), match_id))

    def append_entry(self, match_id: int, source: str, kind: str, data: dict[str, Any],
                     period: int, clock_ms: int, author: str, ticks: int = 0,
                     occurred_at: float | None = None, input_id: str | None = None) -> int:
        now = time.time()
        with self.transaction() as db:
            cur = db.execute(
                "INSERT INTO entries(match_id, source, kind, data, period, clock_ms, ticks,"
                " device_event_id, author, created_at, occurred_at)"
                " VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                (match_id, source, kind, json.dumps(data), period, clock_ms, ticks, None, author,
                 now, occurred_at if occurred_at is not None else now * 1000),
            )
            entry_id = int(cur.lastrowid or 0)
            self._seal(db, entry_id)
            if input_id is not None:  # in the same commit: the entry and its input id
                db.execute("INSERT OR IGNORE INTO referee_inputs(input_id, match_id, entry_id)"
                           " VALUES (?,?,?)", (input_id, match_id, entry_id))
            return entry_id

    def input_entry(self, input_id: str) -> tuple[int, int] | None:
        """(match id, entry id) of the referee input a phone sent with this id, if stored."""
        with self._lock:
            row = self._db.execute("SELECT match_id, entry_id FROM referee_inputs"
                                   " WHERE input_id=?", (input_id,)).fetchone()
        return (int(row[0]), int(row[1])) if row else None

    def entries(self, match_id: int) -> list[StoredEntry]:
        """A match's log in the order things happened (futmesa.rules.ordering)."""
        with self._lock:
            rows = self._db.execute(
                "SELECT id, match_id, source, kind, data, period, clock_ms, ticks, author,"
                " created_at, occurred_at FROM entries WHERE match_id=? ORDER BY id",
                (match_id,),
            ).fetchall()
        return in_time_order([
            StoredEntry(r[0], r[1], r[2], r[3], json.loads(r[4]), r[5], r[6], r[7], r[8], r[9],
                        r[10] if r[10] is not None else r[9] * 1000)
            for r in rows
        ])

    # -- the hash chain (futmesa/chain.py) ------------------------------------------------
    def chain_check(self, match_id: int) -> chain.ChainCheck:
        """A match's chain recomputed from its stored rows; the first entry that fails."""
        with self._lock:
            return chain.check_match(self._db, match_id)

    def chain_head(self, match_id: int) -> str:
        """The hash of the match's newest entry (what a signature made now signs)."""
        with self._lock:
            return chain.head(self._db, match_id) if chain.has_chain(self._db) else chain.GENESIS

    def chain_rows(self, match_id: int) -> dict[int, dict[str, Any]]:
        """Per entry id, what the chain covers beyond the match record: its ticks, device
        (uid, boot id, seq) and stored ``prev_hash`` / ``hash`` (None: unchained)."""
        with self._lock:
            if not chain.has_chain(self._db):
                return {}
            rows = self._db.execute(chain.ROW_SQL + " WHERE e.match_id=? ORDER BY e.id",
                                    (match_id,)).fetchall()
        return {int(r[0]): {"source": r[2], "kind": r[3], "ticks": r[7],
                            "prev_hash": r[14], "hash": r[15],
                            "device": ({"uid": r[11], "boot_id": r[12], "seq": r[13]}
                                       if r[11] is not None else None)} for r in rows}
