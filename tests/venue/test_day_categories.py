"""Several competitions in one day (issue 33 §1): categories (Adulto, Máster) each with its
own ruleset, format and teams, one desk and one board for all; the venue's tables are shared
and never booked twice; a player entered in both categories plays one match at a time; the
estimated times count every category's matches on the shared tables."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from click.testing import CliRunner

from futmesa.cli import cli
from futmesa.competition.db import CompetitionDB
from futmesa.store import EventLog
from futmesa.venue.desk import Desk
from futmesa.venue.mqtt import Broker
from futmesa.venue.views import competition_view

ADULTO = "name\nEstrela do Norte\nBotafogo da Mesa\nGrêmio Botão\nUnião Operária\n" \
         "Palmeirinhas\nFerroviário\n"
MASTER = "name\nVeteranos do Sul\nBotafogo da Mesa\nVelha Guarda\nClube dos 60\n"


def _day(tmp_path: Path) -> Path:
    db = tmp_path / "dia.sqlite"
    EventLog(db).close()
    (tmp_path / "adulto.csv").write_text(ADULTO, encoding="utf-8")
    (tmp_path / "master.csv").write_text(MASTER, encoding="utf-8")
    (tmp_path / "adulto.json").write_text(
        '{"name": "Estadual Adulto", "format": "league", "tables": 4,'
        ' "ruleset": "cbfm-1toque"}', encoding="utf-8")
    (tmp_path / "master.json").write_text(
        '{"name": "Estadual Máster", "format": "league", "tables": 4,'
        ' "ruleset": "pastilha-8x2"}', encoding="utf-8")
    for cat, csv, js in (("Adulto", "adulto.csv", "adulto.json"),
                         ("Máster", "master.csv", "master.json")):
        r = CliRunner().invoke(cli, ["--lang", "pt_BR", "competition", "new", "--db", str(db),
                                     "--teams", str(tmp_path / csv), "--settings",
                                     str(tmp_path / js), "--category", cat])
        assert r.exit_code == 0, r.output
    return db


def _finish(comp: CompetitionDB, m: dict[str, Any]) -> None:
    comp.record_result(m["id"], f"t:{m['id']}", {"score_a": 1, "score_b": 0, "winner": "A",
                                                 "reason": "time", "rule": ""})


def test_two_categories_share_the_tables(tmp_path: Path) -> None:
    db = _day(tmp_path)
    desk = Desk(str(db), Broker("127.0.0.1", 1), "unused")
    desk.connected = True
    desk.board.tables = {f"mesa-{i}": {"online": True} for i in range(1, 6)}
    comp = desk.comp
    day = comp.active()
    assert [c["settings"].category for c in day] == ["Adulto", "Máster"]
    adulto, master = (c["id"] for c in day)
    assert len(comp.matches(adulto)) == 15 and len(comp.matches(master)) == 6
    botafogo = "botafogo da mesa"
    seen_rulesets: set[str] = set()
    for _rounds in range(30):
        desk.progress()
        playing = [m for c in day for m in comp.matches(c["id"]) if m["status"] == "assigned"]
        tables = [m["table_id"] for m in playing]
        assert len(tables) == len(set(tables)), "a table booked twice"
        teams = [t for m in playing for t in (m["team_a"], m["team_b"])]
        assert teams.count(botafogo) <= 1, "a player in both categories at two tables"
        for payload in desk.assigned.values():
            if payload:
                seen_rulesets.add(payload["ruleset"])
        if not playing:
            break
        for m in playing:
            _finish(comp, m)
    assert seen_rulesets == {"cbfm-1toque", "pastilha-8x2"}, "each category its own rules"
    for c in day:
        assert all(m["status"] == "finished" for m in comp.matches(c["id"]))
    desk.comp.close()


def test_the_board_shows_every_category(tmp_path: Path) -> None:
    db = _day(tmp_path)
    comp = CompetitionDB(db)
    view = competition_view(comp)
    assert [d["category"] for d in view["day"]] == ["Adulto", "Máster"]
    labels = {v["label"].split(" · ")[0] for v in view["day_matches"]}
    assert labels == {"Adulto", "Máster"}
    etas = [v["eta"] for v in view["day_matches"]]
    assert all(e.startswith("~") for e in etas[:5]), etas
    # the Adulto page on its own
    adulto = competition_view(comp, cid=view["day"][0]["id"])
    assert adulto["category"] == "Adulto" and "" in adulto["standings"]
    # a category created again replaces the one before (a draw re-run), not adds a third
    r = CliRunner().invoke(cli, ["competition", "new", "--db", str(db), "--teams",
                                 str(tmp_path / "master.csv"), "--settings",
                                 str(tmp_path / "master.json"), "--category", "Máster"])
    assert r.exit_code == 0, r.output
    assert [c["settings"].category for c in comp.active()] == ["Adulto", "Máster"]
    assert len(comp.competition_ids()) == 3


def test_each_team_finds_its_own_category(tmp_path: Path) -> None:
    """A team page on a day of two categories: the Adulto player (the older competition)
    finds the Adulto match, not "no such team"; the player entered in both is sent to the
    match already on a table; the QR sheet lists every entrant with the category."""
    from futmesa.venue.views import team_view, teams_index

    db = _day(tmp_path)
    comp = CompetitionDB(db)
    adulto, master = (c["id"] for c in comp.active())
    estrela = team_view(comp, "estrela do norte")
    assert estrela is not None and estrela["category"] == "Adulto"
    assert estrela["next"] is not None
    veteranos = team_view(comp, "veteranos do sul")
    assert veteranos is not None and veteranos["category"] == "Máster"
    assert team_view(comp, "estrela do norte", cid=master) is None
    # the player in both: the category whose match is on a table now
    both = [m for m in comp.matches(master) if "botafogo da mesa" in (m["team_a"], m["team_b"])]
    comp.set_assigned(both[-1]["id"], "mesa-1")
    page = team_view(comp, "botafogo da mesa")
    assert page is not None and page["category"] == "Máster" and page["next"]["now"]
    assert team_view(comp, "botafogo da mesa", cid=adulto)["category"] == "Adulto"
    index = {t["key"]: t["category"] for t in teams_index(comp)}
    assert len(index) == 9
    assert index["botafogo da mesa"] == "Adulto · Máster"
    assert index["estrela do norte"] == "Adulto" and index["clube dos 60"] == "Máster"
    assert team_view(comp, "ninguém") is None


def test_the_day_exports_every_category(tmp_path: Path) -> None:
    """`competition export` on a day of two categories: every category's sheets, each named
    by its category, each with its own teams (the Adulto standings are not the Máster's)."""
    from openpyxl import load_workbook

    db = _day(tmp_path)
    out = tmp_path / "dia.xlsx"
    r = CliRunner().invoke(cli, ["--lang", "pt_BR", "competition", "export", "--db", str(db),
                                 "--xlsx", str(out), "--csv", str(tmp_path / "csv")])
    assert r.exit_code == 0, r.output
    wb = load_workbook(out)
    assert "Adulto · Classificação" in wb.sheetnames, wb.sheetnames
    assert "Máster · Classificação" in wb.sheetnames, wb.sheetnames
    adulto = {row[2] for row in wb["Adulto · Classificação"].iter_rows(min_row=2,
                                                                        values_only=True)}
    master = {row[2] for row in wb["Máster · Classificação"].iter_rows(min_row=2,
                                                                        values_only=True)}
    assert "Estrela do Norte" in adulto and "Estrela do Norte" not in master
    assert "Veteranos do Sul" in master and "Veteranos do Sul" not in adulto
    assert (tmp_path / "csv" / "master-classificacao.csv").is_file()
