"""A table that has already played, connected to a host with a fresh database (a new
laptop, a deleted file): the new match starts clean (issue 31 §3). The events the table
still holds from its earlier match are kept in the device log, never played into the new
match as goals or questions; what it makes from then on is."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from futmesa_testkit.livetable import LiveTable

TEAMS = {"A": {"name": "Casa"}, "B": {"name": "Visitante"}}
# halves of 30 s of table time (3 s at speed 10): the first match is played to its end
SETTINGS = {"period_ms": 30_000, "interval_ms": 5_000, "lance_ms": 3_600_000,
            "lance_warn_ms": 5_000}


def goal_lines(db: Path) -> tuple[int, int]:
    """(goal-line events in the device log, those played in a match)."""
    with sqlite3.connect(db) as conn:
        return conn.execute(
            "SELECT COUNT(*), COUNT(e.id) FROM device_events d"
            " LEFT JOIN entries e ON e.device_event_id = d.id WHERE d.kind='goal_line'"
        ).fetchone()


def test_a_fresh_database_does_not_import_the_tables_earlier_match(tmp_path: Path) -> None:
    first, fresh = tmp_path / "first.sqlite", tmp_path / "fresh.sqlite"
    with LiveTable(speed=10, db=first, settings=SETTINGS) as live:
        live.start_match(teams=TEAMS)
        ends = live.match()["ends"]
        # two goals the first host has seen (one in each goal: a goal line is quiet for a
        # moment after a goal); the team that concedes kicks off and scores
        for n, side in enumerate(("A", "B")):
            live.give_lance(side)  # its kick-off first: no shot from it (000 Art. 12 §5)
            live.referee("shot_asked", {"side": side, "disc": 9})
            live.sim.goal(ends["B" if side == "A" else "A"])
            live.wait(lambda n=n: sum(live.match()["score"].values()) == n + 1, 60,
                      f"goal {n + 1}")
        live.wait(lambda: live.match().get("status") == "interval", 60, "the interval")
        live.referee("start_period")
        live.wait(lambda: bool(live.match().get("finished")), 60, "the final whistle")
        # the first host goes; the table keeps its events (the host's acks are not the
        # new database's) and meets a host with an empty database
        live.stop_host()
        live.db = str(fresh)
        live.start_host()
        live.wait(lambda: live.running is not None and live.daemon.connected
                  and live.daemon.match is not None, 90, "the table to connect again")
        live.wait(lambda: goal_lines(fresh)[0] >= 2, 60, "the table's old events in the log")
        m = live.match()
        assert m["score"] == {"A": 0, "B": 0}, m["score"]
        assert m["pending"] == [] and m["goals"] == [], m["pending"]
        assert goal_lines(fresh) == (2, 0)  # kept in the device log, in no match
        # the new match plays on: a goal from now on counts
        live.referee("set_up", {"teams": TEAMS, "kickoff": "A"})
        live.referee("start_period")
        live.wait(lambda: live.daemon.status is not None and live.daemon.status.running, 60,
                  "the clock")
        live.give_lance("A")  # the kick-off first: no shot from it (000 Art. 12 §5)
        live.referee("shot_asked", {"side": "A", "disc": 7})
        live.sim.goal(live.match()["ends"]["B"])
        live.wait(lambda: live.match()["score"]["A"] == 1, 60, "the new match's goal")
        assert goal_lines(fresh) == (3, 1)
