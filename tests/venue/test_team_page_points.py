"""A team's page says its points with the right plural (issue 47, organiser's walk, low):
'1º lugar · 1 ponto em 1 partida', never '1 pontos'."""

from __future__ import annotations

import html
from pathlib import Path

from starlette.testclient import TestClient

from futmesa.competition.db import CompetitionDB
from futmesa.competition.settings import parse_settings
from futmesa.competition.teams import read_teams_csv
from futmesa.store import EventLog
from futmesa.venue.desk import Desk
from futmesa.venue.mqtt import Broker
from futmesa.venue.web import create_desk_app


def test_one_point_is_one_ponto(tmp_path: Path) -> None:
    path = tmp_path / "dia.sqlite"
    EventLog(path).close()
    comp = CompetitionDB(path)
    comp.import_teams(read_teams_csv("name\nEstrela do Norte\nBotafogo da Mesa\nPalmeirinhas\n"))
    cid = comp.create(parse_settings({"format": "league", "tables": 1}))
    m = next(x for x in comp.matches(cid) if "estrela do norte" in (x["team_a"], x["team_b"]))
    comp.record_result(m["id"], "t:1", {"score_a": 1, "score_b": 1, "winner": None,
                                        "reason": "time", "rule": ""})
    comp.close()
    desk = Desk(str(path), Broker("127.0.0.1", 1), "unused")
    try:
        page = html.unescape(TestClient(create_desk_app(desk)).get(
            "/time/estrela%20do%20norte?lang=pt").text)
        assert "1 ponto em 1 partida" in page and "1 pontos" not in page, page
    finally:
        desk.comp.close()
