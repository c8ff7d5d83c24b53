"""Walk52c finding 4: in Pastilha 8x2 each técnico counts his touches aloud (003 Art. 47 §3: 8
touches, the 8th a shot; docs/rulesets.md, Art. 47: "counted, shown"), yet after 7 touches
neither the TV nor the phone showed a number. The count of the team on turn is on its TV card
(«5 de 8 toques», 1920×1080) and on the console's "Vez:" line («Toques: 5/8», 390×844), after
each touch; the opponent's touch zeroes it (Art. 47 §6) and the count shown is the opponent's.
On a live table (the real firmware, daemon and SQLite)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from phone_console import WAIT_MS, phone_console, wait_js

pytestmark = pytest.mark.browser

TV = {"width": 1920, "height": 1080}


def text_is(page: Any, selector: str, text: str) -> None:
    """Wait until the element `selector` shows `text` (and is not hidden)."""
    page.wait_for_function(
        "([s, t]) => { const e = document.querySelector(s);"
        " return e && e.textContent.trim() === t && e.offsetParent !== null; }",
        arg=[selector, text], timeout=WAIT_MS)


def hidden(page: Any, selector: str) -> None:
    page.wait_for_function(
        "s => { const e = document.querySelector(s); return !e || e.offsetParent === null; }",
        arg=selector, timeout=WAIT_MS)


def test_the_touch_count_is_on_the_tv_and_the_phone(browser: Any, output_dir: Path) -> None:
    with phone_console(browser, "pastilha-8x2") as (live, phone):
        tv = browser.new_page(viewport=TV)
        try:
            tv.goto(live.base_url + "/")
            wait_js(tv, "document.getElementById('name-A').textContent === 'Grêmio'")
            for n, disc in enumerate((6, 9, 6, 9, 6), start=1):  # Grêmio's kick-off and 4 more
                live.referee("touch", {"side": "A", "disc": disc})
                live.wait(lambda n=n: live.match()["touches"]["A"]["count"] == n, 60,
                          f"touch {n}")
            text_is(tv, "#touches-A", "5 de 8 toques")
            hidden(tv, "#touches-B")
            text_is(phone, "#c-touches", "· Toques: 5/8")
            tv.screenshot(path=str(output_dir / "touch-count-5-tv.png"))
            phone.screenshot(path=str(output_dir / "touch-count-5-phone.png"))
            # the ball off an Internacional disc (Art. 47 §4), then Internacional plays it: its
            # count, Grêmio's zeroed (Art. 47 §6)
            live.referee("touch", {"side": "A", "disc": 9, "opponent_last": True})
            live.wait(lambda: live.match()["turn"] == "B", 60, "the ball to Internacional")
            live.referee("touch", {"side": "B", "disc": 3})
            live.wait(lambda: live.match()["touches"]["B"]["count"] == 1, 60, "its touch")
            text_is(tv, "#touches-B", "1 de 8 toques")
            hidden(tv, "#touches-A")
            text_is(phone, "#c-touches", "· Toques: 1/8")
            assert live.match()["touches"]["A"]["count"] == 0
            tv.screenshot(path=str(output_dir / "touch-count-reset-tv.png"))
            phone.screenshot(path=str(output_dir / "touch-count-reset-phone.png"))
        finally:
            tv.close()


def test_no_touch_count_where_the_rules_count_none(browser: Any) -> None:
    """000 (one lance per turn): no count on the console."""
    with phone_console(browser, "cbfm-1toque") as (live, phone):
        live.referee("touch", {"side": "A", "disc": 6})
        live.wait(lambda: live.match()["log_length"] >= 1, 60, "the touch")
        wait_js(phone, "document.getElementById('c-turn').textContent === 'Grêmio'")
        hidden(phone, "#c-touches")
