"""The hash chain of a match's log: every stored entry seals its content and the previous hash.

When an entry is committed (:mod:`futmesa.store`), :func:`seal` reads the row as SQLite holds
it, in the same transaction, and stores ``prev_hash`` (the hash of the match's previous entry,
"" for its first) and ``hash`` = SHA-256 of the canonical encoding (JSON, sorted keys, no
spaces, UTF-8) of ``{"entry": content, "prev": prev_hash}``. The content is the entry's id,
match, kind, data, source, author, period, clock, device ticks, times and, for a device
event, the device's uid, boot id and sequence number. Nothing is ever rebuilt: ``verify``
recomputes the hashes and names the first entry that does not match.

Entries stored before the chain existed (an older log) have no hash: they are reported as
unchained, never as valid; an unchained entry after a chained one is an error. A chain alone
proves the log is consistent with itself; the súmula's final hash, the signatures and the
result sent to the desk anchor it outside the file.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from dataclasses import dataclass, field
from typing import Any

from futmesa.i18n import N_, translator

GENESIS = ""  # the prev_hash of a match's first chained entry
SHORT = 12  # hex digits of the short form printed on the súmula

# the stored columns an entry's hash covers (the device columns come from device_events)
ROW_SQL = (
    "SELECT e.id, e.match_id, e.source, e.kind, e.data, e.period, e.clock_ms, e.ticks,"
    " e.author, e.created_at, e.occurred_at, d.device_uid, d.boot_id, d.seq,"
    " e.prev_hash, e.hash"
    " FROM entries e LEFT JOIN device_events d ON d.id = e.device_event_id")


def canonical(value: Any) -> bytes:
    """The one encoding hashed: JSON, sorted keys, no spaces, UTF-8."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      allow_nan=False).encode("utf-8")


def content(entry_id: int, match_id: int, source: str, kind: str, data: Any, period: int,
            clock_ms: int, ticks: int, author: str, created_at: float,
            occurred_at: float | None, device: dict[str, Any] | None) -> dict[str, Any]:
    """What an entry's hash covers, with the stored types (integers, floats) made explicit."""
    out: dict[str, Any] = {
        "id": int(entry_id), "match_id": int(match_id), "source": str(source),
        "kind": str(kind), "data": data, "period": int(period), "clock_ms": int(clock_ms),
        "ticks": int(ticks), "author": str(author or ""), "created_at": float(created_at),
        "occurred_at": None if occurred_at is None else float(occurred_at),
    }
    if device is not None:
        out["device"] = {"uid": str(device["uid"]), "boot_id": int(device["boot_id"]),
                         "seq": int(device["seq"])}
    return out


def entry_hash(entry: dict[str, Any], prev: str) -> str:
    return hashlib.sha256(canonical({"entry": entry, "prev": prev})).hexdigest()


def short(digest: str | None) -> str:
    """The short form of a hash a person reads and compares (first 12 hex digits)."""
    return (digest or "")[:SHORT]


def _row_content(row: tuple[Any, ...]) -> dict[str, Any]:
    """The content of a row read with ROW_SQL; ValueError when its data is not JSON."""
    data = json.loads(row[4])
    device = ({"uid": row[11], "boot_id": row[12], "seq": row[13]}
              if row[11] is not None else None)
    return content(row[0], row[1], row[2], row[3], data, row[5], row[6], row[7], row[8],
                   row[9], row[10], device)


def has_chain(db: sqlite3.Connection) -> bool:
    return "hash" in {r[1] for r in db.execute("PRAGMA table_info(entries)")}


def migrate(db: sqlite3.Connection) -> None:
    """Add the chain's columns to a log written before the chain existed (entries unchained)."""
    columns = {r[1] for r in db.execute("PRAGMA table_info(entries)")}
    for column in ("prev_hash", "hash"):
        if column not in columns:
            db.execute(f"ALTER TABLE entries ADD COLUMN {column} TEXT")


def head(db: sqlite3.Connection, match_id: int, before: int | None = None) -> str:
    """The hash of the match's newest chained entry (before entry ``before``), or GENESIS."""
    row = db.execute(
        "SELECT hash FROM entries WHERE match_id=? AND id<? AND hash IS NOT NULL"
        " ORDER BY id DESC LIMIT 1",
        (match_id, before if before is not None else 1 << 62)).fetchone()
    return str(row[0]) if row else GENESIS


def seal(db: sqlite3.Connection, entry_id: int) -> str:
    """Chain the entry just inserted (inside the caller's transaction); returns its hash."""
    row = db.execute(ROW_SQL + " WHERE e.id=?", (entry_id,)).fetchone()
    prev = head(db, int(row[1]), entry_id)
    digest = entry_hash(_row_content(row), prev)
    db.execute("UPDATE entries SET prev_hash=?, hash=? WHERE id=?", (prev, digest, entry_id))
    return digest


