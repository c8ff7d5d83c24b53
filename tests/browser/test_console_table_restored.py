"""Issue 45 (walk 45j-b H3) on the referee's phone: the host and the table restarted together,
the table with no state of its own. Before: the console's log placed the 2nd half in the "1º
tempo" and no offer of the time lost ("A mesa ficou sem energia …") came. Now the table's
clock is restored from the log (host/futmesa/table/behind.py): the 2nd half is the 2nd on the
console, and a restart in a half offers the time its clock did not count.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from phone_console import phone_on, wait_js

from futmesa_testkit.livetable import LiveTable

pytestmark = pytest.mark.browser

# 2 x 1 min at speed 60 (the interval is never timed out: the referee starts the 2nd half)
SETTINGS = {"period_ms": 60_000, "interval_ms": 600_000, "lance_ms": 3_600_000,
            "lance_warn_ms": 5_000}


def test_both_restarted_in_the_interval_the_console_starts_the_2nd_half(browser: Any) -> None:
    with LiveTable(speed=60, ruleset="pastilha-8x2", settings=SETTINGS) as live:
        live.start_match()
        live.wait(lambda: live.match().get("status") == "interval", 90, "the interval")
        live.restart_with_a_blank_table()
        live.wait(lambda: live.daemon.status is not None, 90, "the table's first status")
        with phone_on(browser, live) as page:
            page.wait_for_selector("#start-main:not(.hidden)", timeout=90_000)
            assert page.text_content("#start-main") == "▶ Iniciar o 2º tempo"
            page.click("#start-main")
            live.wait(lambda: live.match().get("status") == "running", 90, "the 2nd half")
            started = [e.id for e in live.daemon.store.entries(live.daemon.match["id"])
                       if e.source == "device" and e.kind == "clock_started"][-1]
            wait_js(page, f"(w => w && w.textContent.includes('2º tempo'))(document"
                          f".querySelector(\"#log li[data-id='{started}'] .when\"))")
            assert not page.js_errors


def test_both_restarted_in_a_half_the_console_offers_the_lost_time(browser: Any) -> None:
    settings = {**SETTINGS, "period_ms": 600_000}  # 10 s at speed 60: it is still running
    with LiveTable(speed=60, ruleset="pastilha-8x2", settings=settings) as live:
        live.start_match()
        live.wait(lambda: live.daemon.status.clock_ms > 1_000, 90, "the 1st half to run")
        live.restart_with_a_blank_table()
        with phone_on(browser, live) as page:
            page.wait_for_selector("#reset-offer", state="visible", timeout=90_000)
            assert "A mesa ficou sem energia" in page.text_content("#reset-text")
            assert live.daemon.status.period == 1 and live.daemon.status.running
            # the table's rows from before its clock came back have no clock: never "00:00"
            # in the half (walk50b L3: taken for a clock reset)
            blank = [e.id for e in live.daemon.store.entries(live.daemon.match["id"])
                     if e.source == "device" and e.period == 0]
            assert blank
            whens = [f"document.querySelector(\"#log li[data-id='{i}'] .when\")" for i in blank]
            wait_js(page, " && ".join(whens))
            said = [page.evaluate(f"{w}.textContent") for w in whens]
            assert all(re.fullmatch(r"nº \d+ · Mesa", w) for w in said), said
            assert not page.js_errors
