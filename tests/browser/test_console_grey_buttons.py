"""Every grey action button of the console looks grey and answers a finger's tap with its
reason, one way for all (docs/operating.md §5 item 4; walk49a L2: after the final whistle the
«Chute sem gol» buttons looked as during play, and the grey keys took a tap in silence): the
shot's outcomes, the keypad's keys and the Relógio sheet's buttons the engine would refuse now.
Nothing is sent. The real rules engine behind the hub, a 390×844 touch phone."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from phone_console import wait_js
from rules_table import phone_on_rules_table

pytestmark = pytest.mark.browser

GREY = """s => { const b = document.querySelector(s); const c = getComputedStyle(b);
  return b.getAttribute('aria-disabled') === 'true' && !b.disabled
    && c.backgroundColor === 'rgb(217, 220, 217)'; }"""


def refused(page: Any, selector: str, words: str) -> None:
    """A tap on the grey `selector` answers '✗ … — ação recusada: `words`'."""
    assert page.evaluate(GREY, selector), f"{selector} is not grey"
    # a real thumb: Playwright's own tap waits for an aria-disabled button to be enabled
    box = page.locator(selector).bounding_box()
    page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    wait_js(page, f"document.getElementById('result').textContent.startsWith('✗')"
                  f" && document.getElementById('result').textContent.includes({words!r})")
    assert "ação recusada" in page.text_content("#result")


def test_the_grey_buttons_answer_a_tap_with_their_reason(
        browser: Any, output_dir: Path) -> None:
    with phone_on_rules_table(browser, "cbfm-1toque") as (live, table, phone):
        entries = len(table.entries)
        # in a running half the sheet's "Iniciar período" and "Último lance terminado"
        phone.tap("[data-sheet=sheet-clock]")
        refused(phone, "#act-start", "Não há período para iniciar agora")
        refused(phone, "#act-lance-done", "Não há último lance em curso")
        phone.screenshot(path=str(output_dir / "console-grey-clock-sheet.png"))
        phone.tap("#sheet-clock [data-close]")
        # the final whistle (the table ends both halves): nothing more is played
        for kind, source in (("period_over", "device"), ("start_period", "referee"),
                             ("clock_started", "device"), ("period_over", "device")):
            live.call(table.apply, kind, {}, source)
        entries = len(table.entries)
        phone.wait_for_selector("#sign-link", state="visible")
        refused(phone, "[data-outcome=saved]", "A partida já terminou")
        refused(phone, ".now .keypad [data-key='7']", "A partida já terminou")
        assert phone.text_content(".now .disc-shown") == "nº —"
        refused(phone, ".ball-pick [data-ball=own_half]", "A partida já terminou")
        phone.screenshot(path=str(output_dir / "console-grey-after-the-whistle.png"))
        assert len(table.entries) == entries  # nothing sent
        assert phone.js_errors == []


def test_the_hand_goal_is_grey_while_a_restart_waits(browser: Any, output_dir: Path) -> None:
    """Walk51a M1: «Gol de … (o sensor não viu)» is the goal the sensor missed with the ball in
    play; with a goal kick not yet taken the ball is dead (004 A partida: "um relógio que só
    corre com a bola rolando"), so the button is grey with the engine's words (the restart
    first) and a tap sends nothing — it opened the question whose «chute pedido (não
    registrado)» gave a goal. Once the kick is taken the button is an ordinary one again."""
    with phone_on_rules_table(browser, "mesa-posta") as (live, table, phone):
        live.call(table.apply, "touch", {"side": "A", "disc": 9}, "referee", "Ana")
        live.call(table.apply, "restart", {"side": "B", "kind": "tiro_de_meta"}, "referee", "Ana")
        entries = len(table.entries)
        phone.tap("[data-sheet=sheet-foul]")
        phone.wait_for_selector("#act-goal-by-hand", state="visible")
        refused(phone, "#act-goal-by-hand", "Primeiro a cobrança — tiro de meta para")
        assert "(004 A partida)" in phone.text_content("#result")
        phone.screenshot(path=str(output_dir / "console-grey-hand-goal.png"))
        assert len(table.entries) == entries  # nothing sent
        assert table.state.to_dict()["pending"] == []
        phone.tap("#sheet-foul [data-close]")
        live.call(table.apply, "touch", {"side": "B"}, "referee", "Ana")  # «Cobrança dada»
        phone.tap("[data-sheet=sheet-foul]")
        wait_js(phone, "!document.getElementById('act-goal-by-hand').hasAttribute('aria-disabled')")
        assert phone.js_errors == []
