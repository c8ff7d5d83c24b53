"""The camera's proposal, one tap (issue 46 §5) on a 390×844 touch phone, end to end: the
simulated table filmed by the simulated camera (its own process), the real daemon and rules.
A ball out with no last touch: the engine asks who touched it; the camera's clip of it is
judged on the ring's frames with the saved calibration, and the question shows "Câmera: saiu
pela lateral no campo de Casa, a … cm do meio", its clip (↺) and "✓ confirmar"; one tap
stores the referee's answer citing the clip, and the log says "confirmado pelo vídeo".
A ball at rest in a small area, no question asking it: the referee's Rever is judged, the
card of questions shows "Câmera: a bola parou na pequena área de …" and "✓ registrar"; one tap
stores his ordinary ``ball_stopped`` citing the clip. Screenshots in test-output/camera/."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from test_console_review import FILMED, FILMED_SPEED, TEAMS, WAIT_MS, filmed_phone, phone

from futmesa.camera.calibration import calibration_path, from_sim
from futmesa.camera.settings import camera_settings
from futmesa.camera.simcam import SimCamera
from futmesa.store import EventLog
from futmesa_testkit.livetable import LiveTable

pytestmark = pytest.mark.browser

CAMERA = camera_settings(source="sim", width=640, height=360, fps=15, ring_seconds=10,
                         ring_max_mib=16, clip_before_s=3, clip_after_s=1.5, review_s=4,
                         stall_s=2)
# a ball at rest is judged on the ring's frames: at 640×360 the tracker, once it has lost a
# ball rolling in, looks for it again at half size, where it is two pixels wide
# (docs/performance.md: 80 % of the stops at 360p, 100 % at 480p)
CAMERA_480 = camera_settings(source="sim", width=854, height=480, fps=15, ring_seconds=10,
                             ring_max_mib=24, clip_before_s=3, clip_after_s=1.5, review_s=4,
                             stall_s=2)


def _filming(live: Any) -> tuple[Any, Any, int]:
    """Once the camera's ring holds 3 s of frames: the camera, the store and the match."""
    cam = live.running.camera
    live.wait(lambda: cam.stats()["ring_frames"] >= 45, 60, "3 s of frames in the ring")
    return cam, live.running.store, live.running.daemon.match["id"]


def _in_reach(page: Any) -> None:
    """The proposal's confirm is a thumb's tap (44 px at least), on the phone's first screen."""
    y, height = page.wait_for_function(  # the list is redrawn with each state: read it live
        "(() => { const b = document.querySelector('#camera-proposal .proposal-confirm');"
        " const r = b && b.getBoundingClientRect(); return r && r.height ? [r.y, r.height]"
        " : null; })()", timeout=5_000).json_value()
    assert height >= 44 and y + height <= 844, (y, height)


def _cited_in_the_registro(page: Any, entry: int, clip: Any, number: int, shot: Path) -> None:
    """The proposal gone; the Registro's row of `entry` says it was confirmed by `clip`
    (its `number` in the Registro, as the card said it, and its hash), pictured in `shot`."""
    page.wait_for_selector("#camera-proposal", state="detached", timeout=WAIT_MS)
    page.tap("[data-sheet=sheet-log]")
    cited = f"confirmado pelo vídeo (vídeo nº {number}, SHA-256 {clip.data['sha256'][:12]})"
    page.wait_for_function(
        f"(document.querySelector(\"#log li[data-id='{entry}']\") || {{}}).textContent"
        f"?.includes({cited!r})", timeout=WAIT_MS)
    page.evaluate(f"document.querySelector(\"#log li[data-id='{entry}']\")"
                  ".scrollIntoView({block: 'center'})")
    page.screenshot(path=str(shot))


