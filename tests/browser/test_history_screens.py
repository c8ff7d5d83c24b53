"""The history list and the súmula's HTML page pass the screen checks at TV and phone sizes:
nothing wider than the screen, no text cut, no internal code (table uids, ruleset ids, rule-file
numbers, time-zone ids, JSON)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from screen_checks import VIEWPORTS, check_screen

from futmesa_testkit.liveserver import LiveServer, ScriptedTable

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("size", list(VIEWPORTS))
def test_history_and_sumula_screens(table_server: tuple[LiveServer, ScriptedTable],
                                    browser: Any, output_dir: Path, size: str) -> None:
    live, _table = table_server
    context = browser.new_context(viewport=VIEWPORTS[size])
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(live.url + "/history")
        check_screen(page, f"history-{size}", output_dir)
        page.goto(live.url + "/report/1")
        check_screen(page, f"sumula-{size}", output_dir)
        text = page.inner_text("body")
        assert "horário de São Paulo" in text
    finally:
        context.close()
    assert not errors, errors
