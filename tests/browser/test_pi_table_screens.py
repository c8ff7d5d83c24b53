"""A Raspberry Pi table on the screens (issue 34): the kiosk at TV size and the console on a
phone say that this computer keeps the official time (no microcontroller on the table), and
show a goal scored through the Pi's own pins (simulated header, the firmware's loop)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from screen_checks import visible_codes, wait_settled

from futmesa.sbc.table import SbcTable
from futmesa_testkit.livetable import LiveTable

pytestmark = pytest.mark.browser

TEAMS = {"A": {"name": "Casa", "color": "#1040c0"}, "B": {"name": "Visitante", "color": "#000000"}}
LONG_LANCE = {"lance_ms": 3_600_000, "lance_warn_ms": 5_000}
WAIT_MS = 90_000


def test_the_screens_say_this_computer_keeps_the_time(page: Any, browser: Any,
                                                      output_dir: Path) -> None:
    page.set_viewport_size({"width": 1920, "height": 1080})
    with LiveTable(sim=SbcTable(speed=30, goal_sensor="mixed"), settings=LONG_LANCE) as live:
        live.start_match(teams=TEAMS)
        page.goto(live.base_url + "/")
        page.wait_for_function("document.getElementById('name-A').textContent === 'Casa'",
                               timeout=WAIT_MS)
        page.wait_for_function(
            "document.getElementById('timekeeper').textContent.includes('relógio: este "
            "computador')", timeout=WAIT_MS)
        live.give_lance("A")
        live.referee("shot_asked", {"side": "A", "disc": 9})
        live.sim.goal(live.match()["ends"]["B"])
        page.wait_for_function("document.getElementById('score-A').textContent === '1'",
                               timeout=WAIT_MS)
        page.wait_for_function("document.getElementById('goal').classList.contains('hidden')",
                               timeout=WAIT_MS)
        wait_settled(page)
        assert visible_codes(page) == []
        page.screenshot(path=str(output_dir / "kiosk-pi-table-tv.png"))
        phone = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                    has_touch=True, device_scale_factor=2)
        try:
            console = phone.new_page()
            console.goto(f"{live.base_url}/console?token={live.token}")
            console.wait_for_function(
                "document.getElementById('c-timekeeper').textContent === 'relógio: este "
                "computador'", timeout=WAIT_MS)
            # a fact, not a warning: not in the link's warning line
            assert "relógio" not in console.text_content("#c-link")
            console.screenshot(path=str(output_dir / "console-pi-table-phone.png"))
        finally:
            phone.close()
