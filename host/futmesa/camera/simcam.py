"""The simulated camera: the simulated table's field seen from above, as real frames.

Field lines, areas, goals, the two teams' discs and the ball, drawn with numpy and OpenCV
at the camera's size. The ball moves on its own between events (a lance kicks it towards a
spot, the cloth slows it, the walls return it) and is steered by the table's events as the
camera service passes them on (``cue``): a goal-line event sends it into that goal, a ball
out over the line the event names. Every frame carries its truth: where the ball really is,
in field millimetres, so a test (and later the ball finder) is checked against a known path.

The field, its areas, goals and the ball are drawn to the rule documents' measures
(``field.py``: 003 Arts. 3, 4, 6, 11), the same numbers the ball path's judge rules by.

Made hard on request (``Look``): uneven light (a gradient across the table, a vignette, a
brighter spot under the lamp), sensor noise, and discs drawn over the ball's edge. A scripted
roll (``SimBall.roll``) drives the ball from a spot to a target where it stops (or over a
line), with a known truth: the outs and stops the ball path's bench measures.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field

import cv2
import numpy as np

from futmesa.camera.field import (
    BALL_MM,
    BIG_AREA_MM,
    CENTRE_CIRCLE_MM,
    FIELD_MM,
    GOAL_MM,
    SMALL_AREA_MM,
)

__all__ = ["BALL_MM", "FIELD_MM", "GOAL_MM", "Look", "SimBall", "SimCamera", "Truth"]
DISC_MM = 40.0
OUT_MM = 40.0  # how far past a line a ball out rolls (to the table's edge) before it lies still
BALL_BGR = (40, 220, 250)  # a yellow ball (003 Art. 11 §2: white or yellow)
MARGIN = 0.06  # of the picture, around the field (the table's wall and a little floor)
COLORS = {"A": (46, 16, 200), "B": (40, 40, 40)}  # BGR: the demo's red and black teams


@dataclass(frozen=True)
class Truth:
    """Where the simulated ball is in one frame (field mm) and whether it is on the field."""

    x_mm: float
    y_mm: float
    on_field: bool


@dataclass
class Look:
    """What makes the picture hard: uneven light, sensor noise, discs over the ball's edge."""

    light: bool = True
    noise: float = 6.0  # the sensor noise's standard deviation, in grey levels
    hiders: list[tuple[float, float]] = field(default_factory=list)  # discs drawn over all (mm)
    seed: int = 46
    exposure_ms: float = 8.0  # a moving ball smears over the exposure (1/125 s)


@dataclass(frozen=True)
class Roll:
    """A scripted roll: from (x0, y0) at t0 straight to (tx, ty), slowing evenly to a stop."""

    x0: float
    y0: float
    tx: float
    ty: float
    t0_s: float
    speed: float  # mm/s at the start

    @property
    def duration_s(self) -> float:
        return 2 * math.hypot(self.tx - self.x0, self.ty - self.y0) / self.speed

    def at(self, t_s: float) -> tuple[float, float]:
        d = math.hypot(self.tx - self.x0, self.ty - self.y0)
        if d == 0:
            return self.x0, self.y0
        tau = min(max(t_s - self.t0_s, 0.0), self.duration_s)
        s = self.speed * tau - self.speed / self.duration_s * tau * tau / 2
        return self.x0 + (self.tx - self.x0) * s / d, self.y0 + (self.ty - self.y0) * s / d


