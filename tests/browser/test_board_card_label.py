"""A table card names the match the table shows (issue 47, organiser's walk): a table still
showing the match just over, with the next one already given to it, keeps that match's
label — never the old teams and score under the next match's label ("Sub-18 · Ouro: Final")."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from test_championship_board import ABERTO, SUB18
from test_venue_screens import FakeDesk, live_table, result

from futmesa.competition.db import CompetitionDB
from futmesa.competition.settings import parse_settings
from futmesa.competition.teams import read_teams_csv
from futmesa.store import EventLog
from futmesa.venue.web import create_desk_app
from futmesa_testkit.liveserver import LiveServer

pytestmark = pytest.mark.browser


def test_a_card_keeps_the_label_of_the_match_just_over(tmp_path: Path, browser: Any) -> None:
    path = tmp_path / "dia.sqlite"
    EventLog(path).close()
    db = CompetitionDB(path)
    db.import_teams(read_teams_csv("name\n" + "\n".join(ABERTO[:4] + SUB18[:4]) + "\n"))
    sub = db.create(parse_settings({"name": "Estadual", "category": "Sub-18", "groups": 2,
                                    "advance": 1, "tables": 2}), [t.lower() for t in SUB18[:4]])
    db.create(parse_settings({"name": "Estadual", "category": "Aberto", "groups": 2,
                              "advance": 1, "tables": 2}), [t.lower() for t in ABERTO[:4]])
    group = [m for m in db.matches(sub) if m["stage"] == "group"]
    for m in group[1:]:
        db.record_result(m["id"], f"t:{m['id']}", result(2, 1))
    last = group[0]
    db.set_assigned(last["id"], "mesa-1")
    db.record_result(last["id"], "t:last", result(3, 0))  # over at mesa-1
    db.advance(sub)
    final = next(m for m in db.matches(sub) if m["stage"] == "ko")
    db.set_assigned(final["id"], "mesa-1")  # given to mesa-1 before it loads it
    teams = db.team_map()
    table = live_table("mesa-1", teams[last["team_a"]].name, teams[last["team_b"]].name, (3, 0))
    table["state"].update(status="finished", competition_match=last["id"])
    desk = FakeDesk(db, [table])
    server = LiveServer(None, create_desk_app(desk))  # type: ignore[arg-type]
    server.start()
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    try:
        page.goto(server.url + "/")
        page.wait_for_function("document.querySelector('#t-mesa-1 .name.a')"
                               f".textContent.includes({teams[last['team_a']].name!r})")
        label = page.text_content("#t-mesa-1 .label") or ""
        assert "Final" not in label and label.startswith("Sub-18 · "), label
        assert not page.evaluate("document.getElementById('t-mesa-1').classList"
                                 ".contains('final')")
    finally:
        context.close()
        server.stop()
        db.close()
