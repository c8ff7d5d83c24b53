"""A table's faults on their way to the venue board (issue 37): credentials used twice told
from a lost broker (item 5), and a stuck sensor in words.

The broker names a client by its user: a second connection with the table's credentials
throws the table off, the table comes back and throws the other off, every few seconds. A
broker restart or a pulled cable loses the connection once, or does not reconnect at once.
(The whole path, a real second client on a real mosquitto named on the venue board, is
tests/browser/test_venue_faults.py.)
"""

from __future__ import annotations

from futmesa.venue.table_agent import TakeoverWatch


def flap(w: TakeoverWatch, start: float, times: int, lived: float, apart: float) -> float:
    t = start
    for _ in range(times):
        w.connected(t)
        t += lived
        w.lost(t)
        t += apart
    return t


def test_thrown_off_again_and_again_right_after_connecting_is_a_takeover() -> None:
    w = TakeoverWatch()
    t = flap(w, 0.0, 2, lived=1.5, apart=1.0)
    assert not w.suspected(t)  # twice could be a broker restart
    t = flap(w, t, 1, lived=1.5, apart=1.0)
    assert w.suspected(t)
    w.connected(t)
    assert w.suspected(t + 30)  # still within the minute
    assert not w.suspected(t + TakeoverWatch.WINDOW_S + 1)  # a quiet minute: over


def test_a_lost_broker_or_a_pulled_cable_is_not_a_takeover() -> None:
    w = TakeoverWatch()
    # connections that lasted a while, lost now and then (a broker restarted three times)
    t = flap(w, 0.0, 3, lived=TakeoverWatch.SHORT_S + 5, apart=2.0)
    assert not w.suspected(t)
    # short connections, but far apart (a flaky cable over an afternoon)
    w2 = TakeoverWatch()
    t = flap(w2, 0.0, 5, lived=2.0, apart=TakeoverWatch.WINDOW_S)
    assert not w2.suspected(t)


def test_a_stuck_sensor_travels_to_the_board_in_words() -> None:
    from futmesa.venue.table_agent import slim_state

    state = {"table_id": "mesa-1", "sensor_faults": {"0": "stuck", "1": "stuck"},
             "health": {"ok": False, "faults": [{"code": "log_full", "pt": "log cheio",
                                                 "en": "log full", "do_pt": "libere",
                                                 "do_en": "free", "since": 1}]}}
    faults = slim_state(state, 7, 0)["faults"]
    assert [f["code"] for f in faults] == ["log_full", "sensor_stuck"]  # one per kind
    assert faults[1]["pt"].startswith(
        "um sensor desta mesa está com defeito (bloqueado por tempo demais)")
    assert "futmesa doctor" in faults[1]["do_pt"] and faults[1]["en"].startswith("a sensor")
