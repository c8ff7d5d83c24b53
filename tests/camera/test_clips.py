"""Clips in the record: a goal-line event gets the clip around it, written by the capture
process beside the event log as H.264 in MP4, and a ``clip`` entry in the match's log with
its span and sha256, so the hash chain covers it and ``futmesa verify`` checks the file."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import av

from futmesa import verify
from futmesa.camera.faults import CAMERA_LOST
from futmesa.camera.record import clip_dir
from futmesa.store import EventLog

from .helpers import camera_running, clip_of, small, wait_for


def goal_line(store: EventLog, match_id: int, at_ms: float) -> int:
    return store.append_entry(match_id, "device", "goal_line", {"goal": 1}, 1, 60_000,
                              "dev", occurred_at=at_ms)


def test_a_goal_line_event_gets_its_clip_in_the_log_and_verify_checks_it(
        log_with_match: tuple[EventLog, int, Path]) -> None:
    store, match_id, db = log_with_match
    with camera_running("sim", small(), db, store) as (cam, _):
        wait_for(lambda: cam.shared[4] > 0 and cam.working, what="frames in the ring")
        wait_for(lambda: cam.stats()["ring_frames"] >= 25, what="2.5 s of frames")
        import time

        at = time.time() * 1000
        shown = goal_line(store, match_id, at)
        clip = clip_of(cam, shown)
    assert "absent" not in clip, clip
    entries = {e.id: e for e in store.entries(match_id)}
    stored = entries[clip["entry"]]
    assert (stored.kind, stored.source) == ("clip", "camera")
    assert stored.data["shows"] == shown and stored.data["format"] == "mp4/h264"
    # its span: 2 s before the moment, 1 s after (the settings), as the frames were stamped
    assert at - 2000 <= stored.data["from_ms"] <= at - 1500
    assert at + 800 <= stored.data["to_ms"] <= at + 1000
    path = clip_dir(db) / stored.data["file"]
    with av.open(str(path)) as f:
        v = f.streams.video[0]
        assert v.codec_context.name == "h264" and v.codec_context.pix_fmt == "yuv420p"
        assert (v.codec_context.width, v.codec_context.height) == (320, 180)
        decoded = sum(1 for _ in f.decode(v))
    assert decoded == stored.data["frames"] >= 25
    # the truth of each frame kept beside: the simulated ball's field position
    assert clip["truth"] and len(clip["truth"]) == decoded
    assert store.chain_check(match_id).ok
    ok, lines = verify.verify_db(db)
    assert ok, lines
    assert "1 vídeo(s) conferido(s)" in lines[0] or "1 clip(s) checked" in lines[0], lines
    # an altered clip is caught
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF
    path.write_bytes(bytes(data))
    ok, lines = verify.verify_db(db)
    assert not ok, lines
    # an absent one is said, not an error
    path.unlink()
    ok, lines = verify.verify_db(db)
    assert ok, lines


def test_a_dead_camera_costs_the_goal_its_clip_only_and_comes_back(
        log_with_match: tuple[EventLog, int, Path]) -> None:
    store, match_id, db = log_with_match
    with camera_running("sim", small(), db, store, restart_s=0.5) as (cam, health):
        wait_for(lambda: cam.working, what="frames")
        pid = cam.stats()["pid"]
        os.kill(pid, signal.SIGKILL)
        wait_for(lambda: CAMERA_LOST in health.faults, what="the fault")
        import time

        shown = goal_line(store, match_id, time.time() * 1000)
        clip = clip_of(cam, shown)
        assert clip["absent"] == "camera_lost"  # the clip's absence, said in the log
        wait_for(lambda: cam.working and cam.stats()["pid"] != pid, what="a new capture")
        wait_for(lambda: CAMERA_LOST not in health.faults, what="the fault cleared")
    assert health.history[:2] == ["+camera_lost", "-camera_lost"]
    assert store.chain_check(match_id).ok
