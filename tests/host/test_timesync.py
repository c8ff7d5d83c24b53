"""The link's time sync measures the device clock's rate, not only its offset (issue 10).

The emulated RP2040 runs at about 0.4x real time while declaring 1000 device ms
per second: events must still be placed at the right host time.
"""

from __future__ import annotations

import random

from futmesa.link.timesync import TimeSync


def _feed(ts: TimeSync, rate: float, n: int, start_ticks: int = 0, seed: int = 1,
          bits: int = 30) -> list[tuple[float, int]]:
    """n round trips a second apart, device clock at `rate`; returns (host ms, ticks)."""
    rng = random.Random(seed)
    truth = []
    for i in range(n):
        host = 10_000.0 + i * 1000.0
        rtt = rng.uniform(2, 40)
        ticks = int(start_ticks + (host - 10_000.0) * rate) % (1 << bits)
        ts.add(host - rtt / 2, host + rtt / 2, ticks)
        truth.append((host, ticks))
    return truth


def test_a_slow_device_clock_is_measured_and_mapped() -> None:
    ts = TimeSync()
    ts.reset(1000, 30)  # the board says "1000 ticks per second"
    _feed(ts, 0.4, 15)
    assert ts.measured
    assert abs(ts.rate - 0.4) < 0.4 * 0.01
    # an event 10 s of device time after the first sample happened 25 s of host time later
    assert abs(ts.host_ms(4000) - (10_000.0 + 10_000.0)) < 60


def test_the_rate_is_measured_across_the_tick_wrap() -> None:
    ts = TimeSync()
    ts.reset(1000, 30)
    start = (1 << 30) - 3000  # the device's ticks_ms wraps 3 device s after the first sample
    _feed(ts, 0.4, 20, start_ticks=start)
    assert abs(ts.rate - 0.4) < 0.004
    wrapped = (start + 6000) % (1 << 30)  # after the wrap
    assert abs(ts.host_ms(wrapped) - (10_000.0 + 15_000.0)) < 60


def test_the_declared_rate_holds_until_enough_samples() -> None:
    ts = TimeSync()
    ts.reset(60_000, 32)  # the sim board at speed 60
    _feed(ts, 60.0, 2)
    assert not ts.measured and ts.rate == 60.0
    _feed(ts, 60.0, 6, seed=2)
    assert ts.measured and abs(ts.rate - 60.0) < 0.6
