"""The loop allocates nothing in steady state: every sensor busy, the link writing frames, heap locked.

Passes in which a host frame arrives are run unlocked: decoding a received
frame allocates in link.py / futmesa_wire.check_raw (owned by the link; the
benchmark prints how much). Every other pass runs under micropython.heap_lock(),
so a single allocation anywhere raises MemoryError and fails the test.
"""

import micropython

import futmesa_wire as W
from fwtest import Table, check, eq, profile

PASSES = 20000
SLICE = 250


def test_loop_allocates_nothing_with_every_sensor_busy():
    t = Table(goal_sensor="mixed", prof=profile(period_ms=25 * 60000, lance_ms=1000,
                                                 prewarn_ms=300))
    t.hello()
    t.cmd(W.CMD_START)
    t.run(200)
    check(t.app.link.connected, "host connected")
    b = t.board
    app = t.app
    first_seq = app.link.next_seq
    writes = b.writes
    locked = 0
    i = 0
    while i < PASSES:
        t.ack_all()
        b.t += 1
        b.scenario(i)
        app.step()  # receives the ack (allocates in the link): not counted
        i += 1
        micropython.heap_lock()
        try:
            for _ in range(SLICE):
                b.t += 1
                b.scenario(i)
                app.step()
                i += 1
                locked += 1
        finally:
            micropython.heap_unlock()
    ev = app.link.next_seq - first_seq
    check(ev > 100, "events were produced (%d)" % ev)
    check(b.writes - writes > ev, "frames were written (%d)" % (b.writes - writes))
    names = {}
    for e in t.events():
        names[e.name] = names.get(e.name, 0) + 1
    for want in ("goal_line", "ball_out", "palheta", "button", "lance_started", "lance_expired"):
        check(names.get(want, 0) > 0, "%s events in the run: %r" % (want, names))
    eq(app.inputs.goals[0].fault + app.inputs.goals[1].fault, 0, "no sensor fault")
    check(locked > PASSES * 9 // 10, "most passes locked")
    t.close()


def test_heap_lock_catches_an_allocation():
    # the check itself can fail: an allocating pass under the lock raises MemoryError
    t = Table()
    micropython.heap_lock()
    try:
        t.app.board.logs.append(bytearray(8))
        raised = False
    except MemoryError:
        raised = True
    finally:
        micropython.heap_unlock()
    check(raised, "heap_lock must make an allocation fail")
    t.close()
