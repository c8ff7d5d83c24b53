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
