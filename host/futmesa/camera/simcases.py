"""Scripted outs and stops for the ball path's bench and tests, each with its known truth.

A case is a straight roll of the simulated ball (``SimBall.roll``) from a spot on the field to
a target where it stops: over a side line; over an end line beside the goal; into the goal;
to rest just inside or just outside an area's line; on a field line without wholly passing
it; just past the midline or short of it. The hard ones are near the lines: a target is 2 to
25 mm from the edge of the decision (the line plus the ball's radius, ``field.py``). Half of
them get a disc over the ball's edge where it ends (2 to 6 mm of its 11 mm hidden), some a
disc over its path (hidden a few frames). The truth is ruled with the same ``field.py`` on the
roll's exact path, finely sampled.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator
from dataclasses import dataclass, field

import numpy as np

from futmesa.camera.ballfinder import TrackPoint
from futmesa.camera.ballpath import BallPath, Exit, GoalReach, Stop, judge_track
from futmesa.camera.field import (
    BALL_R,
    BIG_AREA_MM,
    FIELD_MM,
    GOAL_MM,
    SMALL_AREA_MM,
)
from futmesa.camera.simcam import DISC_MM, Look, Roll, SimCamera

KINDS = ("side_out", "end_out", "goal", "area", "on_line", "midline")
LENGTH, WIDTH = FIELD_MM


@dataclass
class Case:
    """One scripted roll and what it truly shows."""

    kind: str
    roll: Roll
    hiders: list[tuple[float, float]] = field(default_factory=list)
    truth: BallPath | None = None

    @property
    def span_s(self) -> float:
        return self.roll.t0_s + self.roll.duration_s + 0.45


def _target(kind: str, rng: random.Random) -> tuple[float, float]:
    m = rng.uniform(2.0, 25.0)  # how far from the edge of the decision
    side = rng.random() < 0.5
    if kind == "side_out":
        return rng.uniform(60, LENGTH - 60), (-BALL_R - min(m, 22) if side else WIDTH + BALL_R + m)
    if kind in ("end_out", "goal"):
        if kind == "goal":
            y = WIDTH / 2 + rng.uniform(-1, 1) * (GOAL_MM / 2 - 10)
        else:
            y = WIDTH / 2 + rng.choice((-1, 1)) * rng.uniform(GOAL_MM / 2 + 10, WIDTH / 2 - 40)
        return (-BALL_R - m if side else LENGTH + BALL_R + m), y
    if kind == "on_line":  # partly over a line, not wholly: still on the field
        over = rng.uniform(-20, BALL_R - 2)  # the centre this far past the line
        if rng.random() < 0.5:
            return rng.uniform(60, LENGTH - 60), (-over if side else WIDTH + over)
        y = WIDTH / 2 + rng.choice((-1, 1)) * rng.uniform(GOAL_MM / 2 + 10, WIDTH / 2 - 40)
        return (-over if side else LENGTH + over), y
    if kind == "midline":
        x = LENGTH / 2 + rng.choice((-1, 1)) * (BALL_R + m if rng.random() < 0.5
                                                 else rng.uniform(-20, BALL_R - 2))
        return x, rng.uniform(40, WIDTH - 40)
    along, depth = SMALL_AREA_MM if rng.random() < 0.5 else BIG_AREA_MM
    d = m if rng.random() < 0.5 else -m  # + outside, − inside
    if rng.random() < 0.6:  # by the area's front line
        x = depth + BALL_R + d
        y = WIDTH / 2 + rng.uniform(-along / 2 + 10, along / 2 - 10)
    else:  # by one of its side lines
        x = rng.uniform(15, depth - 10)
        y = WIDTH / 2 + rng.choice((-1, 1)) * (along / 2 + BALL_R + d)
    return (x, y) if side else (LENGTH - x, y)


def _start(tx: float, ty: float, kind: str, rng: random.Random) -> tuple[float, float]:
    cx, cy = min(max(tx, 80), LENGTH - 80), min(max(ty, 80), WIDTH - 80)
    while True:
        ang, d = rng.uniform(0, 2 * math.pi), rng.uniform(180, 550)
        x, y = cx + d * math.cos(ang), cy + d * math.sin(ang)
        if not (60 <= x <= LENGTH - 60 and 60 <= y <= WIDTH - 60):
            continue
        if kind == "midline" and (x < LENGTH / 2) == (tx < LENGTH / 2):
            if rng.random() < 0.5:
                continue  # most midline cases come from the other half
        return x, y


def truth_of(roll: Roll) -> BallPath:
    """The facts of the roll's exact path (sampled every ~0.5 mm), by field.py's rules."""
    n = max(2, int(math.hypot(roll.tx - roll.x0, roll.ty - roll.y0) * 2))
    pts = [TrackPoint(i, roll.x0 + (roll.tx - roll.x0) * i / n, roll.y0 + (roll.ty - roll.y0)
                      * i / n, 1.0) for i in range(n + 1)]
    pts += [TrackPoint(n + k * 50, roll.tx, roll.ty, 1.0) for k in range(1, 6)]  # at rest
    return judge_track(pts)


def _disc_clear(cam: SimCamera, x: float, y: float, t_s: float) -> bool:
    return all(math.hypot(x - dx, y - dy) > DISC_MM / 2 + BALL_R + 3
               for _s, dx, dy in cam._discs(t_s))


def make_cases(n: int, seed: int = 46) -> list[Case]:
    """``n`` cases, the kinds in turn, hiders on about half."""
    rng = random.Random(seed)
    probe = SimCamera(320, 180)
    cases: list[Case] = []
    while len(cases) < n:
        kind = KINDS[len(cases) % len(KINDS)]
        tx, ty = _target(kind, rng)
        x0, y0 = _start(tx, ty, kind, rng)
        t0 = 0.15
        d = math.hypot(tx - x0, ty - y0)
        roll = Roll(x0, y0, tx, ty, t0, 2 * d / rng.uniform(0.5, 1.1))
        end_s = t0 + roll.duration_s
        if not _disc_clear(probe, tx, ty, end_s + 0.45) or not _disc_clear(probe, x0, y0, 0):
            continue
        hiders = []
        if rng.random() < 0.5:  # a disc over the ball's edge where it ends, beside its path
            a = math.atan2(ty - y0, tx - x0) + rng.choice((-1, 1)) * rng.uniform(1.2, 1.9)
            hide = rng.uniform(2.0, 6.0)
            r = DISC_MM / 2 + BALL_R - hide
            hiders.append((tx + r * math.cos(a), ty + r * math.sin(a)))
        if rng.random() < 0.25:  # a disc over its path: hidden a few frames
            f = rng.uniform(0.3, 0.6)
            hiders.append((x0 + f * (tx - x0), y0 + f * (ty - y0)))
        cases.append(Case(kind, roll, hiders, truth_of(roll)))
    return cases


def frames(case: Case, width: int, height: int, fps: int = 30,
           look: Look | None = None) -> Iterator[tuple[float, np.ndarray]]:
    """The case filmed by the simulated camera made hard: (t_ms, BGR) per frame."""
    look = look or Look(hiders=case.hiders, seed=int(case.roll.x0 * 7) % 1000)
    cam = SimCamera(width, height, look=look)
    cam.ball.script = case.roll
    for i in range(int(case.span_s * fps) + 1):
        t = i / fps
        img, _truth = cam.frame(t)
        yield t * 1000, img


def decisions(truth: BallPath, got: BallPath) -> dict[str, bool]:
    """Right or wrong, per decision the referee is asked."""
    return {
        "line": _exit_key(truth.left_field) == _exit_key(got.left_field),
        "area": _stop_key(truth.stopped) == _stop_key(got.stopped),
        "midline": truth.crossed_midline == got.crossed_midline,
        "goal_line": _goal_key(truth.reached_goal_line) == _goal_key(got.reached_goal_line),
    }


def _exit_key(e: Exit | None) -> tuple[str, int] | None:
    return None if e is None else (e.line, e.half)


def _stop_key(s: Stop | None) -> tuple[str | None, int | None] | None:
    return None if s is None else (s.area, s.end if s.area else None)


def _goal_key(g: GoalReach | None) -> tuple[int, bool] | None:
    return None if g is None else (g.end, g.in_mouth)
