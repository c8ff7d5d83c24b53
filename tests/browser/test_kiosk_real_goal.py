"""End to end: a goal on the simulated table (firmware under micropython on a pty, the real
daemon, rules engine and SQLite) is celebrated on the kiosk: GOL! with the team and the disc,
held at least 3 s, then the engine's "Arrumação das equipes (…); saída para …" with the rule
cited in words; nothing on the screen is an internal code (table uid, ruleset id, rule-file
number)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from screen_checks import visible_codes, wait_settled
from test_kiosk_faces import WATCH

from futmesa_testkit.livetable import LiveTable

pytestmark = pytest.mark.browser

TEAMS = {"A": {"name": "Casa", "color": "#1040c0"}, "B": {"name": "Visitante", "color": "#000000"}}
LONG_LANCE = {"lance_ms": 3_600_000, "lance_warn_ms": 5_000}  # no lance runs out in the test
WAIT_MS = 90_000


def test_a_real_goal_is_celebrated_then_the_restart(page: Any, output_dir: Path) -> None:
    page.set_viewport_size({"width": 1920, "height": 1080})
    with LiveTable(speed=30, settings=LONG_LANCE) as live:
        live.start_match(teams=TEAMS)
        page.goto(live.base_url + "/")
        page.wait_for_function("document.getElementById('name-A').textContent === 'Casa'",
                               timeout=WAIT_MS)
        assert visible_codes(page) == []
        assert page.text_content("#table-id") == "Mesa 1"
        page.evaluate(WATCH)
        live.give_lance("A")  # Casa's kick-off first: no shot from it (000 Art. 12 §5)
        live.referee("shot_asked", {"side": "A", "disc": 9})
        page.wait_for_function(
            "document.getElementById('shot').textContent.includes('botão 9')", timeout=WAIT_MS)
        live.sim.goal(live.match()["ends"]["B"])
        page.wait_for_function("document.getElementById('score-A').textContent === '1'",
                               timeout=WAIT_MS)
        page.wait_for_selector("#goal:not(.hidden)", timeout=2000)
        wait_settled(page, "#goal")  # the GOL has popped in: the picture shows it landed
        page.screenshot(path=str(output_dir / "kiosk-real-goal-tv.png"))
        page.wait_for_function(
            "window.__seen.some((s) => s.text.startsWith('Arrumação'))", timeout=WAIT_MS)
        seen = page.evaluate("window.__seen")
        texts = [s["text"] for s in seen]
        gol = next(i for i, t in enumerate(texts) if t.startswith("GOL:"))
        assert "Casa" in texts[gol] and "botão 9" in texts[gol] and "1 × 0" in texts[gol]
        assert seen[gol + 1]["at"] - seen[gol]["at"] >= 3000
        restart = next(t for t in texts[gol:] if t.startswith("Arrumação"))
        assert restart == ("Arrumação das equipes (CBFM 1 Toque, Art. 6 §1); saída para "
                           "Visitante, salvo escolha do árbitro"), restart
        assert page.text_content("#goals-A li").endswith("botão 9")
        assert visible_codes(page) == []
        page.screenshot(path=str(output_dir / "kiosk-real-restart-tv.png"))


def test_a_penalty_goal_says_penalty_on_the_tv(page: Any) -> None:
    """Walk 50a L4 (19-penalti-gol-tv): in «A mesa está posta» a goal the penalty's kick scored
    read "1' 1ºT · botão 8" on the TV, as any goal; the rules mark it a penalty's (004
    Pênaltis) and the TV says so, on the GOL! screen and in the team's goals."""
    page.set_viewport_size({"width": 1920, "height": 1080})
    with LiveTable(speed=30, ruleset="mesa-posta", settings=LONG_LANCE) as live:
        live.start_match(teams=TEAMS)
        page.goto(live.base_url + "/")
        page.wait_for_function("document.getElementById('name-A').textContent === 'Casa'",
                               timeout=WAIT_MS)
        live.referee("touch", {"side": "A", "disc": 5})  # the kick-off
        live.referee("foul", {"side": "B", "disc": 2, "type": "falta", "where": "box"})
        live.referee("keeper_choice", {"side": "B", "choice": "right"})
        live.referee("shot_asked", {"side": "A", "disc": 8, "ball": "opponent_half"})
        page.wait_for_function(
            "document.getElementById('shot').textContent.includes('botão 8')", timeout=WAIT_MS)
        live.sim.goal(live.match()["ends"]["B"])
        page.wait_for_selector("#goal:not(.hidden)", timeout=WAIT_MS)
        detail = page.text_content("#goal-detail") or ""
        assert detail.endswith("botão 8 · pênalti"), detail
        page.wait_for_function(
            "document.getElementById('goals-A').textContent.endsWith('botão 8 · pênalti')",
            timeout=WAIT_MS)
