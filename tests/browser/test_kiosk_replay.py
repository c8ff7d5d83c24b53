"""End to end: a goal on the simulated table, filmed by the simulated camera (its own
process), is replayed on the TV: GOL!, then the goal's clip (H.264 in MP4, from the match's
log, served at /clips/) in slow motion (0.5×), then back to the score by itself; the same
goal voided by the referee: GOL ANULADO, then its clip again under "GOL ANULADO". The venue
board shows no video, its table card says a clip exists.
Screenshots at TV size in test-output/camera/."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from screen_checks import visible_codes

from futmesa.camera.settings import camera_settings
from futmesa_testkit.livetable import LiveTable

pytestmark = pytest.mark.browser

TEAMS = {"A": {"name": "Casa", "color": "#1040c0"}, "B": {"name": "Visitante", "color": "#000000"}}
LONG_LANCE = {"lance_ms": 3_600_000, "lance_warn_ms": 5_000}
CAMERA = camera_settings(width=640, height=360, fps=10, ring_seconds=10, ring_max_mib=16,
                         clip_before_s=3, clip_after_s=1, stall_s=2)
WAIT_MS = 90_000
PLAYING = "document.getElementById('replay-video').currentTime > 0.6"


@contextmanager
def filmed_match(page: Any) -> Iterator[LiveTable]:
    """A match under way on the simulated table, filmed by the simulated camera; the kiosk
    on a TV-sized page showing it."""
    page.set_viewport_size({"width": 1920, "height": 1080})
    with LiveTable(speed=30, settings=LONG_LANCE, camera=CAMERA) as live:
        live.start_match(teams=TEAMS)
        page.goto(live.base_url + "/")
        page.wait_for_function("document.getElementById('name-A').textContent === 'Casa'",
                               timeout=WAIT_MS)
        yield live


def filmed_goal(live: LiveTable) -> Any:
    """Casa's asked shot goes in once 3 s are in the camera's ring; returns the camera."""
    cam = live.running.camera
    live.wait(lambda: cam.stats()["ring_frames"] >= 30, 60, "3 s of frames in the ring")
    live.give_lance("A")  # Casa's kick-off first: no shot from it (000 Art. 12 §5)
    live.referee("shot_asked", {"side": "A", "disc": 9})
    live.sim.goal(live.match()["ends"]["B"])
    return cam


def test_a_goal_is_replayed_slowly_on_the_tv_then_the_score(page: Any, output_dir: Path) -> None:
    shots = output_dir / "camera"
    shots.mkdir(parents=True, exist_ok=True)
    with filmed_match(page) as live:
        board = page.context.new_page()  # the venue board: a card says a clip exists
        board.goto(live.base_url + "/?mode=board")
        board.wait_for_selector("#board .card-clip", state="attached", timeout=WAIT_MS)
        assert board.text_content("#board .card-clip") == ""
        cam = filmed_goal(live)
        page.wait_for_selector("#goal:not(.hidden)", timeout=WAIT_MS)
        page.screenshot(path=str(shots / "kiosk-goal-tv.png"))
        page.wait_for_selector("#replay:not(.hidden)", timeout=WAIT_MS)
        assert page.is_hidden("#goal")  # the replay waits for the celebration to end
        page.wait_for_function(PLAYING, timeout=20_000)
        rate = page.evaluate("document.getElementById('replay-video').playbackRate")
        assert rate == 0.5
        size = page.evaluate("[document.getElementById('replay-video').videoWidth,"
                             " document.getElementById('replay-video').videoHeight]")
        assert size == [640, 360]
        page.screenshot(path=str(shots / "kiosk-replay-tv.png"))
        assert page.inner_text(".replay-word").startswith("REPLAY")
        # a 4-second clip at half speed: about 8 s, then the score, by itself
        page.wait_for_selector("#replay.hidden", state="attached", timeout=30_000)
        played = page.evaluate("window.futmesaReplay.played")
        assert len(played) == 1 and played[0]["url"].startswith("/clips/match-")
        assert played[0]["ended"] - played[0]["started"] >= 6000  # slow: not at 1×
        assert page.text_content("#score-A") == "1"
        page.screenshot(path=str(shots / "kiosk-after-replay-tv.png"))
        board.wait_for_function("document.querySelector('#board .card-clip').textContent"
                                " === '▶ vídeo do lance gravado'", timeout=WAIT_MS)
        assert board.is_hidden("#replay")  # the board shows no video
        board.screenshot(path=str(shots / "board-clip-card.png"))
        assert visible_codes(page) == []
        clip = [c for c in cam.written if "file" in c][0]
        entries = live.running.store.entries(clip["match_id"])
        assert any(e.kind == "clip" and e.data.get("sha256") == clip["sha256"] for e in entries)


def test_a_voided_goal_s_clip_is_shown_under_gol_anulado(page: Any, output_dir: Path) -> None:
    shots = output_dir / "camera"
    shots.mkdir(parents=True, exist_ok=True)
    with filmed_match(page) as live:
        cam = filmed_goal(live)
        page.wait_for_selector("#replay:not(.hidden)", timeout=WAIT_MS)
        assert not page.evaluate("document.getElementById('replay').classList.contains('voided')")
        page.wait_for_selector("#replay.hidden", state="attached", timeout=30_000)
        goal = live.match()["goals"][-1]["entry"]
        assert [c for c in cam.written if c.get("shows") == goal and "file" in c]
        live.referee("void", {"target": goal})
        live.wait(lambda: live.match()["score"]["A"] == 0, 30, "the void")
        page.wait_for_selector("#goal:not(.hidden)", timeout=WAIT_MS)
        assert page.inner_text("#goal-word") == "GOL ANULADO"
        page.wait_for_selector("#replay.voided:not(.hidden)", timeout=WAIT_MS)
        page.wait_for_function(PLAYING, timeout=20_000)
        assert page.inner_text(".replay-word").startswith("GOL ANULADO")
        page.screenshot(path=str(shots / "kiosk-replay-voided-tv.png"))
        page.wait_for_selector("#replay.hidden", state="attached", timeout=30_000)
        played = page.evaluate("window.futmesaReplay.played")
        assert len(played) == 2 and played[1]["voided"] and played[1]["url"] == played[0]["url"]
        assert page.text_content("#score-A") == "0"
        assert visible_codes(page) == []
