"""Where the ball is for the shot asked ("campo adversário" — the default —, "linha central",
"próprio campo") is for one action, like the disc number (issue #45, walk46a M2: "próprio
campo" set for one Internacional lance stayed pressed; four actions later his penalty's
"Chute pedido" was refused under Art. XXI a with nothing pointing at the chip). It goes back
to the default after the action it qualified and whenever the team or the restart changes;
a refusal caused by it says so; a penalty is shot from the mark whatever it says. Real parts
(LiveTable: firmware, daemon, SQLite); Chromium at 390×844 touch, Regra Gaúcha."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from phone_console import phone_console, pressed, stored, wait_js

pytestmark = pytest.mark.browser

OWN = "[data-ball=own_half]"
DEFAULT = ("document.getElementById('shot-ball').value === 'opponent_half'"
           " && document.querySelector('[data-ball=opponent_half]')"
           ".getAttribute('aria-pressed') === 'true'"
           " && document.querySelector('[data-ball=own_half]')"
           ".getAttribute('aria-pressed') === 'false'")


def own_half(page: Any) -> None:
    """The referee taps "próprio campo"; the page shows it pressed."""
    page.tap(OWN)
    wait_js(page, "document.getElementById('shot-ball').value === 'own_half'")


def test_the_balls_field_is_for_one_action_and_says_when_it_refuses(
        browser: Any, output_dir: Path) -> None:
    with phone_console(browser, "gaucha") as (live, page):
        wait_js(page, "document.getElementById('c-name-A').textContent === 'Grêmio'")
        live.referee("touch", {"side": "A", "disc": 6})
        live.referee("touch", {"side": "A", "disc": 9})
        wait_js(page, pressed("B")
                + " && !document.getElementById('act-shot').hasAttribute('aria-disabled')")

        # "próprio campo" for Internacional's lance: the shot is refused, and the refusal
        # says the cause is the field marked (not only Art. XXI a's words)
        own_half(page)
        page.tap(".lance [data-key='8']")
        page.tap("#act-shot")
        wait_js(page, "document.getElementById('result').textContent.includes('recusada')")
        said = page.text_content("#result") or ""
        assert "A bola está marcada no próprio campo de Internacional" in said, said
        assert "«campo adversário»" in said, said
        assert stored(live, "shot_asked") == []
        page.screenshot(path=str(output_dir / "console-ball-field-refused.png"))
        # the action it qualified is over: the chip is the default again
        wait_js(page, DEFAULT)

        # set, then the team changes: the default again
        own_half(page)
        page.tap("#side-A")
        wait_js(page, pressed("A") + " && " + DEFAULT)

        # set for Internacional, then the restart changes (a penalty to Internacional,
        # entered on another device): the default again
        page.tap("#side-B")
        own_half(page)
        live.referee("foul", {"side": "A", "disc": 4, "type": "falta", "where": "box"})
        live.wait(lambda: (live.match().get("restart") or {}).get("kind") == "penalti", 60,
                  "the penalty to Internacional")
        wait_js(page, pressed("B") + " && " + DEFAULT)

        # and the penalty is shot from the mark, in the opponent's field, even with
        # "próprio campo" pressed on purpose (001 Art. XXVII §1)
        page.tap(".lance [data-key='1']")
        page.tap(".lance [data-key='0']")
        own_half(page)
        page.tap("#act-shot")
        live.wait(lambda: len(stored(live, "shot_asked")) == 1, 60, "the penalty's shot stored")
        shot = stored(live, "shot_asked")[0]
        assert (shot["side"], shot["disc"]) == ("B", 10), shot
        wait_js(page, "document.getElementById('result').textContent.startsWith('✓')")
        wait_js(page, DEFAULT)
