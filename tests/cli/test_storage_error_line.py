"""An organiser's command that meets a storage problem answers in one line (issue 37).

The whole path on a real full filesystem is tests/venue/test_desk_disk_full.py (`competition
walkover` on the desk's full disk); here, each kind of problem and its words, and what is not
a storage problem (it stays an error of its own)."""

from __future__ import annotations

import errno
import sqlite3
import subprocess
from pathlib import Path

from futmesa.health import storage_error_line
from futmesa_testkit.venue import FUTMESA


def test_each_storage_problem_has_its_line() -> None:
    full = storage_error_line(sqlite3.OperationalError("database or disk is full"))
    assert full is not None and "cheio" in full and "Libere espaço" in full
    ro = storage_error_line(sqlite3.OperationalError("attempt to write a readonly database"))
    assert ro is not None and "somente leitura" in ro
    busy = storage_error_line(sqlite3.OperationalError("database is locked"))
    assert busy is not None and "ocupado" in busy
    nospace = storage_error_line(OSError(errno.ENOSPC, "No space left on device"))
    assert nospace is not None and "cheio" in nospace
    denied = storage_error_line(PermissionError(errno.EACCES, "Permission denied", "/x/y.csv"))
    assert denied is not None and "/x/y.csv" in denied


def test_what_is_not_storage_is_not_dressed_as_storage() -> None:
    assert storage_error_line(ConnectionRefusedError(errno.ECONNREFUSED, "refused")) is None
    assert storage_error_line(ValueError("x")) is None


def test_a_database_that_is_not_one_gives_one_line(tmp_path: Path) -> None:
    bogus = tmp_path / "desk.sqlite"
    bogus.write_bytes(b"this is not a database, it is a spreadsheet" * 100)
    out = subprocess.run([FUTMESA, "competition", "standings", "--db", str(bogus)],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode != 0
    assert "Traceback" not in out.stderr, out.stderr
    assert len(out.stderr.strip().splitlines()) == 1, out.stderr
    assert "não é um banco de dados do futmesa" in out.stderr, out.stderr
