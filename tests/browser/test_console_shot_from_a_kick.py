"""A chute pedido straight from a free kick is the kick (000 Art. 18: "direta, quando é feito em
um único lance direto a gol"; Art. 12 §3 B; docs/operating.md §5 item 5: "com o resultado dele a
cobrança está dada"). Walk48b M4: the ball went out after such a shot and the card "Tiro livre
para …" with "Dispensar (lance normal)" stayed on the phone while the referee said who touched
it last, as if the free kick were still owed; M5: that question's suggested answer (✓) was the
team that played before the foul, not the shooter. Real parts (LiveTable: firmware, daemon,
SQLite); Chromium at 390×844 touch, CBFM 1 Toque."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from phone_console import phone_console, pressed, stored, wait_js

pytestmark = pytest.mark.browser

CARD = "document.getElementById('restart-card')"
TITLE = "document.getElementById('restart-title').textContent"
ASKED = "document.getElementById('pending').textContent.includes('quem tocou por último')"


def test_the_free_kick_shot_out_leaves_no_card_and_suggests_the_shooter(
        browser: Any, output_dir: Path) -> None:
    with phone_console(browser, "cbfm-1toque") as (live, page):
        wait_js(page, "document.getElementById('c-name-A').textContent === 'Grêmio'")
        live.referee("touch", {"side": "A", "disc": 6})  # the kick-off's two lances
        live.referee("touch", {"side": "A", "disc": 9})
        live.referee("touch", {"side": "B", "disc": 3})  # Internacional's lance
        live.referee("discipline", {"side": "B", "type": "disciplinary", "disc": 3})
        wait_js(page, f"!{CARD}.hidden && {TITLE} === 'Tiro livre para Grêmio'")

        # the thumb: botão 10, Chute pedido — straight from the free kick
        wait_js(page, pressed("A")
                + " && !document.getElementById('act-shot').hasAttribute('aria-disabled')")
        page.tap(".lance [data-key='1']")
        page.tap(".lance [data-key='0']")
        page.tap("#act-shot")
        live.wait(lambda: len(stored(live, "shot_asked")) == 1, 60, "the shot stored")
        wait_js(page, "document.getElementById('result').textContent.startsWith('✓')")

        # the shot goes out over Internacional's end line: the free kick is taken with it
        live.sim.ball_out(3)
        wait_js(page, ASKED)
        page.screenshot(path=str(output_dir / "console-free-kick-shot-out.png"))
        assert page.is_hidden("#restart-card"), page.text_content("#restart-title")
        answers = page.locator("#pending li button").all_text_contents()
        assert answers == ["Grêmio sugerido", "Internacional"], answers  # the shooter's lance

        # one hurried tap on the suggestion: the shooter's ball straight out, a goal kick
        page.locator("#pending li button", has_text="Grêmio").tap()
        wait_js(page, f"!{CARD}.hidden && {TITLE} === 'Tiro de meta para Internacional'")
