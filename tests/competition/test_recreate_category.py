"""Creating a category again mid-day (issue 47 §14): refused while it has a match at a
table or results, saying which; with --replace its matches in play and to play are closed,
so nothing stays "at a table" and the desk gives the tables the new draw's matches."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from futmesa.cli import cli
from futmesa.competition.db import CompetitionDB
from futmesa.store import EventLog


def _new(db: Path, tmp: Path, *extra: str) -> tuple[int, str]:
    r = CliRunner().invoke(cli, ["--lang", "pt_BR", "competition", "new", "--db", str(db),
                                 "--teams", str(tmp / "t.csv"), "--settings",
                                 str(tmp / "s.json"), "--category", "Adulto", *extra])
    return r.exit_code, r.output


def test_a_category_under_way_is_replaced_only_when_confirmed(tmp_path: Path) -> None:
    db = tmp_path / "dia.sqlite"
    EventLog(db).close()
    (tmp_path / "t.csv").write_text("name\nAlfa\nBeta\nGama\nDelta\n", encoding="utf-8")
    (tmp_path / "s.json").write_text('{"format": "league", "tables": 2}', encoding="utf-8")
    code, out = _new(db, tmp_path)
    assert code == 0, out
    code, out = _new(db, tmp_path)  # nothing played yet: a new draw is fine
    assert code == 0, out
    comp = CompetitionDB(db)
    old = comp.active()[0]
    playing = comp.matches(old["id"])[0]
    comp.set_assigned(playing["id"], "mesa-1")
    code, out = _new(db, tmp_path)
    assert code != 0 and f"partida {playing['id']}" in out and "--replace" in out, out
    assert len(out.strip().splitlines()) == 1 and "Traceback" not in out
    code, out = _new(db, tmp_path, "--replace")
    assert code == 0 and "fechada" in out, out
    fresh = CompetitionDB(db)
    left = [m for m in fresh.matches(old["id"]) if m["status"] in ("scheduled", "assigned")]
    assert left == [], "a replaced competition's match still at a table or to play"
    assert fresh.active()[0]["id"] != old["id"]
    comp.close()
    fresh.close()
