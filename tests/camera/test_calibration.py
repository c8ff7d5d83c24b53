"""The calibration maps the picture to the field and back; a bad file is refused in one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from futmesa.camera.calibration import calibration, calibration_path, from_sim, load_calibration
from futmesa.camera.settings import CameraError
from futmesa.camera.simcam import FIELD_MM, SimCamera


def test_the_simulated_corners_map_to_the_field_and_back(tmp_path: Path) -> None:
    cam = SimCamera(1280, 720)
    cal = from_sim(cam)
    length, width = FIELD_MM
    for x, y in ((0, 0), (length, width), (length / 2, width / 2), (300.0, 900.0)):
        px = cam.to_px(x, y)
        fx, fy = cal.to_field(*px)
        assert abs(fx - x) < 1.2 and abs(fy - y) < 1.2, (x, y, fx, fy)  # under one pixel
        bx, by = cal.to_px(fx, fy)
        assert abs(bx - px[0]) < 1e-6 and abs(by - px[1]) < 1e-6
    path = calibration_path(tmp_path / "futmesa.sqlite")
    assert path.name == "futmesa-camera-calibration.json"
    cal.save(path)
    again = load_calibration(path)
    assert again.to_field(640, 360) == pytest.approx(cal.to_field(640, 360))


def test_a_tilted_camera_is_undone() -> None:
    corners = [(100.0, 80.0), (1180.0, 120.0), (1120.0, 690.0), (160.0, 640.0)]
    cal = calibration({"width": 1280, "height": 720, "corners": corners})
    length, width = FIELD_MM
    field = ((0, 0), (length, 0), (length, width), (0, width))
    for (px, py), (x, y) in zip(corners, field, strict=True):
        fx, fy = cal.to_field(px, py)
        assert abs(fx - x) < 1e-3 and abs(fy - y) < 1e-3


@pytest.mark.parametrize("data, words", [
    ({"width": 1280, "height": 720, "corners": [[0, 0], [10, 0], [10, 10]]}, "corners"),
    ({"width": 1280, "height": 720,
      "corners": [[0, 0], [1000, 600], [1000, 0], [0, 600]]}, "in order"),
    ({"width": 1280, "height": 720, "corners": [[0, 0], [0, 0], [9, 9], [0, 9]]}, "same point"),
    ({"width": 1280, "height": 720, "corners": [[0, 0], [99, 0], [99, 99], [0, 99]], "x": 1},
     "'x'"),
])
def test_a_bad_calibration_is_refused_in_one_line(data: dict, words: str, english: None) -> None:
    with pytest.raises(CameraError) as err:
        calibration(data)
    text = str(err.value)
    assert "\n" not in text and words in text and "corners" in text, text


def test_a_broken_file_is_refused_in_one_line(tmp_path: Path, english: None) -> None:
    path = tmp_path / "futmesa-camera-calibration.json"
    path.write_text("{not json")
    with pytest.raises(CameraError, match="JSON"):
        load_calibration(path)
    path.write_text(json.dumps([1, 2]))
    with pytest.raises(CameraError, match="JSON object"):
        load_calibration(path)
    with pytest.raises(CameraError, match="not found"):
        load_calibration(tmp_path / "none.json")


def test_the_refusal_speaks_portuguese() -> None:
    with pytest.raises(CameraError, match="quatro cantos do campo nesta ordem"):
        calibration({"width": 1280, "height": 720, "corners": [[0, 0], [0, 0], [9, 9], [0, 9]]})


def test_a_calibration_scales_with_the_picture() -> None:
    cam = SimCamera(1280, 720)
    small = from_sim(cam).scaled(640, 360)
    x, y = cam.to_px(400.0, 700.0)
    fx, fy = small.to_field(x / 2, y / 2)
    assert abs(fx - 400) < 1.5 and abs(fy - 700) < 1.5
