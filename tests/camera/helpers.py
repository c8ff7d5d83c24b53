"""What the camera's tests share: small frames (320×180, 10 fps), an event log with a match,
and a wait on a condition (never a fixed sleep)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from futmesa.camera.service import CameraService
from futmesa.camera.settings import CameraSettings, camera_settings
from futmesa.store import EventLog
from futmesa_testkit.waiting import wait_for

__all__ = ["FakeHealth", "camera_running", "clip_of", "small", "wait_for"]

SMALL = {"width": 320, "height": 180, "fps": 10, "ring_seconds": 12.0, "ring_max_mib": 8,
         "clip_before_s": 2.0, "clip_after_s": 1.0, "stall_s": 1.0}


def small(**given: Any) -> CameraSettings:
    return camera_settings({**SMALL, **given})


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


@contextmanager
def camera_running(spec: str, settings: CameraSettings, db: Any, store: EventLog,
                   restart_s: float = 2.0) -> Iterator[tuple[CameraService, FakeHealth]]:
    """The camera service on `spec` beside the log, its faults seen; stopped however it ends."""
    health = FakeHealth()
    cam = CameraService(spec, settings, db, store, health=health, restart_s=restart_s)
    cam.start()
    try:
        yield cam, health
    finally:
        cam.stop()


def clip_of(cam: CameraService, shown: int) -> dict[str, Any]:
    """The clip entry the camera wrote for the entry `shown`, once it is written."""
    return wait_for(lambda: [c for c in cam.written if c["shows"] == shown], what="its clip")[0]
