"""The phone's first screen says what the TV says of the clock (walk49b M1, L1; walk49a L1): a
clock the referee stopped is in the header's PARADO style with a one-line banner and its resume
button, the Relógio sheet's button says what it will do and is the highlighted one during a
half; a ruleset with no lance time shows no lance count in the header. The real rules engine
behind the hub, the console on a 390×844 touch phone in headless Chromium."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from phone_console import wait_js
from rules_table import RulesTable, phone_on_rules_table

pytestmark = pytest.mark.browser


def kinds(table: RulesTable) -> list[str]:
    return [e["kind"] for e in table.entries]


def primary(page: Any, selector: str) -> bool:
    return bool(page.evaluate("s => document.querySelector(s).classList.contains('primary')",
                              selector))


def test_the_clock_the_referee_stopped_is_on_the_first_screen(
        browser: Any, output_dir: Path) -> None:
    with phone_on_rules_table(browser, "cbfm-1toque") as (live, table, phone):
        assert not phone.is_visible("#c-stopped")
        # during a half the Relógio sheet highlights the stop, never "Iniciar período"
        phone.tap("[data-sheet=sheet-clock]")
        assert phone.text_content("#act-pause-words") == "Parar o relógio"
        assert primary(phone, "#act-pause") and not primary(phone, "#act-start")
        phone.screenshot(path=str(output_dir / "console-clock-sheet-running.png"))
        phone.tap("#act-pause")
        wait_js(phone, "document.getElementById('result').textContent.startsWith('✓')")
        assert kinds(table)[-1] == "pause"
        live.call(table.apply, "clock_stopped", {"reason": 0}, "device")  # the table stops
        # the sheet's button says what it will do now
        wait_js(phone, "document.getElementById('act-pause-words').textContent"
                       " === 'Retomar o relógio'")
        assert primary(phone, "#act-pause") and not primary(phone, "#act-start")
        phone.tap("#sheet-clock [data-close]")
        # the first screen: the header's clock in its stopped style, a banner, one tap
        phone.wait_for_selector("#c-stopped", state="visible")
        assert "Relógio parado pelo árbitro" in phone.text_content("#c-stopped")
        assert phone.evaluate(
            "document.getElementById('c-clock').classList.contains('stopped')")
        phone.screenshot(path=str(output_dir / "console-clock-stopped-banner.png"))
        phone.tap("#c-resume")
        wait_js(phone, "document.getElementById('result').textContent.startsWith('✓')")
        assert kinds(table)[-1] == "resume"
        live.call(table.apply, "clock_started", {}, "device")
        phone.wait_for_selector("#c-stopped", state="hidden")
        assert not phone.evaluate(
            "document.getElementById('c-clock').classList.contains('stopped')")
        assert phone.js_errors == []


@pytest.mark.parametrize("ruleset", ["mesa-posta", "cbfm-1toque"])
def test_the_header_counts_the_lance_only_where_the_rules_time_it(
        browser: Any, output_dir: Path, ruleset: str) -> None:
    with phone_on_rules_table(browser, ruleset) as (live, table, phone):
        header = phone.inner_text(".mini2")
        # guide §2: «A mesa está posta» has no lance time, no screen counts a lance
        assert ("lance" in header) == (ruleset == "cbfm-1toque"), header
        phone.screenshot(path=str(output_dir / f"console-header-{ruleset}.png"))


def test_iniciar_is_highlighted_only_when_a_period_can_start(browser: Any) -> None:
    with phone_on_rules_table(browser, "cbfm-1toque", kick_off=False) as (live, table, phone):
        phone.tap("[data-sheet=sheet-clock]")
        assert primary(phone, "#act-start") and not primary(phone, "#act-pause")
