"""The event log's matches: their headers (a match's end is the one thing written after it
opens), their entries in the order things happened, the referee's input ids, their chain."""

from __future__ import annotations

import json
import time
from typing import Any

from futmesa import chain
from futmesa.i18n import _
from futmesa.rules.ordering import in_time_order
from futmesa.store.base import LogFile
from futmesa.store.rows import StoredEntry, chunks, insert_entry, marks


class MatchRecords(LogFile):
    """Matches and their logs."""

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
            for chunk in chunks(ids):
                out.update((int(a), int(b)) for a, b in self._db.execute(
                    "SELECT m.id, (SELECT MIN(n.id) FROM matches n WHERE n.table_id=m.table_id"
                    f" AND n.id>m.id) FROM matches m WHERE m.id IN ({marks(chunk)})", chunk)
                    if b is not None)
        return out

    def end_match(self, match_id: int) -> None:
        with self.transaction() as db:
            db.execute("UPDATE matches SET ended_at=? WHERE id=? AND ended_at IS NULL",
                       (time.time(), match_id))

    def append_entry(self, match_id: int, source: str, kind: str, data: dict[str, Any],
                     period: int, clock_ms: int, author: str, ticks: int = 0,
                     occurred_at: float | None = None, input_id: str | None = None) -> int:
        now = time.time()
        with self.transaction() as db:
            entry_id = insert_entry(db, match_id, source, kind, data, period=period,
                                    clock_ms=clock_ms, ticks=ticks, author=author,
                                    created_at=now, occurred_at=occurred_at, seal=self._seal)
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
