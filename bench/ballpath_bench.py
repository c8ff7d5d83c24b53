"""Ball path bench (issue 46 §5): the judge's decisions against the simulated camera's truth.

Scripted outs and stops (``futmesa.camera.simcases``: over a side line, over an end line
beside the goal, into the goal, to rest just inside or outside an area's line, on a field line
without wholly passing it, just past the midline or short of it — 2 to 25 mm from the edge of
each decision), filmed by the simulated camera made hard (uneven light, sensor noise, a disc
over the ball's edge on about half, over its path on a quarter) at 1280×720 and 854×480, 30 fps.
Each clip goes through the tracker and the judge as ``judge_clip`` runs them. Printed: the share
of right decisions (the line left by and its half, over every case; the area stopped in and its
end, over the cases that stop on the field; the midline; the goal line and the mouth), the
spot's error along the line in % of the field's length (median, 95th percentile), and the
finder's milliseconds per frame beside a baseline (``cv2.cvtColor`` BGR→grey of the same frame)
and their ratio. The proposal's confidence threshold (``matchbook/proposals.MIN_CONFIDENCE``):
for each threshold, the proposals made (every decision of the case right, or not) and the
abstentions, at each size and on the clip's own picture (640×360, 15 fps: the hardest the
camera judges). A judged span's cost on the capture process (``camera/judging.py``): the
first cases' frames as the ring's JPEGs (quality 80), decoded and judged by ``judge_clip``, in
ms per judged span (3.5 s, 105 frames at 30 fps) beside the decode alone. ``--quick`` (make
test): 24 cases at each size. A wrong count of cases measured exits 1.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter

import cv2
import numpy as np

from futmesa.camera import simcases
from futmesa.camera.ballfinder import BallTracker
from futmesa.camera.ballpath import judge_clip, judge_track
from futmesa.camera.calibration import from_sim
from futmesa.camera.field import FIELD_MM
from futmesa.camera.judging import proposal_confidence
from futmesa.camera.simcam import SimCamera

SIZES = (("720p", 1280, 720, 30), ("480p", 854, 480, 30))
CLIP = ("the clip's 360p", 640, 360, 15)
THRESHOLDS = (0.0, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7)
SPAN_FRAMES = 105  # a judged span: 1.5 s before the event to the clip's end, 2 s after, 30 fps
SPAN_CASES = 24  # the cases whose frames are JPEG-encoded for the span's cost


def film(case: simcases.Case, width: int, height: int, cal: object,
         times: dict[str, list[float]], fps: int = 30) -> simcases.BallPath:
    tracker = BallTracker(cal)  # type: ignore[arg-type]
    points = []
    for t_ms, img in simcases.frames(case, width, height, fps):
        t0 = time.perf_counter()
        points.append(tracker.update(t_ms, img))
        t1 = time.perf_counter()
        cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
        t2 = time.perf_counter()
        times["finder"].append((t1 - t0) * 1000)
        times["base"].append((t2 - t1) * 1000)
    return judge_track(points)


def pct(values: list[float], q: float) -> float:
    return float(np.percentile(values, q)) if values else float("nan")


def asserted_right(truth: simcases.BallPath, got: simcases.BallPath) -> bool:
    """Every fact the camera would propose is right: the line left by and the area stopped
    in when it says one (saying none is proposing nothing), the midline, the goal line."""
    told = simcases.decisions(truth, got)
    if got.left_field is None:
        told.pop("line")
    if got.stopped is None:
        told.pop("area")
    return all(told.values())


def sweep(label: str, judged: list[tuple[float, bool]]) -> None:
    """Right decisions among the proposals made, and abstentions, per threshold."""
    print(f"    confidence threshold ({label}; a case's proposals are right when every fact "
          f"the camera states is):")
    for th in THRESHOLDS:
        made = [ok for conf, ok in judged if conf >= th]
        held = [ok for conf, ok in judged if conf < th]
        print(f"      {th:.1f}: {len(made)} proposed, {sum(made)} right "
              f"({100 * sum(made) / max(1, len(made)):.1f} %); {len(held)} abstained "
              f"({sum(held)} of them right)")


def span_cost(label: str, width: int, height: int, cases: list[simcases.Case]) -> None:
    """A judged span's CPU: the ring's JPEGs decoded and judged (judging.py's work)."""
    cal = from_sim(SimCamera(width, height))
    decode_ms = judge_ms = 0.0
    frames = 0
    for case in cases[:SPAN_CASES]:
        ring = [(t, cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 80])[1])
                for t, img in simcases.frames(case, width, height)]
        t0 = time.perf_counter()
        decoded = [(t, cv2.imdecode(jpg, cv2.IMREAD_COLOR)) for t, jpg in ring]
        t1 = time.perf_counter()
        judge_clip(decoded, cal)
        t2 = time.perf_counter()
        decode_ms += (t1 - t0) * 1000
        judge_ms += (t2 - t1) * 1000
        frames += len(ring)
    d, j = decode_ms / frames * SPAN_FRAMES, judge_ms / frames * SPAN_FRAMES
    print(f"    judged span ({label}, {SPAN_FRAMES} frames, from {frames} ring frames): "
          f"{d + j:.0f} ms of one core (decoding the JPEGs {d:.0f} ms + judge_clip {j:.0f} ms)"
          f", {(d + j) / d:.1f}× the decode alone")


