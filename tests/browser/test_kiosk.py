"""Kiosk scoreboard in real headless Chromium against a live server and hub."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from futmesa.web.testing import LiveServer, make_state

pytestmark = pytest.mark.browser


def test_state_change_appears_on_kiosk(live: LiveServer, page: Any, output_dir: Path) -> None:
    live.publish(make_state())
    page.goto(live.url + "/")
    page.wait_for_function("document.getElementById('name-A').textContent === 'Alvorada'")
    assert page.text_content("#score-A") == "0"
    live.publish(make_state(score={"A": 1, "B": 0}))
    page.wait_for_function("document.getElementById('score-A').textContent === '1'", timeout=3000)
    page.screenshot(path=str(output_dir / "kiosk-default.png"))
