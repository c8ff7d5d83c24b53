"""The per-move (lance) timer and the buzzer patterns (000 Art. 8 §3; 001 Art. XXIX e; 003 Art. 71)."""

import futmesa_wire as W
from fwtest import Table, check, eq, only, profile


def test_lance_restarted_by_palheta_expires_with_a_beep():
    t = Table(prof=profile(lance_ms=15000))
    t.cmd(W.CMD_START)
    t.events()
    t.board.palheta = 2
    t.run(31)  # debounced: stable for 30 ms on read 31, the lance starts on that pass
    ev = t.events()
    eq([(e.name, e.a) for e in ev], [("palheta", 2), ("lance_started", 1)], "palheta towards B")
    t.run(14999)
    eq(only(t.events(), "lance_expired"), [], "not before 15 s")
    eq(t.board.buz_duty, 0, "silent")
    t.step(1)
    ev = only(t.events(), "lance_expired")
    eq([(e.a, e.b, e.value) for e in ev], [(1, 0, 1)], "expired once, side B, not a warning")
    check(t.board.buz_duty > 0, "short warning beep at expiry")
    t.run(200)
    eq(t.board.buz_duty, 0, "the warning is short")
    check(t.app.lance.running, "the same player's lance keeps counting after the warning")
    eq(t.app.lance.side, 1, "still B's lance")
    t.close()


def test_a_lance_runs_out_at_its_time_or_past_it_as_the_document_says():
    # 000 Art. 26 §1 A "ao atingir este tempo": at 15,000 ms; 001 Art. XXIX e "mais de quinze
    # segundos" and 003 Art. 71 "10 segundos é o tempo máximo" (PROFILE_LANCE_PAST): the
    # lance is still within its time at the limit and runs out on the first ms past it
    for flags, fires_at in ((0, 15000), (W.PROFILE_LANCE_PAST, 15001)):
        t = Table(prof=profile(lance_ms=15000, flags=flags))
        t.cmd(W.CMD_START)
        eq(t.cmd(W.CMD_LANCE, 0), W.ACK_OK, "A's lance")
        t.events()
        t.run(fires_at - 1, step=1)
        eq(only(t.events(), "lance_expired"), [], "within the time (flags %d)" % flags)
        t.step(1)
        ev = only(t.events(), "lance_expired")
        eq([(e.a, e.value) for e in ev], [(0, 1)], "runs out at %d ms" % fires_at)
        t.run(14999, step=1)
        eq(only(t.events(), "lance_expired"), [], "the same lance, not yet again")
        t.step(1)
        eq([e.value for e in only(t.events(), "lance_expired")], [2], "15 s later, counted")
        t.close()


def test_a_lance_that_is_not_played_keeps_expiring_until_restarted():
    # 000 Art. 26 §1 A: at 15 s the referee warns; going past it is the sanction, so the
    # device keeps counting the same lance and reports every further 15 s
    t = Table(prof=profile(lance_ms=15000, prewarn_ms=5000))
    t.cmd(W.CMD_START)
    eq(t.cmd(W.CMD_LANCE, 0), W.ACK_OK, "A's lance")
    t.events()
    t.run(90000, step=10)
    ev = only(t.events(), "lance_expired")
    eq([(e.a, e.b, e.value) for e in ev],
       [(0, 1, 0), (0, 0, 1), (0, 0, 2), (0, 0, 3)],
       "one pre-warning, then an expiry every 15 s, counted, three at most")
    eq([e.ticks - ev[1].ticks for e in ev[1:]], [0, 15000, 30000], "15 s apart")
    check(not t.app.lance.running, "then the lance stops: nobody plays it")
    eq(t.cmd(W.CMD_LANCE, 1), W.ACK_OK, "the host restarts it for B")
    t.events()
    t.run(14999, step=1)
    eq([(e.b) for e in only(t.events(), "lance_expired")], [1], "a new lance: pre-warning only")
    t.step(1)
    eq([(e.a, e.value) for e in only(t.events(), "lance_expired")], [(1, 1)], "counted from 1")
    t.close()


