"""What the camera's tests share: small frames (320×180, 10 fps), an event log with a match,
and a wait on a condition (never a fixed sleep)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from futmesa.camera.settings import CameraSettings, camera_settings

SMALL = {"width": 320, "height": 180, "fps": 10, "ring_seconds": 12.0, "ring_max_mib": 8,
         "clip_before_s": 2.0, "clip_after_s": 1.0, "stall_s": 1.0}


def small(**given: Any) -> CameraSettings:
    return camera_settings({**SMALL, **given})


def wait_for(cond: Callable[[], Any], timeout: float = 30.0, what: str = "") -> Any:
    deadline = time.monotonic() + timeout
    while True:
        got = cond()
        if got:
            return got
        assert time.monotonic() < deadline, f"waited {timeout} s for {what or cond}"
        time.sleep(0.02)


class FakeHealth:
    """The table's health as the camera sees it: set and clear faults (futmesa.health)."""

    def __init__(self) -> None:
        self.faults: dict[str, Any] = {}
        self.history: list[str] = []

    def set(self, fault: Any, detail: str = "") -> None:
        if fault.code not in self.faults:
            self.history.append("+" + fault.code)
        self.faults[fault.code] = fault

    def clear(self, *codes: str) -> None:
        for code in codes:
            if self.faults.pop(code, None) is not None:
                self.history.append("-" + code)
