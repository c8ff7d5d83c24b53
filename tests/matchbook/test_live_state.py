"""The live state JSON (docs/architecture.md "Match state JSON"): a pure function of its inputs."""

from __future__ import annotations

import json

import futmesa_wire as W
from futmesa.link.messages import Profile, Status
from futmesa.matchbook import LinkView, state_json
from futmesa.rules import Engine, load_ruleset

PROFILE = Profile(2, 0, 0, 0, 1_500_000, 300_000, 0, 15_000, 0)


def test_before_the_table_reports_the_clock_comes_from_the_profile() -> None:
    m = Engine(load_ruleset("cbfm-1toque")).initial_state().to_dict()
    state = state_json(table_id="sim-T1", match_id=3, ruleset="cbfm-1toque", match=m,
                       status=None, status_wall_ms=0, profile=PROFILE,
                       link=LinkView(connected=False, reason="waiting for the table"))
    assert state["clock"] == {"ms": 0, "running": False, "rate": 1.0, "at": 0,
                              "length_ms": 1_500_000, "added_ms": 0, "interval": False,
                              "time_up": False, "interval_at": None}
    assert state["status"] == "not_started" and state["periods"] == 2
    assert state["link"]["connected"] is False and state["match"] == m
    assert json.loads(json.dumps(state)) == state


def test_a_running_clock_is_a_start_point_and_a_rate() -> None:
    m = {"score": {"A": 2, "B": 1}, "period": 2, "status": "running", "teams": {}}
    status = Status(ticks=5000, period=2, flags=W.ST_RUNNING | W.ST_LANCE_RUNNING, palheta=1,
                    lance_side=1, clock_ms=61_000, period_ms=1_500_000, added_ms=60_000,
                    lance_ms=9000, lance_len_ms=15_000, newest=40, acked=40)
    link = LinkView(connected=True, reason="ok", last_event_at=1234.4, bad_frames=2,
                    device="SIM1", firmware="0.1.0", tick_rate=60_000, sensor_faults={0: "stuck"})
    state = state_json(table_id="sim-SIM1", match_id=7, ruleset="gaucha", match=m,
                       status=status, status_wall_ms=1_780_000_000_123.6, profile=PROFILE,
                       link=link)
    assert state["clock"]["ms"] == 61_000 and state["clock"]["running"] is True
    assert state["clock"]["rate"] == 60.0 and state["clock"]["at"] == 1_780_000_000_124
    assert state["clock"]["added_ms"] == 60_000
    assert state["lance"] == {"ms": 9000, "running": True, "rate": 60.0,
                              "at": 1_780_000_000_124, "length_ms": 15_000, "side": "B"}
    assert state["score"] == {"A": 2, "B": 1} and state["period"] == 2
    assert state["link"]["bad_frames"] == 2 and state["link"]["last_event_at"] == 1234
    assert state["sensor_faults"] == {0: "stuck"}


def test_the_lance_waits_while_the_clock_is_stopped() -> None:
    """The table's lance waits with its stopped clock (firmware/lance.py: the referee stopped
    play): the screens show it standing, not counting down to a "TEMPO!" the table never
    reaches (issue 45)."""
    status = Status(ticks=5000, period=1, flags=W.ST_LANCE_RUNNING, palheta=1, lance_side=1,
                    clock_ms=61_000, period_ms=1_500_000, added_ms=0, lance_ms=9000,
                    lance_len_ms=15_000, newest=40, acked=40)
    state = state_json(table_id="sim-SIM1", match_id=7, ruleset="gaucha",
                       match={"status": "running"}, status=status, status_wall_ms=1000,
                       profile=PROFILE, link=LinkView(connected=True, reason="ok"))
    assert state["clock"]["running"] is False
    assert state["lance"]["running"] is False and state["lance"]["ms"] == 9000


def test_the_clock_of_a_table_lost_stands_where_it_was_when_the_link_went_down() -> None:
    """Issue 45 (walk47b L2): while the table is disconnected no screen counts a clock it is
    not counting. Before: the state still said "running", so the TV counted on (greyed) for
    the whole power cut and jumped back when the table came back with its restored clock."""
    status = Status(ticks=5000, period=2, flags=W.ST_RUNNING | W.ST_LANCE_RUNNING, palheta=1,
                    lance_side=1, clock_ms=28_000, period_ms=120_000, added_ms=0,
                    lance_ms=9000, lance_len_ms=15_000, newest=40, acked=40)
    link = LinkView(connected=False, reason="port closed", tick_rate=1000,
                    lost_at=1_780_000_000_500.0)
    state = state_json(table_id="sim-SIM1", match_id=7, ruleset="gaucha",
                       match={"status": "running"}, status=status,
                       status_wall_ms=1_780_000_000_000.0, profile=PROFILE, link=link)
    # counted on to the moment the link went down (0.5 s after its last status), and stopped
    assert state["clock"]["running"] is False and state["clock"]["ms"] == 28_500
    assert state["clock"]["at"] == 1_780_000_000_500
    assert state["lance"]["running"] is False and state["lance"]["ms"] == 8_500
