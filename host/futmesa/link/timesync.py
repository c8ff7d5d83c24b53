"""Maps device ticks to host time from PING/PONG round trips, keeping the lowest-latency sample."""

from __future__ import annotations

import time
from collections import deque
from dataclasses import dataclass

_WINDOW = 20  # samples kept: the device clock and ours drift, so old samples age out


@dataclass(frozen=True)
class Sample:
    rtt_ms: float
    host_mid_ms: float  # host monotonic ms at the middle of the round trip
    ticks: int  # device ticks at that moment


class TimeSync:
    def __init__(self) -> None:
        self.samples: deque[Sample] = deque(maxlen=_WINDOW)
        self.rate = 1.0  # device ms per host ms
        self.tick_bits = 32

    def reset(self, rate_permille: int, tick_bits: int) -> None:
        self.samples.clear()
        self.rate = rate_permille / 1000.0
        self.tick_bits = tick_bits

    def add(self, sent_ms: float, received_ms: float, ticks: int) -> None:
        rtt = received_ms - sent_ms
        self.samples.append(Sample(rtt, sent_ms + rtt / 2, ticks))

    @property
    def best(self) -> Sample | None:
        return min(self.samples, key=lambda s: s.rtt_ms) if self.samples else None

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
