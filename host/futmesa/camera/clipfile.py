"""A clip as a file every phone browser plays: H.264 (yuv420p, main profile) in MP4 with its
index first (faststart), through PyAV's libx264. Each frame keeps its own time (the host
stamps), so a camera that dropped frames plays at the true pace, never faster.

The clip is encoded as its frames arrive (:class:`ClipWriter`): the seconds before the moment
are in the ring already and are encoded at once, the seconds after as they come, so the file
is ready a moment after its span ends. A ring frame (JPEG) never goes through a whole BGR
picture converted by swscale, which cost three times as much (docs/performance.md, "Camera"):
a camera twice the clip's height or more is decoded at half size by the JPEG decoder itself
(libjpeg's scaled IDCT, through OpenCV: a quarter of the pixels) and turned into YUV by
OpenCV; a smaller one is decoded by FFmpeg's MJPEG decoder straight to YUV and scaled by
swscale in the same step. It is written to a temporary name and renamed when complete: a
clip on disk is whole or absent. Its sha256 is what the match's log records.
"""

from __future__ import annotations

import os
from fractions import Fraction
from pathlib import Path

import av
import cv2
import numpy as np
from av.video.frame import PictureType
from av.video.reformatter import VideoReformatter

from futmesa.camera.record import file_sha256
from futmesa.camera.ring import Frame

CODEC = "libx264"
FORMAT = "mp4/h264"
MS = Fraction(1, 1000)


class ClipWriter:
    """One clip being written: ``add`` frames in time order, then ``close`` → sha256.

    ``height``: the clip's height (the width follows the camera's shape; both even, as
    yuv420p needs). OSError (a full disk) from any step leaves no file behind (``abort``)."""

    def __init__(self, path: str | Path, fps: int, height: int, camera_height: int = 0) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.tmp = self.path.with_name(self.path.name + ".part")
        self.fps, self.height = fps, height
        # a frame twice the clip's height or more: decoded at half size by libjpeg itself
        self.halve = camera_height >= 2 * height
        self.decoder = av.CodecContext.create("mjpeg", "r")
        self.scaler = VideoReformatter()
        self.out = av.open(str(self.tmp), mode="w", format="mp4",
                           options={"movflags": "+faststart"})
        self.stream: av.VideoStream | None = None
        self.size = (0, 0)
        self.t0 = 0.0
        self.last_pts = -1
        self.frames = 0

    def _open_stream(self, w0: int, h0: int) -> None:
        h = min(self.height, h0) // 2 * 2
        w = round(w0 * h / h0) // 2 * 2
        stream = self.out.add_stream(CODEC, rate=self.fps)
        stream.width, stream.height, stream.pix_fmt = w, h, "yuv420p"
        stream.time_base = MS
        stream.codec_context.time_base = MS  # the frames' own stamps, to the ms
        stream.options = {"preset": "ultrafast", "crf": "25", "profile": "main"}
        self.stream, self.size = stream, (w, h)

    def _picture(self, data: bytes) -> av.VideoFrame | None:
        """The frame as YUV 4:2:0 at the clip's size (None: a torn JPEG, skipped)."""
        if self.halve:
            img = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_REDUCED_COLOR_2)
            if img is None:
                return None
            if self.stream is None:
                self._open_stream(img.shape[1], img.shape[0])
            if (img.shape[1], img.shape[0]) != self.size:
                img = cv2.resize(img, self.size, interpolation=cv2.INTER_AREA)
            return av.VideoFrame.from_ndarray(cv2.cvtColor(img, cv2.COLOR_BGR2YUV_I420),
                                              format="yuv420p")
        try:
            decoded = self.decoder.decode(av.Packet(data))
        except av.FFmpegError:
            return None
        if not decoded:
            return None
        if self.stream is None:
            self._open_stream(decoded[0].width, decoded[0].height)
        # a JPEG's YUV is full range, a video's is not: said, or the colours shift
        return self.scaler.reformat(decoded[0], self.size[0], self.size[1], "yuv420p",
                                    src_color_range="JPEG", dst_color_range="MPEG")

    def add(self, frame: Frame) -> None:
        vf = self._picture(frame.data)
        if vf is None:
            return
        assert self.stream is not None
        if self.frames == 0:
            self.t0 = frame.mono_ms
        self.last_pts = max(self.last_pts + 1, round(frame.mono_ms - self.t0))
        vf.pts, vf.time_base = self.last_pts, MS
        vf.pict_type = PictureType.NONE  # a JPEG is a key frame: not a key frame to force
        for packet in self.stream.encode(vf):
            self.out.mux(packet)
        self.frames += 1

    def close(self) -> str:
        """Finish the file; its sha256."""
        if self.stream is None:
            self.abort()
            raise ValueError("no frames")
        try:
            for packet in self.stream.encode():
                self.out.mux(packet)
            self.out.close()
            os.replace(self.tmp, self.path)
        except BaseException:
            self.abort()
            raise
        return file_sha256(self.path)

    def abort(self) -> None:
        try:
            self.out.close()
        except Exception:  # noqa: BLE001 - a broken file is removed all the same
            pass
        self.tmp.unlink(missing_ok=True)