def test_the_lance_waits_while_the_clock_is_paused():
    t = Table(prof=profile(lance_ms=15000))
    t.cmd(W.CMD_START)
    t.cmd(W.CMD_LANCE, 0)
    t.run(10000, step=10)
    eq(t.cmd(W.CMD_PAUSE), W.ACK_OK, "the referee stops the clock")
    t.run(30000, step=10)
    eq(only(t.events(), "lance_expired"), [], "no expiry while the clock is stopped")
    eq(t.cmd(W.CMD_RESUME), W.ACK_OK, "and restarts it")
    t.run(4990, step=10)
    eq(only(t.events(), "lance_expired"), [], "5 s were left")
    t.run(20, step=10)
    eq([(e.a, e.value) for e in only(t.events(), "lance_expired")], [(0, 1)], "then it expires")
    t.close()


def test_lance_per_profile_and_prewarning():
    # 003 Arts. 64 §7, 70, 71: 10 s per palhetada; a pre-warning 3 s before
    t = Table(prof=profile(lance_ms=10000, prewarn_ms=3000))
    t.cmd(W.CMD_START)
    eq(t.cmd(W.CMD_LANCE, 0), W.ACK_OK, "host restarts the lance for A")
    t.events()
    t.run(6999)
    eq(only(t.events(), "lance_expired"), [], "no pre-warning yet")
    t.step(1)
    ev = only(t.events(), "lance_expired")
    eq([(e.a, e.b) for e in ev], [(0, 1)], "pre-warning")
    check(t.board.buz_duty > 0, "pre-warning beep")
    t.run(2999)
    eq(only(t.events(), "lance_expired"), [], "no expiry yet")
    t.step(1)
    eq([(e.a, e.b) for e in only(t.events(), "lance_expired")], [(0, 0)], "expiry at 10 s")
    t.close()


def test_turn_buttons_and_host_restart_the_lance():
    t = Table(prof=profile(lance_ms=15000))
    t.cmd(W.CMD_START)
    t.board.buttons[0] = 1
    t.run(25)
    t.board.buttons[0] = 0
    t.run(25)
    eq(t.app.lance.side, 1, "A ends its lance with its button: B's lance starts")
    t.run(10000, step=10)
    t.board.buttons[1] = 1
    t.run(25)
    t.board.buttons[1] = 0
    t.run(25)
    eq(t.app.lance.side, 0, "B's button restarts it for A")
    # the press counts once stable for 20 ms (read 21 of 25), then 29 ms went by
    eq(t.app.lance.remaining(t.app.now), 15000 - 29, "restarted from the press")
    eq(t.cmd(W.CMD_LANCE, 2, 1), W.ACK_OK, "host stops it")
    eq(t.cmd(W.CMD_LANCE, 2, 1), W.ACK_DUPLICATE, "stop again")
    t.run(20000, step=100)
    eq(only(t.events(), "lance_expired"), [], "a stopped lance never expires")
    t.close()


def test_no_lance_timer_in_a_profile_without_one():
    t = Table(prof=profile(lance_ms=0))
    t.cmd(W.CMD_START)
    eq(t.cmd(W.CMD_LANCE, 0), W.ACK_REFUSED, "no per-move timer")
    t.close()


def test_period_end_stops_the_lance_and_the_alarm_outranks_beeps():
    t = Table(prof=profile(period_ms=5000, lance_ms=15000))
    t.cmd(W.CMD_START)
    t.cmd(W.CMD_LANCE, 0)
    t.run(5000)
    check(not t.app.lance.running, "the lance stops with the period")
    check(t.board.buz_duty > 0, "alarm")
    eq(t.cmd(W.CMD_BEEP, W.BEEP_GOAL), W.ACK_REFUSED, "a chirp does not cut the alarm")
    t.run(1999)
    check(t.board.buz_duty > 0, "the alarm is long")
    t.step(1)
    eq(t.board.buz_duty, 0, "and ends")
    eq(t.cmd(W.CMD_BEEP, 99), W.ACK_REFUSED, "unknown pattern")
    t.close()


def test_goal_chirp_pattern_is_non_blocking():
    t = Table()
    eq(t.cmd(W.CMD_BEEP, W.BEEP_GOAL), W.ACK_OK, "chirp")
    changes = []
    last = -1
    for _ in range(500):
        t.step(1)
        on = 1 if t.board.buz_duty else 0
        if on != last:
            changes.append((t.app.passes, on))
            last = on
    eq([c[1] for c in changes], [1, 0, 1, 0, 1, 0], "three chirps")
    eq(changes[1][0] - changes[0][0], 79, "80 ms on (first pass counted at play)")
    t.close()
