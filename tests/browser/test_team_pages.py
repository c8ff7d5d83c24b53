"""A player finds their match (issue 33 §5): the team's page on a phone — "Próxima partida:
~14:20, contra …" (its table once the desk gives it), its results, its place — the
printable sheet of every team's QR code, and the board's QR and estimated end of the
day; the estimates move when a table runs late. A real competition file, the desk's real
pages in Chromium."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx
import pytest
from screen_checks import VIEWPORTS, check_screen
from test_venue_screens import FakeDesk, live_table, result

from futmesa.competition.db import CompetitionDB
from futmesa.competition.settings import parse_settings
from futmesa.competition.teams import read_teams_csv
from futmesa.store import EventLog
from futmesa.venue.eta import estimate
from futmesa.venue.web import create_desk_app
from futmesa_testkit.liveserver import LiveServer

pytestmark = pytest.mark.browser

CSV = """name;clube;color
Estrela do Norte;Clube Botão RS;#c8102e
Botafogo da Mesa;Mesa Carioca;#1d1d1b
Grêmio Botão;Clube Botão RS;#0d80bf
União Operária de Niterói;Liga Sul;#2e7d32
Palmeirinhas;Liga Sul;#006437
Ferroviário;Mesa Carioca;#b71c1c
"""


def _desk(tmp_path: Path) -> tuple[FakeDesk, int]:
    path = tmp_path / "desk.sqlite"
    EventLog(path).close()
    db = CompetitionDB(path)
    db.import_teams(read_teams_csv(CSV))
    cid = db.create(parse_settings({"format": "league", "tables": 2, "name": "Copa do Clube",
                                    "match_settings": {"half_minutes": 10}}))
    ms = db.matches(cid)
    db.record_result(ms[0]["id"], "t:1", result(2, 1))
    db.set_assigned(ms[1]["id"], "sim-SIM00001")
    teams = db.team_map()
    playing = ms[1]
    return FakeDesk(db, [live_table("sim-SIM00001", teams[playing["team_a"]].name,
                                    teams[playing["team_b"]].name, (0, 0))]), cid


def test_the_estimates_follow_the_tables() -> None:
    now = 1_000_000.0
    ms = [{"id": 1, "status": "assigned", "updated_at": now - 600, "slot": 0, "team_a": "a",
           "team_b": "b"},
          {"id": 2, "status": "scheduled", "slot": 0, "team_a": "c", "team_b": "d"},
          {"id": 3, "status": "scheduled", "slot": 1, "team_a": "a", "team_b": "c"},
          {"id": 4, "status": "scheduled", "slot": 1, "team_a": "b", "team_b": "d"}]
    e = estimate(ms, tables=2, now=now, length=1500)
    assert e.starts[2] == now  # a free table: now
    assert e.ends[1] == now + 900  # 25 min, 10 of them played
    assert e.starts[3] == now + 1500  # a waits for table 1 (free at +900) and c (+1500)
    assert e.starts[4] == now + 1500
    assert e.finish == now + 3000
    late = estimate(ms, tables=2, now=now + 2000, length=1500)  # match 1 is running late
    assert late.ends[1] == now + 2000 and late.starts[3] >= now + 2000


@pytest.mark.parametrize("size", ["phone", "tv"])
def test_a_team_page_and_the_sheet(tmp_path: Path, browser: Any, output_dir: Path,
                                   size: str) -> None:
    desk, cid = _desk(tmp_path)
    server = LiveServer(None, create_desk_app(desk))  # type: ignore[arg-type]
    server.start()
    context = browser.new_context(viewport=VIEWPORTS[size])
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        db = desk.comp
        teams = db.team_map()
        waiting = [m for m in db.matches(cid) if m["status"] == "scheduled"]
        key = waiting[0]["team_a"]
        other = teams[waiting[0]["team_b"]].name
        page.goto(f"{server.url}/time/{quote(key, safe='')}")
        text = page.inner_text("main")
        assert teams[key].name in text and teams[key].club in text
        assert "Próxima partida" in text and f"contra {other}" in text
        # its time, and no table until the desk gives it one (issue 47 §1)
        assert re.search(r"~\d\d:\d\d", text) and "a mesa é anunciada" in text, text
        assert not re.search(r"Mesa \d, ~", text), text
        # before its first match a team has no place yet: never "3º lugar · 0 pontos em 0"
        assert "em 0 partidas" not in text
        assert "Nenhuma partida jogada ainda" in text or "partidas" in text, text
        check_screen(page, f"venue-team-page-{size}", output_dir)
        page.goto(f"{server.url}/times")
        assert page.locator(".sheet a").count() == 6
        check_screen(page, f"venue-teams-sheet-{size}", output_dir)
        svg = httpx.get(f"{server.url}/time/{quote(key, safe='')}/qr.svg", timeout=10)
        assert svg.status_code == 200 and svg.text.lstrip().startswith("<?xml")
        page.goto(f"{server.url}/ranking")
        # the competition is not over: nothing ranked by placement yet (issue 47 §15)
        assert page.locator("table.ranking tbody tr").count() == 0
        assert "pontos por colocação" in page.inner_text("main")
        assert "nenhuma competição terminada" in page.inner_text("main").lower()
        check_screen(page, f"venue-ranking-{size}", output_dir)
        page.goto(f"{server.url}/ranking?method=openskill")
        assert "OpenSkill" in page.inner_text("main")
        missing = httpx.get(f"{server.url}/time/ninguem", timeout=10)
        assert missing.status_code == 404 and "/times" in missing.text
        page.goto(server.url + "/")
        page.wait_for_function("document.getElementById('finish').textContent.includes('~')")
        assert page.is_visible("#find-match img")
        first = page.text_content("#upcoming-list li .when")
        assert re.search(r"~\d\d:\d\d", first or ""), first
    finally:
        context.close()
        server.stop()
        desk.comp.close()
    assert not errors, errors
