"""The disk over a championship day (docs/camera.md, "The disk"): every ball out gets a clip,
and the clips nobody cited are kept up to ``clips_keep_mib``, the oldest removed first; a
goal's clip and a clip an entry cites are always kept. A removed clip's entry stays in the log
with its sha256, and ``futmesa verify`` says the file is not on this computer — never that
it was altered."""

from __future__ import annotations

import hashlib
import os
import sqlite3
import time
from pathlib import Path

from futmesa import verify
from futmesa.camera.keeping import prune_clips
from futmesa.camera.record import CLIP_KIND, CLIP_SOURCE, clip_dir, clip_name
from futmesa.store import EventLog

from .helpers import camera_running, clip_of, small, wait_for

MIB = 2**20


def device(store: EventLog, match_id: int, kind: str) -> int:
    data = {"goal": 0} if kind == "goal_line" else {"end": 0, "line": "side"}
    return store.append_entry(match_id, "device", kind, data, 1, 1000, "dev",
                              occurred_at=time.time() * 1000)


def a_clip(store: EventLog, db: Path, match_id: int, shown: int, size: int) -> tuple[int, Path]:
    """A clip entry and its file (``size`` bytes), as the camera writes them."""
    name = clip_name(match_id, shown)
    path = clip_dir(db) / name
    path.parent.mkdir(parents=True, exist_ok=True)
    body = os.urandom(size)
    path.write_bytes(body)
    now = time.time() * 1000
    entry = store.append_entry(match_id, CLIP_SOURCE, CLIP_KIND, {
        "shows": shown, "from_ms": round(now - 8000), "to_ms": round(now), "file": name,
        "sha256": hashlib.sha256(body).hexdigest(), "frames": 300, "format": "mp4/h264"},
        1, 1000, "camera", occurred_at=now)
    return entry, path


def test_the_oldest_uncited_clips_go_first_goals_and_cited_ones_stay(
        log_with_match: tuple[EventLog, int, Path]) -> None:
    store, match_id, db = log_with_match
    _goal_clip, goal_file = a_clip(store, db, match_id, device(store, match_id, "goal_line"),
                                   MIB)
    outs = [a_clip(store, db, match_id, device(store, match_id, "ball_out"), MIB)
            for _ in range(6)]
    cited_id, cited_file = outs[0]  # the oldest ball out, cited by the referee's void
    store.append_entry(match_id, "referee", "void_goal", {"clip": cited_id}, 1, 2000, "ref")
    reader = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    gone = prune_clips(reader, db, 3 * MIB)  # room for three uncited clips
    reader.close()
    assert gone == [outs[1][1], outs[2][1]]  # the oldest uncited, the cited one skipped
    assert goal_file.is_file() and cited_file.is_file()
    assert all(path.is_file() for _id, path in outs[3:])
    ok, lines = verify.verify_db(db)
    assert ok, lines  # absent, not altered
    assert "2 clip(s) not on this computer" in lines[0] or "2 vídeo(s)" in lines[0], lines


def test_the_camera_keeps_its_disk_as_it_writes(
        log_with_match: tuple[EventLog, int, Path]) -> None:
    """Old uncited clips past the cap on disk; the next ball out's clip makes room."""
    store, match_id, db = log_with_match
    old = [a_clip(store, db, match_id, device(store, match_id, "ball_out"), 6 * MIB)[1]
           for _ in range(3)]
    with camera_running("sim", small(clips_keep_mib=16), db, store) as (cam, _health):
        wait_for(lambda: cam.stats()["ring_frames"] >= 25, what="2.5 s of frames")
        clip = clip_of(cam, device(store, match_id, "ball_out"))
        assert "sha256" in clip, clip
        wait_for(lambda: not old[0].is_file(), what="the oldest uncited clip removed")
    assert old[1].is_file() and old[2].is_file()  # 12 MiB and the new clip: under 16 MiB
    assert (clip_dir(db) / clip["file"]).is_file()
    ok, lines = verify.verify_db(db)
    assert ok, lines
