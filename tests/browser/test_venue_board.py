"""The tournament day in headless Chromium: a table's kiosk shows the desk's next match, the
referee starts it with one press on the console, and the desk's venue board shows every table
(score, a clock counting locally, "desconectada" when a table's cable is pulled) and the
standings. Real mosquitto, `futmesa desk`, two `futmesa serve`, simulated tables."""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

import httpx
import pytest

from futmesa_testkit.venue import FAST_MATCH, Venue, wait_for

pytestmark = [pytest.mark.browser, pytest.mark.slow]

TEAMS = """name,short,color
Estrela do Norte,EST,#c8102e
Botafogo da Mesa,BOT,#1d1d1b
Grêmio Botão,GRE,#0d80bf
União Operária,UNI,#2e7d32
"""


def day(name: str, period_ms: int) -> dict[str, Any]:
    """A championship day of the four TEAMS: two groups, one team of each goes on, two
    tables; halves of `period_ms`."""
    return {"name": name, "groups": 2, "advance": 1, "tables": 2,
            "match_settings": {**FAST_MATCH, "period_ms": period_ms}}


SETTINGS = day("Copa do navegador", 600000)


def press(base_url: str, table: str, kind: str, data: dict[str, Any] | None = None) -> None:
    token = httpx.get(f"{base_url}/console/recover", params={"format": "json"}).json()["token"]
    r = httpx.post(f"{base_url}/api/referee", headers={"Authorization": f"Bearer {token}"},
                   json={"kind": kind, "data": data or {}, "table": table,
                         "input_id": uuid.uuid4().hex}, timeout=10)
    assert r.status_code in (200, 202), r.text


def test_next_match_one_press_and_the_venue_board(tmp_path: Path, browser: Any,
                                                   output_dir: Path) -> None:
    venue = Venue(tmp_path / "venue", TEAMS, SETTINGS, layout=[1, 1], cabled={1}, speed=5,
                  scripted_referees=False)
    with venue:
        venue_start(venue, browser, output_dir)


def venue_start(venue: Venue, browser: Any, output_dir: Path) -> None:
    errors: list[str] = []
    t1, t2 = venue.table_ids
    d1, d2 = venue.daemons
    kiosk = browser.new_page(viewport={"width": 1280, "height": 720})
    kiosk.on("pageerror", lambda e: errors.append(str(e)))
    kiosk.goto(f"{d1.base_url}/")
    kiosk.wait_for_function("document.getElementById('next').textContent.includes('próxima')",
                            timeout=30000)
    nxt = kiosk.text_content("#next")
    assert " × " in nxt and "Grupo" in nxt
    kiosk.screenshot(path=str(output_dir / "venue-kiosk-next.png"))

    console = browser.new_page(viewport={"width": 412, "height": 915})
    console.on("pageerror", lambda e: errors.append(str(e)))
    console.goto(f"{d1.base_url}/console/recover")
    console.wait_for_selector("#start-next:not(.hidden)", timeout=20000)
    assert "Iniciar próxima" in console.text_content("#start-next")
    console.screenshot(path=str(output_dir / "venue-console-next.png"))
    console.click("#start-next")  # the one press
    title = nxt.split(": ", 1)[1].split(" · ")[0]
    team_a, team_b = title.split(" × ")
    kiosk.wait_for_function(
        "n => document.getElementById('name-A').textContent === n", arg=team_a, timeout=20000)
    assert kiosk.text_content("#name-B") == team_b
    assert kiosk.is_hidden("#next")  # started: no "next" any more
    press(d1.base_url, t1, "start_period")
    # the other table through the API (same payload the console sends)
    st2 = wait_for(lambda: (s := venue.table_state(t2)).get("next") and s, 30, "table 2's next")
    press(d2.base_url, t2, "new_match", st2["next"]["start"])
    wait_for(lambda: venue.table_state(t2).get("status") == "not_started"
             and not venue.table_state(t2).get("next"), 30, "table 2's match to open")
    press(d2.base_url, t2, "start_period")

    board = browser.new_page(viewport={"width": 1280, "height": 720})
    board.on("pageerror", lambda e: errors.append(str(e)))
    board.goto(venue.desk_url + "/")
    for tid in (t1, t2):
        board.wait_for_selector(f"#t-{tid}", timeout=20000)
    board.wait_for_function(
        f"n => document.querySelector('#t-{t1} .name.a').textContent === n", arg=team_a,
        timeout=20000)
    clock = f"#t-{t1} .clock"
    board.wait_for_function(f"document.querySelector('{clock}').textContent > '00:05'",
                            timeout=30000)
    first = board.text_content(clock)
    board.wait_for_function(f"n => document.querySelector('{clock}').textContent !== n",
                            arg=first, timeout=10000)  # it counts on the board itself
    assert board.is_hidden(f"#t-{t1} .off") and board.is_hidden(f"#t-{t2} .off")
    assert "Grupo A" in board.text_content("#standings")
    board.screenshot(path=str(output_dir / "venue-board.png"))

    venue.cables[1].pull()  # table 2 loses the venue network
    board.wait_for_selector(f"#t-{t2} .off", state="visible", timeout=30000)
    assert board.text_content(f"#t-{t2} .off") == "desconectada"
    assert board.is_hidden(f"#t-{t1} .off")
    board.screenshot(path=str(output_dir / "venue-board-disconnected.png"))

    standings = browser.new_page(viewport={"width": 1280, "height": 720})
    standings.goto(venue.desk_url + "/standings")
    assert standings.locator("table.std").count() == 2
    standings.screenshot(path=str(output_dir / "venue-standings.png"))
    summary = browser.new_page(viewport={"width": 1000, "height": 1200})
    summary.goto(venue.desk_url + "/summary")
    assert "na mesa" in summary.text_content("main")
    summary.screenshot(path=str(output_dir / "venue-summary.png"), full_page=True)
    assert not errors, errors
