"""A knockout match the table ended level waits for the desk, and says so (issue 47,
organiser's walk): both teams' pages, the bracket and 'competition schedule' read
"empate — aguarda a decisão da mesa de controle", never "Nenhuma partida por jogar" or
"encerrada"; the public board says it in words, never the desk's command."""

from __future__ import annotations

from pathlib import Path

from futmesa.competition.db import CompetitionDB
from futmesa.venue.views import competition_view, team_view
from futmesa_testkit.competition_day import four_team_day, run_competition, table_result

AWAITS = "empate — aguarda a decisão da mesa de controle"


def _level_final(tmp_path: Path) -> tuple[str, CompetitionDB, int, dict]:
    db, comp, cid = four_team_day(tmp_path)
    for m in comp.matches(cid):
        if m["stage"] == "group":
            table_result(comp, m, 1, 0)
    comp.advance(cid)
    final = next(m for m in comp.matches(cid) if m["stage"] == "ko")
    table_result(comp, final, 0, 0, key="t:final")
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
    code, out = run_competition("schedule", "--db", db)
    [line] = [x for x in out.splitlines() if x.strip().startswith(str(final["id"]) + " ")]
    assert f"[{AWAITS}]" in line and "encerrada" not in line, out
    # decided: the usual words again
    code, out = run_competition("decide", str(final["id"]), "A", "--reason", "sorteio", "--db", db)
    assert code == 0, out
    view = competition_view(CompetitionDB(db), lang="pt_BR", cid=cid)
    [shown] = [m for m in view["matches"] if m["id"] == final["id"]]
    assert shown["status_pt"] != AWAITS, shown