# ---- verifying ------------------------------------------------------------------------------
@dataclass
class ChainCheck:
    """One match's chain, checked: ``problem`` names the first entry that does not match."""

    match_id: int
    entries: int = 0
    chained: int = 0
    unchained: int = 0  # entries stored before the chain existed (not proven, not an error)
    final_hash: str = GENESIS
    problem: str = ""  # Portuguese, one line; "" when the chain checks
    problem_en: str = ""  # the same in English
    bad_entry: int | None = None
    hashes: dict[int, tuple[str, str]] = field(default_factory=dict)  # id -> (prev, hash)

    @property
    def ok(self) -> bool:
        return not self.problem

    def to_dict(self) -> dict[str, Any]:
        return {"match_id": self.match_id, "ok": self.ok, "entries": self.entries,
                "chained": self.chained, "unchained": self.unchained,
                "final_hash": self.final_hash, "short": short(self.final_hash),
                "problem": self.problem, "problem_en": self.problem_en,
                "bad_entry": self.bad_entry}


def check_rows(match_id: int, rows: list[tuple[Any, ...]]) -> ChainCheck:
    """Check a match's rows (ROW_SQL, in id order) against their stored hashes."""
    out = ChainCheck(match_id, entries=len(rows))
    prev = GENESIS
    started = False
    seen: set[str] = set()
    # number: the entry's place in its match's log, the number every view says
    # (matchbook/numbers.py derives it so; the store sits below the matchbook)
    for number, row in enumerate(rows, 1):
        eid, stored_prev, stored = int(row[0]), row[14], row[15]
        if stored is None and stored_prev is None:
            if started:
                return _bad(out, eid, number, N_(
                    "entry no. {number} has no hash although earlier ones have (its hash was "
                    "erased; stored id {entry})"))
            out.unchained += 1
            continue
        started = True
        try:
            expected = entry_hash(_row_content(row), prev)
        except (ValueError, TypeError) as exc:
            return _bad(out, eid, number, N_(
                "entry no. {number} is unreadable ({problem}; stored id {entry})"), problem=exc)
        if stored_prev != prev:
            return _bad(out, eid, number, N_(
                "entry no. {number} does not follow the previous one in the chain (an entry "
                "was deleted, inserted or altered before it; stored id {entry})"))
        if stored != expected:
            return _bad(out, eid, number, N_(
                "entry no. {number} was altered after it was stored (its content does not "
                "match its hash; stored id {entry})"))
        if row[3] == "signature" and _signed(row) not in seen:
            return _bad(out, eid, number, N_(
                "signature no. {number} signs a hash that is not in the chain before it "
                "(stored id {entry})"))
        out.hashes[eid] = (prev, expected)
        out.chained += 1
        prev = expected
        seen.add(expected)
    out.final_hash = prev
    return out


def _signed(row: tuple[Any, ...]) -> Any:
    data = json.loads(row[4])
    return data.get("signs") if isinstance(data, dict) else None


def _bad(out: ChainCheck, entry_id: int, number: int, msgid: str, **values: Any) -> ChainCheck:
    """The first problem, from the catalogs in Portuguese (``problem``) and English: the
    entry by its number in the match, and its stored id."""
    out.problem, out.problem_en = (translator(lang).gettext(msgid).format(
        entry=entry_id, number=number, **values) for lang in ("pt_BR", "en"))
    out.bad_entry = entry_id
    return out


def check_match(db: sqlite3.Connection, match_id: int) -> ChainCheck:
    """Check one match's chain in the database."""
    if not has_chain(db):
        rows = db.execute("SELECT COUNT(*) FROM entries WHERE match_id=?", (match_id,)).fetchone()
        return ChainCheck(match_id, entries=int(rows[0]), unchained=int(rows[0]))
    rows = db.execute(ROW_SQL + " WHERE e.match_id=? ORDER BY e.id", (match_id,)).fetchall()
    return check_rows(match_id, rows)


def check_record_entries(match_id: int, entries: list[dict[str, Any]]) -> ChainCheck:
    """Check the entries of a JSON súmula (each with its stored ``prev_hash`` and ``hash``)."""
    rows = []
    for e in sorted(entries, key=lambda e: int(e.get("id") or 0)):
        device: dict[str, Any] = e["device"] if isinstance(e.get("device"), dict) else {}
        rows.append((e.get("id"), match_id, e.get("source"), e.get("kind"),
                     json.dumps(e.get("data")), e.get("period"), e.get("clock_ms"),
                     e.get("ticks", 0), e.get("author"), e.get("created_at"),
                     e.get("occurred_at"), device.get("uid"), device.get("boot_id"),
                     device.get("seq"), e.get("prev_hash"), e.get("hash")))
    return check_rows(match_id, rows)
