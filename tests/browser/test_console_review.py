"""The referee's "Rever" on a 390×844 touch phone, end to end: the simulated table filmed by
the simulated camera (its own process), the real daemon and rules. One tap sends the review,
the camera's clip of the last seconds plays on the phone, a frame step moves the picture's
time, the scrubber moves it too; a table whose camera is down says there is no video, in
words. Screenshots in test-output/camera/."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from phone_console import open_phone
from screen_checks import visible_codes

from futmesa.camera.calibration import calibration_path, from_sim
from futmesa.camera.settings import camera_settings
from futmesa.camera.simcam import SimCamera
from futmesa_testkit.livetable import LiveTable

pytestmark = pytest.mark.browser

TEAMS = {"A": {"name": "Casa", "color": "#1040c0"}, "B": {"name": "Visitante", "color": "#000000"}}
LONG_LANCE = {"lance_ms": 3_600_000, "lance_warn_ms": 5_000}
WAIT_MS = 90_000
T = "document.getElementById('review-video').currentTime"


def camera(source: str = "sim") -> Any:
    return camera_settings(source=source, width=640, height=360, fps=10, ring_seconds=10,
                           ring_max_mib=16, clip_before_s=3, clip_after_s=1, review_s=4,
                           stall_s=2)


def phone(browser: Any, live: LiveTable) -> Any:
    _, page = open_phone(browser, live.base_url + f"/console?token={live.token}")
    page.wait_for_function("document.getElementById('c-name-A').textContent === 'Casa'",
                           timeout=WAIT_MS)
    return page

# a filmed match's half outlasts a busy machine's camera: at 30× the 25-minute half was 50 s
# of wall time, and a clip that took longer came after the half's end, its proposal gone
# (two failures under load, 2026-12-08)
FILMED_SPEED = 5
FILMED = {**LONG_LANCE, "period_ms": 60 * 60_000}


@contextmanager
def filmed_phone(browser: Any, output_dir: Path, cam: Any = None,
                 calibrated: bool = False) -> Iterator[tuple[LiveTable, Any, Path]]:
    """A live table filmed by ``cam`` (else the small simulated camera), its match under way,
    the referee's phone open on its console: (live, page, the screenshots' folder).
    ``calibrated``: the simulated field's corners saved first, as if tapped on the phone."""
    shots = output_dir / "camera"
    shots.mkdir(parents=True, exist_ok=True)
    cam = cam or camera()
    with LiveTable(speed=FILMED_SPEED, settings=FILMED, camera=cam) as live:
        if calibrated:
            from_sim(SimCamera(cam.width, cam.height)).save(calibration_path(live.db))
        live.start_match(teams=TEAMS)
        yield live, phone(browser, live), shots


def test_rever_plays_the_last_seconds_with_frame_steps(browser: Any, output_dir: Path) -> None:
    with filmed_phone(browser, output_dir) as (live, page, shots):
        page.wait_for_selector("#review-ask:not([hidden])", timeout=WAIT_MS)
        cam = live.running.camera
        live.wait(lambda: cam.stats()["ring_frames"] >= 45, 60, "4.5 s of frames in the ring")
        page.screenshot(path=str(shots / "console-rever-button-phone.png"))
        page.tap("#review-ask")
        page.wait_for_selector("#sheet-review:not([hidden])", timeout=5_000)
        assert "Gravando" in page.text_content("#review-status")
        page.wait_for_function(f"{T} > 0.8", timeout=WAIT_MS)  # the clip plays by itself
        assert page.evaluate("document.getElementById('review-video').playbackRate") == 0.5
        size = page.evaluate("[document.getElementById('review-video').videoWidth,"
                             " document.getElementById('review-video').videoHeight]")
        assert size == [640, 360]
        page.screenshot(path=str(shots / "console-rever-playing-phone.png"))
        page.tap("#review-play")  # pause
        page.wait_for_function("document.getElementById('review-video').paused", timeout=5_000)
        before = page.evaluate(T)
        page.tap("#review-fwd")
        page.wait_for_function(f"{T} > {before} + 0.05", timeout=5_000)
        after = page.evaluate(T)
        assert after - before == pytest.approx(0.1, abs=0.02)  # one frame at 10 fps
        page.tap("#review-back")
        page.tap("#review-back")
        page.wait_for_function(f"{T} < {after} - 0.15", timeout=5_000)
        # the scrubber: a tap near its start puts the picture near the clip's start
        box = page.locator("#review-scrub").bounding_box()
        assert box is not None and box["height"] >= 40
        page.touchscreen.tap(box["x"] + box["width"] * 0.9, box["y"] + box["height"] / 2)
        page.wait_for_function(f"{T} > 2.5", timeout=5_000)
        assert "/ 4," in page.text_content("#review-time") or "/ 3," in page.text_content(
            "#review-time")
        page.tap("#sheet-review [data-rate='1']")
        assert page.evaluate("document.getElementById('review-video').playbackRate") == 1
        page.screenshot(path=str(shots / "console-rever-frame-step-phone.png"))
        for sel in ("#review-back", "#review-play", "#review-fwd"):
            b = page.locator(sel).bounding_box()
            assert b is not None and b["height"] >= 48 and b["width"] >= 90  # a thumb's
        assert visible_codes(page) == []
        mid = live.running.daemon.match["id"]
        entries = live.running.store.entries(mid)
        review = [e for e in entries if e.kind == "review"]
        assert len(review) == 1
        assert any(e.kind == "clip" and e.data.get("shows") == review[0].id
                   and e.data.get("sha256") for e in entries)
        assert page.js_errors == []
        page.context.close()


def test_rever_without_a_camera_says_so(browser: Any, output_dir: Path) -> None:
    with filmed_phone(browser, output_dir, camera("/dev/video97")) as (live, page, shots):
        page.wait_for_selector("#review-ask:not([hidden])", timeout=WAIT_MS)
        page.tap("#review-ask")
        page.wait_for_function("document.getElementById('review-status').textContent"
                               ".startsWith('Sem vídeo')", timeout=WAIT_MS)
        assert page.text_content("#review-status") == "Sem vídeo: a câmera estava desconectada"
        assert page.is_hidden("#review-video")
        page.screenshot(path=str(shots / "console-rever-no-camera-phone.png"))
        assert page.js_errors == []
        page.context.close()
