"""The simulated camera: the simulated table's field seen from above, as real frames.

Field lines, areas, goals, the two teams' discs and the ball, drawn with numpy and OpenCV
at the camera's size. The ball moves on its own between events (a lance kicks it towards a
spot, the cloth slows it, the walls return it) and is steered by the table's events as the
camera service passes them on (``cue``): a goal-line event sends it into that goal, a ball
out over the line the event names. Every frame carries its truth: where the ball really is,
in field millimetres, so a test (and later the ball finder) is checked against a known path.

The field is the official 1.69 × 1.04 m with 11 cm goals (docs/hardware.md, 003 Arts. 2, 3);
the areas are drawn to scale closely enough for a picture, not for a ruling.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

import cv2
import numpy as np

FIELD_MM = (1690.0, 1040.0)  # length (goal line 0 at x=0, goal line 1 at x=length), width
GOAL_MM = 110.0
BALL_MM = 12.0
DISC_MM = 40.0
MARGIN = 0.06  # of the picture, around the field (the table's wall and a little floor)
COLORS = {"A": (46, 16, 200), "B": (40, 40, 40)}  # BGR: the demo's red and black teams


@dataclass(frozen=True)
class Truth:
    """Where the simulated ball is in one frame (field mm) and whether it is on the field."""

    x_mm: float
    y_mm: float
    on_field: bool


class SimBall:
    """The ball's path: kicks, rolling friction, the walls; steered by cues."""

    def __init__(self, seed: int = 46) -> None:
        self.rng = random.Random(seed)
        self.x, self.y = FIELD_MM[0] / 2, FIELD_MM[1] / 2
        self.vx = self.vy = 0.0
        self.next_kick_s = 0.5
        self.held_until_s = -1.0  # in a goal or out: held there a moment, then back in play

    def cue(self, kind: str, end: int | None = None, line: str = "side") -> None:
        """A table event: ``goal`` into the goal of ``end``; ``out`` over a side or end line."""
        length, width = FIELD_MM
        if kind == "goal":
            tx, ty = (-30.0 if end == 0 else length + 30.0), width / 2
        elif line == "end":
            tx = -40.0 if end == 0 else length + 40.0
            ty = self.rng.choice((width * 0.2, width * 0.8))
        else:
            tx = min(max(self.x, 100.0), length - 100.0)
            ty = -40.0 if self.y < width / 2 else width + 40.0
        self._kick_to(tx, ty, speed=2400.0)
        self.next_kick_s = math.inf  # it goes where the event says, not elsewhere

    def _kick_to(self, tx: float, ty: float, speed: float) -> None:
        dx, dy = tx - self.x, ty - self.y
        d = math.hypot(dx, dy) or 1.0
        self.vx, self.vy = dx / d * speed, dy / d * speed

    def step(self, t_s: float, dt: float) -> Truth:
        length, width = FIELD_MM
        on = 0 <= self.x <= length and 0 <= self.y <= width
        if not on:
            if self.held_until_s < 0:
                self.held_until_s = t_s + 1.0
                self.vx = self.vy = 0.0
            elif t_s >= self.held_until_s:  # back in play at the centre
                self.x, self.y, self.held_until_s = length / 2, width / 2, -1.0
                self.next_kick_s = t_s + 0.3
            return Truth(self.x, self.y, on)
        if t_s >= self.next_kick_s:
            self._kick_to(self.rng.uniform(150, length - 150), self.rng.uniform(120, width - 120),
                          speed=self.rng.uniform(500.0, 1400.0))
            self.next_kick_s = t_s + self.rng.uniform(1.0, 2.5)
        self.x += self.vx * dt
        self.y += self.vy * dt
        if self.next_kick_s != math.inf:  # a free ball stays on the field: the walls
            if not 0 <= self.x <= length:
                self.vx, self.x = -self.vx, min(max(self.x, 0.0), length)
            if not 0 <= self.y <= width:
                self.vy, self.y = -self.vy, min(max(self.y, 0.0), width)
        slow = math.exp(-0.9 * dt)  # the cloth
        self.vx, self.vy = self.vx * slow, self.vy * slow
        if self.next_kick_s == math.inf and math.hypot(self.vx, self.vy) < 200:
            self.next_kick_s = t_s + 0.5  # a cue that fell short: play on
        return Truth(self.x, self.y, 0 <= self.x <= length and 0 <= self.y <= width)


