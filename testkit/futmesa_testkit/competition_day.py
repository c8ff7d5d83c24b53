"""A small championship day made the organiser's way (`futmesa competition new` from a teams
file and a settings file), for the desk's tests: four teams, two groups, one from each to the
final, and a helper that records a table's result."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from futmesa.cli import cli
from futmesa.competition.db import CompetitionDB
from futmesa.store import EventLog

TEAMS = "name\nAlfa\nBeta\nGama\nDelta\n"
SETTINGS = {"name": "Copa", "format": "groups_knockout", "groups": 2, "advance": 1,
            "tables": 2}


def run_competition(*args: str) -> tuple[int, str]:
    """``futmesa --lang pt_BR competition ARGS``: (exit code, output)."""
    r = CliRunner().invoke(cli, ["--lang", "pt_BR", "competition", *args])
    return r.exit_code, r.output


def four_team_day(tmp_path: Path) -> tuple[Path, CompetitionDB, int]:
    """A new competition in ``tmp_path/dia.sqlite``: (its file, the desk's db, its id)."""
    db = tmp_path / "dia.sqlite"
    EventLog(db).close()
    (tmp_path / "times.csv").write_text(TEAMS, encoding="utf-8")
    (tmp_path / "s.json").write_text(json.dumps(SETTINGS), encoding="utf-8")
    code, out = run_competition("new", "--db", str(db), "--teams", str(tmp_path / "times.csv"),
                                "--settings", str(tmp_path / "s.json"))
    assert code == 0, out
    comp = CompetitionDB(str(db))
    return db, comp, comp.competition()["id"]


def table_result(comp: CompetitionDB, match: dict[str, Any], a: int, b: int,
                 key: str | None = None) -> None:
    """The table's result of ``match`` at full time (``a`` × ``b``)."""
    winner = "A" if a > b else "B" if b > a else None
    comp.record_result(match["id"], key or f"t:{match['id']}",
                       {"score_a": a, "score_b": b, "winner": winner, "reason": "time",
                        "rule": ""})
