"""No match stops the day (issue 47 §4, §13): a knockout match the table ends level is
settled as the organiser chose at creation (the ruleset's own default named then); the
desk decides one with a reason; a walk-over, an abandonment and a decision are each undone
with a reason and recorded; a walk-over on a match in play asks for --confirm; no stored
status word ("finished") reaches the organiser."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from futmesa.cli import cli
from futmesa.competition import actions
from futmesa.competition.db import CompetitionDB
from futmesa.store import EventLog
from futmesa.venue.assigner import assignment
from futmesa.venue.board_state import notices_of
from futmesa.venue.views import competition_view

TEAMS = "name\nAlfa\nBeta\nGama\nDelta\n"


def _run(*args: str) -> tuple[int, str]:
    r = CliRunner().invoke(cli, ["--lang", "pt_BR", "competition", *args])
    return r.exit_code, r.output


def _day(tmp_path: Path, **settings: object) -> tuple[str, str]:
    db = tmp_path / "dia.sqlite"
    EventLog(db).close()
    (tmp_path / "times.csv").write_text(TEAMS, encoding="utf-8")
    (tmp_path / "s.json").write_text(json.dumps({
        "name": "Copa", "format": "groups_knockout", "groups": 2, "advance": 1,
        "tables": 2, **settings}), encoding="utf-8")
    code, out = _run("new", "--db", str(db), "--teams", str(tmp_path / "times.csv"),
                     "--settings", str(tmp_path / "s.json"))
    return str(db) if code == 0 else "", out


def _play_groups(comp: CompetitionDB, cid: int) -> dict:
    for m in comp.matches(cid):
        if m["stage"] == "group":
            comp.record_result(m["id"], f"t:{m['id']}", {"score_a": 1, "score_b": 0,
                                                         "winner": "A", "reason": "time",
                                                         "rule": ""})
    comp.advance(cid)
    return next(m for m in comp.matches(cid) if m["stage"] == "ko")


def test_a_level_final_is_decided_at_the_desk_and_undone(tmp_path: Path) -> None:
    db, out = _day(tmp_path)
    assert db, out
    # the default named at creation: CBFM 1 Toque has neither extra time nor penalties
    assert "decidida na mesa de controle" in out, out
    comp = CompetitionDB(db)
    cid = comp.competition()["id"]
    final = _play_groups(comp, cid)
    told = assignment(final, comp.team_map(), comp.competition(cid))
    assert told["settings"]["shootout"] is False and told["settings"]["competition"] == "knockout"
    comp.record_result(final["id"], "t:final", {"score_a": 1, "score_b": 1, "winner": None,
                                                "reason": "time", "rule": ""})
    assert competition_view(comp, cid=cid)["champion"] is None
    level = actions.undecided(comp.matches(cid))
    assert [m["id"] for m in level] == [final["id"]]
    notice = notices_of([], [], level)["notice"]
    assert "aguarda a decisão da mesa de controle" in notice and "campeão" in notice, notice
    assert "futmesa" not in notice and "decide" not in notice, notice
    # the commands that refused before say what to do, in Portuguese
    code, text = _run("abandon", str(final["id"]), "--db", db)
    assert code != 0 and "competition decide" in text and "finished" not in text, text
    code, text = _run("decide", str(final["id"]), "B", "--db", db)
    assert code != 0 and "--reason" in text, text
    code, text = _run("decide", str(final["id"]), "B", "--reason", "sorteio", "--db", db)
    assert code == 0 and "Copa" not in text or "Final" in text, text
    fresh = CompetitionDB(db)
    view = competition_view(fresh, cid=cid)
    winner = fresh.team_map()[fresh.match(final["id"])["team_b"]].name
    assert view["champion"] == winner, view["champion"]
    # the table sending its level result again changes nothing
    assert not fresh.record_result(final["id"], "t:final", {
        "score_a": 1, "score_b": 1, "winner": None, "reason": "time", "rule": ""})
    assert competition_view(fresh, cid=cid)["champion"] == winner
    code, text = _run("undo", str(final["id"]), "--db", db)
    assert code != 0 and "--reason" in text
    code, text = _run("undo", str(final["id"]), "--reason", "lado errado", "--db", db)
    assert code == 0, text
    fresh = CompetitionDB(db)
    assert competition_view(fresh, cid=cid)["champion"] is None
    code, text = _run("decide", str(final["id"]), "A", "--reason", "sorteio refeito", "--db", db)
    assert code == 0, text
    fresh = CompetitionDB(db)
    assert competition_view(fresh, cid=cid)["champion"] == fresh.team_map()[
        fresh.match(final["id"])["team_a"]].name
    code, text = _run("actions", "--db", db)
    assert code == 0 and text.count("decidida na mesa de controle") == 2, text
    assert "desfeita: lado errado" in text and "sorteio refeito" in text, text
    for c in (comp, fresh):
        c.close()


def test_the_organisers_choice_and_what_the_rules_can_play(tmp_path: Path) -> None:
    db, out = _day(tmp_path / "a", knockout_draw="vantagem")
    assert db and "nomeada primeiro" in out, out
    comp = CompetitionDB(db)
    cid = comp.competition()["id"]
    final = _play_groups(comp, cid)
    told = assignment(final, comp.team_map(), comp.competition(cid))
    assert told["settings"]["advantage"] == "A"
    comp.close()
    db, out = _day(tmp_path / "b", knockout_draw="pênaltis")  # CBFM 1 Toque has none
    assert not db and "knockout_draw" in out and "pênaltis" in out, out
    assert "Traceback" not in out and len(out.strip().splitlines()) == 1, out
    db, out = _day(tmp_path / "c", ruleset="pastilha-8x2")  # the ruleset's own: extra time
    assert db and "prorrogação" in out, out
    comp = CompetitionDB(db)
    cid = comp.competition()["id"]
    told = assignment(_play_groups(comp, cid), comp.team_map(), comp.competition(cid))
    assert told["settings"]["extra_time"] is True and told["settings"]["shootout"] is True
    comp.close()


def test_a_walkover_in_play_asks_and_is_undone(tmp_path: Path) -> None:
    db, _out = _day(tmp_path)
    comp = CompetitionDB(db)
    cid = comp.competition()["id"]
    m = comp.matches(cid)[0]
    comp.set_assigned(m["id"], "mesa-1")
    code, text = _run("walkover", str(m["id"]), "B", "--db", db)
    assert code != 0 and "--confirm" in text and "sendo jogada" in text, text
    code, text = _run("walkover", str(m["id"]), "B", "--confirm", "--reason", "não veio",
                      "--db", db)
    teams = comp.team_map()
    assert code == 0 and teams[m["team_a"]].name in text and teams[m["team_b"]].name in text
    assert CompetitionDB(db).match(m["id"])["status"] == "walkover"
    code, text = _run("undo", str(m["id"]), "--reason", "W.O. por engano", "--db", db)
    assert code == 0, text
    back = CompetitionDB(db).match(m["id"])
    assert back["status"] == "scheduled" and back["result"] is None and not back["table_id"]
    # an abandonment and its replay, undone: the match is to be played again, no replay
    rid = CompetitionDB(db).decisions.abandon(m["id"], "queda de energia")
    code, text = _run("undo", str(rid), "--reason", "a luz voltou", "--db", db)
    assert code == 0, text
    after = CompetitionDB(db)
    assert after.match(m["id"])["status"] == "scheduled"
    assert all(x["id"] != rid for x in after.matches(cid))
    comp.close()
