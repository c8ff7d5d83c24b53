"""The two firmware-level blind rules cases (issue 44, part1.yaml dev-01 and dev-02), run on the
real goal-line filter: a ball rattling in the net is one goal; a beam blocked for 10 s is a
sensor fault and never a goal. tests/rules/blind/part1/dev-0*.yaml name these functions."""

import futmesa_wire as W
from fwtest import Table, eq


def _goals(events):
    return [e for e in events if e.name == "goal_line"]


def _toggle(t, line, times_ms, end_ms):
    """The beam of goal `line` trips at times_ms[0], clears at [1], trips at [2], … (ms from the
    first trip, one read per ms), and is clear from end_ms on."""
    blocked = 0
    now = 0
    for at in list(times_ms) + [end_ms]:
        t.run(at - now)
        now = at
        blocked = 1 - blocked if at != end_ms else 0
        t.board.beams[line] = blocked
    t.run(2000)


def test_dev_01_rattling_ball_one_goal():
    # case: {sensor: goal_B, pattern_ms: [0, 40, 55, 90, 120, 260, 300]} — trips / clears while
    # the ball rattles (the last trip clears 40 ms later); case: goal_events: 1
    t = Table()
    t.run(10)
    t.events()
    _toggle(t, 1, (0, 40, 55, 90, 120, 260, 300), 340)
    eq(len(_goals(t.events())), 1, "one goal for a ball rattling in the net")
    t.close()


def test_dev_02_stuck_beam_is_a_fault():
    # case: {sensor: goal_A, blocked_for_ms: 10000}; goal_events: 0, fault_events_min: 1
    t = Table()
    t.run(10)
    t.events()
    t.board.beams[0] = 1
    t.run(10000, step=10)
    t.board.beams[0] = 0
    t.run(100)
    events = t.events()
    eq(len(_goals(events)), 0, "a stuck beam is never a goal")
    faults = [e for e in events if e.name == "sensor_fault" and e.b == W.FAULT_STUCK]
    eq(len(faults) >= 1, True, "at least one stuck-sensor fault")
    t.close()
