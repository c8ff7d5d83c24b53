"""A knockout match the table ended level waits for the desk, and says so (issue 47,
organiser's walk): both teams' pages, the bracket and 'competition schedule' read
"empate — aguarda a decisão da mesa de controle", never "Nenhuma partida por jogar" or
"encerrada"; the public board says it in words, never the desk's command."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from futmesa.cli import cli
from futmesa.competition.db import CompetitionDB
from futmesa.store import EventLog
from futmesa.venue.views import competition_view, team_view

TEAMS = "name\nAlfa\nBeta\nGama\nDelta\n"
AWAITS = "empate — aguarda a decisão da mesa de controle"


def _run(*args: str) -> tuple[int, str]:
    r = CliRunner().invoke(cli, ["--lang", "pt_BR", "competition", *args])
    return r.exit_code, r.output


def _level_final(tmp_path: Path) -> tuple[str, CompetitionDB, int, dict]:
    db = tmp_path / "dia.sqlite"
    EventLog(db).close()
    (tmp_path / "times.csv").write_text(TEAMS, encoding="utf-8")
    (tmp_path / "s.json").write_text(json.dumps({
        "name": "Copa", "format": "groups_knockout", "groups": 2, "advance": 1,
        "tables": 2}), encoding="utf-8")
    code, out = _run("new", "--db", str(db), "--teams", str(tmp_path / "times.csv"),
                     "--settings", str(tmp_path / "s.json"))
    assert code == 0, out
    comp = CompetitionDB(str(db))
    cid = comp.competition()["id"]
    for m in comp.matches(cid):
        if m["stage"] == "group":
            comp.record_result(m["id"], f"t:{m['id']}", {"score_a": 1, "score_b": 0,
                                                         "winner": "A", "reason": "time",
                                                         "rule": ""})
    comp.advance(cid)
    final = next(m for m in comp.matches(cid) if m["stage"] == "ko")
    comp.record_result(final["id"], "t:final", {"score_a": 0, "score_b": 0, "winner": None,
                                                "reason": "time", "rule": ""})
    return str(db), comp, cid, comp.match(final["id"])


def test_a_level_final_tells_both_teams_and_the_lists_it_waits_for_the_desk(
        tmp_path: Path) -> None:
    db, comp, cid, final = _level_final(tmp_path)
    for key in (final["team_a"], final["team_b"]):
        page = team_view(comp, key, lang="pt_BR", cid=cid)
        assert page is not None and page["next"], page
        assert page["next"].get("waiting") == AWAITS, page["next"]
    view = competition_view(comp, lang="pt_BR", cid=cid)
    [shown] = [m for m in view["matches"] if m["id"] == final["id"]]
    assert shown["status_pt"] == AWAITS, shown
    code, out = _run("schedule", "--db", db)
    [line] = [x for x in out.splitlines() if x.strip().startswith(str(final["id"]) + " ")]
    assert f"[{AWAITS}]" in line and "encerrada" not in line, out
    # decided: the usual words again
    code, out = _run("decide", str(final["id"]), "A", "--reason", "sorteio", "--db", db)
    assert code == 0, out
    view = competition_view(CompetitionDB(db), lang="pt_BR", cid=cid)
    [shown] = [m for m in view["matches"] if m["id"] == final["id"]]
    assert shown["status_pt"] != AWAITS, shown
