"""A foul's place is the one the referee tapped for that foul (walk 45h-b B3: a second foul,
entered with only the team and "Falta da equipe escolhida", was stored "no campo do infrator",
the place of the foul before). No place is pressed until he taps one; after each foul the
sheet starts afresh; a foul with no place is not sent, and the line says what to tap. Real
parts: the simulated table, the daemon, SQLite, uvicorn (LiveTable); Chromium at 390×844."""

from __future__ import annotations

from typing import Any

import pytest
from phone_console import alvorada_on_the_phone

from futmesa_testkit.livetable import LiveTable

pytestmark = pytest.mark.browser

WAIT_MS = 60_000
PLACES = "#sheet-foul [data-field=foul-where] button"


def _fouls(live: LiveTable) -> list[dict[str, Any]]:
    store, mid = live.running.store, live.running.daemon.match["id"]
    return [e.data for e in store.entries(mid) if e.kind == "foul"]


def _pressed(page: Any) -> list[str]:
    return page.eval_on_selector_all(
        PLACES, "bs => bs.filter(b => b.getAttribute('aria-pressed') === 'true')"
                ".map(b => b.dataset.value)")


def test_a_fouls_place_is_never_the_last_fouls(browser: Any) -> None:
    with alvorada_on_the_phone(browser, {"lance_ms": 3_600_000}) as (live, page):
        live.give_lance("A")
        page.tap("[data-sheet=sheet-foul]")
        assert _pressed(page) == [], "a place chosen before the referee tapped one"
        page.tap("#sheet-foul .side[data-side=B]")
        page.tap("#sheet-foul [data-field=foul-where] [data-value=own_half]")
        page.tap("#sheet-foul [data-act=foul]")
        live.wait(lambda: len(_fouls(live)) == 1, 60, "the first foul stored")
        assert _fouls(live)[0]["where"] == "own_half"
        # the next foul: the sheet shows no place, and sends none it did not show
        page.wait_for_function("Referee.queued().length === 0", timeout=WAIT_MS)
        page.tap("[data-sheet=sheet-foul]")  # the foul closed its sheet
        assert _pressed(page) == [], "the last foul's place carried over"
        page.tap("#sheet-foul .side[data-side=A]")
        page.tap("#sheet-foul [data-act=foul]")
        page.wait_for_function("/^✗ .*no campo do infrator/.test("
                               "document.getElementById('result').textContent)",
                               timeout=WAIT_MS)
        assert len(_fouls(live)) == 1, _fouls(live)
        # the sheet stays open for the place
        assert page.is_visible("#sheet-foul [data-field=foul-where]")
        page.tap("#sheet-foul [data-field=foul-where] [data-value=opponent_half]")
        page.tap("#sheet-foul [data-act=foul]")
        live.wait(lambda: len(_fouls(live)) == 2, 60, "the second foul stored")
        assert _fouls(live)[1]["where"] == "opponent_half" and _fouls(live)[1]["side"] == "A"
        assert not page.js_errors, page.js_errors
