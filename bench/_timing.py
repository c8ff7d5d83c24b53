"""How the benchmarks time a step: the median of a few runs, in milliseconds."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import Any


def timed(fn: Callable[[], Any], repeat: int = 5) -> float:
    """The median wall time of `repeat` calls of `fn`, in ms."""
    runs = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        runs.append(time.perf_counter() - start)
    return statistics.median(runs) * 1000
