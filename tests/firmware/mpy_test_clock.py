"""The match clock: modes, end modes, commands, interval, extra time (000 Art. 8 §9-10; 004)."""

import futmesa_wire as W
from fwtest import Table, check, eq, only, profile

MIN = 60 * 1000


def test_continuous_at_alarm_ends_exactly_on_the_expiry_pass():
    # 000 Art. 8 §9: two halves of 25 minutes; §10: the half ends when the alarm starts
    t = Table(prof=profile(period_ms=25 * MIN))
    eq(t.cmd(W.CMD_START), W.ACK_OK, "start")
    t.events()
    t.run(25 * MIN - 1000, step=1000)  # coarse until the last second
    t.run(999)  # ... then ms by ms up to 1 ms before the limit
    check(t.app.clock.running, "still running 1 ms before the limit")
    eq(t.board.buz_duty, 0, "buzzer silent before the limit")
    eq(t.names(), [], "no event before the limit")
    t.step(1)
    ev = t.events()
    eq([e.name for e in ev], ["alarm", "period_over", "clock_stopped"], "events on the expiry pass")
    eq(ev[0].clock_ms, 25 * MIN, "clock at the alarm")
    check(t.board.buz_duty > 0, "the alarm sounds on the expiry pass")
    check(t.app.clock.interval, "interval after the first half")
    t.run(5000, step=100)
    eq(t.ms(), 25 * MIN, "a stopped clock stays at the limit")
    t.close()


def test_at_alarm_with_a_coarse_pass_still_ends_at_the_limit():
    t = Table(prof=profile(period_ms=10000))
    t.cmd(W.CMD_START)
    t.run(9990, step=10)
    t.step(37)  # a long pass crosses the limit
    eq(t.app.clock.base_ms, 10000, "the clock ends at the limit, not at the late pass")
    t.close()


def test_two_halves_interval_and_match_over():
    t = Table(prof=profile(period_ms=1000, interval_ms=500))
    t.cmd(W.CMD_START)
    t.run(1000)
    t.events()
    t.run(499)
    eq(t.names(), [], "interval not over yet")
    t.step(1)
    ev = t.events()
    eq([(e.name, e.a) for e in ev], [("alarm", W.BEEP_WARNING)], "interval over: a warning")
    eq(t.cmd(W.CMD_RESUME), W.ACK_REFUSED, "resume during the interval")
    eq(t.cmd(W.CMD_START), W.ACK_OK, "second half")
    eq(t.app.clock.period, 2, "period 2")
    t.run(1000)
    names = t.names()
    check("match_over" in names, "match over after the second half: %r" % names)
    eq(t.cmd(W.CMD_START), W.ACK_REFUSED, "no third half")
    check(t.app.clock.over, "over")
    t.close()


def test_the_interval_counts_from_the_period_end_the_rules_give():
    # 001 Art. XXI §1: at the signal the player on turn still has his last lance, which is
    # the period's; 000 Art. 8 §9: the interval is "entre o término da primeira fase e o
    # início da segunda". The host says when the rules ended the period (walk 45i-b M-b)
    t = Table(prof=profile(period_ms=1000, interval_ms=500))
    t.cmd(W.CMD_START)
    t.run(1000)
    t.events()
    check(t.app.clock.interval, "the table's interval from its alarm")
    t.run(300)  # the last lance is played
    eq(t.cmd(W.CMD_INTERVAL), W.ACK_OK, "the rules end the period now")
    t.run(499)
    eq(t.names(), [], "the interval counts from the lance's end, not the alarm")
    t.step(1)
    eq([(e.name, e.a) for e in t.events()], [("alarm", W.BEEP_WARNING)], "interval over")
    eq(t.cmd(W.CMD_START), W.ACK_OK, "second half")
    eq(t.cmd(W.CMD_INTERVAL), W.ACK_REFUSED, "no interval to count while a period runs")
    t.close()


def test_extra_time_periods_use_their_own_length():
    t = Table(prof=profile(periods=2, extra=2, period_ms=1000, extra_ms=300, interval_ms=0))
    for p in range(1, 5):
        eq(t.cmd(W.CMD_START), W.ACK_OK, "start period %d" % p)
        eq(t.app.clock.length(), 1000 if p <= 2 else 300, "length of period %d" % p)
        t.run(t.app.clock.length())
        check(not t.app.clock.running, "period %d over" % p)
    check(t.app.clock.over, "over after extra time")
    t.close()


