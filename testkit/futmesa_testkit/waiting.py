"""A test's wait on a condition, never a fixed sleep: poll until it holds, or fail saying
what did not happen within the deadline."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any


def wait_for(cond: Callable[[], Any], timeout: float = 30.0, what: str = "",
             every: float = 0.02) -> Any:
    """Polls cond() every `every` s until it is truthy and returns that value."""
    deadline = time.monotonic() + timeout
    while True:
        got = cond()
        if got:
            return got
        assert time.monotonic() < deadline, f"waited {timeout} s for {what or cond}"
        time.sleep(every)
