"""Opening a camera source: a V4L2 device (``/dev/video0`` or its number), a stream URL
(``rtsp://…``, ``http://…``), a video file, or ``sim`` (the simulated camera).

Every source answers ``read()`` with a frame (BGR numpy array) and its truth (only the
simulated camera knows one), or None when no frame came: the capture process decides what
that means (stalled, unplugged). A device or a stream paces itself; a file and ``sim`` are
paced here at the settings' frame rate, as a camera would deliver them.

A V4L2 device is asked for MJPG before its size: a USB (UVC) camera sends 720p30 only
compressed (raw YUYV over USB 2 tops out near 10 fps at 720p). A camera that keeps its own
format is used as it is, said once in the log (its frame rate may be lower).
"""

from __future__ import annotations

import logging
import time
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from futmesa.camera.settings import CameraError, CameraSettings
from futmesa.camera.simcam import SimCamera
from futmesa.i18n import _

log = logging.getLogger("futmesa.camera")
MJPG = cv2.VideoWriter_fourcc(*"MJPG")


def kind_of(spec: str) -> str:
    """``sim``, ``device``, ``stream`` or ``file`` (CameraError when it is none of them)."""
    if spec == "sim":
        return "sim"
    if spec.isdigit() or spec.startswith(("/dev/video", "/dev/v4l/")):
        return "device"
    if "://" in spec:
        return "stream"
    if Path(spec).is_file():
        return "file"
    raise CameraError(_("camera source '{spec}' not found: give sim, a device such as "
                        "/dev/video0, a stream URL (rtsp://…) or a video file").format(spec=spec))


def fourcc_text(code: float) -> str:
    n = int(code)
    return "".join(chr((n >> (8 * i)) & 0xFF) for i in range(4)).strip("\0 ") or "?"


def ask_mjpg(cap: Any, spec: str) -> bool:
    """Ask a V4L2 camera for MJPG (set before the size: the size list depends on the
    format); True when it took it. A refusal is logged once and the camera used as it is."""
    cap.set(cv2.CAP_PROP_FOURCC, MJPG)
    got = cap.get(cv2.CAP_PROP_FOURCC)
    if int(got) == MJPG:
        return True
    log.warning(_("camera %s keeps its own format %s instead of MJPG: it may deliver fewer "
                  "frames a second at this size (a camera that offers MJPG gives 720p30)"),
                spec, fourcc_text(got))
    return False


class FrameSource:
    """One opened source; ``read()`` → (frame or None, truth or None)."""

    def __init__(self, spec: str, settings: CameraSettings) -> None:
        self.spec, self.kind = spec, kind_of(spec)
        self.settings = settings
        self.sim: SimCamera | None = None
        self.cap: Any = None
        self.t0 = time.monotonic()
        self.next_due = self.t0
        if self.kind == "sim":
            self.sim = SimCamera(settings.width, settings.height)
        else:
            self.cap = self._open()

    def _open(self) -> Any:
        s = self.settings
        if self.kind == "device":
            number = self.spec.removeprefix("/dev/video")
            # V4L2 opens a device by its number; a name such as /dev/v4l/by-id/… as it is
            cap = (cv2.VideoCapture(int(number), cv2.CAP_V4L2) if number.isdigit()
                   else cv2.VideoCapture(self.spec))
            ask_mjpg(cap, self.spec)
            cap.set(cv2.CAP_PROP_FRAME_WIDTH, s.width)
            cap.set(cv2.CAP_PROP_FRAME_HEIGHT, s.height)
            cap.set(cv2.CAP_PROP_FPS, s.fps)
            cap.set(cv2.CAP_PROP_BUFFERSIZE, 1)  # the newest frame, not a queue of old ones
        else:
            cap = cv2.VideoCapture(self.spec)
        if not cap.isOpened():
            cap.release()
            raise CameraError(_("camera '{spec}' cannot be opened: check the cable (or the "
                                "address) and that no other program uses it").format(
                                    spec=self.spec))
        return cap

    @property
    def paced(self) -> bool:
        return self.kind in ("sim", "file")

    def _pace(self) -> None:
        self.next_due += 1.0 / self.settings.fps
        wait = self.next_due - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        elif wait < -1.0:  # far behind (a stalled machine): start counting again from now
            self.next_due = time.monotonic()

    def read(self) -> tuple[np.ndarray | None, Any]:
        if self.paced:
            self._pace()
        if self.sim is not None:
            img, truth = self.sim.frame(time.monotonic() - self.t0)
            return img, truth
        ok, img = self.cap.read()
        if not ok or img is None:
            return None, None
        s = self.settings
        if img.shape[1] != s.width or img.shape[0] != s.height:
            img = cv2.resize(img, (s.width, s.height), interpolation=cv2.INTER_AREA)
        return img, None

    def cue(self, kind: str, end: int | None, line: str) -> None:
        """A table event the simulated ball follows (other sources film the real ball)."""
        if self.sim is not None:
            self.sim.ball.cue(kind, end, line)

    def close(self) -> None:
        if self.cap is not None:
            self.cap.release()
