"""The console's header on a 390×844 touch phone (walk 45h-a, lows; 46-*.png): the line under
the score keeps to one line when the lance reads TEMPO! ("✓ acesso de árbitro" wrapped onto
two), and the result line's "⚽" is drawn by the page, never left to a font the phone may not
have (it showed as an empty box). Real firmware, daemon and SQLite behind the page."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from phone_console import PHONE, TEAMS, internacional_asks_a_shot, phone_console, wait_js

from futmesa_testkit.livetable import LiveTable

pytestmark = pytest.mark.browser

ONE_LINE = """(() => {
  const t = document.getElementById('token-status'), p = document.getElementById('c-period');
  const a = t.getBoundingClientRect(), b = p.getBoundingClientRect();
  return t.getClientRects().length === 1 && a.top < b.bottom && a.bottom > b.top;
})()"""


def test_the_referee_access_stays_on_the_clock_line(browser: Any, output_dir: Path) -> None:
    with LiveTable(speed=30, ruleset="cbfm-1toque",
                   settings={"lance_ms": 2_000, "lance_warn_ms": 1_000}) as live:
        live.start_match(teams=TEAMS, kickoff="A")
        context = browser.new_context(**PHONE)
        try:
            page = context.new_page()
            page.goto(f"{live.base_url}/console?token={live.token}")
            wait_js(page, "document.getElementById('token-status').textContent.includes('✓')")
            live.referee("touch", {"side": "A", "disc": 6})  # a lance under way, then over
            wait_js(page, "document.getElementById('c-lance').classList.contains('over')")
            page.screenshot(path=str(output_dir / "console-header-lance-over.png"))
            assert page.evaluate(ONE_LINE), page.text_content(".mini2")
            # the access is still said: the ✓ on the line, its words in the page
            assert page.text_content("#token-status").startswith("✓")
            assert page.get_attribute("#token-status", "title") == "✓ acesso de árbitro"
        finally:
            context.close()


def test_the_goal_sign_is_drawn_by_the_page(browser: Any, output_dir: Path) -> None:
    with phone_console(browser, "cbfm-1toque") as (live, page):
        internacional_asks_a_shot(live)
        live.sim.goal(live.match()["ends"]["A"])
        wait_js(page, "document.getElementById('result').textContent.startsWith('⚽ Gol de')")
        page.screenshot(path=str(output_dir / "console-result-goal-sign.png"))
        drawn = page.evaluate("""(() => {
          const r = document.getElementById('result');
          const walker = document.createTreeWalker(r, NodeFilter.SHOW_TEXT);
          const bare = [];
          for (let n = walker.nextNode(); n; n = walker.nextNode()) {
            const drawn = n.parentElement.closest('.ball');
            if (n.nodeValue.includes('⚽') && !drawn) bare.push(n.nodeValue);
          }
          const b = r.querySelector('.ball');
          const cs = b && getComputedStyle(b);
          return { bare, image: cs ? cs.backgroundImage : '', color: cs ? cs.color : '' };
        })()""")
        assert drawn["bare"] == [], drawn  # no font is asked to draw the ball
        assert "svg" in drawn["image"], drawn
        assert drawn["color"] == "rgba(0, 0, 0, 0)", drawn
