"""Camera bench (issue 46 §6): the capture process's CPU share at 720p30 and 480p30 beside a
decode-only baseline, its memory, and the time from a goal event to a playable clip.

The camera is a video file of the simulated camera's frames (MJPEG, as a USB camera sends
them), read at its frame rate: the baseline process only decodes it (what reading any camera
costs); the capture process decodes it, JPEG-encodes each frame into the ring and keeps it.
CPU share is the process's user+system time over the window (/proc/PID/stat), in % of one
core. Memory: the ring's bytes (capped by ring_max_mib) and the process's resident set. Goal
→ clip: a goal-line entry put in a real event log, until the camera's ``clip`` entry is in
it (the clip covers ``clip_after_s`` after the goal, so that much is waiting by design; the
time past the span's end is printed beside), with its baseline: the time to decode the clip's
frames once, whole, in the bench's own process right after (a yardstick of how busy the
machine is then), and the ratio of the time past the span's end to it. The clip's bytes (and
per second) are printed for the disk (docs/camera.md, "The disk"). ``--quick`` (make test):
320×180 at 10 fps for 3 s, one short clip.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import cv2

from futmesa.camera.record import clip_dir
from futmesa.camera.service import CameraService
from futmesa.camera.settings import CameraSettings, camera_settings
from futmesa.camera.simcam import SimCamera
from futmesa.store import EventLog

TICK = os.sysconf("SC_CLK_TCK")


def cpu_s(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK  # utime + stime


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def make_video(path: Path, width: int, height: int, fps: int, seconds: float) -> None:
    cam = SimCamera(width, height)
    out = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), fps, (width, height))
    for i in range(int(seconds * fps)):
        out.write(cam.frame(i / fps)[0])
    out.release()


def decode_only(path: str, fps: int, seconds: float, reading: Any) -> None:
    """The baseline: read the camera at its rate, do nothing with the frames."""
    cap = cv2.VideoCapture(path)
    reading.set()
    due = time.monotonic()
    end = due + seconds
    while time.monotonic() < end:
        due += 1 / fps
        ok, _frame = cap.read()
        if not ok:
            break
        time.sleep(max(0.0, due - time.monotonic()))


def decode_baseline(path: Path, frames: int) -> float:
    """Seconds to decode ``frames`` frames of the camera's file once, whole (no pacing)."""
    cap = cv2.VideoCapture(str(path))
    t0 = time.perf_counter()
    for _ in range(frames):
        if not cap.read()[0]:
            break
    took = time.perf_counter() - t0
    cap.release()
    return took


def measure(pid: int, warm_s: float, window_s: float) -> float:
    time.sleep(warm_s)
    c0, t0 = cpu_s(pid), time.monotonic()
    time.sleep(window_s)
    return 100 * (cpu_s(pid) - c0) / (time.monotonic() - t0)


def baseline_share(video: Path, fps: int, warm_s: float, window_s: float) -> float:
    ctx = mp.get_context("spawn")
    reading = ctx.Event()
    proc = ctx.Process(target=decode_only, args=(str(video), fps, warm_s + window_s + 1, reading))
    proc.start()
    try:
        reading.wait(60)  # measured from its first frame, not while it starts
        return measure(proc.pid, warm_s, window_s)
    finally:
        proc.join(timeout=window_s + 10)


