"""Maps device ticks to host time from PING/PONG round trips: an anchor and a measured rate.

The anchor is the lowest-latency sample of the window. The rate (device ms per
host ms) starts at what the device declares in HELLO_ACK (1.0 on a real board,
the speed factor on the sim board) and, once the samples span long enough, is
measured: the least-squares slope of device ticks against host time over the
window. A device whose clock runs far from the declared rate (the emulated
RP2040 runs at about 0.4x real time, less on a busy machine) is then still
placed correctly in host time, and displays count at the rate it really runs.
"""

from __future__ import annotations

import time
from collections import deque
from dataclasses import dataclass

_WINDOW = 20  # samples kept: the device clock and ours drift, so old samples age out
_MIN_SPAN_MS = 2000.0  # host ms the samples must span before the rate is measured
_MIN_SAMPLES = 3
# The least a mapping is trusted to: scheduling on a busy host delays a PONG after the
# device stamped it, beyond what the round trip shows (tens of ms on 2 cores with
# stress-ng beside the suite), and a rate fitted over a few seconds of jittery samples is
# extrapolated from its best sample: a simulated table at 20x its real speed, three of
# them on a loaded host, was mapped 300 ms early (tests/e2e/test_tournament_venue.py).
# An event that really arrives late (a cable out, a reconnection) is late by seconds.
_FLOOR_MS = 1000.0


@dataclass(frozen=True)
class Sample:
    rtt_ms: float
    host_mid_ms: float  # host monotonic ms at the middle of the round trip
    ticks: int  # device ticks at that moment


class TimeSync:
    def __init__(self) -> None:
        self.samples: deque[Sample] = deque(maxlen=_WINDOW)
        self.nominal_rate = 1.0  # what the device declares (HELLO_ACK tick_rate / 1000)
        self.rate = 1.0  # device ms per host ms: nominal until measured
        self.measured = False
        self.tick_bits = 32
        self.spread_ms = 0.0  # the worst distance of a sample from the fitted line, host ms

    def reset(self, rate_permille: int, tick_bits: int) -> None:
        self.samples.clear()
        self.nominal_rate = rate_permille / 1000.0
        self.rate = self.nominal_rate
        self.measured = False
        self.tick_bits = tick_bits
        self.spread_ms = 0.0

    def add(self, sent_ms: float, received_ms: float, ticks: int) -> None:
        rtt = received_ms - sent_ms
        self.samples.append(Sample(rtt, sent_ms + rtt / 2, ticks))
        self._estimate_rate()

    def _estimate_rate(self) -> None:
        samples = list(self.samples)
        if len(samples) < _MIN_SAMPLES:
            return
        span = samples[-1].host_mid_ms - samples[0].host_mid_ms
        if span < _MIN_SPAN_MS:
            return
        # least squares of device ms (unwrapped from the first sample) on host ms
        t0, k0 = samples[0].host_mid_ms, samples[0].ticks
        xs = [s.host_mid_ms - t0 for s in samples]
        ys = [float(self.tick_diff(s.ticks, k0)) for s in samples]
        n = len(xs)
        mx, my = sum(xs) / n, sum(ys) / n
        sxx = sum((x - mx) ** 2 for x in xs)
        if sxx <= 0:
            return
        slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sxx
        if slope > 0:
            self.rate = slope
            self.measured = True
            self.spread_ms = max(abs(y - (my + slope * (x - mx))) for x, y in zip(xs, ys,
                                                                              strict=True)) / slope

    @property
    def best(self) -> Sample | None:
        return min(self.samples, key=lambda s: s.rtt_ms) if self.samples else None

    def uncertainty_ms(self) -> float:
        """How far (host ms) a mapped time may be from when the device's clock really read
        those ticks: the best sample's whole round trip, the samples' spread about the
        measured rate, and a floor for scheduling delays the round trip does not show."""
        best = self.best
        if best is None:
            return float("inf")
        return max(_FLOOR_MS, best.rtt_ms + self.spread_ms)

    def tick_diff(self, a: int, b: int) -> int:
        """a - b for device ticks carried mod 2**32 on a device whose ticks wrap at 2**bits."""
        mod = 1 << min(self.tick_bits, 32)
        d = (a - b) % mod
        return d - mod if d >= mod // 2 else d

    def host_ms(self, ticks: int, fallback_ms: float | None = None) -> float:
        """Host monotonic ms at which the device's clock read `ticks`."""
        best = self.best
        if best is None:
            return fallback_ms if fallback_ms is not None else time.monotonic() * 1000
        return best.host_mid_ms + self.tick_diff(ticks, best.ticks) / self.rate

    def wall_ms(self, ticks: int, fallback_ms: float | None = None) -> float:
        """Unix time in ms at which the device's clock read `ticks`."""
        offset = time.time() * 1000 - time.monotonic() * 1000
        return self.host_ms(ticks, fallback_ms) + offset
