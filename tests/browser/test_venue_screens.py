"""The venue board made for the room, in Chromium at TV and phone sizes: whole club names (no
"União Ope…"), table names (never a board uid), the running matches, the next ones with their
table, the standings, the Final labelled and the champion celebrated; every screen passes the
screen checks. The desk's pages run on a real competition file; the tables' live states are
the snapshot the desk would have received over MQTT."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from screen_checks import VIEWPORTS, check_screen

from futmesa.competition.db import CompetitionDB
from futmesa.competition.settings import parse_settings
from futmesa.competition.teams import read_teams_csv
from futmesa.store import EventLog
from futmesa.venue.web import create_desk_app
from futmesa_testkit.liveserver import LiveServer

pytestmark = pytest.mark.browser

CSV = """name,short,color
Estrela do Norte Futebol de Mesa,EST,#c8102e
Botafogo da Mesa,BOT,#1d1d1b
Grêmio Botão,GRE,#0d80bf
União Operária de Niterói,UNI,#2e7d32
"""


LONG_NAME = "Associação Atlética Recreativa Botonista de Jacarepaguá"


def result(sa: int, sb: int) -> dict[str, Any]:
    return {"score_a": sa, "score_b": sb, "winner": None if sa == sb else ("A" if sa > sb else "B"),
            "reason": "time", "rule": ""}


class FakeDesk:
    """What the desk's web pages read: the competition file and the tables' last states."""

    def __init__(self, comp: CompetitionDB, tables: list[dict[str, Any]]) -> None:
        self.comp = comp
        self.tables = tables
        self.listeners: list[Any] = []

    def snapshot(self) -> dict[str, Any]:
        return {"connected": True, "now": int(time.time() * 1000), "tables": self.tables}

    def since(self, seq: int) -> tuple[int, dict[str, Any]]:
        return 1, self.snapshot() if seq == 0 else {**self.snapshot(), "tables": []}


def live_table(table_id: str, a: str, b: str, score: tuple[int, int]) -> dict[str, Any]:
    now = int(time.time() * 1000)
    return {"table_id": table_id, "online": True, "state": {
        "teams": {"A": {"name": a, "color": "#c8102e"}, "B": {"name": b, "color": "#1d1d1b"}},
        "score": {"A": score[0], "B": score[1]}, "status": "running", "period": 1,
        "clock": {"ms": 125_000, "running": True, "at": now, "rate": 1, "length_ms": 600_000}}}


def desk_for(tmp_path: Path, *, final_played: bool) -> FakeDesk:
    path = tmp_path / "desk.sqlite"
    EventLog(path).close()
    db = CompetitionDB(path)
    db.import_teams(read_teams_csv(CSV))
    cid = db.create(parse_settings({"groups": 2, "advance": 1, "tables": 2}))
    groups = [m for m in db.matches(cid) if m["stage"] == "group"]
    for m in groups:
        db.record_result(m["id"], f"t:{m['id']}", result(2, 1))
    db.advance(cid)
    final = next(m for m in db.matches(cid) if m["group"] == "Final")
    teams = db.team_map()
    a, b = teams[final["team_a"]].name, teams[final["team_b"]].name
    tables = [live_table("sim-SIM00001", a, b, (1, 1)),
              live_table("sim-SIM00002", "Grêmio Botão", "Botafogo da Mesa", (0, 0)),
              live_table("sim-SIM00003", "União Operária de Niterói", "Grêmio Botão", (2, 0)),
              live_table("sim-SIM00004", "Botafogo da Mesa", LONG_NAME, (0, 1))]
    if final_played:
        db.record_result(final["id"], "t:final", result(3, 1))
    else:
        db.set_assigned(final["id"], "sim-SIM00001")
    return FakeDesk(db, tables)


@pytest.mark.parametrize("size", list(VIEWPORTS))
def test_the_venue_board_in_the_room(tmp_path: Path, browser: Any, output_dir: Path,
                                     size: str) -> None:
    for final_played in (False, True):
        desk = desk_for(tmp_path / str(final_played), final_played=final_played)
        server = LiveServer(None, create_desk_app(desk))  # type: ignore[arg-type]
        server.start()
        context = browser.new_context(viewport=VIEWPORTS[size])
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e, errs=errors: errs.append(str(e)))
        try:
            page.goto(server.url + "/")
            page.wait_for_selector("#t-sim-SIM00002")
            page.wait_for_function(
                "document.querySelector('#t-sim-SIM00001 .tid').textContent === 'Mesa 1'")
            if final_played:
                page.wait_for_selector("#champion.on")
                assert page.text_content("#champion-name")
            else:
                page.wait_for_function(
                    "document.querySelector('#t-sim-SIM00001 .label').textContent === 'Final'")
                assert "final" in page.get_attribute("#t-sim-SIM00001", "class")
            check_screen(page, f"venue-board-{'champion' if final_played else 'final'}-{size}",
                         output_dir)
            if final_played:
                for other in ("standings", "bracket", "summary"):
                    page.goto(f"{server.url}/{other}")
                    check_screen(page, f"venue-{other}-{size}", output_dir)
        finally:
            context.close()
            server.stop()
            desk.comp.close()
        assert not errors, errors


SIXTEEN = ["Náutico da Palheta", "Estrela do Norte", "Botafogo da Mesa", "Grêmio Botão",
           "União Operária", "Palmeiras do Botão", "Santos Futebol de Mesa", "Vasco da Palheta",
           "Flamengo Botonista", "Fluminense de Mesa", "Corinthians do Dadinho",
           "Cruzeiro Palheta", "Atlético Botão", "Internacional de Mesa", "Bahia Botonista",
           "Sport Recife Mesa"]


@pytest.mark.parametrize("size", ["tv", "hd"])
def test_a_day_of_four_groups_fits_the_tv(tmp_path: Path, browser: Any, output_dir: Path,
                                          size: str) -> None:
    """Issue 31 §14: four groups of four on a TV — every club's name on one line in the
    standings ("Náutico da / Palheta" wrapped), every group on the screen, and "Próximas
    partidas" never cut at the bottom (only the matches that fit are listed)."""
    path = tmp_path / "desk.sqlite"
    EventLog(path).close()
    db = CompetitionDB(path)
    db.import_teams(read_teams_csv("name,color\n" + "\n".join(
        f"{n},#{(i * 1234567) % 0xFFFFFF:06x}" for i, n in enumerate(SIXTEEN))))
    cid = db.create(parse_settings({"groups": 4, "advance": 2, "tables": 4}))
    teams = db.team_map()
    tables = []
    for i, m in enumerate([m for m in db.matches(cid) if m["stage"] == "group"][:4]):
        db.set_assigned(m["id"], f"sim-SIM0000{i + 1}")
        tables.append(live_table(f"sim-SIM0000{i + 1}", teams[m["team_a"]].name,
                                 teams[m["team_b"]].name, (1, 0)))
    server = LiveServer(None, create_desk_app(FakeDesk(db, tables)))  # type: ignore[arg-type]
    server.start()
    context = browser.new_context(viewport=VIEWPORTS[size])
    page = context.new_page()
    try:
        page.goto(server.url + "/")
        page.wait_for_selector("#t-sim-SIM00004")
        page.wait_for_function("document.querySelectorAll('#upcoming-list li').length > 0")
        height = VIEWPORTS[size]["height"]
        page.wait_for_function(
            "h => [...document.querySelectorAll('#upcoming-list li')].filter(li => !li.hidden)"
            ".every(li => li.getBoundingClientRect().bottom <= h)", arg=height)
        check_screen(page, f"venue-board-four-groups-{size}", output_dir)
        shown = page.evaluate("""() => [...document.querySelectorAll('#upcoming-list li')]
            .filter(li => li.offsetParent).map(li => li.getBoundingClientRect().bottom)""")
        assert shown and max(shown) <= height, shown  # at least one, none cut
        groups = page.evaluate("""() => [...document.querySelectorAll('#standings-body h2')]
            .map(h => h.textContent.trim())""")
        assert len(groups) == 4, groups
        last = page.evaluate("""() => Math.max(...[...document.querySelectorAll(
            '#standings table.std')].map(t => t.getBoundingClientRect().bottom))""")
        assert last <= height, f"the standings end at {last:.0f} px on a {height} px screen"
        wrapped = page.evaluate("""() => [...document.querySelectorAll(
            '#standings table.std td:nth-child(2)')].filter(td => {
              const line = parseFloat(getComputedStyle(td).lineHeight) || 20;
              return td.getBoundingClientRect().height > line * 1.6 * (
                parseFloat(document.getElementById('standings').style.zoom) || 1) + 8;
            }).map(td => td.textContent.trim())""")
        assert wrapped == [], wrapped
        assert page.evaluate("document.documentElement.scrollHeight") <= height + 1
    finally:
        context.close()
        server.stop()
        db.close()