def run(label: str, width: int, height: int, cases: list[simcases.Case], fps: int = 30) -> int:
    cal = from_sim(SimCamera(width, height))
    right: Counter[str] = Counter()
    asked: Counter[str] = Counter()
    spot: list[float] = []
    times: dict[str, list[float]] = {"finder": [], "base": []}
    wrong: list[str] = []
    measured = 0
    judged: list[tuple[float, bool]] = []
    t0 = time.monotonic()
    for n, case in enumerate(cases):
        got = film(case, width, height, cal, times, fps)
        truth = case.truth
        assert truth is not None
        measured += 1
        told = simcases.decisions(truth, got)
        judged.append((proposal_confidence(got), asserted_right(truth, got)))
        for name, ok in told.items():
            if name == "area" and truth.stopped is None:
                continue
            asked[name] += 1
            right[name] += ok
            if not ok and len(wrong) < 8:
                wrong.append(f"case {n} {case.kind} {name}: truth {truth} got {got}")
        if truth.left_field and got.left_field:
            spot.append(abs(got.left_field.along_mm - truth.left_field.along_mm)
                        / FIELD_MM[0] * 100)
    f, b = statistics.mean(times["finder"]), statistics.mean(times["base"])
    print(f"  {label} ({width}×{height}, {fps} fps): {measured} cases, "
          f"{len(times['finder'])} frames, {time.monotonic() - t0:.0f} s")
    for name, words in (("line", "line left by (side/end, half)"),
                        ("area", "area stopped in (small/big/none, end)"),
                        ("midline", "midline crossed or not"),
                        ("goal_line", "goal line reached (end, in the mouth)")):
        share = 100 * right[name] / max(1, asked[name])
        print(f"    {words}: {right[name]}/{asked[name]} right ({share:.1f} %)")
    print(f"    spot along the line, error in % of the field's length ({len(spot)} outs): "
          f"median {pct(spot, 50):.2f} %, 95th pct {pct(spot, 95):.2f} %, max "
          f"{max(spot, default=float('nan')):.2f} %")
    print(f"    finder: {f:.2f} ms a frame (95th pct {pct(times['finder'], 95):.2f} ms) beside "
          f"cvtColor BGR→grey {b:.2f} ms: {f / b:.1f}×")
    for line in wrong:
        print(f"    wrong: {line}")
    sweep(label, judged)
    if fps == 30:
        span_cost(label, width, height, cases)
    if measured != len(cases):
        print(f"    measured {measured} cases of {len(cases)}")
        return 1
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="24 cases at each size (make test)")
    ap.add_argument("--cases", type=int, default=504, help="cases at each size (default 504)")
    ap.add_argument("--seed", type=int, default=46)
    args = ap.parse_args()
    n = 24 if args.quick else args.cases
    cases = simcases.make_cases(n, args.seed)
    if len(cases) != n:
        print(f"made {len(cases)} cases of {n}")
        return 1
    kinds = Counter(c.kind for c in cases)
    hidden = sum(1 for c in cases if c.hiders)
    print(f"futmesa ball path benchmark: {n} scripted cases at each size "
          f"({', '.join(f'{k} {v}' for k, v in sorted(kinds.items()))}; {hidden} with a disc "
          f"over the ball), uneven light and sensor noise")
    failed = 0
    for label, width, height, fps in (*SIZES, CLIP):
        failed |= run(label, width, height, cases, fps)
    return failed


if __name__ == "__main__":
    sys.exit(main())
