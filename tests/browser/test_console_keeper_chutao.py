"""The goalkeeper's chutão taken in one tap (walk52a finding 7, A mesa está posta): on the goal
kick's card the referee tapped «Goleiro cobra», read as the kick taken (docs/operating.md §5
"The goalkeeper takes it (A mesa está posta: the chutão) — 1 tap"); it only named the taker
(«✓ Cobrador escolhido: o goleiro»), the ball-in-play clock stayed PARADO and the card still
waited for «▶ Cobrança dada». 004 Tiros de meta: "O goleiro dá um chutão com a chuteira" — the
kick is always his, so the card has one button that names him and takes it: the restart taken,
the ball in play, the clock running (004 A partida: "um relógio que só corre com a bola
rolando"). Real parts: the simulated table, the daemon, SQLite and uvicorn (LiveTable);
headless Chromium on a 390×844 touch phone."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from phone_console import phone_console, stored, tap_settled, wait_js

pytestmark = pytest.mark.browser

# the restart card's buttons in sight that name the goalkeeper
KEEPER_BUTTONS = """[...document.querySelectorAll('#restart-card button')]
    .filter(b => !b.hidden && b.offsetParent !== null && /goleiro/i.test(b.textContent))"""


def test_the_goal_kick_card_takes_the_chutao_in_one_tap(browser: Any, output_dir: Path) -> None:
    with phone_console(browser, "mesa-posta") as (live, page):
        d = live.daemon
        live.referee("touch", {"side": "A", "disc": 6})  # Grêmio's kick-off taken
        live.wait(lambda: live.match()["restart"]["taken"], 60, "the kick-off taken")
        # the ball over Internacional's end line off Grêmio: Internacional's goal kick, the
        # ball dead, the clock stopped (004 Tiros de meta, A partida)
        live.referee("restart", {"side": "B", "kind": "tiro_de_meta"})
        live.wait(lambda: not live.match()["clock_running"], 60, "the clock to stop")
        wait_js(page, f"{KEEPER_BUTTONS}.length > 0")
        page.screenshot(path=str(output_dir / "console-keeper-chutao-before.png"))
        # one button names the goalkeeper, and it is the kick: no separate taker step
        words = page.evaluate(f"{KEEPER_BUTTONS}.map(b => b.textContent.trim())")
        taps = len(stored(live, "touch")) + len(stored(live, "taker"))
        tap_settled(page, f"#{page.evaluate(f'{KEEPER_BUTTONS}[0].id')}")
        live.wait(lambda: live.match()["restart"]["taken"], 60, "the goal kick taken")
        m = live.match()
        assert m["restart"]["kind"] == "tiro_de_meta" and m["clock_running"], m["restart"]
        # the goalkeeper's kick: Internacional's touch with no disc (he has no number)
        assert stored(live, "touch")[-1] == {"side": "B", "disc": None}
        assert len(stored(live, "touch")) + len(stored(live, "taker")) == taps + 1
        assert words == ["▶ Cobrança dada: chutão do goleiro (bola em jogo)"], words
        live.wait(lambda: d.status is not None and d.status.running, 60,
                  "the table's clock to run")
        wait_js(page, "document.getElementById('result').textContent.startsWith('✓ ')")
        wait_js(page, "document.getElementById('rc-taken').hidden")
        assert "Cobrador escolhido" not in (page.text_content("#result") or "")
        page.screenshot(path=str(output_dir / "console-keeper-chutao-taken.png"))
