"""The disc is chosen inside the sheet (issue #45, blind walk, Medium): with "Falta e toque"
open, a touch by another disc of the same team is two taps — its number, then "Toque" — never
close the sheet, key it on the first screen, reopen the sheet and choose. And the miss button
says what happened in the referee's words: the disc missed the ball (004 Sua vez: "Um toque
que não acerta a bola passa a vez"), never "Toque sem acertar a bola", read after a free kick
as the taker touching again. Real parts (LiveTable: firmware, daemon, SQLite); Chromium at
390×844 touch."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from phone_console import phone_console, stored, wait_js
from test_console_taps import Thumb

pytestmark = pytest.mark.browser

SHEET = "#sheet-foul"
MISS = f"{SHEET} [data-act=touch_miss]"


def test_two_touches_by_two_discs_in_the_sheet(browser: Any, output_dir: Path) -> None:
    with phone_console(browser, "mesa-posta") as (live, page):
        wait_js(page, "document.getElementById('c-name-A').textContent === 'Grêmio'")
        page.tap("[data-sheet=sheet-foul]")
        for disc in (9, 4):
            thumb = Thumb(page)
            thumb.tap(f"{SHEET} [data-key='{disc}']")
            wait_js(page, f"document.querySelector('{SHEET} .disc-shown').textContent"
                          f" === 'nº {disc}'")
            thumb.tap(f"{SHEET} [data-act=touch]")
            live.wait(lambda d=disc: [t.get("disc") for t in stored(live, "touch")][-1:] == [d],
                      60, f"the touch by no. {disc} stored")
            assert thumb.taps <= 2, (disc, thumb.taps)
            assert page.is_visible(SHEET), "the touch closed its sheet"
        touches = stored(live, "touch")
        assert [(t["side"], t["disc"]) for t in touches] == [("A", 9), ("A", 4)], touches
        # the miss button: the disc keyed in the sheet, and what happened, on the button
        page.tap(f"{SHEET} [data-key='7']")
        wait_js(page, f"document.querySelector('{MISS}').textContent"
                      " === 'Botão nº 7 de Grêmio errou a bola'")
        page.screenshot(path=str(output_dir / "console-sheet-disc.png"))
        page.tap(MISS)
        live.wait(lambda: len(stored(live, "touch")) == 3, 60, "the miss stored")
        assert stored(live, "touch")[-1] == {"side": "A", "disc": 7, "hit": False}
        # the miss passed the vez (004 Sua vez), and nobody "touched again"
        live.wait(lambda: live.match()["turn"] == "B", 60, "the vez to Internacional")
        wait_js(page, "document.getElementById('result').textContent.includes('errou a bola')")
        said = page.text_content("#result") or ""
        assert "acertar" not in said and "de novo" not in said, said
        # the keypad's number used up, the buttons serve the team with the vez again
        wait_js(page, f"document.querySelector('{MISS}').textContent"
                      " === 'Botão de Internacional errou a bola (digite o nº)'"
                      f" && document.querySelector('{SHEET} .disc-shown').textContent === 'nº —'")
