"""What the organiser reads at the desk (issue 47, the lows): a mistyped --db is refused
and creates no empty file; a sanction is named in words, never "match_points"; a walkover
shows "W.O." once, with its reason."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from futmesa.cli import cli
from futmesa.competition.db import CompetitionDB
from futmesa.store import EventLog
from futmesa.venue.views import competition_view


def _run(*args: str) -> tuple[int, str]:
    r = CliRunner().invoke(cli, ["--lang", "pt_BR", "competition", *args])
    return r.exit_code, r.output


def test_the_desks_words(tmp_path: Path) -> None:
    missing = tmp_path / "dsk.sqlite"
    code, out = _run("standings", "--db", str(missing))
    assert code != 0 and "--db" in out and not missing.exists(), out
    db = tmp_path / "dia.sqlite"
    EventLog(db).close()
    (tmp_path / "t.csv").write_text("name\nAlfa\nBeta\nGama\n", encoding="utf-8")
    (tmp_path / "s.json").write_text('{"format": "league"}', encoding="utf-8")
    code, out = _run("new", "--db", str(db), "--teams", str(tmp_path / "t.csv"), "--settings",
                     str(tmp_path / "s.json"))
    assert code == 0, out
    comp = CompetitionDB(db)
    m = comp.matches(comp.competition()["id"])[0]
    name = comp.team_map()[m["team_a"]].name
    code, out = _run("sanction", name, "match_points", "--match", str(m["id"]), "--db",
                     str(db))
    assert code == 0 and "match_points" not in out and "pontos de uma partida" in out, out
    code, out = _run("standings", "--db", str(db))
    assert code == 0 and "match_points" not in out, out
    other = comp.matches(comp.competition()["id"])[1]
    code, out = _run("walkover", str(other["id"]), "B", "--db", str(db))
    assert code == 0, out
    view = next(v for v in competition_view(CompetitionDB(db), lang="pt")["matches"]
                if v["id"] == other["id"])
    assert view["reason"] == "W.O." and not view["rule"], view
    comp.close()


def test_no_001_article_on_a_cbfm_day_and_the_kiosk_names_the_category(tmp_path: Path
                                                                        ) -> None:
    from futmesa.competition.settings import parse_settings
    from futmesa.competition.teams import read_teams_csv
    from futmesa.venue.assigner import assignment

    EventLog(tmp_path / "d.sqlite").close()
    comp = CompetitionDB(tmp_path / "d.sqlite")
    comp.import_teams(read_teams_csv("name\nAlfa\nBeta\nGama\nDelta\n"))
    cid = comp.create(parse_settings({"format": "swiss_knockout", "swiss_rounds": 2,
                                      "advance": 2, "category": "Sub-18"}))
    m = comp.matches(cid)[0]
    comp.decisions.add_sanction(m["team_a"], "match_points", m["id"])
    assert comp.decisions.sanctions(cid)[0]["rule"] == "", "a 001 article on a CBFM day"
    told = assignment(m, comp.team_map(), comp.competition(cid))
    assert told["label"] == "Sub-18 · Rodada suíça 1", told["label"]
    comp.close()