def test_a_ball_out_proposed_by_the_camera_is_confirmed_in_one_tap(
        browser: Any, output_dir: Path) -> None:
    # the field's corners as if tapped on the phone
    with filmed_phone(browser, output_dir, CAMERA, calibrated=True) as (live, page, shots):
        cam, store, mid = _filming(live)
        live.sim.ball_out(1)  # side-net zone 1: a side line, in goal line 0's half (Casa's)
        live.wait(lambda: any(e.kind == "ball_out" for e in store.entries(mid)), 30,
                  "the ball out")
        out = next(e for e in store.entries(mid) if e.kind == "ball_out")
        assert out.data["line"] == "side" and out.data["end"] == 0
        page.wait_for_selector("#camera-proposal .proposal-confirm", timeout=WAIT_MS)
        said = page.text_content("#camera-proposal p") or ""
        assert said.startswith("Câmera: saiu pela lateral no campo de Casa, a "), said
        assert said.endswith(" cm do meio"), said
        clip = next(e for e in store.entries(mid) if e.kind == "clip")
        assert clip.data["shows"] == out.id and clip.data.get("sha256")
        # its clip by the number the Registro and the citation give it (matchbook/numbers.py)
        number = [e.id for e in store.entries(mid)].index(clip.id) + 1
        assert page.text_content("#camera-proposal .proposal-clip") == f"↺ vídeo nº {number}"
        button = page.text_content("#camera-proposal .proposal-confirm") or ""
        assert button.startswith("✓ confirmar: "), button
        _in_reach(page)
        page.screenshot(path=str(shots / "console-camera-proposal-phone.png"))
        page.tap("#camera-proposal .proposal-clip")  # its clip, in the Rever player
        page.wait_for_function(
            "document.getElementById('review-video').currentTime > 0.3", timeout=WAIT_MS)
        page.screenshot(path=str(shots / "console-camera-proposal-clip-phone.png"))
        page.tap("#sheet-review [data-close]")
        page.tap("#camera-proposal .proposal-confirm")
        live.wait(lambda: any(e.kind == "confirm" for e in store.entries(mid)), 30,
                  "the referee's answer")
        answer = next(e for e in store.entries(mid) if e.kind == "confirm")
        assert answer.source == "referee"
        assert answer.data["target"] == out.id and answer.data["clip"] == clip.id
        assert answer.data["proposed"] == "camera" and answer.data["choice"] in ("A", "B")
        state = live.daemon.state.m
        assert not any(p["kind"] == "ball_out_touch" for p in state["pending"])
        assert state["restart"]["kind"] == "lateral"
        _cited_in_the_registro(page, answer.id, clip, number,
                               shots / "console-camera-proposal-confirmed-log-phone.png")
        assert page.js_errors == []
        page.context.close()


def test_without_a_calibration_the_camera_says_so_once(browser: Any, output_dir: Path) -> None:
    with filmed_phone(browser, output_dir, CAMERA) as (live, page, shots):
        cam, store, mid = _filming(live)
        live.sim.ball_out(1)
        page.wait_for_selector("#camera-proposal", timeout=WAIT_MS)
        said = page.text_content("#camera-proposal") or ""
        assert said.startswith("Câmera sem calibração"), said
        assert page.locator("#camera-proposal button").count() == 0  # nothing to confirm
        page.screenshot(path=str(shots / "console-camera-no-calibration-phone.png"))
        first = next(e for e in store.entries(mid) if e.kind == "ball_out")
        page.tap("#pending [data-choice=B]")  # answered by hand
        live.wait(lambda: any(e.kind == "confirm" for e in store.entries(mid)), 30, "the answer")
        live.sim.ball_out(4)  # the next ball out (Visitante's half): asked and judged again
        live.wait(lambda: any(e.kind == "ball_out" and e.id != first.id
                              for e in store.entries(mid)), 30, "the second ball out")
        second = [e for e in store.entries(mid) if e.kind == "ball_out"][-1]
        live.wait(lambda: any(p["id"] == second.id for p in live.daemon.state.m["pending"]), 30,
                  "the second question")
        live.wait(lambda: any(e.kind == "clip" and e.data.get("shows") == second.id
                              for e in store.entries(mid)) and not cam.judging, 60,
                  "the second clip judged")
        page.wait_for_selector("#pending [data-choice]", timeout=WAIT_MS)
        assert page.locator("#camera-proposal").count() == 0  # "sem calibração" said once
        assert page.js_errors == []
        page.context.close()


