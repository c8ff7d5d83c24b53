"""The competition database on a real small filesystem that fills up (issue 32 §3).

Every write of the competition database is one hardened transaction (futmesa.store.db, the
same as the event log's, the outbox's and the desk's): on a full disk the write fails with
SQLite's own error — never "cannot rollback" hiding it — nothing of it is kept, the file stays
readable, and once space is freed the next write works (a failed COMMIT left open would make
every later BEGIN fail). Mounting the small filesystem needs root, as the suite runs in CI.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from futmesa.competition.db import CompetitionDB
from futmesa.competition.teams import TEAM_NAME_MAX, Team
from futmesa_testkit.smalldisk import SmallDisk


def teams(prefix: str, n: int) -> list[Team]:
    # the longest name the tables take, and a long club: rows that fill the disk
    name = f"{prefix} {{:03d}} "
    return [Team(name=name.format(i) + "x" * (TEAM_NAME_MAX - len(name) + 3),
                 club="c" * 40) for i in range(n)]


def test_a_full_disk_fails_one_write_and_the_next_works(tmp_path: Path) -> None:
    disk = SmallDisk(tmp_path / "disk", size_mb=8)
    db_path = disk.path / "desk.sqlite"
    db = CompetitionDB(db_path)
    try:
        db.import_teams(teams("Clube", 8))
        disk.fill(db_path)
        # a small write fails at its COMMIT (the WAL cannot grow), a large one on the way
        for n in (1, 400):
            with pytest.raises(sqlite3.OperationalError) as failed:
                db.import_teams(teams(f"Outro{n}", n))
            assert "full" in str(failed.value), failed.value  # SQLite's words, not a rollback's
            assert len(db.teams()) == 8  # nothing of the failed write is kept; reads work
        disk.free()
        db.import_teams(teams("Outro", 400))  # the failed COMMIT did not leave it open
        assert len(db.teams()) == 408
    finally:
        db.close()
        disk.close()
