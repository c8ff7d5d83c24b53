"""Reset mid-match resumes from the stored profile and state; ticks wrapping in the middle of a period."""

import futmesa_wire as W
from fwtest import WRAP, Table, check, eq, only, profile


def test_reset_mid_period_resumes_running_from_the_last_checkpoint():
    t = Table(prof=profile(period_ms=20 * 60000, lance_ms=10000))
    t.cmd(W.CMD_START)
    t.run(600000, step=100)  # 10 minutes
    t.run(450, step=50)  # 450 ms after the last 1 s checkpoint
    eq(t.ms(), 600450, "before the reset")
    t.reboot(elapsed_ms=3000)  # the board takes 3 s to come back
    c = t.app.clock
    eq(c.period_ms, 20 * 60000, "profile restored from flash")
    eq(c.lance_ms, 10000, "lance length restored")
    check(c.running, "still running after the reset")
    eq(c.period, 1, "same period")
    eq(t.ms(), 600000, "resumes from the last checkpoint (the reset is not counted)")
    ev = t.events()
    # no host acknowledged the first boot's events: the new boot reports them (EV_LOST)
    check(ev[-2].name == "lost" and ev[-2].a == 0, "the previous boot's events reported lost")
    ev = [e for e in ev if e.name != "lost"]
    eq([(e.name, e.a) for e in ev], [("boot", 0), ("clock_started", 3)], "restored event")
    eq(ev[1].value, 600000, "restored clock value")
    t.run(600000, step=100)
    check(not t.app.clock.running, "the period ends at its limit after the reset")
    eq(t.app.clock.base_ms, 20 * 60000, "at the limit")
    t.close()


def test_reset_while_paused_keeps_the_exact_value():
    t = Table(prof=profile(clock_mode=W.CLOCK_BALL_IN_PLAY, end_mode=W.END_NEXT_DEAD_BALL,
                           period_ms=60000))
    t.cmd(W.CMD_START)
    t.run(12345)
    t.cmd(W.CMD_ADD_TIME, 0, 0, 0, 5000)
    t.cmd(W.CMD_PAUSE)
    t.reboot(elapsed_ms=50000)
    c = t.app.clock
    check(not c.running, "paused after the reset")
    eq(c.ms(t.app.now), 12345, "exact value")
    eq(c.added_ms, 5000, "added time kept")
    eq((c.clock_mode, c.end_mode), (W.CLOCK_BALL_IN_PLAY, W.END_NEXT_DEAD_BALL), "modes kept")
    ev = [e for e in t.events() if e.name != "lost"]  # the first boot's, unacknowledged
    eq([(e.name, e.a) for e in ev], [("boot", 0), ("clock_stopped", 3)], "restored paused")
    eq(t.cmd(W.CMD_RESUME), W.ACK_OK, "resume")
    t.close()


def test_reset_in_the_interval_and_after_the_match():
    t = Table(prof=profile(period_ms=1000))
    t.cmd(W.CMD_START)
    t.run(1000)
    t.reboot()
    check(t.app.clock.interval, "interval restored")
    eq(t.app.clock.period, 1, "period 1")
    eq(t.cmd(W.CMD_START), W.ACK_OK, "second half after the reset")
    t.run(1000)
    t.reboot()
    check(t.app.clock.over, "match over restored")
    eq(t.cmd(W.CMD_START), W.ACK_REFUSED, "still over")
    t.close()


def test_unreadable_state_starts_clean():
    t = Table(prof=profile(period_ms=1000))
    t.cmd(W.CMD_START)
    t.run(500)
    slot = t.app.clock.slot
    slot.buf[0] = 0x55  # not the magic byte: a torn or foreign record
    slot.flush()
    t.reboot()
    eq(t.app.clock.period, 0, "no period")
    check(not t.app.clock.running, "not running")
    t.close()


def test_tick_wrap_in_the_middle_of_a_period():
    # ticks start 12.5 minutes before the wrap point of this port's ticks_ms
    t = Table(tick_start=-750000, prof=profile(period_ms=25 * 60000))
    eq(t.board.t, WRAP - 750000, "ticks start near the wrap")
    check(t.board.t > 0 and t.board.t < WRAP, "near the wrap")
    t.cmd(W.CMD_START)
    wrapped = False
    prev = t.board.t
    for _ in range(25 * 60 - 1):
        t.run(1000, step=250)
        if t.board.t < prev:
            wrapped = True
        prev = t.board.t
        eq(t.ms(), t.app.passes * 250, "clock follows the ticks")
    check(wrapped, "the tick source wrapped during the half")
    t.run(999)
    check(t.app.clock.running, "1 ms before the end")
    t.step(1)
    ev = t.events()
    alarm = only(ev, "alarm")
    eq(len(alarm), 1, "alarm on the expiry pass")
    eq(alarm[0].clock_ms, 25 * 60000, "exactly 25:00")
    t.close()


def test_lance_and_filters_across_the_wrap():
    t = Table(tick_start=-20, prof=profile(lance_ms=100))
    t.cmd(W.CMD_START)
    t.cmd(W.CMD_LANCE, 1)
    t.run(99)
    eq(only(t.events(), "lance_expired"), [], "not yet, across the wrap")
    t.step(1)
    eq(len(only(t.events(), "lance_expired")), 1, "expired after 100 ms")
    t.board.beams[0] = 1
    t.run(40)
    t.board.beams[0] = 0
    t.run(10)
    g = only(t.events(), "goal_line")
    eq([e.value for e in g], [40], "held time measured across the wrap")
    t.close()
