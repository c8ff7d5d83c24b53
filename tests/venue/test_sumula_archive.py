"""``futmesa competition sumulas``: the day's súmulas in one archive for the federation
(issue 33 §6) — a folder per category, each PDF as `futmesa report` writes it, checked
against the table's file, and an index (Brazilian CSV) with the verdict and each file's
SHA-256. A table's file not brought, a walk-over the desk decided and a result that does not
check out each get their line, and the last exit status 1."""

from __future__ import annotations

import csv
import hashlib
import io
import sqlite3
import zipfile
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from futmesa.cli import cli
from venue.test_result_check import Day


def archive(day: Day, out: Path, *tables: Path) -> tuple[int, str]:
    args = ["competition", "sumulas", "--db", str(day.desk_db), "--out", str(out)]
    for t in tables:
        args += ["--tables", str(t)]
    r = CliRunner().invoke(cli, args)
    return r.exit_code, r.output


def index_of(path: Path) -> list[dict[str, str]]:
    with zipfile.ZipFile(path) as zf:
        text = zf.read("indice.csv").decode("utf-8-sig")
    return list(csv.DictReader(io.StringIO(text), delimiter=";"))


def test_the_signed_sumulas_in_one_archive(tmp_path: Path) -> None:
    day = Day(tmp_path)
    day.sign()
    day.send()
    out = tmp_path / "federacao" / "sumulas.zip"
    code, said = archive(day, out, day.table_db)
    assert code == 0, said
    assert "1 súmulas (1 assinadas e confirmadas" in said, said
    [row] = index_of(out)
    assert row["Verificação"] == "confirmada" and "assinada por Rui" in row["Por quê"]
    assert (row["Equipe A"], row["Gols A"], row["Gols B"], row["Equipe B"]) == (
        "Alfa", "2", "0", "Beta")
    with zipfile.ZipFile(out) as zf:
        pdf = zf.read(row["Arquivo"])
    assert row["Arquivo"].endswith("-Mesa-1-Alfa-x-Beta.pdf"), row["Arquivo"]
    assert pdf.startswith(b"%PDF") and hashlib.sha256(pdf).hexdigest() == row["SHA-256"]

    # without the table's file: said, no súmula made up
    code, said = archive(day, out)
    assert code == 0 and "0 súmulas" in said and "1 de mesa não trazida" in said, said
    [row] = index_of(out)
    assert row["Verificação"] == "mesa não trazida" and row["Arquivo"] == ""


def test_a_result_that_does_not_check_out_fails_the_archive(tmp_path: Path) -> None:
    day = Day(tmp_path)
    day.send()
    day.desk_sql("UPDATE comp_results SET score_a=5 WHERE match_id=?", day.cm)
    code, said = archive(day, tmp_path / "s.zip", day.table_db)
    assert code == 1 and "1 não conferem" in said, said
    [row] = index_of(tmp_path / "s.zip")
    assert row["Verificação"] == "não confere" and "(5 × 0)" in row["Por quê"]
    # the table's own súmula is still in the archive, for the federation to compare
    assert row["Arquivo"]


def test_a_walkover_decided_at_the_desk_is_listed(tmp_path: Path) -> None:
    day = Day(tmp_path)
    day.comp.decisions.walkover(day.cm, "B", "não compareceu", confirm=True)
    code, said = archive(day, tmp_path / "s.zip", day.table_db)
    assert code == 0 and "1 decididas na mesa de controle" in said, said
    [row] = index_of(tmp_path / "s.zip")
    assert row["Verificação"] == "decidida na mesa de controle" and row["Arquivo"] == ""
    assert row["Por quê"].startswith("W.O.") and "walkover" not in row["Por quê"], row


def test_a_wrong_file_is_refused_in_one_line(tmp_path: Path) -> None:
    day = Day(tmp_path)
    code, said = archive(day, tmp_path / "s.zip", tmp_path / "nada.sqlite")
    assert code != 0 and "--tables" in said and "Traceback" not in said
    table = tmp_path / "mesa.sqlite"
    sqlite3.connect(table).close()
    r = CliRunner().invoke(cli, ["competition", "sumulas", "--db", str(day.table_db),
                                 "--out", str(tmp_path / "s.zip")])
    assert r.exit_code != 0 and "--db" in r.output + str(r.exception), r.output


def test_a_full_disk_leaves_no_broken_archive(tmp_path: Path, monkeypatch: Any) -> None:
    """The disk fills while the archive is written (tried on a 300 kB tmpfs): one line says
    so, and no half-written ZIP is left for somebody to send to the federation."""
    import errno

    day = Day(tmp_path)
    day.sign()
    day.send()
    real = zipfile.ZipFile.writestr

    def full(self: zipfile.ZipFile, name: Any, data: Any, *args: Any, **kwargs: Any) -> None:
        if str(name).endswith(".csv"):
            raise OSError(errno.ENOSPC, "No space left on device")
        real(self, name, data, *args, **kwargs)

    monkeypatch.setattr(zipfile.ZipFile, "writestr", full)
    out = tmp_path / "s.zip"
    code, said = archive(day, out, day.table_db)
    assert code != 0 and "escolha outro lugar" in said and "Traceback" not in said, said
    assert not out.exists() and not list(tmp_path.glob("s.zip*"))
