"""Fault tests: real ptys (socat), the firmware under `micropython`, the host link under CPython.

Each test ends by checking that the events stored in SQLite are exactly the
events the device produced (its own `EV` trace), in order — none lost, none
duplicated, none invented — apart from gaps the link recorded as such.
"""

from __future__ import annotations

import os
import time

import pytest

import futmesa_wire as W
from futmesa.link.messages import Profile

from .conftest import new_link
from .harness import Driver, NoisyRelay, check_log, stored, truth, wait_until

NOISE_RATE = float(os.environ.get("FUTMESA_NOISE_RATE", "0.004"))  # per byte, each direction
SHORT_MATCH = Profile(periods=2, extra_periods=0, clock_mode=W.CLOCK_CONTINUOUS,
                      end_mode=W.END_AT_ALARM, period_ms=150_000, interval_ms=20_000,
                      extra_ms=0, lance_ms=20_000, prewarn_ms=0)


def caught_up(sim, store, uid=None):
    def check() -> bool:
        produced = truth(sim)
        got = stored(store, uid)
        gaps = store.gaps(uid)
        n_gap = sum(last - first + 1 for _, first, last in gaps)
        return bool(produced) and len(got) + n_gap >= len(produced)
    return check


def test_unplug_replug_with_events_while_away(sim_factory, sink, store, links):
    sim = sim_factory()
    sim.start()
    link = new_link(sim.host_port, sink)
    links.append(link)
    wait_until(lambda: link.connected, 15, "the first connection", sim)
    drv = Driver(sim, seed=11)
    drv.play(25)
    sim.unplug()
    wait_until(lambda: not link.connected, 5, "the host to see the unplug", sim)
    drv.play(40)  # the device keeps playing while the cable is out
    away = len(truth(sim))
    sim.plug()
    wait_until(lambda: link.connected, 15, "the reconnection", sim)
    drv.play(25)
    wait_until(caught_up(sim, store), 20, "the host to catch up", sim)
    time.sleep(0.3)
    check_log(store, truth(sim))
    assert link.stats.reconnects >= 1
    assert len(truth(sim)) > away > 40


@pytest.mark.slow
def test_line_noise_whole_match(sim_factory, sink, store, links):
    sim = sim_factory(speed=60)
    sim.start()
    relay = NoisyRelay(sim.host_port, NOISE_RATE).start()
    try:
        link = new_link(relay.path, sink)
        links.append(link)
        wait_until(lambda: link.connected, 20, "a connection through the noise", sim)
        assert link.send_profile(SHORT_MATCH).result(timeout=20) == W.ACK_OK
        assert link.command(W.CMD_START).result(timeout=20) == W.ACK_OK
        drv = Driver(sim, seed=3)
        deadline = time.monotonic() + 60
        while not any(t[2] == W.EV_MATCH_OVER for t in truth(sim)):
            assert time.monotonic() < deadline, "the match did not finish"
            drv.play(5, gap_s=0.03)
            st = sink.statuses[-1] if sink.statuses else None
            if st and st.flags & W.ST_INTERVAL and not st.running:
                link.command(W.CMD_START)
        drv.play(10)
        wait_until(caught_up(sim, store), 30, "the host to catch up through the noise", sim)
        time.sleep(0.5)
        check_log(store, truth(sim))
    finally:
        relay.stop()
    produced = truth(sim)
    print(f"noise {relay.stats}, {len(produced)} events, link {link.stats}")
    assert relay.stats["flipped"] + relay.stats["dropped"] + relay.stats["inserted"] > 50
    assert link.stats.bad_frames > 0
    assert len(produced) > 150
