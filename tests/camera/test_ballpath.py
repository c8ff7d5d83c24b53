"""The ball finder, the tracker and the judge: on frames of the simulated camera made hard,
and on scripted tracks whose answers the rules give (000 Arts. 12, 13 §5, 20; 003 Art. 4)."""

from __future__ import annotations

import math

import pytest

from futmesa.camera import simcases
from futmesa.camera.ballfinder import BallFinder, TrackPoint
from futmesa.camera.ballpath import judge_clip, judge_track
from futmesa.camera.calibration import from_sim
from futmesa.camera.field import BALL_R, FIELD_MM, SMALL_AREA_MM
from futmesa.camera.simcam import DISC_MM, Look, SimCamera

LENGTH, WIDTH = FIELD_MM


def _still(x: float, y: float) -> list[TrackPoint]:
    return [TrackPoint(1000 + 33 * i, x, y, 1.0) for i in range(10)]


def _line(a: tuple[float, float], b: tuple[float, float], n: int = 20) -> list[TrackPoint]:
    return [TrackPoint(33 * i, a[0] + (b[0] - a[0]) * i / n, a[1] + (b[1] - a[1]) * i / n, 1.0)
            for i in range(n + 1)]


@pytest.mark.parametrize("hide_mm", [0.0, 3.0, 5.0])
def test_the_finder_sees_a_ball_a_disc_half_hides(hide_mm: float) -> None:
    x, y = 500.0, 300.0
    hiders = [(x + DISC_MM / 2 + BALL_R - hide_mm, y)] if hide_mm else []
    cam = SimCamera(1280, 720, look=Look(hiders=hiders))
    cam.ball.roll(x, y, x, y, 0.0, 1.0)
    img, truth = cam.frame(1.0)
    cal = from_sim(cam)
    seen = BallFinder(cal).find(img)
    assert seen is not None
    fx, fy = cal.to_field(seen.px, seen.py)
    assert math.hypot(fx - truth.x_mm, fy - truth.y_mm) < 1.5, (fx, fy, truth)
    if hide_mm >= 5:
        assert seen.confidence < 0.8  # it knows it saw only part of the ball


def test_a_ball_wholly_over_a_side_line_left_there() -> None:
    path = judge_track(_line((400, 900), (600, WIDTH + BALL_R + 4)) + _still(600, WIDTH + 9.5))
    out = path.left_field
    assert out is not None and out.line == "side" and out.half == 0
    crossing_x = 400 + 200 * (WIDTH - 900) / (WIDTH + BALL_R + 4 - 900)
    assert abs(out.along_mm - crossing_x) < 1.0
    assert path.stopped is None and not path.crossed_midline and path.reached_goal_line is None


def test_a_ball_on_the_line_is_still_in_play() -> None:
    path = judge_track(_line((400, 900), (600, WIDTH + BALL_R - 2)) + _still(600, WIDTH + 3.5))
    assert path.left_field is None
    assert path.stopped is not None and path.stopped.area is None


def test_an_end_line_beside_the_goal_and_a_goal() -> None:
    beside = judge_track(_line((1400, 300), (LENGTH + 20, 250)) + _still(LENGTH + 20, 250))
    assert beside.left_field is not None and beside.left_field.line == "end"
    assert beside.left_field.half == 1
    assert beside.reached_goal_line is not None and not beside.reached_goal_line.in_mouth
    goal = judge_track(_line((300, 500), (-20, WIDTH / 2)) + _still(-20, WIDTH / 2))
    assert goal.reached_goal_line is not None and goal.reached_goal_line.in_mouth
    assert goal.reached_goal_line.end == 0 and goal.left_field.half == 0  # type: ignore[union-attr]


def test_touching_the_small_area_line_is_in_it() -> None:
    depth = SMALL_AREA_MM[1]
    touching = judge_track(_line((500, 500), (depth + BALL_R - 1, 500)) + _still(
        depth + BALL_R - 1, 500))
    assert touching.stopped is not None and touching.stopped.area == "small"
    assert touching.stopped.end == 0
    clear = judge_track(_line((500, 500), (depth + BALL_R + 1, 500)) + _still(
        depth + BALL_R + 1, 500))
    assert clear.stopped is not None and clear.stopped.area == "big"


def test_the_midline_is_crossed_only_wholly() -> None:
    mid = LENGTH / 2
    on_it = judge_track(_line((500, 500), (mid + BALL_R - 1, 500)) + _still(mid + BALL_R - 1, 500))
    assert not on_it.crossed_midline
    past = judge_track(_line((500, 500), (mid + BALL_R + 1, 500)) + _still(mid + BALL_R + 1, 500))
    assert past.crossed_midline


def test_a_hidden_stretch_is_bridged() -> None:
    points = _line((400, 900), (600, WIDTH + 30))
    hidden = [TrackPoint(p.t_ms, None, None) if 10 <= i <= 16 else p for i, p in enumerate(points)]
    path = judge_track(hidden + _still(600, WIDTH + 30))
    assert path.left_field is not None and path.left_field.line == "side"
    assert path.confidence < 1


def test_the_judge_on_filmed_cases() -> None:
    cases = simcases.make_cases(6, seed=3)  # one of each kind
    cal = from_sim(SimCamera(854, 480))
    for case in cases:
        got = judge_clip(simcases.frames(case, 854, 480), cal)
        assert case.truth is not None
        assert all(simcases.decisions(case.truth, got).values()), (case.kind, case.truth, got)
        if case.truth.left_field:
            assert got.left_field is not None
            assert abs(got.left_field.along_mm - case.truth.left_field.along_mm) < 17


def test_past_the_midline_between_two_frames_then_out() -> None:
    """The last frame on the field is short of the midline, the next wholly out: the spot it
    crossed the side line at is past the midline, so it crossed it on the field."""
    mid = LENGTH / 2
    points = [TrackPoint(0, mid - 200, 100, 1.0), TrackPoint(33, mid - 100, 50, 1.0),
              TrackPoint(66, mid, 0 + 4, 1.0), TrackPoint(100, mid + 100, -46, 1.0)]
    path = judge_track(points + _still(mid + 100, -46))
    assert path.left_field is not None and path.left_field.half == 1
    assert path.crossed_midline


@pytest.mark.parametrize("fps", [10.0, 15.0, 30.0])
def test_a_ball_at_rest_is_stopped_at_any_frame_rate(fps: float) -> None:
    # at 15 fps the frames 200 ms back fall 0.1 ms outside the still window: a ball at rest
    # in a small area read "not stopped" 4 runs in 5 (the console's camera-proposal test)
    step = round(1000.0 / fps, 1) + 0.1  # a capture clock's frames: a little late, never early
    x, y = LENGTH - 80.0, WIDTH / 2
    still = [TrackPoint(5000 + step * i, x, y, 1.0) for i in range(int(fps))]
    stop = judge_track(still).stopped
    assert stop is not None and stop.area == "small" and stop.end == 1, stop