def test_a_ball_stopped_in_a_small_area_is_recorded_in_one_tap(
        browser: Any, output_dir: Path) -> None:
    with filmed_phone(browser, output_dir, CAMERA_480, calibrated=True) as (live, page, shots):
        cam, store, mid = _filming(live)
        cam.steer("rest", 1, "small")  # the simulated ball rolls to rest in goal line 1's
        first = cam.stats()["ring_frames"]  # small area (Visitante's at kick-off)
        live.wait(lambda: cam.stats()["ring_frames"] >= first + 75, 60,
                  "5 s more of frames: the ball there and still")
        page.wait_for_selector("#review-ask:not([hidden])", timeout=WAIT_MS)
        page.tap("#review-ask")  # his Rever: no question asks about the ball's stop
        page.wait_for_selector("#sheet-review:not([hidden])", timeout=5_000)
        page.tap("#sheet-review [data-close]")
        page.wait_for_selector("#camera-proposal .proposal-confirm", timeout=WAIT_MS)
        said = page.text_content("#camera-proposal p") or ""
        assert said == "Câmera: a bola parou na pequena área de Visitante", said
        assert page.text_content("#camera-proposal .proposal-confirm") == "✓ registrar"
        review = next(e for e in store.entries(mid) if e.kind == "review")
        clip = next(e for e in store.entries(mid) if e.kind == "clip"
                    and e.data.get("shows") == review.id)
        number = [e.id for e in store.entries(mid)].index(clip.id) + 1  # in the Registro
        assert page.text_content("#camera-proposal .proposal-clip") == f"↺ vídeo nº {number}"
        _in_reach(page)
        page.screenshot(path=str(shots / "console-camera-stopped-proposal-phone.png"))
        page.tap("#camera-proposal .proposal-confirm")
        live.wait(lambda: any(e.kind == "ball_stopped" for e in store.entries(mid)), 30,
                  "the referee's ball_stopped")
        stopped = next(e for e in store.entries(mid) if e.kind == "ball_stopped")
        assert stopped.source == "referee"
        assert stopped.data == {"side": "B", "area": "small", "clip": clip.id,
                                "proposed": "camera"}, stopped.data
        assert live.daemon.state.m["restart"]["side"] == "B"  # the goalkeeper's ball, his
        _cited_in_the_registro(page, stopped.id, clip, number,
                               shots / "console-camera-stopped-recorded-log-phone.png")
        assert page.js_errors == []
        page.context.close()


def test_in_a_later_match_the_card_says_the_clips_registro_number(
        browser: Any, output_dir: Path, tmp_path: Path) -> None:
    """The log already holds an earlier match (its entries took the first ids): the card's
    "↺ vídeo nº …" is the clip's number in this match's Registro, as its row and the
    citation say it — not its stored id (issue #45, low)."""
    db = tmp_path / "match.sqlite"
    earlier = EventLog(db)
    before = earlier.new_match("mesa-de-ontem", "cbfm-1toque", {})
    for n in range(30):
        earlier.append_entry(before, "referee", "touch", {"side": "A", "disc": 6}, 1,
                             n * 1000, "árbitro")
    earlier.end_match(before)
    earlier.close()
    shots = output_dir / "camera"
    shots.mkdir(parents=True, exist_ok=True)
    with LiveTable(speed=FILMED_SPEED, settings=FILMED, camera=CAMERA, db=db) as live:
        from_sim(SimCamera(CAMERA.width, CAMERA.height)).save(calibration_path(live.db))
        live.start_match(teams=TEAMS)
        page = phone(browser, live)
        _cam, store, mid = _filming(live)
        assert mid != before
        live.sim.ball_out(1)
        # the store first, then the screen: on a busy machine the simulated camera's clip can
        # take longer than a screen's wait, and a missing clip is told as that
        live.wait(lambda: any(e.kind == "ball_out" for e in store.entries(mid)), 60,
                  "the ball out")
        live.wait(lambda: any(e.kind == "clip" for e in store.entries(mid)), 180,
                  "the camera's clip of the ball out")
        clip = next(e for e in store.entries(mid) if e.kind == "clip")
        page.wait_for_selector("#camera-proposal .proposal-clip", timeout=WAIT_MS)
        number = [e.id for e in store.entries(mid)].index(clip.id) + 1
        assert number < clip.id  # the earlier match's 30 entries came first
        assert page.text_content("#camera-proposal .proposal-clip") == f"↺ vídeo nº {number}"
        page.screenshot(path=str(shots / "console-camera-proposal-later-match-phone.png"))
        assert page.js_errors == []
        page.context.close()
