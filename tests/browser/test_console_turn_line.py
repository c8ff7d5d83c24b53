"""The console's "Vez:" line says the state of play, not what it was (walk 45f M7): the rules'
"Arrumação das equipes (…); saída para …" stood on it for a minute over seven touches after
the kick-off was taken. On a 390×844 phone with the real firmware, daemon and SQLite: said
after the goal, gone once the kick-off is taken (the engine's restart.taken_at)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from phone_console import internacional_asks_a_shot, phone_console, stored, wait_js

pytestmark = pytest.mark.browser

SAID = "(document.getElementById('c-announce').textContent || '')"


def test_the_turn_line_drops_the_restart_once_taken(browser: Any, output_dir: Path) -> None:
    with phone_console(browser, "cbfm-1toque") as (live, page):
        internacional_asks_a_shot(live)
        live.sim.goal(live.match()["ends"]["A"])
        live.wait(lambda: live.match()["score"]["B"] == 1, 60, "the goal")
        wait_js(page, f"{SAID}.includes('Arrumação das equipes') "
                      f"&& {SAID}.includes('saída para Grêmio')")
        page.screenshot(path=str(output_dir / "console-turn-line-kickoff-said.png"))
        live.referee("touch", {"side": "A", "disc": 6})  # the kick-off taken: two lances
        live.referee("touch", {"side": "A", "disc": 9})
        # the page drew the state after them (the vez is Internacional's; the rules said
        # nothing new): the line no longer says the kick-off
        wait_js(page, "document.getElementById('c-turn').textContent === 'Internacional'")
        assert "Arrumação das equipes" not in page.text_content("#c-announce")
        page.screenshot(path=str(output_dir / "console-turn-line-kickoff-taken.png"))
        assert len(stored(live, "touch")) == 4


def test_the_turn_line_does_not_repeat_the_restart_card(browser: Any, output_dir: Path) -> None:
    """Walk45g, low (50-pastilha-falta-infrator.png): the restart card said "Cobrança: falta
    direta para Alvorada" and the "Vez:" line under it the same restart again. While the card
    says the restart in force, the line leaves the restart's own words to it."""
    with phone_console(browser, "cbfm-1toque") as (live, page):
        live.referee("restart", {"kind": "lateral", "side": "B"})
        live.wait(lambda: (live.match().get("restart") or {}).get("kind") == "lateral", 60,
                  "the lateral")
        wait_js(page, "!document.getElementById('restart-card').hidden && document"
                      ".getElementById('restart-title').textContent.includes('Lateral')")
        wait_js(page, "document.getElementById('c-turn').textContent === 'Internacional'")
        page.screenshot(path=str(output_dir / "console-turn-line-restart-card.png"))
        assert "Lateral para" not in page.text_content("#c-announce"), page.text_content(
            "#c-announce")


def test_the_turn_line_never_says_a_refusal(browser: Any, output_dir: Path) -> None:
    """Walk 45h-a A5 (27-after-void-main.png): "Vez: Alvorada » Não há confirmação pendente com
    esse número" after a void. A refusal answers one input, in the result line (✗ …) and the
    Registro; the "Vez:" line says the state of play: the newest thing the rules said that is
    not a refusal — also when a correction leaves a later entry refused on the replay."""
    with phone_console(browser, "cbfm-1toque") as (live, page):
        internacional_asks_a_shot(live)
        wait_js(page, f"{SAID}.includes('pede chute')")
        d = live.daemon
        second = [e for e in d.store.entries(d.match["id"]) if e.kind == "touch"][-1]
        # the kick-off's second lance voided: on the replay Internacional's shot is refused
        live.referee("void", {"target": second.id, "reason": "não houve"})
        live.wait(lambda: live.match()["announcements"][-1]["code"] == "refused", 60,
                  "the replay's refusal")
        # the line drawn from the state with the refusal in it (its log's length)
        length = live.match()["log_length"]
        wait_js(page, f"Number(document.getElementById('c-announce').dataset.log) >= {length}")
        page.screenshot(path=str(output_dir / "console-turn-line-no-refusal.png"))
        said = page.text_content("#c-announce") or ""
        assert "só quem tem o lance" not in said, said
        assert "O lance é" not in said, said


def test_the_turn_line_follows_the_vez(browser: Any, output_dir: Path) -> None:
    """Walk45i-a M2 (61-ph-m3-turnB.png): "Vez: Alvorada » 10 s: Botafogo, jogue imediatamente"
    — the new team beside what was said of the old team's lance. What the rules said before the
    vez passed (the engine's turn_at) is no longer the state of play: here Internacional's "pede
    chute", once its shot is struck and the vez is Grêmio's (000: one lance each, said by no
    announcement)."""
    with phone_console(browser, "cbfm-1toque") as (live, page):
        live.referee("touch", {"side": "A", "disc": 6})  # Grêmio's two kick-off lances
        live.referee("touch", {"side": "A", "disc": 9})
        live.wait(lambda: live.match()["turn"] == "B", 60, "the lance to Internacional")
        live.referee("shot_asked", {"side": "B", "disc": 8})
        wait_js(page, f"{SAID}.includes('pede chute')")
        live.referee("touch", {"side": "B", "disc": 8})  # the shot, struck: Grêmio's vez
        live.wait(lambda: live.match()["turn"] == "A", 60, "the vez to Grêmio")
        length = live.match()["log_length"]
        wait_js(page, f"Number(document.getElementById('c-announce').dataset.log) >= {length}")
        page.screenshot(path=str(output_dir / "console-turn-line-vez-passed.png"))
        assert page.text_content("#c-turn") == "Grêmio"
        said = page.text_content("#c-announce") or ""
        assert "Internacional pede chute" not in said, said
