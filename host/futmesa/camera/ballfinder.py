"""The ball finder: the ball's centre in a BGR frame, and a tracker that bridges a few frames.

The ball is yellow (003 Art. 11 §2 allows white or yellow; the demo's is yellow): its red and
green both stand well above its blue, which no cloth, line, wall or disc colour does
(``min(R, G) − B``; a colour ratio, so a dimmer or brighter part of the table moves it little).
The score's pixels over a threshold make blobs; the blob nearest the tracker's guess whose size
fits a ball there (the calibration gives the scale) wins, its centre weighted by the score (the
anti-aliased edge counts: sub-pixel). Cheap enough for a Pi-class CPU at the camera's rate:
while the ball is tracked only a small region around its predicted spot is looked at; the
whole frame, at half size, only to find it again.

The tracker keeps the last sighting and the velocity; a ball a disc hides for a few frames
(``BRIDGE_FRAMES``) is searched for where it should be, wider each frame, and a blob much
smaller than a ball (a disc over part of it) counts with less confidence.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from futmesa.camera.calibration import Calibration
from futmesa.camera.field import BALL_MM

THRESHOLD = 36  # min(R, G) - B, grey levels
BRIDGE_FRAMES = 8


def _hidden_table() -> tuple[np.ndarray, np.ndarray]:
    """A unit circle with a straight-edged part hidden: (visible share, visible part's centroid
    offset from the circle's centre), for hidden depths 0..1 of the diameter."""
    ys, xs = np.mgrid[-1:1:401j, -1:1:401j]
    inside = xs * xs + ys * ys <= 1
    shares, offsets = [], []
    for h in np.linspace(0, 1.0, 51):
        vis = inside & (xs <= 1 - 2 * h)
        shares.append(vis.sum() / inside.sum())
        offsets.append(-xs[vis].mean() if vis.any() else 0.0)
    return np.array(shares[::-1]), np.array(offsets[::-1])


VISIBLE, OFFSET = _hidden_table()  # visible share ascending


@dataclass(frozen=True)
class Sighting:
    """The ball in one frame: its centre in picture pixels and how sure the finder is (0–1)."""

    px: float
    py: float
    confidence: float


def yellow_score(bgr: np.ndarray) -> np.ndarray:
    """min(R, G) − B per pixel, saturated at 0 (uint8)."""
    b, g, r = cv2.split(bgr)
    return cv2.subtract(cv2.min(r, g), b)


class BallFinder:
    """Finds the ball in a frame, near a guess (a region) or anywhere (the whole frame)."""

    def __init__(self, cal: Calibration, threshold: int = THRESHOLD) -> None:
        self.cal = cal
        self.threshold = threshold
        w, h = cal.data.width, cal.data.height
        r_px = BALL_MM / 2 / cal.mm_per_px(w / 2, h / 2)
        self.ball_area = math.pi * r_px * r_px  # in pixels, at the picture's centre
        self.r_px = r_px

    def find(self, bgr: np.ndarray, guess: tuple[float, float] | None = None,
             reach_px: float = 0.0) -> Sighting | None:
        """The ball within ``reach_px`` of ``guess``, else (no guess) anywhere in the frame."""
        if guess is None:
            return self._anywhere(bgr)
        h, w = bgr.shape[:2]
        x0 = max(0, int(guess[0] - reach_px))
        y0 = max(0, int(guess[1] - reach_px))
        x1 = min(w, int(guess[0] + reach_px) + 1)
        y1 = min(h, int(guess[1] + reach_px) + 1)
        if x1 - x0 < 2 or y1 - y0 < 2:
            return None
        return self._best(yellow_score(bgr[y0:y1, x0:x1]), x0, y0, guess, 1)

    def _anywhere(self, bgr: np.ndarray) -> Sighting | None:
        small = bgr[::2, ::2]  # half size: a view, no copy
        found = self._best(yellow_score(small), 0, 0, None, 2)
        if found is None or found.confidence < 0.2:
            return None
        return self.find(bgr, (found.px, found.py), 4 * self.r_px + 4)  # refined at full size

    def _best(self, score: np.ndarray, x0: int, y0: int, guess: tuple[float, float] | None,
              step: int) -> Sighting | None:
        _t, mask = cv2.threshold(score, self.threshold, 255, cv2.THRESH_BINARY)
        n, labels, stats, _c = cv2.connectedComponentsWithStats(mask, connectivity=8)
        expected = self.ball_area / (step * step)
        best: tuple[float, Sighting] | None = None
        for i in range(1, n):
            x, y, bw, bh, area = stats[i]
            if area > 6 * expected + 4 or max(bw, bh) > 8 * 2 * self.r_px / step + 3:
                continue  # far too big for the ball, even smeared by its speed
            roi = score[y:y + bh, x:x + bw].astype(np.float32)
            roi[labels[y:y + bh, x:x + bw] != i] = 0
            m00 = float(roi.sum())  # numpy, not cv2.moments: a 2-wide array is read as points
            if m00 <= 0:
                continue
            gx = x + float((roi.sum(axis=0) * np.arange(bw)).sum()) / m00
            gy = y + float((roi.sum(axis=1) * np.arange(bh)).sum()) / m00
            peak = float(np.sort(roi, axis=None)[-3:].mean())
            fill = min(1.0, m00 / peak / max(expected, 1.0))  # the ball's visible share
            if step == 1 and fill < 0.92:  # a disc over its edge: the centre lies towards it
                pts = np.argwhere(roi > 0)[:, ::-1].astype(np.float32)
                (ex, ey), _r = cv2.minEnclosingCircle(pts)
                ux, uy = ex + x - gx, ey + y - gy
                norm = math.hypot(ux, uy)
                if norm > 1e-3:
                    shift = float(np.interp(fill, VISIBLE, OFFSET)) * self.r_px
                    gx, gy = gx + ux / norm * shift, gy + uy / norm * shift
            cx, cy = gx * step + x0, gy * step + y0
            conf = fill * min(1.0, peak / 120)
            rank = conf if guess is None else conf / (1 + math.hypot(cx - guess[0],
                                                                     cy - guess[1]) / 50)
            if best is None or rank > best[0]:
                best = (rank, Sighting(cx, cy, round(conf, 3)))
        return None if best is None or best[1].confidence < 0.08 else best[1]


@dataclass(frozen=True)
class TrackPoint:
    """One frame of a track: its time, the ball on the field in mm (None: not seen)."""

    t_ms: float
    x_mm: float | None
    y_mm: float | None
    confidence: float = 0.0


class BallTracker:
    """Follows the ball over frames: the last sighting, the velocity, a widening search."""

    def __init__(self, cal: Calibration, finder: BallFinder | None = None) -> None:
        self.cal = cal
        self.finder = finder or BallFinder(cal)
        self.last: tuple[float, float, float] | None = None  # t_ms, px, py
        self.v = (0.0, 0.0)  # px per ms
        self.missed = 0

    def update(self, t_ms: float, bgr: np.ndarray) -> TrackPoint:
        seen = None
        if self.last is not None and self.missed <= BRIDGE_FRAMES:
            t0, px, py = self.last
            dt = t_ms - t0
            guess = (px + self.v[0] * dt, py + self.v[1] * dt)
            speed = math.hypot(*self.v) * dt
            reach = 3 * self.finder.r_px + 6 + 0.5 * speed + 4 * self.missed
            seen = self.finder.find(bgr, guess, reach)
        if seen is None and (self.last is None or self.missed >= BRIDGE_FRAMES):
            seen = self.finder.find(bgr)  # lost: the whole frame (never while bridging: a
            # disc's edge blending into the cloth can look like a ball somewhere else)
        if seen is None:
            self.missed += 1
            return TrackPoint(t_ms, None, None, 0.0)
        if self.last is not None and t_ms > self.last[0]:
            dt = t_ms - self.last[0]
            nv = ((seen.px - self.last[1]) / dt, (seen.py - self.last[2]) / dt)
            self.v = nv if self.missed == 0 else (0.5 * nv[0], 0.5 * nv[1])
        self.last, self.missed = (t_ms, seen.px, seen.py), 0
        x, y = self.cal.to_field(seen.px, seen.py)
        return TrackPoint(t_ms, x, y, seen.confidence)
