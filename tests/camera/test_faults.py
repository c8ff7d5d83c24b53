"""The camera's faults on a real process tree, each a table fault in the club's words and the
match's log untouched but for the clip's absence: no camera at start, a frozen feed, a full
disk; and frames dropped, never queued, when the encoder falls behind."""

from __future__ import annotations

import multiprocessing as mp
import threading
import time
from contextlib import closing
from pathlib import Path

import cv2
import numpy as np
import pytest

from futmesa.camera import capture
from futmesa.camera import counters as C
from futmesa.camera.capture import Capture
from futmesa.camera.faults import CAMERA_DISK_FULL, CAMERA_FROZEN, CAMERA_LOST
from futmesa.camera.record import clip_dir
from futmesa.camera.source import FrameSource
from futmesa.store import EventLog
from futmesa_testkit.smalldisk import SmallDisk

from .helpers import camera_running, clip_of, small, wait_for


def goal(store: EventLog, match_id: int) -> int:
    return store.append_entry(match_id, "device", "goal_line", {"goal": 0}, 1, 1000, "dev",
                              occurred_at=time.time() * 1000)


def test_no_camera_at_start_is_a_fault_and_the_goal_says_its_clip_is_absent(
        log_with_match: tuple[EventLog, int, Path]) -> None:
    store, match_id, db = log_with_match
    with camera_running("/dev/video97", small(), db, store, restart_s=0.3) as (cam, health):
        wait_for(lambda: CAMERA_LOST in health.faults, what="the fault")
        wait_for(lambda: cam.restarts >= 2, what="tries again")
        assert "/dev/video97" in cam.last_error
        clip = clip_of(cam, goal(store, match_id))
    assert clip["absent"] == "camera_lost"
    assert health.faults[CAMERA_LOST].said("pt_BR").startswith("câmera desconectada")
    assert store.chain_check(match_id).ok


def test_a_frozen_feed_is_a_fault(log_with_match: tuple[EventLog, int, Path],
                                  tmp_path: Path) -> None:
    store, match_id, db = log_with_match
    still = tmp_path / "still.avi"  # a camera showing one picture, to the pixel
    out = cv2.VideoWriter(str(still), cv2.VideoWriter_fourcc(*"MJPG"), 10, (320, 180))
    frame = np.full((180, 320, 3), 90, np.uint8)
    for _ in range(200):
        out.write(frame)
    out.release()
    with camera_running(str(still), small(), db, store) as (cam, health):
        wait_for(lambda: cam.working, what="frames")
        wait_for(lambda: CAMERA_FROZEN in health.faults, what="the frozen fault")
    assert "congelada" in health.faults[CAMERA_FROZEN].said("pt_BR")


def test_a_full_disk_costs_the_clip_only_and_clears(
        log_with_match: tuple[EventLog, int, Path]) -> None:
    store, match_id, db = log_with_match
    try:
        disk = SmallDisk(clip_dir(db), size_mb=4)  # the clips' folder full, the log not
    except RuntimeError as exc:
        pytest.skip(str(exc))
    settings = small(clip_after_s=0.5)
    with closing(disk), camera_running("sim", settings, db, store) as (cam, health):
        wait_for(lambda: cam.stats()["ring_frames"] >= 20, what="frames")
        disk.fill()
        clip = clip_of(cam, goal(store, match_id))
        assert clip["absent"] == "camera_disk_full"
        assert CAMERA_DISK_FULL in health.faults
        assert not list(clip_dir(db).glob("*/*.part"))  # no torn file left
        disk.free()
        clip = clip_of(cam, goal(store, match_id))
        assert clip.get("sha256"), clip
        assert CAMERA_DISK_FULL not in health.faults
    assert store.chain_check(match_id).ok


def test_frames_are_dropped_never_queued_when_the_encoder_falls_behind(
        monkeypatch: pytest.MonkeyPatch) -> None:
    real = cv2.imencode

    def slow(*args: object, **kwargs: object) -> object:
        time.sleep(0.25)  # an encoder four times slower than the camera
        return real(*args, **kwargs)

    monkeypatch.setattr(capture.cv2, "imencode", slow)
    settings = small(fps=20)
    shared = mp.Array("d", C.COUNTERS)
    cap = Capture(FrameSource("sim", settings), settings, shared)
    worker = threading.Thread(target=cap.run, daemon=True)
    worker.start()
    try:
        wait_for(lambda: shared[C.READ] >= 40, what="2 s of frames")
    finally:
        cap.stopping.set()
        worker.join(timeout=5)
    read, kept, dropped = shared[C.READ], shared[C.KEPT], shared[C.DROPPED]
    assert dropped >= read * 0.6, C.as_dict(shared)
    assert kept + dropped <= read <= kept + dropped + 1  # each frame kept or dropped, none held
    stamps = [f.mono_ms for f in cap.ring.between(0, float("inf"))]
    assert stamps == sorted(stamps) and len(stamps) == kept
    newest = cap.ring.newest()
    assert newest is not None
    # each frame is on the match's timeline: monotonic + the wall clock's offset
    offset = time.time() * 1000 - time.monotonic() * 1000
    assert abs((newest.wall_ms - newest.mono_ms) - offset) < 50
