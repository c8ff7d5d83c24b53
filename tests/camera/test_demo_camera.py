"""`futmesa demo --camera sim --exit-when-done`: the simulated table filmed by the simulated
camera; every goal (and every ball out) of the scripted match gets its clip in the log (a
playable H.264 file beside it), and `futmesa verify` checks each one."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import av
import pytest

from futmesa.camera.record import clip_dir
from futmesa_testkit.liveserver import free_port

FUTMESA = str(Path(sys.executable).with_name("futmesa"))
pytestmark = pytest.mark.slow


def test_every_goal_of_the_demo_has_its_clip_checked_by_verify(tmp_path: Path) -> None:
    db = tmp_path / "m.sqlite"
    proc = subprocess.run(
        [FUTMESA, "demo", "--camera", "sim", "--speed", "120", "--exit-when-done", "--db",
         str(db), "--http-port", str(free_port())],
        capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    with sqlite3.connect(db) as conn:
        goals = [r[0] for r in conn.execute(
            "SELECT id FROM entries WHERE kind='goal_line' ORDER BY id")]
        cued = [r[0] for r in conn.execute(  # a ball out's clip is judged (the proposals)
            "SELECT id FROM entries WHERE kind IN ('goal_line', 'ball_out') AND source='device'")]
        clips = {json.loads(r[0])["shows"]: json.loads(r[0]) for r in conn.execute(
            "SELECT data FROM entries WHERE kind='clip' AND source='camera'")}
    assert len(goals) >= 4
    assert set(clips) == set(cued), (cued, clips)
    for goal in cued:
        clip = clips[goal]
        assert clip.get("sha256"), clip  # made, not absent
        with av.open(str(clip_dir(db) / clip["file"])) as f:
            assert f.streams.video[0].codec_context.name == "h264"
            assert sum(1 for _ in f.decode(video=0)) == clip["frames"]
    check = subprocess.run([FUTMESA, "verify", "--db", str(db)], capture_output=True,
                           text=True, timeout=120)
    assert check.returncode == 0, check.stdout + check.stderr
    assert f"{len(cued)} vídeo(s) conferido(s)" in check.stdout, check.stdout
