"""The camera's calibration on a 390×844 touch phone (issue 46 §5, docs/camera.md): the
simulated table filmed by the simulated camera (its own process), the real server. "Mais" →
"Calibrar a câmera" shows the newest picture and which corner is next; a corner tapped twice
is refused in words, four corners that do not go round the field are refused by the
calibration's model in words, the four right corners are saved beside the event log and map
the field as the simulated camera drew it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from screen_checks import visible_codes
from test_console_review import WAIT_MS, filmed_phone

from futmesa.camera.calibration import calibration_path, from_sim, load_calibration
from futmesa.camera.simcam import SimCamera

pytestmark = pytest.mark.browser


def tap_px(page: Any, x: float, y: float) -> None:
    """Tap the picture where its pixel (x, y) is shown."""
    box = page.locator("#cal-img").bounding_box()
    w, h = page.evaluate("[document.getElementById('cal-img').naturalWidth,"
                         " document.getElementById('cal-img').naturalHeight]")
    page.touchscreen.tap(box["x"] + x * box["width"] / w, box["y"] + y * box["height"] / h)


def test_the_four_corners_tapped_on_the_phone(browser: Any, output_dir: Path) -> None:
    with filmed_phone(browser, output_dir) as (live, page, shots):
        cam = live.running.camera
        live.wait(lambda: cam.stats()["ring_frames"] >= 5, 60, "frames in the ring")
        page.tap("[data-sheet=sheet-more]")
        page.wait_for_selector("#cal-open:not([hidden])", timeout=WAIT_MS)
        page.tap("#cal-open")
        page.wait_for_function("document.getElementById('cal-img').naturalWidth === 640",
                               timeout=WAIT_MS)
        assert page.text_content("#cal-step").startswith("Toque o canto 1 de 4: no alto à "
                                                         "esquerda")
        assert page.get_attribute("#cal-dot-0", "class") == "cal-dot next"
        corners = from_sim(SimCamera(640, 360)).data.corners
        tap_px(page, *corners[0])
        tap_px(page, *corners[0])  # the same corner again
        assert page.text_content("#cal-status").startswith("O canto 1 já foi tocado aí: toque "
                                                           "o canto 2")
        assert page.get_attribute("#cal-dot-1", "class") == "cal-dot next"
        for i in (2, 1, 3):  # not round the field: 0, 2, 1, 3
            tap_px(page, *corners[i])
        page.screenshot(path=str(shots / "console-calibrate-four-phone.png"))
        page.tap("#cal-save")
        page.wait_for_function("document.getElementById('cal-status').textContent.includes("
                               "'não dão a volta no campo')", timeout=WAIT_MS)
        path = calibration_path(live.db)
        assert not path.exists()
        assert page.text_content("#cal-step").startswith("Toque o canto 1 de 4")  # again
        for i in range(4):
            tap_px(page, *corners[i])
        page.tap("#cal-save")
        page.wait_for_function("document.getElementById('cal-status').textContent"
                               " === '✓ Calibração salva'", timeout=WAIT_MS)
        page.screenshot(path=str(shots / "console-calibrate-saved-phone.png"))
        saved = load_calibration(path)
        assert (saved.data.width, saved.data.height) == (640, 360)
        for (x, y), (tx, ty) in zip(saved.data.corners, corners, strict=True):
            assert abs(x - tx) <= 2 and abs(y - ty) <= 2  # a tap lands within a pixel or two
        cx, cy = saved.to_field(*from_sim(SimCamera(640, 360)).to_px(845, 520))
        assert abs(cx - 845) < 15 and abs(cy - 520) < 15  # the centre spot, within 1 %
        assert visible_codes(page) == []
        assert page.js_errors == []
        page.context.close()
