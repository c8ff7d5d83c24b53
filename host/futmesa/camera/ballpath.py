"""The judge: from the ball's track over a clip's span, the facts the referee is asked today.

``judge_clip(frames, cal)`` runs the tracker over a clip's frames; ``judge_track(points)``
rules on a track of ``TrackPoint`` (t_ms, x_mm, y_mm | None). The answers, in field terms
(``field.py``: half 0 is goal line 0's side; the match's ``ends`` map makes it a team
elsewhere):

- ``left_field``: where the ball wholly passed a side or end line (000 Art. 12's reading): the
  line, the half by x, the spot where its path crossed the line (along a side line: x; along
  an end line: y), the time;
- ``stopped``: where it came to rest on the field, and in which area: the small, the big or
  none, a ball touching an area's line being in it (000 Art. 20), and of which end;
- ``crossed_midline``: it was wholly in one half and later wholly in the other (000 Art. 13 §5:
  on the line it is in neither);
- ``reached_goal_line``: it touched a goal line (its end), between the posts or not (003 Art. 6).

Gaps of a few frames (a disc over the ball) are bridged by the straight line between the
sightings either side; ``confidence`` is the share of the span's frames the ball was seen in,
weighted by how sure each sighting was.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np

from futmesa.camera.ballfinder import BallTracker, TrackPoint
from futmesa.camera.calibration import Calibration
from futmesa.camera.field import (
    BALL_R,
    FIELD_MM,
    area_of,
    half_of,
    in_mouth,
    wholly_in_half,
    wholly_out,
)

BRIDGE_MS = 400.0  # the longest gap bridged by a straight line
STILL_MM_S = 25.0  # slower than this over STILL_MS: the ball has stopped
STILL_MS = 200.0
Point3 = tuple[float, float, float]  # t_ms, x_mm, y_mm


@dataclass(frozen=True)
class Exit:
    """Where the ball left the field."""

    line: str  # "side" | "end"
    half: int  # 0 | 1, by x where it crossed
    along_mm: float  # along the line: x on a side line, y on an end line
    x_mm: float
    y_mm: float
    t_ms: float


@dataclass(frozen=True)
class Stop:
    """Where the ball came to rest on the field."""

    area: str | None  # "small" | "big" | None
    end: int  # the area's end; with no area, the half it rests in
    x_mm: float
    y_mm: float


@dataclass(frozen=True)
class GoalReach:
    """The ball touched a goal line: its end, and whether between the posts."""

    end: int
    in_mouth: bool


@dataclass(frozen=True)
class BallPath:
    """What the track shows; every field None/False when it does not show it."""

    left_field: Exit | None
    stopped: Stop | None
    crossed_midline: bool
    reached_goal_line: GoalReach | None
    confidence: float
    points: tuple[TrackPoint, ...] = field(default=(), repr=False)


def bridged(points: Sequence[TrackPoint]) -> list[tuple[float, float, float]]:
    """(t, x, y) for every frame seen, and for gaps up to BRIDGE_MS between two sightings."""
    seen = [p for p in points if p.x_mm is not None and p.y_mm is not None]
    out: list[tuple[float, float, float]] = []
    for a, b in zip(seen, seen[1:], strict=False):
        out.append((a.t_ms, a.x_mm, a.y_mm))  # type: ignore[arg-type]
        if b.t_ms - a.t_ms > BRIDGE_MS:
            continue
        for p in points:
            if a.t_ms < p.t_ms < b.t_ms:
                f = (p.t_ms - a.t_ms) / (b.t_ms - a.t_ms)
                out.append((p.t_ms, a.x_mm + f * (b.x_mm - a.x_mm),  # type: ignore[operator]
                            a.y_mm + f * (b.y_mm - a.y_mm)))  # type: ignore[operator]
    if seen:
        out.append((seen[-1].t_ms, seen[-1].x_mm, seen[-1].y_mm))  # type: ignore[arg-type]
    return sorted(set(out))


def _crossing(a: tuple[float, float, float], b: tuple[float, float, float],
              pad: float = 0.0) -> Exit:
    """The spot where the segment a→b passes the field's edge (the line it leaves by), or,
    with ``pad``, that edge moved out by ``pad`` (where the ball is wholly over the line)."""
    length, width = FIELD_MM
    (ta, xa, ya), (tb, xb, yb) = a, b
    best: tuple[float, str] | None = None
    for line, va, vb, edge in (("end", xa, xb, -pad), ("end", xa, xb, length + pad),
                               ("side", ya, yb, -pad), ("side", ya, yb, width + pad)):
        if (va - edge) * (vb - edge) < 0 or (vb == edge != va):
            f = (edge - va) / (vb - va)
            if best is None or f < best[0]:
                best = (f, line)
    f, line = best if best else (1.0, "side" if min(yb, width - yb) < min(xb, length - xb)
                                 else "end")
    x, y, t = xa + f * (xb - xa), ya + f * (yb - ya), ta + f * (tb - ta)
    return Exit(line, half_of(x), round(x if line == "side" else y, 1), round(x, 1),
                round(y, 1), round(t))


def _left(path: list[Point3]) -> tuple[Exit | None, list[Point3]]:
    """The exit, and the path while the ball was in play: up to where it was wholly out."""
    length, width = FIELD_MM
    for i, (_t, x, y) in enumerate(path):
        if wholly_out(x, y):
            j = i
            while j > 0 and not (0 <= path[j - 1][1] <= length and 0 <= path[j - 1][2] <= width):
                j -= 1  # back to the last sample on the field
            exit_ = _crossing(path[max(j - 1, 0)], path[j] if j > 0 else path[i])
            if i == 0:
                return exit_, []
            gone = _crossing(path[i - 1], path[i], BALL_R)  # where it became wholly out
            return exit_, [*path[:i], (gone.t_ms, gone.x_mm, gone.y_mm)]
    return None, list(path)


def _stopped(path: list[tuple[float, float, float]]) -> Stop | None:
    """The rest at the end of the span, when the ball is still and on the field."""
    if not path:
        return None
    t_end, x, y = path[-1]
    # the frames of the last STILL_MS and the one before them: at 15 fps the frame 200 ms back
    # is often 200.1 ms back, and three frames then span only 133 ms (a ball at rest in the
    # small area read "not stopped" 4 runs in 5)
    first = next((i for i, p in enumerate(path) if p[0] >= t_end - STILL_MS), len(path) - 1)
    calm = path[max(0, first - 1):]
    if t_end - calm[0][0] < STILL_MS * 0.75 or len(calm) < 3:
        return None
    xs, ys = np.array([p[1] for p in calm]), np.array([p[2] for p in calm])
    drift = float(np.hypot(xs.max() - xs.min(), ys.max() - ys.min()))
    if drift > STILL_MM_S * STILL_MS / 1000 + 3 or wholly_out(x, y):
        return None
    x, y = float(np.median(xs)), float(np.median(ys))
    area, end = area_of(x, y)
    return Stop(area, end, round(x, 1), round(y, 1))


def _crossed(path: list[tuple[float, float, float]]) -> bool:
    first: int | None = None
    for _t, x, _y in path:
        half = wholly_in_half(x)
        if half is None:
            continue
        if first is None:
            first = half
        elif half != first:
            return True
    return False


def _goal_line(path: list[tuple[float, float, float]], exit_: Exit | None) -> GoalReach | None:
    length = FIELD_MM[0]
    if exit_ is not None and exit_.line == "end":
        return GoalReach(exit_.half, in_mouth(exit_.along_mm))
    for _t, x, y in path:
        for end, dist in ((0, x), (1, length - x)):
            if dist <= BALL_R and 0 <= y <= FIELD_MM[1]:
                return GoalReach(end, in_mouth(y))
    return None


def judge_track(points: Sequence[TrackPoint]) -> BallPath:
    """Rule on a track (one point per frame of the span, None where the ball was not seen)."""
    path = bridged(points)
    exit_, on_field = _left(path)  # in play until wholly over the line (000 Art. 12)
    stop = None if exit_ else _stopped(path)
    seen = [p.confidence for p in points if p.x_mm is not None]
    confidence = round(sum(seen) / len(points), 3) if points else 0.0
    return BallPath(exit_, stop, _crossed(on_field), _goal_line(on_field, exit_), confidence,
                    tuple(points))


def judge_clip(frames: Iterable[tuple[float, np.ndarray]], cal: Calibration) -> BallPath:
    """Track the ball over a clip's frames ((t_ms, BGR) in time order) and rule on its path."""
    tracker = BallTracker(cal)
    return judge_track([tracker.update(t_ms, bgr) for t_ms, bgr in frames])
