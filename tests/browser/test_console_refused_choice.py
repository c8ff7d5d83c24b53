"""After a refused Chute pedido the console's team choice goes back to the team with the lance
(docs/operating.md: "depois de cada ação a escolha volta para a equipe com o lance"; walk #45
M7: the other team stayed picked after the grey button's refusal)."""

from __future__ import annotations

from typing import Any

import pytest
from phone_console import phone_console, pressed, stored, tap_settled, wait_js

pytestmark = pytest.mark.browser


def test_a_refused_shot_gives_the_choice_back_to_the_team_with_the_lance(browser: Any) -> None:
    with phone_console(browser, "mesa-posta") as (_, page):
        wait_js(page, pressed("A"))
        page.tap("#side-B")  # the referee picks the team without the lance
        wait_js(page, pressed("B")
                + " && document.getElementById('act-shot').hasAttribute('aria-disabled')")
        page.tap("[data-key='5']")
        tap_settled(page, "#act-shot", force=True)  # the grey Chute pedido: refused on the phone
        wait_js(page, "document.getElementById('result').textContent.includes('✗')")
        assert "Internacional" in page.text_content("#result")  # the refusal names it
        wait_js(page, pressed("A"))
        assert page.get_attribute("#side-B", "aria-pressed") == "false"
        assert page.input_value("#disc") == ""


def test_the_discipline_types_are_one_tap_buttons(browser: Any) -> None:
    """Walk #45 M10: the Disciplina panel's types were a drop-down that did not look like
    choices; each is a button now, one tap enters it for the chosen team."""
    with phone_console(browser, "cbfm-1toque") as (live, page):
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
        # the foul closes its sheet, as the Falta/toque sheet's do: the bottom bar and the
        # keypad are free again (walk 45i-b, low)
        page.wait_for_selector("#sheet-discipline", state="hidden")
        said = stored(live, "discipline")
        assert said == [{"side": "B", "disc": 4, "type": "disciplinary"}], said