def test_a_day_of_categories_shows_each_in_turn(tmp_path: Path, browser: Any,
                                                output_dir: Path) -> None:
    """Two categories on one board (issue 33 §1): the standings show one category at a time
    under its name and turn to the next; the champion banner names each category's champion
    as it is decided; the QR to find one's match stays under the standings after they
    refresh."""
    db = CompetitionDB(tmp_path / "dia.sqlite")
    db.import_teams(read_teams_csv(CSV))
    adulto = db.create(parse_settings({"format": "league", "category": "Adulto",
                                       "tables": 2}),
                       ["estrela do norte futebol de mesa", "botafogo da mesa"])
    db.create(parse_settings({"format": "league", "category": "Máster", "tables": 2}),
              ["grêmio botão", "união operária de niterói"])
    [m] = db.matches(adulto)
    db.record_result(m["id"], "t:1", result(2, 1))
    server = LiveServer(None, create_desk_app(FakeDesk(db, [])))  # type: ignore[arg-type]
    server.start()
    context = browser.new_context(viewport=VIEWPORTS["tv"])
    page = context.new_page()
    try:
        page.goto(server.url + "/")
        page.wait_for_function("document.getElementById('standings-category').textContent"
                               " === 'Adulto'", timeout=15000)
        assert "Estrela do Norte" in page.text_content("#standings-body")
        check_screen(page, "venue-board-categories-tv", output_dir)
        page.wait_for_function("document.getElementById('standings-category').textContent"
                               " === 'Máster'", timeout=30000)
        assert "Grêmio Botão" in page.text_content("#standings-body")
        assert "Estrela" not in page.text_content("#standings-body")
        assert page.is_visible("#find-match img")
        page.wait_for_selector("#champion.on")
        assert "Adulto" in page.text_content("#champion-name")
    finally:
        context.close()
        server.stop()
        db.close()
