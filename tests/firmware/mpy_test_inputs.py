"""Goal lines, side-net zones, palheta and buttons: one event per physical occurrence; sensor faults."""

import futmesa_wire as W
from fwtest import Table, check, eq, only

BOUNCE = (1, 0, 1, 1, 0, 1, 0, 0, 1, 1, 1, 0, 1)  # a contact bouncing, one read per ms


def goals(t):
    return only(t.events(), "goal_line")


def pulse_beam(t, i, ms, bounce=False):
    if bounce:
        for v in BOUNCE:
            t.board.beams[i] = v
            t.step(1)
        ms -= len(BOUNCE)
    t.board.beams[i] = 1
    t.run(ms)
    if bounce:
        for v in BOUNCE:
            t.board.beams[i] = 1 - v
            t.step(1)
    t.board.beams[i] = 0
    t.run(30)


def test_beam_goal_is_counted_once_when_the_ball_has_gone_through():
    t = Table()
    t.run(10)
    t.events()
    t.board.beams[1] = 1
    t.run(50)
    eq(goals(t), [], "no goal while the ball is still on the line")
    t.board.beams[1] = 0
    t.run(4)
    eq(goals(t), [], "not before the debounce")
    t.run(2)
    g = goals(t)
    eq(len(g), 1, "one goal")
    eq((g[0].a, g[0].value), (1, 50), "goal line 1, held 50 ms")
    t.close()


def test_bouncing_beam_edges_are_one_goal():
    t = Table()
    t.run(10)
    pulse_beam(t, 0, 60, bounce=True)
    eq(len(goals(t)), 1, "a bouncing edge is one goal")
    t.close()


def test_short_glitch_is_not_a_goal():
    t = Table()
    t.run(10)
    for _ in range(5):
        t.board.beams[0] = 1
        t.run(3)
        t.board.beams[0] = 0
        t.run(20)
    eq(goals(t), [], "glitches shorter than the minimum blocked time")
    t.close()


def test_rattling_ball_is_one_goal_and_refractory_ends():
    t = Table(table={"refractory_ms": 1500, "min_blocked_ms": 15})
    t.run(10)
    pulse_beam(t, 0, 40)
    eq(len(goals(t)), 1, "the goal")
    for _ in range(6):  # the ball rattles in the net, re-blocking the line
        pulse_beam(t, 0, 40)
        t.run(100)
    eq(goals(t), [], "rattle inside the refractory period")
    t.run(1600, step=10)
    pulse_beam(t, 0, 40)
    eq(len(goals(t)), 1, "a new goal after the refractory period")
    t.close()


def test_line_blocked_at_boot_must_clear_first():
    t = Table()
    t.board.beams[0] = 1
    t.run(100)
    t.board.beams[0] = 0
    t.run(20)
    eq(goals(t), [], "a line blocked at power-up is not a goal")
    t.close()


def test_stuck_beam_is_a_fault_never_a_goal():
    t = Table(table={"stuck_ms": 3000})
    t.run(10)
    t.events()
    t.board.beams[0] = 1
    t.run(3000, step=1)  # the block starts on the first read: held 2999 ms here
    eq(t.names(), [], "nothing yet")
    t.step(1)
    ev = t.events()
    eq([(e.name, e.a, e.b) for e in ev], [("sensor_fault", 0, W.FAULT_STUCK)], "stuck fault")
    t.run(5000, step=10)
    eq(t.names(), [], "one fault event")
    t.board.beams[0] = 0
    t.run(20)
    eq([(e.name, e.a) for e in t.events()], [("sensor_ok", 0)], "cleared, and no goal")
    pulse_beam(t, 0, 40)
    eq(len(goals(t)), 1, "goals count again after the fault cleared")
    t.close()


def test_tof_goal_needs_n_samples_and_hysteresis():
    t = Table(goal_sensor="tof", table={"tof_samples": 3})
    t.run(100)
    t.events()
    for mm in (40, 41, 200, 40, 40):  # two below, a clear one, two below: not 3 in a row
        t.board.tof_mm[0] = mm
        t.step(1)
    t.board.tof_mm[0] = 120
    t.run(10)
    eq(goals(t), [], "fewer than 3 consecutive samples")
    t.board.tof_mm[0] = 30
    t.run(40)
    # 104 is above the threshold (100) but inside the hysteresis (108): still blocked
    t.board.tof_mm[0] = 104
    t.run(50)
    eq(goals(t), [], "inside the hysteresis band the ball is still there")
    t.board.tof_mm[0] = 120
    t.run(2)
    eq(goals(t), [], "2 clear samples are not enough")
    t.step(1)
    g = goals(t)
    eq(len(g), 1, "goal after 3 clear samples")
    eq(g[0].value, 90, "blocked from the first low sample to the first clear one")
    t.close()


def test_tof_rattle_is_one_goal():
    t = Table(goal_sensor="tof")
    t.run(100)
    for _ in range(5):
        t.board.tof_mm[1] = 25
        t.run(30)
        t.board.tof_mm[1] = 130
        t.run(50)
    eq(len(goals(t)), 1, "one goal for a rattling ball")
    t.close()