def test_commands_are_idempotent():
    t = Table(prof=profile(period_ms=10000))
    eq(t.cmd(W.CMD_PAUSE), W.ACK_DUPLICATE, "pause before start")
    eq(t.cmd(W.CMD_RESUME), W.ACK_REFUSED, "resume before start")
    eq(t.cmd(W.CMD_START), W.ACK_OK, "start")
    eq(t.cmd(W.CMD_START), W.ACK_DUPLICATE, "start again")
    t.run(1000)
    eq(t.cmd(W.CMD_PAUSE), W.ACK_OK, "pause")
    eq(t.cmd(W.CMD_PAUSE), W.ACK_DUPLICATE, "pause again")
    t.run(3000, step=10)
    eq(t.ms(), 1000, "paused clock does not move")
    eq(t.cmd(W.CMD_RESUME), W.ACK_OK, "resume")
    eq(t.cmd(W.CMD_RESUME), W.ACK_DUPLICATE, "resume again")
    t.run(500)
    eq(t.ms(), 1500, "runs again")
    eq(t.cmd(W.CMD_SET_CLOCK, 1, 0, 0, 4000), W.ACK_OK, "set clock")
    eq(t.cmd(W.CMD_SET_CLOCK, 1, 0, 0, 4000), W.ACK_DUPLICATE, "set clock again")
    eq(t.ms(), 4000, "set")
    eq(t.cmd(W.CMD_NEW_MATCH), W.ACK_OK, "new match")
    eq(t.cmd(W.CMD_NEW_MATCH), W.ACK_DUPLICATE, "new match again")
    eq(t.app.set_profile(profile(period_ms=10000)), W.ACK_DUPLICATE, "same profile again")
    eq(t.app.set_profile(b"\x00" * 3), W.ACK_REFUSED, "garbage profile")
    eq(t.app.set_profile(profile(periods=0)), W.ACK_REFUSED, "impossible profile")
    t.close()


def test_added_time_and_correction_move_the_alarm():
    t = Table(prof=profile(period_ms=10000))
    t.cmd(W.CMD_START)
    t.run(9000)
    eq(t.cmd(W.CMD_ADD_TIME, 0, 0, 0, 2000), W.ACK_OK, "added time")
    eq(t.cmd(W.CMD_ADD_TIME, 0, 0, 0, 0), W.ACK_REFUSED, "zero added time")
    t.run(2999)
    check(t.app.clock.running, "running into added time")
    t.step(1)
    eq(t.app.clock.base_ms, 12000, "ends at length + added")
    t2 = Table(prof=profile(period_ms=10000))
    t2.cmd(W.CMD_START)
    t2.run(5000)
    eq(t2.cmd(W.CMD_ADJUST, 0, 0, 0, -2000), W.ACK_OK, "correction -2 s")
    ev = only(t2.events(), "clock_adjusted")
    eq(ev[-1].value, -2000, "correction reported")
    t2.run(6999)
    check(t2.app.clock.running, "corrected clock still running")
    t2.step(1)
    check(not t2.app.clock.running, "alarm 2 s later than uncorrected")
    eq(t2.cmd(W.CMD_ADJUST, 0, 0, 0, -99999), W.ACK_REFUSED, "no correction in the interval")
    t.close()
    t2.close()


def test_ball_in_play_stops_on_sensors_and_restarts_on_play_on():
    # 004 "A partida": the clock runs only while the ball is in play
    t = Table(prof=profile(clock_mode=W.CLOCK_BALL_IN_PLAY, period_ms=60000))
    t.cmd(W.CMD_START)
    t.run(2000)
    t.events()
    t.board.nets[1] = 1
    t.step(1)
    t.board.nets[1] = 0
    ev = t.events()
    eq([e.name for e in ev], ["ball_out", "clock_stopped"], "ball out stops the clock")
    eq(ev[1].a, 1, "reason dead ball")
    t.run(5000, step=10)
    eq(t.ms(), 2001, "stopped while the ball is out")
    t.board.palheta = 0
    t.run(100)
    t.board.palheta = 1  # the palheta back to the centre: play on
    t.run(100)
    check(t.app.clock.running, "play on restarts the clock")
    eq(only(t.events(), "clock_started")[0].a, 2, "reason play on")
    # a goal-line block stops it too
    t.board.beams[0] = 1
    t.run(40)
    t.board.beams[0] = 0
    t.run(20)
    names = t.names()
    check(names[:2] == ["goal_line", "clock_stopped"], "goal then stop: %r" % names)
    eq(t.cmd(W.CMD_PLAY_ON), W.ACK_OK, "host play on")
    eq(t.cmd(W.CMD_PLAY_ON), W.ACK_DUPLICATE, "play on again")
    eq(t.cmd(W.CMD_DEAD_BALL), W.ACK_OK, "host dead ball")
    check(not t.app.clock.running, "host stops it")
    t.close()


