"""The simulated camera draws real frames of the field, and knows where it drew the ball."""

from __future__ import annotations

import numpy as np

from futmesa.camera.simcam import FIELD_MM, SimCamera


def test_the_ball_is_where_the_truth_says() -> None:
    cam = SimCamera(320, 180)
    moved = 0
    last = None
    for i in range(60):  # 6 s at 10 fps
        img, truth = cam.frame(i / 10)
        assert img.shape == (180, 320, 3) and img.dtype == np.uint8
        if truth.on_field:
            b, g, r = (int(v) for v in img[cam.to_px(truth.x_mm, truth.y_mm)[::-1]])
            assert r > 200 and g > 180 and b < 120, (i, truth, (b, g, r))  # the yellow ball
        if last is not None and (truth.x_mm, truth.y_mm) != last:
            moved += 1
        last = (truth.x_mm, truth.y_mm)
    assert moved > 40  # the ball moves as the match goes on


def test_a_goal_cue_sends_the_ball_into_that_goal() -> None:
    cam = SimCamera(320, 180, seed=3)
    for end in (0, 1):
        t = 0.0
        cam.frame(t)
        cam.ball.cue("goal", end, "end")
        while cam.ball.held_until_s < 0 and t < 3:
            t += 0.1
            _img, truth = cam.frame(t)
        assert not truth.on_field
        assert (truth.x_mm < 0) if end == 0 else (truth.x_mm > FIELD_MM[0])
        assert abs(truth.y_mm - FIELD_MM[1] / 2) < 60  # between the posts
        for _ in range(15):  # held a moment, then back in play at the centre
            t += 0.1
            _img, truth = cam.frame(t)
        assert truth.on_field


def test_the_areas_are_drawn_to_the_rule_measures() -> None:
    """003 Art. 4 a, b: the small area 30 × 11 cm, the big 60 × 30 cm, centred on the goal."""
    from futmesa.camera.field import BIG_AREA_MM, SMALL_AREA_MM

    cam = SimCamera(1280, 720)
    length, width = FIELD_MM

    def white(x: float, y: float) -> bool:
        b, g, r = (int(v) for v in cam.base[cam.to_px(x, y)[::-1]])
        return min(b, g, r) > 180

    for along, depth in (SMALL_AREA_MM, BIG_AREA_MM):
        for x in (depth, length - depth):
            assert white(x, width / 2 + along / 2 - 20)  # the front line
            assert not white(x + 12, width / 2) and not white(x - 12, width / 2)
        assert white(depth / 2, width / 2 + along / 2)  # a side line
