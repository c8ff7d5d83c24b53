"""A V4L2 camera is asked for MJPG before its size (a USB camera's 720p30 is compressed only;
raw YUYV tops out near 10 fps), and a camera that keeps its own format is used as it is, said
once in the log. A fake capture object stands in for the device: it records what was asked."""

from __future__ import annotations

import logging
from typing import Any

import cv2
import numpy as np
import pytest

from futmesa.camera import source as source_mod
from futmesa.camera.settings import camera_settings
from futmesa.camera.source import MJPG, FrameSource

YUYV = cv2.VideoWriter_fourcc(*"YUYV")


class FakeCamera:
    """What cv2.VideoCapture answers for a V4L2 device; ``takes_mjpg``: the camera's answer."""

    made: list[FakeCamera] = []
    takes_mjpg = True

    def __init__(self, *args: Any) -> None:
        self.args, self.asked = args, []  # type: list[tuple[int, float]]
        self.fourcc = float(YUYV)
        FakeCamera.made.append(self)

    def set(self, prop: int, value: float) -> bool:
        self.asked.append((prop, value))
        if prop == cv2.CAP_PROP_FOURCC and self.takes_mjpg:
            self.fourcc = float(value)
        return True

    def get(self, prop: int) -> float:
        return self.fourcc if prop == cv2.CAP_PROP_FOURCC else 0.0

    def isOpened(self) -> bool:  # noqa: N802 - OpenCV's name
        return True

    def read(self) -> tuple[bool, np.ndarray]:
        return True, np.zeros((720, 1280, 3), np.uint8)

    def release(self) -> None:
        pass


@pytest.fixture
def fake_camera(monkeypatch: pytest.MonkeyPatch) -> type[FakeCamera]:
    FakeCamera.made = []
    monkeypatch.setattr(source_mod.cv2, "VideoCapture", FakeCamera)
    return FakeCamera


def test_a_v4l2_camera_is_asked_for_mjpg_before_its_size(
        fake_camera: type[FakeCamera], caplog: pytest.LogCaptureFixture) -> None:
    fake_camera.takes_mjpg = True
    with caplog.at_level(logging.WARNING, logger="futmesa.camera"):
        src = FrameSource("/dev/video0", camera_settings(width=1280, height=720, fps=30))
    cam = fake_camera.made[-1]
    props = [prop for prop, _value in cam.asked]
    assert (cv2.CAP_PROP_FOURCC, float(MJPG)) in [(p, float(v)) for p, v in cam.asked]
    assert props.index(cv2.CAP_PROP_FOURCC) < props.index(cv2.CAP_PROP_FRAME_WIDTH)
    assert cam.args == (0, cv2.CAP_V4L2)
    assert not [r for r in caplog.records if "MJPG" in r.getMessage()]
    assert src.read()[0] is not None


def test_a_camera_that_keeps_its_format_is_used_and_said_once(
        fake_camera: type[FakeCamera], caplog: pytest.LogCaptureFixture) -> None:
    fake_camera.takes_mjpg = False
    with caplog.at_level(logging.WARNING, logger="futmesa.camera"):
        src = FrameSource("/dev/video0", camera_settings(width=1280, height=720, fps=30))
        for _ in range(5):
            img, _truth = src.read()
            assert img is not None and img.shape == (720, 1280, 3)
    said = [r.getMessage() for r in caplog.records if "MJPG" in r.getMessage()]
    assert len(said) == 1 and "YUYV" in said[0] and "/dev/video0" in said[0]


def test_a_file_or_stream_is_not_asked_for_a_format(
        fake_camera: type[FakeCamera]) -> None:
    FrameSource("rtsp://camera.local/live", camera_settings())
    assert fake_camera.made[-1].asked == []
