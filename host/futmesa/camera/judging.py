"""The capture process's "judge" request (issue 46 §5): the ring's full-size frames of a span,
decoded, judged by the ball's path with the saved calibration, as plain facts the server maps
to the engine's pending question (``matchbook/proposals.py``). The camera knows no rules.
"""

from __future__ import annotations

import math
from dataclasses import asdict
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from futmesa.camera.ballpath import BallPath, judge_clip
from futmesa.camera.calibration import load_calibration
from futmesa.camera.ring import Frame
from futmesa.camera.settings import CameraError

EXIT_MARGIN_MS = 150.0  # a ball out's confidence: its path up to this long after the exit


def judge_frames(frames: list[Frame], cal_path: str | Path) -> dict[str, Any]:
    """The ball's path over ``frames`` (the ring's JPEGs, in time order) as a dict of
    ``BallPath``'s fields plus ``field_mm`` and ``travel_mm``; for a ball that left the
    field, ``confidence`` is the share of the frames up to its exit it was seen in
    (``span_confidence``: the whole span's); ``{"absent": "no_calibration"}`` without a usable
    calibration, ``{"absent": "no_frames"}`` with nothing to judge."""
    try:
        cal = load_calibration(cal_path)
    except CameraError:
        return {"absent": "no_calibration"}
    decoded = [(f.wall_ms, cv2.imdecode(np.frombuffer(f.data, np.uint8), cv2.IMREAD_COLOR))
               for f in frames]
    decoded = [(t, img) for t, img in decoded if img is not None]
    if not decoded:
        return {"absent": "no_frames"}
    height, width = decoded[0][1].shape[:2]
    if (width, height) != (cal.data.width, cal.data.height):
        cal = cal.scaled(width, height)
    path = judge_clip(decoded, cal)
    facts = asdict(path)
    facts.pop("points", None)
    facts["field_mm"] = list(cal.field_mm)
    facts["span_confidence"] = path.confidence
    facts["confidence"] = proposal_confidence(path)
    facts["travel_mm"] = travel_mm(path)
    return facts


def travel_mm(path: BallPath) -> float:
    """How far the ball went from where it was first seen in the span (a restart "short of
    the midline" must first have been kicked)."""
    seen = [(p.x_mm, p.y_mm) for p in path.points if p.x_mm is not None and p.y_mm is not None]
    if not seen:
        return 0.0
    x0, y0 = seen[0]
    return round(max(math.hypot(x - x0, y - y0) for x, y in seen), 1)


def proposal_confidence(path: BallPath) -> float:
    """The confidence a proposal is weighed by: the span's, or, for a ball that left the
    field, the share of the frames up to EXIT_MARGIN_MS past its exit it was seen in (what
    counts is the path to the exit, not the ball off the field or put back at the centre)."""
    if path.left_field is None:
        return path.confidence
    before = [p for p in path.points if p.t_ms <= path.left_field.t_ms + EXIT_MARGIN_MS]
    if not before:
        return path.confidence
    seen = sum(p.confidence for p in before if p.x_mm is not None)
    return round(seen / len(before), 3)
