"""An undo re-opens the knockout places it fed (issue 47, organiser's walk): a walk-over
given by mistake on a group match fills the final; undone, the final's place waits again;
the right result then fills it from the standings, never the stale team."""

from __future__ import annotations

from pathlib import Path

from futmesa.competition.db import CompetitionDB
from futmesa_testkit.competition_day import four_team_day, run_competition, table_result


def test_an_undone_walkover_reopens_the_final_and_the_right_result_fills_it(
        tmp_path: Path) -> None:
    db, comp, cid = four_team_day(tmp_path)
    group = [m for m in comp.matches(cid) if m["stage"] == "group"]
    first, others = group[0], group[1:]
    for m in others:
        table_result(comp, m, 1, 0)
    # the mistake: A called absent, so B wins by W.O.
    code, out = run_competition("walkover", str(first["id"]), "A", "--reason", "não compareceu",
                     "--db", str(db))
    assert code == 0, out
    comp = CompetitionDB(str(db))
    comp.advance(cid)
    final = next(m for m in comp.matches(cid) if m["stage"] == "ko")
    fed = [s for s, src in (("team_a", "src_a"), ("team_b", "src_b"))
           if src and final[src].startswith(f"group:{first['group']}:")]
    assert fed, final
    side = fed[0]
    assert final[side] == first["team_b"], final
    code, out = run_competition("undo", str(first["id"]), "--reason", "W.O. por engano",
                                "--db", str(db))
    assert code == 0, out
    comp = CompetitionDB(str(db))
    assert comp.match(final["id"])[side] is None, comp.match(final["id"])
    # the right result: A won at the table
    table_result(comp, first, 2, 0, key="t:right")
    comp.advance(cid)
    assert comp.match(final["id"])[side] == first["team_a"], comp.match(final["id"])
