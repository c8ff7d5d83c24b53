"""Issue 37, a championship day on real parts: a real mosquitto, `futmesa desk`, two
`futmesa serve` and simulated tables; the desk's database and one table's database each on a
real small filesystem (tmpfs) that the test fills and frees; the venue board in headless
Chromium.

- A table's event log fills during a half: its card on the board names it (not just "em
  andamento" with a stuck clock), `/api/venue` carries it, and the table catches up once
  space is freed (the device kept every event).
- The desk's disk fills: the board says the desk's disk, never "sem conexão com o broker",
  and no table is shown "desconectada"; the result waits in the table's outbox and is stored
  once when space is freed.
- A second connection with a table's credentials: that table's card names it.
- No traceback in any log.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest
from test_venue_board import TEAMS, day

from futmesa.venue import mqtt as vm
from futmesa_testkit.smalldisk import SmallDisk
from futmesa_testkit.venue import Venue, wait_for

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SETTINGS = day("Copa do disco cheio", 60000)


def table_faults(venue: Venue, table: str) -> list[str]:
    t = next((t for t in venue.venue()["tables"] if t["table_id"] == table), None)
    return [f["code"] for f in ((t or {}).get("state") or {}).get("faults") or []]


def desk_faults(venue: Venue) -> list[str]:
    return [f["code"] for f in venue.venue().get("faults") or []]


def card_fault(board: Any, table: str) -> str:
    return board.text_content(f"#t-{table} .fault") or ""


def test_a_full_disk_and_used_credentials_are_named_on_the_board(
        tmp_path: Path, browser: Any, output_dir: Path) -> None:
    desk_disk = SmallDisk(tmp_path / "desk-disk")
    table_disk = SmallDisk(tmp_path / "table-disk")
    venue = Venue(tmp_path / "venue", TEAMS, SETTINGS, layout=[1, 1], speed=5,
                  desk_folder=desk_disk.path, table_folders={0: table_disk.path})
    intruder: mqtt.Client | None = None
    try:
        with venue:
            t1, t2 = venue.table_ids
            d1 = venue.daemons[0]
            for t in (t1, t2):  # the scripted referees start each table's first match
                wait_for(lambda t=t: (venue.table_state(t).get("clock") or {}).get("running"),
                         60, f"{t}'s match to start")
            first = {t: venue.table_state(t)["match_id"] for t in (t1, t2)}
            board = browser.new_page(viewport={"width": 1280, "height": 720})
            errors: list[str] = []
            board.on("pageerror", lambda e: errors.append(str(e)))
            board.goto(venue.desk_url + "/")
            for t in (t1, t2):
                board.wait_for_selector(f"#t-{t}", timeout=20000)
            assert desk_faults(venue) == []

            desk_disk.fill(venue.desk_db)  # the desk's disk fills (noticed at its next write)
            wait_for(lambda: venue.table_state(t1).get("period") == 2
                     and (venue.table_state(t1).get("clock") or {}).get("running"), 60,
                     "table 1's second half")
            table_disk.fill(d1.db)  # 1. table 1's disk fills during its second half
            wait_for(lambda: "log_full" in table_faults(venue, t1), 15,
                     "the board to name table 1's full disk")
            board.wait_for_function(
                f"document.querySelector('#t-{t1} .fault').textContent.includes('disco cheio')",
                timeout=20000)
            assert "log de eventos sem gravação (disco cheio)" in card_fault(board, t1)
            assert board.is_hidden(f"#t-{t2} .fault")

            # 2. table 2's result reaches the desk, whose disk is full: the desk's fault
            wait_for(lambda: venue.table_state(t2).get("finished"), 90, "table 2's full time")
            wait_for(lambda: "desk_full" in desk_faults(venue), 20,
                     "the board to name the desk's disk")
            board.wait_for_function(
                "document.getElementById('desk').textContent.includes('disco da mesa de "
                "controle cheio')", timeout=20000)
            v = venue.venue()
            assert v["connected"] is True and all(t["online"] for t in v["tables"])
            desk_said = board.text_content("#desk") or ""
            assert "broker" not in desk_said, desk_said  # never a broker outage
            assert board.is_hidden(f"#t-{t1} .off") and board.is_hidden(f"#t-{t2} .off")
            # (docs/img/venue-board-disk-full.png, in docs/operating.md §12.7, is this one)
            board.screenshot(path=str(output_dir / "venue-board-disk-full.png"))

            # 3. a second connection with table 2's credentials
            creds = venue.broker.credentials["tables"][t2]  # type: ignore[union-attr]
            intruder = vm.client("intruder", t2, creds)
            intruder.reconnect_delay_set(min_delay=1, max_delay=2)
            intruder.connect_async("127.0.0.1", venue.broker.port)  # type: ignore[union-attr]
            intruder.loop_start()
            wait_for(lambda: "credentials_taken" in table_faults(venue, t2), 40,
                     "the board to name table 2's credentials in use twice")
            board.wait_for_function(
                f"document.querySelector('#t-{t2} .fault').textContent.includes('credenciais')",
                timeout=30000)
            board.screenshot(path=str(output_dir / "venue-board-credentials.png"))
            intruder.loop_stop()
            intruder.disconnect()
            intruder = None

            # 4. space freed: table 1 catches up and ends, both results stored once
            table_disk.free()
            wait_for(lambda: "log_full" not in table_faults(venue, t1), 30,
                     "table 1's fault to clear on the board")
            desk_disk.free()
            wait_for(lambda: desk_faults(venue) == [], 30, "the desk's fault to clear")
            wait_for(lambda: venue.table_state(t1).get("finished")
                     or venue.table_state(t1)["match_id"] != first[t1], 90,
                     "table 1's full time")
            group = [m for m in venue.competition()["matches"] if m["group"] in ("A", "B")]
            wait_for(lambda: all(m["status"] == "finished" for m in [
                m for m in venue.competition()["matches"] if m["group"] in ("A", "B")]), 60,
                "both group matches stored at the desk")
            assert len(group) == 2
            assert not errors, errors
        with sqlite3.connect(venue.desk_db) as db:
            stored = db.execute("SELECT uid, count(*) FROM venue_received GROUP BY uid"
                                ).fetchall()
        for t in (t1, t2):
            assert (f"{t}:{first[t]}", 1) in stored, stored  # once each
        for log in venue.folder.glob("*.log"):
            text = log.read_text(errors="replace")
            assert "Traceback" not in text, f"{log.name}:\n{text[-3000:]}"
    finally:
        if intruder is not None:
            intruder.loop_stop()
        desk_disk.close()
        table_disk.close()
