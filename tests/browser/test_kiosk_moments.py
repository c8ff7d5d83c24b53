"""The moments that matter, on the TV, from a real match (the firmware on a pty, the daemon,
SQLite, the engine): an own goal says who put it in his own goal and who gets the point
(issue 31 §6), and after the final whistle the screen shows the result and no lance
countdown (issue 31 §9), in words, at TV and phone sizes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from screen_checks import VIEWPORTS, check_screen, wait_settled

from futmesa_testkit.livetable import LiveTable

pytestmark = pytest.mark.browser

TEAMS = {"A": {"name": "Grêmio", "color": "#1040c0"},
         "B": {"name": "Internacional", "color": "#c02020"}}
WAIT_MS = 90_000
# short halves, a lance long enough never to run out while the test looks
SETTINGS = {"period_ms": 60_000, "interval_ms": 10_000, "lance_ms": 3_600_000,
            "lance_warn_ms": 5_000}


def wait_js(page: Any, expr: str) -> None:
    page.wait_for_function(expr, timeout=WAIT_MS)


def test_own_goal_then_the_final_whistle(browser: Any, output_dir: Path) -> None:
    with LiveTable(speed=10, settings=SETTINGS) as live:
        live.start_match(teams=TEAMS, kickoff="A")
        page = browser.new_page(viewport=VIEWPORTS["tv"])
        try:
            page.goto(live.base_url + "/")
            wait_js(page, "document.getElementById('name-A').textContent === 'Grêmio'")
            # Grêmio puts the ball in its own goal: the rules ask, the referee says own goal
            live.sim.goal(live.match()["ends"]["A"])
            live.wait(lambda: any(p["kind"] == "goal_no_shot"
                                  for p in live.match().get("pending", [])), 60, "the question")
            question = next(p for p in live.match()["pending"] if p["kind"] == "goal_no_shot")
            live.referee("confirm", {"target": question["id"], "choice": "own_goal"})
            wait_js(page, "!document.getElementById('goal').classList.contains('hidden')")
            wait_settled(page, "#goal")
            assert page.text_content("#goal-word") == "GOL CONTRA!"
            assert page.text_content("#goal-team") == "ponto para Internacional"
            assert "gol contra de Grêmio" in page.text_content("#goal-detail")
            assert page.text_content("#goal-score") == "0 × 1"
            page.screenshot(path=str(output_dir / "kiosk-tv-own-goal.png"))
            # the whole screen fits 1920×1080 (walk45g, G10, 76-tv-gol-contra.png: "GOL
            # CONTRA!" in two lines pushed the score box past the bottom): one line of words,
            # the score box inside the screen
            fit = page.evaluate("""() => {
                const w = document.getElementById('goal-word');
                const line = parseFloat(getComputedStyle(w).lineHeight)
                    || parseFloat(getComputedStyle(w).fontSize);
                const s = document.getElementById('goal-score').getBoundingClientRect();
                return {lines: Math.round(w.getBoundingClientRect().height / line),
                        bottom: s.bottom, top: document.getElementById('goal-word')
                            .getBoundingClientRect().top, height: innerHeight};
            }""")
            assert fit["lines"] == 1 and fit["top"] >= 0 and fit["bottom"] <= fit["height"], fit

            # to the final whistle: the referee starts the second half when the first ends
            live.wait(lambda: live.match().get("status") == "interval", 120, "the interval")
            wait_js(page, "document.getElementById('lance').classList.contains('hidden')")
            live.referee("start_period")
            live.wait(lambda: bool(live.match().get("finished")), 120, "the final whistle")
            wait_js(page, "document.getElementById('status').textContent"
                          " === 'vitória de Internacional'")
            assert page.is_hidden("#lance")
            # the final whistle's words, not the ones still waiting from before it
            wait_js(page, "document.getElementById('announce').textContent.replace(/\\s/g, ' ')"
                          ".startsWith('Fim de jogo: 0 × 1, vitória de Internacional')")
            check_screen(page, "kiosk-tv-final-whistle", output_dir)
            page.set_viewport_size(VIEWPORTS["phone"])
            wait_js(page, "document.getElementById('status').textContent"
                          " === 'vitória de Internacional'")
            check_screen(page, "kiosk-phone-final-whistle", output_dir)
            # the overlay (for a stream) says the result too, with no lance
            page.set_viewport_size(VIEWPORTS["tv"])
            page.goto(live.base_url + "/?mode=overlay")
            wait_js(page, "document.getElementById('ov-note').textContent"
                          " === 'vitória de Internacional'")
            assert page.is_hidden("#ov-lance")
        finally:
            page.close()