class SimCamera:
    """Frames of the simulated field at ``width`` × ``height``; ``frame(t_s)`` → (image, truth)."""

    def __init__(self, width: int, height: int, seed: int = 46) -> None:
        self.width, self.height = width, height
        self.ball = SimBall(seed)
        self.scale = min(width * (1 - 2 * MARGIN) / FIELD_MM[0],
                         height * (1 - 2 * MARGIN) / FIELD_MM[1])  # px per mm
        self.ox = (width - FIELD_MM[0] * self.scale) / 2
        self.oy = (height - FIELD_MM[1] * self.scale) / 2
        self.base = self._draw_field()
        self.last_t: float | None = None

    def to_px(self, x_mm: float, y_mm: float) -> tuple[int, int]:
        return round(self.ox + x_mm * self.scale), round(self.oy + y_mm * self.scale)

    def _px(self, mm: float) -> int:
        return max(1, round(mm * self.scale))

    def _draw_field(self) -> np.ndarray:
        img = np.full((self.height, self.width, 3), (60, 45, 35), np.uint8)  # wall, floor
        length, width = FIELD_MM
        white, line = (235, 235, 235), max(1, self._px(4))
        cv2.rectangle(img, self.to_px(0, 0), self.to_px(length, width), (60, 140, 40), -1)
        cv2.rectangle(img, self.to_px(0, 0), self.to_px(length, width), white, line)
        cv2.line(img, self.to_px(length / 2, 0), self.to_px(length / 2, width), white, line)
        cv2.circle(img, self.to_px(length / 2, width / 2), self._px(150), white, line)
        for x0, sign in ((0.0, 1), (length, -1)):
            for depth, half in ((260.0, 280.0), (90.0, 130.0)):  # big area, small area
                cv2.rectangle(img, self.to_px(x0, width / 2 - half),
                              self.to_px(x0 + sign * depth, width / 2 + half), white, line)
            cv2.rectangle(img, self.to_px(x0 - sign * 45, width / 2 - GOAL_MM / 2),
                          self.to_px(x0, width / 2 + GOAL_MM / 2), (210, 210, 210), -1)
        return img

    def _discs(self, t_s: float) -> list[tuple[str, float, float]]:
        length, width = FIELD_MM
        out = []
        for side, home in (("A", 0.0), ("B", length)):
            sign = 1 if home == 0 else -1
            rows = ((40, (0.5,)), (280, (0.25, 0.5, 0.75)), (560, (0.2, 0.4, 0.6, 0.8)),
                    (760, (0.35, 0.65)))
            for k, (depth, spots) in enumerate(rows):
                for j, f in enumerate(spots):
                    wob = 18 * math.sin(t_s * 0.7 + k * 1.3 + j + (0 if side == "A" else 2))
                    out.append((side, home + sign * depth, f * width + wob))
        return out

    def frame(self, t_s: float) -> tuple[np.ndarray, Truth]:
        dt = 0.0 if self.last_t is None else max(0.0, min(t_s - self.last_t, 0.2))
        self.last_t = t_s
        truth = self.ball.step(t_s, dt)
        img = self.base.copy()
        for side, x, y in self._discs(t_s):
            cv2.circle(img, self.to_px(x, y), self._px(DISC_MM / 2), COLORS[side], -1,
                       cv2.LINE_AA)
        cv2.circle(img, self.to_px(truth.x_mm, truth.y_mm), self._px(BALL_MM / 2) + 1,
                   (40, 220, 250), -1, cv2.LINE_AA)
        cv2.putText(img, f"{t_s:9.2f}", (8, self.height - 8), cv2.FONT_HERSHEY_SIMPLEX,
                    max(0.3, self.height / 900), (220, 220, 220), 1, cv2.LINE_AA)
        return img, truth
