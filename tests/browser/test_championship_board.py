"""The venue board on a championship day's TV (issue 47 §8, §9): six tables of two
categories, a champion banner and a notice at the top — every card whole on the 1920×1080
screen, each card naming its category, a final of the category not shown in the standings
still framed "FINAL", "Próximas partidas" and "Fim previsto" shown, a category's name never
wrapped inside ("Sub-/18"), the title the day's, not the newest category's."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from screen_checks import VIEWPORTS, check_screen
from test_venue_screens import FakeDesk, live_table, result

from futmesa.competition.db import CompetitionDB
from futmesa.competition.settings import parse_settings
from futmesa.competition.teams import read_teams_csv
from futmesa.store import EventLog
from futmesa.venue.web import create_desk_app
from futmesa_testkit.liveserver import LiveServer

pytestmark = pytest.mark.browser

ABERTO = [f"Aberto Clube {c}" for c in "ABCDEFGHIJKL"]
SUB18 = ["Juventude Botão", "Guarani Mirim", "Ponte Pretinha", "América Jovem",
         "Paraná da Palheta", "Avaí Botonista", "Ceará Mirim", "Grêmio Esportivo Botonista"]


class NoticeDesk(FakeDesk):
    """The desk with a notice at the top of the board (a report to confirm)."""

    def snapshot(self) -> dict[str, Any]:
        return {**super().snapshot(), "notice": "1 relato de desclassificação para confirmar"}


def _day(tmp_path: Path) -> FakeDesk:
    path = tmp_path / "dia.sqlite"
    EventLog(path).close()
    db = CompetitionDB(path)
    db.import_teams(read_teams_csv("name\n" + "\n".join(ABERTO + SUB18) + "\n"))
    sub = db.create(parse_settings({"name": "Campeonato Estadual", "category": "Sub-18",
                                    "groups": 2, "advance": 1, "divisions": ["Ouro", "Prata"],
                                    "tables": 6}), [t.lower() for t in SUB18])
    ab = db.create(parse_settings({"name": "Campeonato Estadual", "category": "Aberto",
                                   "format": "swiss_knockout", "swiss_rounds": 3,
                                   "advance": 4, "tables": 6}), [t.lower() for t in ABERTO])
    for m in db.matches(sub):
        if m["stage"] == "group":
            db.record_result(m["id"], f"t:{m['id']}", result(2, 1))
    db.advance(sub)
    teams = db.team_map()
    playing = [m for m in db.matches(sub) if m["stage"] == "ko"][:1]
    playing += [m for m in db.matches(ab) if m["stage"] == "swiss"][:5]
    tables = []
    for i, m in enumerate(playing, start=1):
        db.set_assigned(m["id"], f"mesa-{i}")
        tables.append(live_table(f"mesa-{i}", teams[m["team_a"]].name,
                                 teams[m["team_b"]].name, (i % 3, 1)))
    other = next(m for m in db.matches(sub) if m["stage"] == "ko" and m["status"] == "scheduled")
    db.record_result(other["id"], "t:prata", result(1, 0))  # a champion: the banner is on
    return NoticeDesk(db, tables)


def test_six_tables_of_two_categories_fit_the_tv(tmp_path: Path, browser: Any,
                                                 output_dir: Path) -> None:
    desk = _day(tmp_path)
    server = LiveServer(None, create_desk_app(desk))  # type: ignore[arg-type]
    server.start()
    context = browser.new_context(viewport=VIEWPORTS["tv"])
    page = context.new_page()
    height = VIEWPORTS["tv"]["height"]
    try:
        page.goto(server.url + "/")
        page.wait_for_selector("#t-mesa-6")
        page.wait_for_function("document.querySelector('#t-mesa-1 .label').textContent"
                               ".includes('Sub-18')")
        page.wait_for_selector("#champion.on")
        page.wait_for_function("document.getElementById('desk').textContent.includes('relato')")
        page.wait_for_function("document.getElementById('finish').textContent.includes('~')")
        check_screen(page, "venue-board-championship-tv", output_dir)
        bottoms = page.evaluate("""() => [...document.querySelectorAll('#tables .card')]
            .map(c => c.getBoundingClientRect().bottom)""")
        assert len(bottoms) == 6 and max(bottoms) <= height, bottoms
        labels = page.evaluate("""() => [...document.querySelectorAll('#tables .card .label')]
            .map(l => l.textContent)""")
        assert all(x.startswith(("Sub-18 · ", "Aberto · ")) for x in labels), labels
        assert page.evaluate("document.getElementById('t-mesa-1').classList.contains('final')")
        assert page.is_visible("#upcoming") and page.is_visible("#finish")
        shown = page.evaluate("""() => [...document.querySelectorAll('#upcoming-list li')]
            .filter(li => li.offsetParent).map(li => li.getBoundingClientRect().bottom)""")
        assert shown and max(shown) <= height, shown
        title = page.text_content("header h1") or ""
        assert "Campeonato Estadual" in title and "Aberto" not in title, title
        assert page.evaluate("document.documentElement.scrollHeight") <= height + 1
    finally:
        context.close()
        server.stop()
        desk.comp.close()
