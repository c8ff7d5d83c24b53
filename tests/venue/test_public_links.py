"""The links phones open (issue 47 §10, §11): the QR codes and the shared team links give
``--public-url`` when the desk has one, this computer's network address when the page was
asked by ``localhost`` (a TV's kiosk), and a team's name percent-encoded ("estrela%20do%20
norte", never a raw space that breaks the link in a message)."""

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


def _desk(tmp_path: Path) -> Desk:
    path = tmp_path / "dia.sqlite"
    EventLog(path).close()
    comp = CompetitionDB(path)
    comp.import_teams(read_teams_csv("name\nEstrela do Norte\nBotafogo da Mesa\n"))
    comp.create(parse_settings({"format": "league", "tables": 1}))
    comp.close()
    return Desk(str(path), Broker("127.0.0.1", 1), "unused")


def _share(client: TestClient, url: str) -> str:
    page = client.get(url).text
    return html.unescape(page.split('href="whatsapp://send?text=')[1].split('"')[0])


def test_links_give_the_public_address_and_encode_the_name(tmp_path: Path) -> None:
    desk = _desk(tmp_path)
    try:
        public = TestClient(create_desk_app(desk, "http://10.0.0.5:8100/"))
        shared = _share(public, "/time/estrela%20do%20norte?lang=pt")
        assert "http%3A//10.0.0.5%3A8100/time/estrela%2520do%2520norte" in shared, shared
        assert " " not in shared.split("text=")[-1].replace("%20", "")
        plain = TestClient(create_desk_app(desk), base_url="http://localhost:8100")
        shared = _share(plain, "/time/estrela%20do%20norte")
        assert "localhost" not in shared or "10." in shared or "192." in shared, shared
        one = plain.get("/times/qr.svg").content
        other = public.get("/times/qr.svg").content
        assert one != other  # the public address is what the sheet's QR encodes
    finally:
        desk.comp.close()


def test_the_desk_has_a_tab_icon(tmp_path: Path) -> None:
    desk = _desk(tmp_path)
    try:
        r = TestClient(create_desk_app(desk)).get("/favicon.ico")
        assert r.status_code == 200 and r.headers["content-type"].startswith("image/svg")
    finally:
        desk.comp.close()
