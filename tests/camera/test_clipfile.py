"""The clip writer's two ways from a ring frame (JPEG) to the clip's YUV picture — decoded at
half size by libjpeg for a camera twice the clip's height, by FFmpeg's MJPEG decoder and
scaled by swscale otherwise — give the picture the camera saw: same colours (the full-range
JPEG to the video's range), same place, same size, one key frame (a JPEG's own "key frame"
mark passed on made every frame one: ten times the bytes); a torn JPEG is skipped."""

from __future__ import annotations

from pathlib import Path

import av
import cv2
import numpy as np
import pytest

from futmesa.camera.clipfile import ClipWriter
from futmesa.camera.ring import Frame
from futmesa.camera.simcam import SimCamera


def jpeg(img: np.ndarray) -> bytes:
    return cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 90])[1].tobytes()


@pytest.mark.parametrize(("width", "height", "clip_height"), [
    (640, 360, 180),  # twice the clip's height: halved by the JPEG decoder
    (426, 240, 180),  # three quarters: FFmpeg's decoder and swscale
])
def test_the_clip_shows_what_the_camera_saw(tmp_path: Path, width: int, height: int,
                                            clip_height: int) -> None:
    cam = SimCamera(width, height)
    shots = [cam.frame(i / 10)[0] for i in range(12)]
    writer = ClipWriter(tmp_path / "c.mp4", 10, clip_height, height)
    for i, img in enumerate(shots):
        writer.add(Frame(1000.0 + 100 * i, 2e12 + 100 * i, jpeg(img)))
        if i == 5:
            writer.add(Frame(1050.0 + 100 * i, 2e12 + 100 * i + 50, jpeg(img)[:300]))  # torn
    writer.close()
    assert writer.frames == len(shots)
    with av.open(str(tmp_path / "c.mp4")) as f:
        keys = sum(1 for packet in f.demux(video=0) if packet.size and packet.is_keyframe)
    assert keys == 1  # each JPEG is a key frame of its own: never forced on the video
    with av.open(str(tmp_path / "c.mp4")) as f:
        got = [fr.to_ndarray(format="bgr24") for fr in f.decode(video=0)]
    want_w = round(width * clip_height / height) // 2 * 2
    assert len(got) == len(shots) and got[0].shape == (clip_height, want_w, 3)
    for img, seen in zip(shots, got, strict=True):
        small = cv2.resize(img, (want_w, clip_height), interpolation=cv2.INTER_AREA)
        mean_diff = cv2.absdiff(small, seen).mean(axis=(0, 1))
        assert (mean_diff < 6).all(), mean_diff  # each channel: colours and place kept