class SimBall:
    """The ball's path: kicks, rolling friction, the walls; steered by cues, or scripted."""

    def __init__(self, seed: int = 46) -> None:
        self.rng = random.Random(seed)
        self.x, self.y = FIELD_MM[0] / 2, FIELD_MM[1] / 2
        self.vx = self.vy = 0.0
        self.next_kick_s = 0.5
        self.held_until_s = -1.0  # in a goal or out: held there a moment, then back in play
        self.script: Roll | None = None
        self.rest_at: tuple[float, float] | None = None  # steered to rest there (``rest``)

    def roll(self, x0: float, y0: float, tx: float, ty: float, t0_s: float,
             speed: float) -> Roll:
        """Script the ball: from (x0, y0) at ``t0_s`` to a stop at (tx, ty), wherever that is."""
        self.script = Roll(x0, y0, tx, ty, t0_s, speed)
        self.x, self.y = x0, y0
        return self.script

    def cue(self, kind: str, end: int | None = None, line: str = "side") -> None:
        """A table event: ``goal`` into the goal of ``end``; ``out`` over a side line (in half
        ``end``) or over goal line ``end``'s end line; ``rest`` (a test's steer): to a stop in
        goal line ``end``'s small or big area (``line``), where it stays until the next cue."""
        length, width = FIELD_MM
        self.rest_at = None
        if kind == "rest":
            # inside the small area (110 deep, 300 wide) clear of the goalkeeper's disc, or
            # the big one's (300 deep) clear of the small
            depth, off = (80.0, 120.0) if line == "small" else (200.0, 60.0)
            self.rest_at = (depth if end == 0 else length - depth, width / 2 + off)
            self.next_kick_s = math.inf
            return
        if kind == "goal":
            tx, ty = (-30.0 if end == 0 else length + 30.0), width / 2
        elif line == "end":
            tx = -40.0 if end == 0 else length + 40.0
            ty = self.rng.choice((width * 0.2, width * 0.8))
        else:  # over a side line in the half the sensor's zone is on (its `end`)
            lo, hi = ((100.0, length / 2 - 100.0) if end == 0 else
                      (length / 2 + 100.0, length - 100.0) if end == 1 else
                      (100.0, length - 100.0))
            tx = min(max(self.x, lo), hi)
            ty = -40.0 if self.y < width / 2 else width + 40.0
        self._kick_to(tx, ty, speed=2400.0)
        self.next_kick_s = math.inf  # it goes where the event says, not elsewhere

    def _kick_to(self, tx: float, ty: float, speed: float) -> None:
        dx, dy = tx - self.x, ty - self.y
        d = math.hypot(dx, dy) or 1.0
        self.vx, self.vy = dx / d * speed, dy / d * speed

    def step(self, t_s: float, dt: float) -> Truth:
        length, width = FIELD_MM
        if self.script is not None:
            self.x, self.y = self.script.at(t_s)
            return Truth(self.x, self.y, 0 <= self.x <= length and 0 <= self.y <= width)
        on = 0 <= self.x <= length and 0 <= self.y <= width
        if not on:
            if self.held_until_s < 0:
                self.held_until_s = t_s + 1.0
            elif t_s >= self.held_until_s:  # back in play at the centre
                self.x, self.y, self.held_until_s = length / 2, width / 2, -1.0
                self.vx = self.vy = 0.0
                self.next_kick_s = t_s + 0.3
                return Truth(self.x, self.y, True)
            # it rolls on past the line to the table's edge (OUT_MM beyond), then lies there
            self.x = min(max(self.x + self.vx * dt, -OUT_MM), length + OUT_MM)
            self.y = min(max(self.y + self.vy * dt, -OUT_MM), width + OUT_MM)
            if self.x in (-OUT_MM, length + OUT_MM) or self.y in (-OUT_MM, width + OUT_MM):
                self.vx = self.vy = 0.0
            return Truth(self.x, self.y, 0 <= self.x <= length and 0 <= self.y <= width)
        if self.rest_at is not None:  # rolls there at 450 mm/s (a 360p tracker keeps it) and stays
            rx, ry = self.rest_at
            d = math.hypot(rx - self.x, ry - self.y)
            f = min(1.0, 450.0 * dt / d) if d else 1.0
            self.x, self.y = self.x + f * (rx - self.x), self.y + f * (ry - self.y)
            self.vx = self.vy = 0.0
            return Truth(self.x, self.y, True)
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

    def __init__(self, width: int, height: int, seed: int = 46, look: Look | None = None) -> None:
        self.width, self.height = width, height
        self.ball = SimBall(seed)
        self.look = look
        self.scale = min(width * (1 - 2 * MARGIN) / FIELD_MM[0],
                         height * (1 - 2 * MARGIN) / FIELD_MM[1])  # px per mm
        self.ox = (width - FIELD_MM[0] * self.scale) / 2
        self.oy = (height - FIELD_MM[1] * self.scale) / 2
        self.base = self._draw_field()
        self.last_t: float | None = None
        self.gain, self.noise = self._light_and_noise(look) if look else (None, [])

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
        cv2.circle(img, self.to_px(length / 2, width / 2), self._px(CENTRE_CIRCLE_MM / 2), white,
                   line)
        for x0, sign in ((0.0, 1), (length, -1)):
            for along, depth in (BIG_AREA_MM, SMALL_AREA_MM):
                cv2.rectangle(img, self.to_px(x0, width / 2 - along / 2),
                              self.to_px(x0 + sign * depth, width / 2 + along / 2), white, line)
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

    def _light_and_noise(self, look: Look) -> tuple[np.ndarray | None, list[np.ndarray]]:
        """The light's gain (x128, per pixel) and a few frames of signed sensor noise."""
        gain = None
        if look.light:
            yy, xx = np.mgrid[0:self.height, 0:self.width].astype(np.float32)
            u, v = xx / self.width, yy / self.height
            g = 0.6 + 0.45 * u  # a window on one side: 0.6 to 1.05 across the table
            g *= 1 - 0.35 * ((u - 0.5) ** 2 + (v - 0.5) ** 2) * 2  # the lens's vignette
            g += 0.45 * np.exp(-(((u - 0.62) / 0.12) ** 2 + ((v - 0.4) / 0.16) ** 2))  # the lamp
            gain = cv2.merge([np.clip(g * 128, 0, 255).astype(np.uint8)] * 3)
        rng = np.random.default_rng(look.seed)
        noise = [rng.normal(0, look.noise, (self.height, self.width, 3)).astype(np.int16)
                 for _ in range(4)] if look.noise > 0 else []
        return gain, [(np.clip(n, 0, 255).astype(np.uint8), np.clip(-n, 0, 255).astype(np.uint8))
                      for n in noise]

    def frame(self, t_s: float) -> tuple[np.ndarray, Truth]:
        dt = 0.0 if self.last_t is None else max(0.0, min(t_s - self.last_t, 0.2))
        self.last_t = t_s
        truth = self.ball.step(t_s, dt)
        img = self.base.copy()
        hard = self.look is not None
        if not hard:
            self._draw_discs(img, t_s)
        self._draw_ball(img, t_s, truth)
        if hard:  # a disc's top hides the ball's edge, seen from a camera not quite above
            self._draw_discs(img, t_s)
            for n, (x, y) in enumerate(self.look.hiders):
                cv2.circle(img, self.to_px(x, y), self._px(DISC_MM / 2), COLORS["AB"[n % 2]], -1,
                           cv2.LINE_AA)
        cv2.putText(img, f"{t_s:9.2f}", (8, self.height - 8), cv2.FONT_HERSHEY_SIMPLEX,
                    max(0.3, self.height / 900), (220, 220, 220), 1, cv2.LINE_AA)
        if self.gain is not None:
            img = cv2.multiply(img, self.gain, scale=1 / 128)
        if self.noise:
            up, down = self.noise[int(t_s * 1000) % len(self.noise)]
            img = cv2.subtract(cv2.add(img, up), down)
        return img, truth

    def _ball_spots(self, t_s: float, truth: Truth) -> list[tuple[float, float]]:
        """Where the ball is over the exposure, centred on the frame's time (one spot: still)."""
        e = self.look.exposure_ms / 1000 if self.look else 0.0
        ball = self.ball
        if e <= 0 or (ball.script is None and ball.vx == ball.vy == 0):
            return [(truth.x_mm, truth.y_mm)]
        offsets = [e * (i / 6 - 0.5) for i in range(7)]
        if ball.script is not None:
            return [ball.script.at(t_s + o) for o in offsets]
        return [(truth.x_mm + ball.vx * o, truth.y_mm + ball.vy * o) for o in offsets]

    def _draw_ball(self, img: np.ndarray, t_s: float, truth: Truth) -> None:
        """The ball drawn to 1/16 px (the truth exact), smeared over the exposure when moving."""
        radius = max(16, round(BALL_MM / 2 * self.scale * 16))
        spots = [(self.ox + x * self.scale, self.oy + y * self.scale)
                 for x, y in self._ball_spots(t_s, truth)]
        if len({(round(x, 1), round(y, 1)) for x, y in spots}) == 1:
            x, y = spots[0]
            cv2.circle(img, (round(x * 16), round(y * 16)), radius, BALL_BGR, -1, cv2.LINE_AA, 4)
            return
        pad = radius // 16 + 3
        x0 = max(0, int(min(x for x, _ in spots)) - pad)
        y0 = max(0, int(min(y for _, y in spots)) - pad)
        x1 = min(self.width, int(max(x for x, _ in spots)) + pad + 1)
        y1 = min(self.height, int(max(y for _, y in spots)) + pad + 1)
        if x1 <= x0 or y1 <= y0:
            return
        under = img[y0:y1, x0:x1].copy()
        acc = np.zeros(under.shape, np.float32)
        for x, y in spots:
            layer = under.copy()
            cv2.circle(layer, (round((x - x0) * 16), round((y - y0) * 16)), radius, BALL_BGR,
                       -1, cv2.LINE_AA, 4)
            acc += layer
        img[y0:y1, x0:x1] = (acc / len(spots) + 0.5).astype(np.uint8)

    def _draw_discs(self, img: np.ndarray, t_s: float) -> None:
        for side, x, y in self._discs(t_s):
            cv2.circle(img, self.to_px(x, y), self._px(DISC_MM / 2), COLORS[side], -1,
                       cv2.LINE_AA)
