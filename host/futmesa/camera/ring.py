"""The ring of the last seconds of ENCODED frames: bounded by age and by bytes, never queued.

A frame is pushed with its host stamps (monotonic ms, and the Unix ms the match's timeline
uses); the oldest frames go when the ring holds more than ``seconds`` or more than
``max_bytes``. Pushing is O(1) amortised; nothing here ever waits.
"""

from __future__ import annotations

import threading
from collections import deque
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Frame:
    mono_ms: float  # host monotonic ms when the frame was read
    wall_ms: float  # the same moment on the match's timeline (Unix ms)
    data: bytes  # the frame, JPEG-encoded
    truth: Any = None  # what the simulated camera knows it drew (the ball's field position)


class FrameRing:
    """The last ``seconds`` of frames, at most ``max_bytes`` of them; thread-safe."""

    def __init__(self, seconds: float, max_bytes: int) -> None:
        self.seconds = seconds
        self.max_bytes = max_bytes
        self._frames: deque[Frame] = deque()
        self._lock = threading.Lock()
        self.bytes = 0
        self.pushed = 0
        self.evicted_for_memory = 0  # frames that went before their age for the memory cap

    def push(self, frame: Frame) -> None:
        with self._lock:
            self._frames.append(frame)
            self.bytes += len(frame.data)
            self.pushed += 1
            oldest_kept = frame.mono_ms - self.seconds * 1000
            while self._frames and self._frames[0].mono_ms < oldest_kept:
                self.bytes -= len(self._frames.popleft().data)
            while self.bytes > self.max_bytes and len(self._frames) > 1:
                self.bytes -= len(self._frames.popleft().data)
                self.evicted_for_memory += 1

    def between(self, wall_from: float, wall_to: float) -> list[Frame]:
        """The frames stamped from ``wall_from`` to ``wall_to`` (Unix ms), oldest first."""
        with self._lock:
            return [f for f in self._frames if wall_from <= f.wall_ms <= wall_to]

    def newest(self) -> Frame | None:
        with self._lock:
            return self._frames[-1] if self._frames else None

    def __len__(self) -> int:
        with self._lock:
            return len(self._frames)

    def span_s(self) -> float:
        with self._lock:
            if len(self._frames) < 2:
                return 0.0
            return (self._frames[-1].mono_ms - self._frames[0].mono_ms) / 1000
