"""The capture process: a camera read apart from the match, in a process of its own.

Three threads: the reader takes frames from the source as fast as it gives them and stamps
each on the host clock (monotonic ms, and the Unix ms of the match's timeline, the way the
link places a device event: monotonic plus the wall clock's offset now); the encoder JPEG-
encodes the newest frame into the ring. Between them is ONE slot: a frame the encoder has
not taken when the next one is read is dropped and counted, never queued. The third thread
takes the service's requests: a cue for the simulated ball, a clip to write (each clip in a
thread of its own, encoded as its frames reach the ring), a span to judge (the ball's path).

What the service reads without asking (``Shared``): counters, the newest frame's stamp
(a stalled feed), whether the picture has stopped changing (a frozen feed).
"""

from __future__ import annotations

import threading
import time
from multiprocessing.connection import Connection
from typing import Any

import cv2
import numpy as np

from futmesa.camera.clipfile import ClipWriter
from futmesa.camera.counters import (
    CLIPS,
    DROPPED,
    FROZEN,
    KEPT,
    LAST_MONO,
    READ,
    RING_BYTES,
    RING_FRAMES,
)
from futmesa.camera.ring import Frame, FrameRing
from futmesa.camera.settings import CameraError, CameraSettings
from futmesa.camera.source import FrameSource


def stamp() -> tuple[float, float]:
    """(monotonic ms, Unix ms) of now: the same offset futmesa.link.timesync.wall_ms uses."""
    mono = time.monotonic() * 1000
    return mono, mono + (time.time() * 1000 - time.monotonic() * 1000)


