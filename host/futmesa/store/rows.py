"""What the event log stores, as the rest of the host reads it, and the one way an entry
row is written (every entry is chained in the transaction that stores it: futmesa/chain.py)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from futmesa import chain


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


def chunks(ids: list[int], size: int = 500) -> list[list[int]]:
    """``ids`` in pieces small enough for one SQL ``IN (…)``."""
    return [ids[i:i + size] for i in range(0, len(ids), size)]


def marks(chunk: list[int]) -> str:
    return ",".join("?" * len(chunk))


def insert_entry(db: sqlite3.Connection, match_id: int, source: str, kind: str,
                 data: dict[str, Any], *, period: int = 0, clock_ms: int = 0, ticks: int = 0,
                 device_event_id: int | None = None, author: str = "", created_at: float,
                 occurred_at: float | None = None,
                 seal: Callable[[sqlite3.Connection, int], str] = chain.seal) -> int:
    """Append one match entry (inside the caller's transaction) and chain it (``seal``: the
    log's own, ``LogFile._seal``); its id."""
    cur = db.execute(
        "INSERT INTO entries(match_id, source, kind, data, period, clock_ms, ticks,"
        " device_event_id, author, created_at, occurred_at) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
        (match_id, source, kind, json.dumps(data), period, clock_ms, ticks, device_event_id,
         author, created_at, occurred_at if occurred_at is not None else created_at * 1000))
    entry_id = int(cur.lastrowid or 0)
    seal(db, entry_id)
    return entry_id
