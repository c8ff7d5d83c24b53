"""A ball-out the referee voids gives the ball-in-play clock back (004, issue 30 family 4).

Whole system: the real firmware under `micropython` on a pty, the daemon, the SQLite log.
In `mesa-posta` the clock runs only with the ball in play, and the table stops it by itself
on a side-net trip. When the referee voids that ball-out (the net tripped on a hand; the
ball never left), the clock on the table runs again at once and gets back the time it
stood still; a ball-out the referee keeps stays a dead ball.
"""

from __future__ import annotations

from futmesa_testkit.livetable import LiveTable

SPEED = 20  # 1 s of match time in 50 ms: the stretch the clock stood still is measurable


def test_a_voided_ball_out_gives_the_clock_back() -> None:
    with LiveTable(speed=SPEED, ruleset="mesa-posta") as live:
        live.start_match(kickoff="A")
        live.referee("touch", {"side": "A", "disc": 9})
        # the kick-off taken: the clock, held since the start (004 A partida), runs
        live.wait(lambda: live.daemon.status.running, 30, "the clock to run from the kick-off")
        live.referee("last_touch", {"side": "A"})
        live.sim.ball_out(2)  # a side-net zone: the table stops its own clock
        live.wait(lambda: live.daemon.status is not None and not live.daemon.status.running,
                  30, "the table to stop its clock on the side net")
        store, match_id = live.daemon.store, live.daemon.match["id"]
        out = next(e for e in store.entries(match_id) if e.kind == "ball_out")
        assert live.match()["restart"]["kind"] == "lateral"
        stopped_at = live.daemon.status.clock_ms
        # the clock stands still while the referee looks: at least 5 s of match time
        live.wait(lambda: _ticks_since(live.daemon.status.ticks, out.ticks) >= 5_000, 30,
                  "5 s of the table's time")
        assert live.daemon.status.clock_ms == stopped_at, "still stopped"

        live.referee("void", {"target": out.id, "reason": "a mão na rede"})
        live.wait(lambda: live.daemon.status.running, 30, "the clock to run again")
        live.wait(lambda: bool([e for e in store.entries(match_id)
                                if e.kind == "clock_adjusted"]), 30, "the time given back")
        adjusted = [e for e in store.entries(match_id) if e.kind == "clock_adjusted"]
        given = adjusted[0].data["delta_ms"]
        assert given >= 5_000, given  # what it stood still, in match time
        assert live.daemon.status.clock_ms >= stopped_at + given
        m = live.match()
        assert m["restart"]["kind"] == "saida" and m["restart"]["taken"] is True
        assert m["clock_running"] is True


def test_a_voided_restart_of_the_referee_gives_the_clock_back() -> None:
    """Walk46b H1: the ball in play, the clock running, a wrong restart tapped (the host stops
    the clock: a dead ball only the referee sees) and voided in the Registro — the clock stayed
    PARADO through the next Toque. Voiding it runs the clock again at once, the time since
    that stop counted as played (004 A partida: the ball rolled all along)."""
    with LiveTable(speed=SPEED, ruleset="mesa-posta") as live:
        live.start_match(kickoff="A")
        live.referee("touch", {"side": "A", "disc": 9})
        # the kick-off taken: the clock, held since the start (004 A partida), runs
        live.wait(lambda: live.daemon.status.running, 30, "the clock to run from the kick-off")
        live.referee("restart", {"side": "B", "kind": "lateral"})
        live.wait(lambda: live.daemon.status is not None and not live.daemon.status.running,
                  30, "the host to stop the table's clock for the restart")
        store, match_id = live.daemon.store, live.daemon.match["id"]
        wrong = next(e for e in store.entries(match_id) if e.kind == "restart")
        stop = [e for e in store.entries(match_id) if e.kind == "clock_stopped"][-1]
        stopped_at = live.daemon.status.clock_ms
        live.wait(lambda: _ticks_since(live.daemon.status.ticks, stop.ticks) >= 5_000, 30,
                  "5 s of the table's time")

        live.referee("void", {"target": wrong.id, "reason": "toque errado"})
        live.wait(lambda: live.daemon.status.running, 30, "the clock to run again")
        live.wait(lambda: bool([e for e in store.entries(match_id)
                                if e.kind == "clock_adjusted"]), 30, "the time given back")
        given = [e for e in store.entries(match_id) if e.kind == "clock_adjusted"][0]
        assert given.data["delta_ms"] >= 5_000, given.data
        assert live.daemon.status.clock_ms >= stopped_at + given.data["delta_ms"]
        live.referee("touch", {"side": "A", "disc": 8})  # play goes on: still running
        assert live.match()["clock_running"] is True and live.daemon.status.running


def _ticks_since(now: int, then: int) -> int:
    """The table's milliseconds from `then` to `now` (its counter wraps at 2**30)."""
    return (now - then) % (1 << 30)
