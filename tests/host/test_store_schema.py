"""The schema's steps (store/db.py: migrate): each taken once, counted per part of a file; a
read-only copy opens as it is; a file that is not a database is refused in one line."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from futmesa.store import EventLog
from futmesa.store.db import connect, migrate


def test_steps_are_taken_once_and_counted_per_part(tmp_path: Path) -> None:
    db = connect(tmp_path / "f.sqlite")
    taken: list[str] = []
    steps = [lambda _db: taken.append("one"), lambda _db: taken.append("two")]
    assert migrate(db, "outbox", steps) == 2
    assert migrate(db, "outbox", steps) == 2 and taken == ["one", "two"]
    assert migrate(db, "outbox", [*steps, lambda _db: taken.append("three")]) == 3
    assert taken == ["one", "two", "three"]
    assert migrate(db, "desk", steps[:1]) == 1  # another part of the same file
    assert taken == ["one", "two", "three", "one"]


def test_a_step_that_fails_is_taken_again_next_time(tmp_path: Path) -> None:
    db = connect(tmp_path / "f.sqlite")
    ok = {"now": False}

    def flaky(d: sqlite3.Connection) -> None:
        if not ok["now"]:
            raise sqlite3.OperationalError("database or disk is full")
        d.execute("CREATE TABLE t (x)")

    assert migrate(db, "p", [flaky]) == 0
    ok["now"] = True
    assert migrate(db, "p", [flaky]) == 1


def test_a_read_only_log_from_before_the_count_opens_and_reads(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "copy.sqlite"
    store = EventLog(path)
    match = store.new_match("t", "cbfm-1toque", {})
    store.append_entry(match, "referee", "set_up", {"kickoff": "A"}, 0, 0, "ref")
    store.close()
    with sqlite3.connect(path) as db:
        db.execute("DROP TABLE futmesa_schema")  # written before the count was kept

    def read_only(p: str | Path, *, timeout: float = 30.0) -> sqlite3.Connection:
        db = connect(p, timeout=timeout)
        db.execute("PRAGMA query_only=ON")  # every write fails as on a read-only copy
        return db

    monkeypatch.setattr("futmesa.store.eventlog.connect", read_only)
    again = EventLog(path)
    assert [e.kind for e in again.entries(match)] == ["set_up"]
    with pytest.raises(sqlite3.OperationalError):
        again.new_match("t", "cbfm-1toque", {})


def test_a_file_that_is_not_a_log_is_refused_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "notes.sqlite"
    path.write_bytes(b"this is a spreadsheet, not a database" * 100)
    with pytest.raises(SystemExit) as refused:
        EventLog(path)
    assert "não é um registro de eventos do futmesa" in str(refused.value)
