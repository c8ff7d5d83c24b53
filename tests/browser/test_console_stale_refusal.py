"""Walk 45g (low): a refusal stayed on the console's result line after the match moved on —
"✗ … O lance é de Botafogo: só quem tem o lance pede chute" still read while the lance was
Alvorada's. A refusal is about the state it was refused in: once the log has a new entry it
goes (after it could be read). Real parts: the simulated table, the daemon, SQLite, uvicorn
(LiveTable); headless Chromium at 390×844."""

from __future__ import annotations

from typing import Any

import pytest
from phone_console import alvorada_on_the_phone

pytestmark = pytest.mark.browser

WAIT_MS = 60_000


def test_a_refusal_goes_once_the_match_moves_on(browser: Any) -> None:
    with alvorada_on_the_phone(browser) as (live, page):
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