def test_tof_not_answering_is_a_fault():
    t = Table(goal_sensor="tof", table={"tof_fail_samples": 5})
    t.run(100)
    t.events()
    t.board.tof_dead[0] = 1
    t.run(4)
    eq(t.names(), [], "4 failures: not yet")
    t.step(1)
    eq([(e.name, e.a, e.b) for e in t.events()], [("sensor_fault", 0, W.FAULT_NO_ANSWER)],
       "no-answer fault")
    reads = t.board.tof_reads[0]
    t.run(1000)
    eq(t.names(), [], "reported once")
    eq(t.board.tof_reads[0] - reads, 4, "a dead sensor is asked again every 250 ms, not every pass")
    t.board.tof_dead[0] = 0
    t.run(250 + 3)
    eq([e.name for e in t.events()], ["sensor_ok"], "answers again")
    t.close()


def test_tof_dies_during_a_block_is_never_a_goal():
    t = Table(goal_sensor="tof")
    t.run(100)
    t.board.tof_mm[0] = 20
    t.run(40)
    t.board.tof_dead[0] = 1
    t.run(20)
    t.board.tof_dead[0] = 0
    t.board.tof_mm[0] = 120
    t.run(20)
    names = [e.name for e in t.events()]
    check("goal_line" not in names, "no goal from a sensor that failed mid-block: %r" % names)
    check("sensor_fault" in names, "fault reported")
    t.close()


def test_tof_out_of_range_is_a_fault():
    t = Table(goal_sensor="tof")
    t.run(100)
    t.events()
    t.board.tof_mm[1] = 8190  # "no target": the far wall is gone
    t.run(10)
    eq([(e.name, e.a, e.b) for e in t.events()], [("sensor_fault", 1, W.FAULT_OUT_OF_RANGE)],
       "out of range")
    t.board.tof_mm[1] = 0
    t.run(10)
    eq(t.names(), [], "still out of range (0 mm)")
    t.board.tof_mm[1] = 120
    t.run(10)
    eq(t.names(), ["sensor_ok"], "back in range")
    t.close()


def test_tof_drifting_baseline_is_a_fault_never_a_goal():
    t = Table(goal_sensor="tof", table={"drift_mm": 30})
    t.board.tof_mm[0] = 130
    t.run(200)
    t.events()
    mm = 130
    while mm > 40:  # the empty-goal reading creeps down through the threshold (100 mm)
        mm -= 1
        t.board.tof_mm[0] = mm
        t.run(20)
    t.run(6000, step=10)
    ev = t.events()
    names = [e.name for e in ev]
    check("goal_line" not in names, "a drifting baseline is never a goal: %r" % names)
    drift = [e for e in ev if e.name == "sensor_fault" and e.b == W.FAULT_DRIFT]
    eq(len(drift), 1, "one drift fault")
    check(drift[0].clock_ms >= 0, "stamped")
    t.close()


def test_net_zone_once_per_occurrence_with_bouncing_contact():
    t = Table()
    t.run(10)
    t.events()
    for v in (1, 0, 1, 1, 0, 1, 0, 1, 1, 1, 1, 0, 0, 0):
        t.board.nets[4] = v
        t.step(1)
    t.run(50)
    ev = only(t.events(), "ball_out")
    eq(len(ev), 1, "one ball out")
    eq((ev[0].a, ev[0].b, ev[0].value), (4, 0, 1), "zone 4 is a side line in half 1")
    t.run(800)
    t.board.nets[3] = 1
    t.step(1)
    t.board.nets[3] = 0
    t.board.nets[4] = 1
    t.step(1)
    t.board.nets[4] = 0
    t.run(30)
    ev = only(t.events(), "ball_out")
    eq([(e.a, e.b, e.value) for e in ev], [(3, 1, 1), (4, 0, 1)], "zone 3 is the end line of end 1")
    t.close()


def test_net_zones_come_from_the_board_file():
    cfg = {"side_net": [{"zone": 0, "line": "side", "end": 1, "pin": 1},
                        {"zone": 1, "line": "end", "end": 0, "pin": 2}]}
    t = Table(cfg=cfg)
    t.run(10)
    t.board.nets[0] = 1
    t.board.nets[1] = 1
    t.step(1)
    ev = only(t.events(), "ball_out")
    eq([(e.a, e.b, e.value) for e in ev], [(0, 0, 1), (1, 1, 0)], "mapped from the board file")
    eq(len(t.app.inputs.zones), 2, "two zones")
    t.close()


def test_palheta_debounced():
    t = Table()
    t.run(10)
    t.events()
    for v in (0, 1, 0, 1, 0, 0, 1, 0):  # contact bounce on the way to A
        t.board.palheta = v
        t.step(1)
    t.run(29)
    eq(t.names(), [], "not stable for 30 ms yet")
    t.step(1)
    eq([(e.name, e.a) for e in t.events()], [("palheta", 0)], "one palheta event")
    t.board.palheta = 3  # both contacts closed: a wiring fault
    t.run(100)
    eq(t.names(), [], "an impossible position is ignored")
    t.board.palheta = 2
    t.run(40)
    eq([(e.name, e.a) for e in t.events()], [("palheta", 2)], "towards B")
    t.close()


def test_buttons_debounced_one_event_per_press():
    t = Table()
    t.run(10)
    t.events()
    for i, name in ((0, "turnA"), (1, "turnB"), (2, "referee")):
        for v in (1, 0, 1, 0, 1):
            t.board.buttons[i] = v
            t.step(1)
        t.run(100)
        for v in (0, 1, 0):
            t.board.buttons[i] = v
            t.step(1)
        t.run(40)
        ev = only(t.events(), "button")
        eq([e.a for e in ev], [i], "one press of " + name)
    t.close()
