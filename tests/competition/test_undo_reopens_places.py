"""An undo re-opens the knockout places it fed (issue 47, organiser's walk): a walk-over
given by mistake on a group match fills the final; undone, the final's place waits again;
the right result then fills it from the standings, never the stale team."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from futmesa.cli import cli
from futmesa.competition.db import CompetitionDB
from futmesa.store import EventLog

TEAMS = "name\nAlfa\nBeta\nGama\nDelta\n"


def _run(*args: str) -> tuple[int, str]:
    r = CliRunner().invoke(cli, ["--lang", "pt_BR", "competition", *args])
    return r.exit_code, r.output


def test_an_undone_walkover_reopens_the_final_and_the_right_result_fills_it(
        tmp_path: Path) -> None:
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
    group = [m for m in comp.matches(cid) if m["stage"] == "group"]
    first, others = group[0], group[1:]
    for m in others:
        comp.record_result(m["id"], f"t:{m['id']}", {"score_a": 1, "score_b": 0,
                                                     "winner": "A", "reason": "time",
                                                     "rule": ""})
    # the mistake: A called absent, so B wins by W.O.
    code, out = _run("walkover", str(first["id"]), "A", "--reason", "não compareceu",
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
    code, out = _run("undo", str(first["id"]), "--reason", "W.O. por engano", "--db", str(db))
    assert code == 0, out
    comp = CompetitionDB(str(db))
    assert comp.match(final["id"])[side] is None, comp.match(final["id"])
    # the right result: A won at the table
    comp.record_result(first["id"], "t:right", {"score_a": 2, "score_b": 0, "winner": "A",
                                                "reason": "time", "rule": ""})
    comp.advance(cid)
    assert comp.match(final["id"])[side] == first["team_a"], comp.match(final["id"])