class Capture:
    """The capture process's work; ``run`` until the source ends or ``stop``."""

    def __init__(self, source: FrameSource, settings: CameraSettings, shared: Any,
                 conn: Connection | None = None) -> None:
        self.source, self.settings, self.shared, self.conn = source, settings, shared, conn
        self.ring = FrameRing(settings.ring_seconds, settings.ring_max_bytes)
        self.slot: tuple[float, float, np.ndarray, Any] | None = None
        self.slot_ready = threading.Condition()
        self.stopping = threading.Event()
        self.send_lock = threading.Lock()
        self.same_since: float | None = None
        self.last_thumb: np.ndarray | None = None
        self.clip_threads: list[threading.Thread] = []

    # -- reader -----------------------------------------------------------------------
    def read_loop(self) -> None:
        while not self.stopping.is_set():
            img, truth = self.source.read()
            if img is None:
                if self.source.kind == "file":  # a file played to its end: the camera is gone
                    break
                time.sleep(0.01)
                continue
            mono, wall = stamp()
            with self.slot_ready:
                if self.slot is not None:
                    self.shared[DROPPED] += 1
                self.slot = (mono, wall, img, truth)
                self.slot_ready.notify()
            self.shared[READ] += 1
            self.shared[LAST_MONO] = mono
        self.stopping.set()
        with self.slot_ready:
            self.slot_ready.notify()

    # -- encoder ----------------------------------------------------------------------
    def encode_loop(self) -> None:
        quality = [cv2.IMWRITE_JPEG_QUALITY, self.settings.jpeg_quality]
        while True:
            with self.slot_ready:
                while self.slot is None and not self.stopping.is_set():
                    self.slot_ready.wait(0.5)
                if self.slot is None:
                    return
                mono, wall, img, truth = self.slot
                self.slot = None
            self._watch_frozen(mono, img)
            ok, jpeg = cv2.imencode(".jpg", img, quality)
            if ok:
                self.ring.push(Frame(mono, wall, jpeg.tobytes(), truth))
                self.shared[KEPT] += 1
                self.shared[RING_BYTES] = self.ring.bytes
                self.shared[RING_FRAMES] = len(self.ring)

    def _watch_frozen(self, mono: float, img: np.ndarray) -> None:
        """A picture that has not changed at all for ``stall_s``: the feed is frozen (a live
        camera's noise always changes a few pixels)."""
        thumb = cv2.resize(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY), (32, 18),
                           interpolation=cv2.INTER_AREA)
        same = self.last_thumb is not None and int(
            cv2.absdiff(thumb, self.last_thumb).max()) == 0
        self.last_thumb = thumb
        if not same:
            self.same_since = None
        elif self.same_since is None:
            self.same_since = mono
        frozen = self.same_since is not None and mono - self.same_since >= \
            self.settings.stall_s * 1000
        self.shared[FROZEN] = 1.0 if frozen else 0.0

    # -- requests ---------------------------------------------------------------------
    def send(self, message: tuple[Any, ...]) -> None:
        if self.conn is None:
            return
        with self.send_lock:
            try:
                self.conn.send(message)
            except (OSError, EOFError, BrokenPipeError):
                self.stopping.set()

    def request_loop(self) -> None:
        assert self.conn is not None
        while not self.stopping.is_set():
            try:
                if not self.conn.poll(0.2):
                    continue
                message = self.conn.recv()
            except (OSError, EOFError):
                break  # the service is gone: so is the camera
            if message[0] == "stop":
                break
            if message[0] == "cue":
                self.source.cue(*message[1:])
            elif message[0] == "frame":  # the newest picture (the phone's calibration)
                newest = self.ring.newest()
                self.send(("frame", message[1], newest.data if newest is not None else None))
            elif message[0] in ("clip", "judge"):
                work = self.clip if message[0] == "clip" else self.judge
                worker = threading.Thread(target=work, args=message[1:], daemon=True,
                                          name="futmesa-" + message[0])
                self.clip_threads.append(worker)
                worker.start()
        self.stopping.set()

    def clip(self, key: Any, wall_from: float, wall_to: float, path: str) -> dict[str, Any]:
        """Write the frames from ``wall_from`` to ``wall_to`` (Unix ms) as an MP4 at ``path``,
        the later ones as they arrive; reply ("clip", key, result)."""
        started = time.monotonic()
        result: dict[str, Any] = {"path": path, "from_ms": wall_from, "to_ms": wall_to}
        writer: ClipWriter | None = None
        try:
            writer = ClipWriter(path, self.settings.fps, self.settings.clip_height,
                                self.settings.height)
            truth = self._feed(writer, wall_from, wall_to)
            result["sha256"] = writer.close()
            result.update(frames=writer.frames, first_ms=truth[0][0], last_ms=truth[-1][0],
                          truth=truth if truth[0][1] is not None else None,
                          written_s=time.monotonic() - started)
            self.shared[CLIPS] += 1
        except (OSError, ValueError) as exc:  # a full disk; no frame in the span
            if writer is not None:
                writer.abort()  # no torn file left behind
            result["error"] = str(exc)
            result["errno"] = getattr(exc, "errno", None)
        self.send(("clip", key, result))
        return result

    def judge(self, key: Any, wall_from: float, wall_to: float, cal_path: str) -> None:
        """The ball's path over the ring's full-size frames of the span (docs/camera.md, "The
        camera's proposals"); reply ("judged", key, facts)."""
        from futmesa.camera.judging import judge_frames

        try:
            facts = judge_frames(self.ring.between(wall_from, wall_to), cal_path)
        except (ValueError, cv2.error) as exc:
            facts = {"absent": "error", "error": str(exc)}
        self.send(("judged", key, facts))

    def _feed(self, writer: ClipWriter, wall_from: float, wall_to: float) -> list[Any]:
        """Give ``writer`` the ring's frames of the span, the later ones as they arrive (until
        one past the span is in, or the span is ``stall_s`` old); their (stamp, truth)."""
        cursor = wall_from - 1
        truth: list[Any] = []
        while True:
            newest = self.ring.newest()
            last_call = (newest is not None and newest.wall_ms >= wall_to) \
                or stamp()[1] > wall_to + self.settings.stall_s * 1000 or self.stopping.is_set()
            for f in self.ring.between(cursor, wall_to):
                if f.wall_ms > cursor:
                    writer.add(f)
                    truth.append((f.wall_ms, f.truth))
                    cursor = f.wall_ms
            if last_call:
                return truth
            time.sleep(0.05)

    # -- the process ----------------------------------------------------------------------
    def run(self) -> None:
        threads = [threading.Thread(target=self.read_loop, daemon=True, name="futmesa-read")]
        if self.conn is not None:
            threads.append(threading.Thread(target=self.request_loop, daemon=True,
                                            name="futmesa-requests"))
        for t in threads:
            t.start()
        try:
            self.encode_loop()
        finally:
            self.stopping.set()
            for worker in self.clip_threads:  # a clip being written is finished, not torn
                worker.join(timeout=10)
            self.source.close()


def main(spec: str, settings_json: str, conn: Connection, shared: Any) -> None:
    """The capture process's entry point (``multiprocessing``, spawn)."""
    settings = CameraSettings.model_validate_json(settings_json)
    try:
        source = FrameSource(spec, settings)
    except CameraError as exc:
        conn.send(("error", str(exc)))
        return
    conn.send(("ready", source.kind))
    Capture(source, settings, shared, conn).run()
