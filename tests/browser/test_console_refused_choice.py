"""After a refused Chute pedido the console's team choice goes back to the team with the lance
(docs/operating.md: "depois de cada ação a escolha volta para a equipe com o lance"; walk #45
M7: the other team stayed picked after the grey button's refusal)."""

from __future__ import annotations

from typing import Any

import pytest

from futmesa_testkit.livetable import LiveTable

pytestmark = pytest.mark.browser

TEAMS = {"A": {"name": "Grêmio", "color": "#1040c0"},
         "B": {"name": "Internacional", "color": "#c02020"}}
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
WAIT_MS = 90_000
LONG_LANCE = {"lance_ms": 3_600_000, "lance_warn_ms": 5_000}


def wait_js(page: Any, expr: str) -> None:
    page.wait_for_function(expr, timeout=WAIT_MS)


def pressed(side: str) -> str:
    return f"document.getElementById('side-{side}').getAttribute('aria-pressed') === 'true'"


def test_a_refused_shot_gives_the_choice_back_to_the_team_with_the_lance(browser: Any) -> None:
    with LiveTable(speed=30, ruleset="mesa-posta", settings=LONG_LANCE) as live:
        live.start_match(teams=TEAMS, kickoff="A")
        context = browser.new_context(**PHONE)
        page = context.new_page()
        try:
            page.goto(f"{live.base_url}/console?token={live.token}")
            wait_js(page, pressed("A"))
            page.tap("#side-B")  # the referee picks the team without the lance
            wait_js(page, pressed("B") + " && document.getElementById('act-shot').disabled")
            page.tap("[data-key='5']")
            page.tap("#act-shot", force=True)  # the grey Chute pedido: refused on the phone
            wait_js(page, "document.getElementById('result').textContent.includes('✗')")
            assert "Internacional" in page.text_content("#result")  # the refusal names it
            wait_js(page, pressed("A"))
            assert page.get_attribute("#side-B", "aria-pressed") == "false"
            assert page.input_value("#disc") == ""
        finally:
            context.close()


def test_the_discipline_types_are_one_tap_buttons(browser: Any) -> None:
    """Walk #45 M10: the Disciplina panel's types were a drop-down that did not look like
    choices; each is a button now, one tap enters it for the chosen team."""
    with LiveTable(speed=30, ruleset="cbfm-1toque", settings=LONG_LANCE) as live:
        live.start_match(teams=TEAMS, kickoff="A")
        context = browser.new_context(**PHONE)
        page = context.new_page()
        try:
            page.goto(f"{live.base_url}/console?token={live.token}")
            wait_js(page, pressed("A"))
            page.tap("[data-key='4']")
            page.tap("[data-sheet=sheet-discipline]")
            assert page.locator("#sheet-discipline select").count() == 0
            types = page.locator("#sheet-discipline button[data-discipline]")
            assert types.count() == 6
            assert "falta disciplinar" in (types.first.text_content() or "")
            page.tap("#sheet-discipline .side[data-side=B]")
            page.tap("#sheet-discipline button[data-discipline=disciplinary]")
            wait_js(page, "document.getElementById('result').textContent.startsWith('✓')")
        finally:
            context.close()
        d = live.daemon
        said = [e.data for e in d.store.entries(d.match["id"]) if e.kind == "discipline"]
        assert said == [{"side": "B", "disc": 4, "type": "disciplinary"}], said