def test_a_voided_dead_ball_is_counted_as_played():
    # 004 "A partida", issue 30 family 4: the referee voids the ball-out the clock stopped on
    # (the net tripped on a hand): play on with give_back counts the stop as played
    t = Table(prof=profile(clock_mode=W.CLOCK_BALL_IN_PLAY, period_ms=60000))
    t.cmd(W.CMD_START)
    t.run(2000)
    t.board.nets[1] = 1
    t.step(1)
    t.board.nets[1] = 0
    t.events()
    t.run(4000, step=10)
    eq(t.ms(), 2001, "stopped on the side net")
    eq(t.cmd(W.CMD_PLAY_ON, 1), W.ACK_OK, "the dead ball is voided")
    ev = t.events()
    eq([e.name for e in ev], ["clock_adjusted", "clock_started"], "given back, then running")
    check(3990 <= ev[0].value <= 4010, "the stop, given back: %d" % ev[0].value)
    check(6000 <= t.ms() <= 6020, "as if it had run all along: %d" % t.ms())
    # a referee's pause is not a dead ball: nothing is given back for it
    eq(t.cmd(W.CMD_PAUSE), W.ACK_OK, "the referee stops the clock")
    t.run(3000, step=10)
    before = t.ms()
    eq(t.cmd(W.CMD_PLAY_ON, 1), W.ACK_OK, "play on")
    eq(only(t.events(), "clock_adjusted"), [], "nothing given back for a pause")
    eq(t.ms(), before, "the clock takes up where it stood")
    # a plain play on gives nothing back either
    t.board.beams[0] = 1
    t.run(40)
    t.board.beams[0] = 0
    t.run(1000, step=10)
    before = t.ms()
    eq(t.cmd(W.CMD_PLAY_ON), W.ACK_OK, "play on after a real goal-line trip")
    eq(only(t.events(), "clock_adjusted"), [], "a dead ball that stands")
    eq(t.ms(), before, "nothing added")
    t.close()


def test_continuous_clock_ignores_dead_balls():
    t = Table(prof=profile(period_ms=60000))
    t.cmd(W.CMD_START)
    t.board.nets[0] = 1
    t.step(1)
    t.board.nets[0] = 0
    t.run(1000)
    check(t.app.clock.running, "continuous clock keeps running after a ball out")
    eq(t.cmd(W.CMD_PLAY_ON), W.ACK_DUPLICATE, "play on while running")
    t.close()


def test_next_dead_ball_end_mode():
    # 004: once time is up, the half ends the next time the ball goes out of play
    t = Table(prof=profile(end_mode=W.END_NEXT_DEAD_BALL, period_ms=5000))
    t.cmd(W.CMD_START)
    t.run(4999)
    t.events()
    t.step(1)
    ev = t.events()
    eq([e.name for e in ev], ["time_up"], "time up at the limit")
    check(t.board.buz_duty > 0, "warning beep at time up")
    check(t.app.clock.running, "clock goes on after time up")
    t.run(3000)
    eq(t.ms(), 8000, "overtime is counted")
    check(t.app.clock.flags() & W.ST_TIME_UP, "status says time up")
    t.board.nets[3] = 1
    t.step(1)
    t.board.nets[3] = 0
    ev = t.events()
    eq([e.name for e in ev], ["ball_out", "alarm", "period_over", "clock_stopped"],
       "the next dead ball ends the period")
    check(t.app.clock.interval, "interval")
    eq(t.app.clock.base_ms, 8001, "period ended at the dead ball")
    t.close()


def test_next_dead_ball_with_ball_in_play_clock():
    t = Table(prof=profile(clock_mode=W.CLOCK_BALL_IN_PLAY, end_mode=W.END_NEXT_DEAD_BALL,
                           period_ms=3000))
    t.cmd(W.CMD_START)
    t.run(3000)
    check(t.app.clock.time_up, "time up")
    eq(t.cmd(W.CMD_DEAD_BALL), W.ACK_OK, "referee's dead ball")
    check(t.app.clock.interval, "period over at the dead ball")
    t.close()


def test_added_time_after_time_up_is_played():
    t = Table(prof=profile(end_mode=W.END_NEXT_DEAD_BALL, period_ms=5000))
    t.cmd(W.CMD_START)
    t.run(5000)
    check(t.app.clock.time_up, "time up")
    t.cmd(W.CMD_ADD_TIME, 0, 0, 0, 3000)
    check(not t.app.clock.time_up, "added time reopens the period")
    t.run(2999)
    check(not t.app.clock.time_up, "not yet")
    t.step(1)
    check(t.app.clock.time_up, "time up again after the added time")
    t.close()
