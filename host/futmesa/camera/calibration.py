"""The camera's calibration: the field's four corners in the picture → field millimetres.

The corners are given in picture pixels in this order (the field frame of ``simcam.FIELD_MM``:
x along the length from goal line 0, y across the width from side line 0):

    0: goal line 0 / side 0  → (0, 0)
    1: goal line 1 / side 0  → (length, 0)
    2: goal line 1 / side 1  → (length, width)
    3: goal line 0 / side 1  → (0, width)

A homography (``cv2.getPerspectiveTransform``) maps a pixel to the field (``to_field``) and
back (``to_px``). A person or the phone writes the corners to ``<log name>-camera-calibration.json``
beside the event log (``futmesa.sqlite`` → ``futmesa-camera-calibration.json``); a bad file is
refused in one line that says what to do. ArUco markers are not used (they need
opencv-contrib, which futmesa does not install).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from futmesa.camera.settings import CameraError
from futmesa.camera.simcam import FIELD_MM, SimCamera
from futmesa.i18n import N_, _

Point = tuple[float, float]
REASONS = (N_("two corners are the same point"),
           N_("the corners do not go round the field in order"),
           N_("the corners enclose almost nothing"))


class CalibrationFile(BaseModel):
    """What ``…-camera-calibration.json`` holds: the picture's size and the four corners."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    width: int = Field(ge=16, le=7680)
    height: int = Field(ge=16, le=4320)
    corners: tuple[Point, Point, Point, Point]
    field_mm: Point = FIELD_MM

    @field_validator("corners")
    @classmethod
    def _a_real_quadrilateral(cls, corners: tuple[Point, ...]) -> tuple[Point, ...]:
        pts = np.array(corners, np.float64)
        if len({(round(x, 3), round(y, 3)) for x, y in corners}) < 4:
            raise ValueError("two corners are the same point")
        signs = []
        for i in range(4):
            (ax, ay), (bx, by), (cx, cy) = pts[i], pts[(i + 1) % 4], pts[(i + 2) % 4]
            signs.append((bx - ax) * (cy - by) - (by - ay) * (cx - bx))
        if not (all(s > 0 for s in signs) or all(s < 0 for s in signs)):
            raise ValueError("the corners do not go round the field in order")
        if cv2.contourArea(pts.astype(np.float32)) < 100:
            raise ValueError("the corners enclose almost nothing")
        return corners


def calibration_path(db_path: str | Path) -> Path:
    """The calibration of ``futmesa.sqlite`` is ``futmesa-camera-calibration.json`` beside it."""
    db = Path(db_path)
    return db.parent / f"{db.stem}-camera-calibration.json"


class Calibration:
    """Pixels ↔ field millimetres for one camera picture."""

    def __init__(self, data: CalibrationFile) -> None:
        self.data = data
        length, width = data.field_mm
        src = np.array(data.corners, np.float32)
        dst = np.array([(0, 0), (length, 0), (length, width), (0, width)], np.float32)
        self.to_field_m = cv2.getPerspectiveTransform(src, dst)
        self.to_px_m = cv2.getPerspectiveTransform(dst, src)

    @property
    def field_mm(self) -> Point:
        return self.data.field_mm

    @staticmethod
    def _apply(m: np.ndarray, x: float, y: float) -> Point:
        u, v, w = m @ np.array([x, y, 1.0])
        return float(u / w), float(v / w)

    def to_field(self, px: float, py: float) -> Point:
        """A picture pixel → (x_mm, y_mm) on the field's plane."""
        return self._apply(self.to_field_m, px, py)

    def to_px(self, x_mm: float, y_mm: float) -> Point:
        """A field point (mm) → its picture pixel (not rounded)."""
        return self._apply(self.to_px_m, x_mm, y_mm)

    def mm_per_px(self, px: float, py: float) -> float:
        """The field's scale near a pixel (mm one pixel spans there)."""
        x0, y0 = self.to_field(px, py)
        x1, y1 = self.to_field(px + 1, py)
        return float(np.hypot(x1 - x0, y1 - y0))

    def scaled(self, width: int, height: int) -> Calibration:
        """The same camera's calibration for its picture at another size (a clip's 360p)."""
        fx, fy = width / self.data.width, height / self.data.height
        corners = tuple((x * fx, y * fy) for x, y in self.data.corners)
        return Calibration(CalibrationFile(width=width, height=height, corners=corners,
                                           field_mm=self.data.field_mm))  # type: ignore[arg-type]

    def to_json(self) -> str:
        return self.data.model_dump_json(indent=2)

    def save(self, path: str | Path) -> None:
        Path(path).write_text(self.to_json() + "\n", encoding="utf-8")


def calibration(data: dict[str, Any]) -> Calibration:
    """A validated calibration; CameraError in one line that says what to do."""
    try:
        return Calibration(CalibrationFile(**data))
    except ValidationError as exc:
        err = exc.errors()[0]
        key = ".".join(str(p) for p in err.get("loc", ())) or "calibration"
        msg = str(err.get("msg", ""))
        why = next((_(w) for w in REASONS if w in msg), _("not the expected value"))
        if err.get("type") == "extra_forbidden":
            why = _("no such field")
        raise CameraError(_("camera calibration: '{key}' is not valid ({why}); tap the field's "
                            "four corners again in order: goal line 0 side 0, goal line 1 "
                            "side 0, goal line 1 side 1, goal line 0 side 1").format(
                                key=key, why=why)) from None
    except TypeError:
        raise CameraError(_("camera calibration: the file must be one JSON object with width, "
                            "height and corners; tap the field's four corners again")) from None


def load_calibration(path: str | Path) -> Calibration:
    """Read a calibration file; CameraError in one line when it cannot be used."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise CameraError(_("camera calibration {path} not found: tap the field's four corners "
                            "on the phone first").format(path=path)) from None
    except (ValueError, UnicodeDecodeError):
        raise CameraError(_("camera calibration {path} is not JSON: tap the field's four "
                            "corners again").format(path=path)) from None
    if not isinstance(data, dict):
        raise CameraError(_("camera calibration: the file must be one JSON object with width, "
                            "height and corners; tap the field's four corners again"))
    return calibration(data)


def from_sim(camera: SimCamera) -> Calibration:
    """The simulated camera's exact corners (its pixel centres, not rounded)."""
    length, width = FIELD_MM
    corners = tuple((camera.ox + x * camera.scale, camera.oy + y * camera.scale)
                    for x, y in ((0, 0), (length, 0), (length, width), (0, width)))
    return Calibration(CalibrationFile(width=camera.width, height=camera.height,
                                       corners=corners, field_mm=FIELD_MM))  # type: ignore[arg-type]
