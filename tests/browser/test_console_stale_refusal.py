"""Walk 45g (low): a refusal stayed on the console's result line after the match moved on —
"✗ … O lance é de Botafogo: só quem tem o lance pede chute" still read while the lance was
Alvorada's. A refusal is about the state it was refused in: once the log has a new entry it
goes (after it could be read). Real parts: the simulated table, the daemon, SQLite, uvicorn
(LiveTable); headless Chromium at 390×844."""

from __future__ import annotations

from typing import Any

import pytest
from phone_console import open_phone

from futmesa_testkit.livetable import LiveTable

pytestmark = pytest.mark.browser

WAIT_MS = 60_000
TEAMS = {"A": {"name": "Alvorada"}, "B": {"name": "Botafogo"}}
LONG_LANCE = {"lance_ms": 3_600_000, "lance_warn_ms": 5_000}


def test_a_refusal_goes_once_the_match_moves_on(browser: Any) -> None:
    with LiveTable(speed=10, settings=LONG_LANCE) as live:
        live.start_match(teams=TEAMS)
        ctx, page = open_phone(browser, f"{live.base_url}/console?token={live.token}")
        try:
            page.wait_for_function("document.getElementById('c-name-A').textContent"
                                   " === 'Alvorada'", timeout=WAIT_MS)
            live.give_lance("A")
            # Botafogo asks for a shot without the lance: the rules refuse it
            page.evaluate("Referee.send('shot_asked', {side: 'B', disc: 7}, 'chute pedido"
                          " Botafogo', 'árbitro')")
            page.wait_for_function("document.getElementById('result').textContent"
                                   ".startsWith('✗')", timeout=WAIT_MS)
            refused = page.text_content("#result") or ""
            assert "Alvorada" in refused, refused  # whose lance it is, when refused
            live.give_lance("B")  # the match moves on: the refusal's reason is gone
            page.wait_for_function("!document.getElementById('result').textContent"
                                   ".startsWith('✗')", timeout=WAIT_MS)
            assert "✗" not in (page.text_content("#result") or "")
            assert not page.js_errors, page.js_errors
        finally:
            ctx.close()