def capture_run(video: Path, settings: CameraSettings, warm_s: float, window_s: float,
                tmp: Path) -> dict[str, Any]:
    store = EventLog(tmp / f"bench-{settings.height}.sqlite")
    match_id = store.new_match("BENCH", "cbfm-1toque", {})
    cam = CameraService(str(video), settings, store.path, store)
    cam.start()
    try:
        deadline = time.monotonic() + 60
        while not cam.working:
            assert time.monotonic() < deadline, "the capture never delivered a frame"
            time.sleep(0.05)
        share = measure(cam.stats()["pid"], warm_s, window_s)
        stats, rss = cam.stats(), rss_mib(cam.stats()["pid"])
        at = time.time() * 1000
        store.append_entry(match_id, "device", "goal_line", {"goal": 0}, 1, 0, "bench",
                           occurred_at=at)
        while not cam.written:
            assert time.monotonic() < deadline + 120, "no clip"
            time.sleep(0.01)
        done_s = (time.time() * 1000 - at) / 1000
        clip = cam.written[0]
    finally:
        cam.stop()
        store.close()
    assert "sha256" in clip, f"the clip was not made: {clip}"
    span_s = (clip["to_ms"] - clip["from_ms"]) / 1000
    return {"share": share, "stats": stats, "rss": rss, "goal_to_clip_s": done_s,
            "after_span_s": done_s - settings.clip_after_s, "frames": clip["frames"],
            "baseline_s": decode_baseline(video, clip["frames"]),
            "bytes": (clip_dir(store.path) / clip["file"]).stat().st_size, "span_s": span_s}


def run(label: str, width: int, height: int, fps: int, warm_s: float, window_s: float,
        clip: tuple[float, float], tmp: Path) -> None:
    video = tmp / f"camera-{height}.avi"
    make_video(video, width, height, fps, warm_s + window_s + clip[1] + 25)
    settings = camera_settings(width=width, height=height, fps=fps, clip_before_s=clip[0],
                               clip_after_s=clip[1], stall_s=3)
    base = baseline_share(video, fps, warm_s, window_s)
    got = capture_run(video, settings, warm_s, window_s, tmp)
    s = got["stats"]
    frame_kib = s["ring_bytes"] / max(1, s["ring_frames"]) / 1024
    full_mib = frame_kib * fps * settings.ring_seconds / 1024
    print(f"  {label} ({width}×{height} at {fps} fps):")
    print(f"    CPU, % of one core: capture {got['share']:.1f} % beside decode-only {base:.1f} %"
          f" (the capture's own work: {got['share'] - base:.1f} %)")
    print(f"    frames: read {s['read']:.0f}, kept {s['kept']:.0f}, dropped {s['dropped']:.0f}")
    print(f"    memory: ring {s['ring_bytes'] / 2**20:.1f} MiB for {s['ring_frames']:.0f} frames "
          f"({frame_kib:.0f} KiB a frame; 30 s would be {full_mib:.0f} MiB, cap "
          f"{settings.ring_max_mib} MiB); process resident {got['rss']:.0f} MiB")
    print(f"    goal → playable clip ({clip[0]:g} s + {clip[1]:g} s, {got['frames']} frames, "
          f"{settings.clip_height}p): {got['goal_to_clip_s']:.2f} s, "
          f"{got['after_span_s']:.2f} s past the span's end")
    print(f"    baseline: decoding the clip's {got['frames']} frames once, whole, here and now: "
          f"{got['baseline_s']:.2f} s; past the span's end / baseline: "
          f"{got['after_span_s'] / max(got['baseline_s'], 1e-3):.2f}")
    per_s = got["bytes"] / 1024 / max(got["span_s"], 0.1)
    load = " ".join(Path("/proc/loadavg").read_text().split()[:3])
    print(f"    clip file: {got['bytes'] / 1024:.0f} KiB ({per_s:.0f} KiB a second of video); "
          f"load average now {load} (a shared machine)")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true",
                    help="a short run (make test): 320×180 at 10 fps, 3 s, one short clip")
    args = ap.parse_args()
    print("futmesa camera benchmark (simulated camera frames as an MJPEG file)")
    with tempfile.TemporaryDirectory(prefix="futmesa-cambench-") as d:
        tmp = Path(d)
        if args.quick:
            run("quick", 320, 180, 10, 1.0, 3.0, (2.0, 0.5), tmp)
            return 0
        run("720p30", 1280, 720, 30, 3.0, 15.0, (8.0, 2.0), tmp)
        run("480p30", 854, 480, 30, 3.0, 15.0, (8.0, 2.0), tmp)
    return 0


if __name__ == "__main__":
    sys.exit(main())
