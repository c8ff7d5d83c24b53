"""Issue 31 §10 on the TV: an ordinary foul has a frame of its own (the rules announce it
by the kick it gives), and the goal list marks the half of each goal from the second on
(the minutes restart each half)."""

from __future__ import annotations

from typing import Any

import pytest
from kiosk_states import LONG_A, goal, match_state

from futmesa_testkit.liveserver import LiveServer

pytestmark = pytest.mark.browser


def test_a_foul_has_its_frame_and_goals_say_their_half(live: LiveServer, page: Any) -> None:
    second = {**goal("A", 5, 2, 40), "period": 2}
    st = match_state(score={"A": 2, "B": 0}, goals=[goal("A", 9, 19, 10), second])
    live.publish(st)
    page.goto(live.url + "/")
    page.wait_for_function("document.querySelectorAll('#goals-A li').length === 2")
    items = page.eval_on_selector_all("#goals-A li", "els => els.map(e => e.textContent)")
    assert items == ["3' 2ºT · botão 5", "20' · botão 9"], items
    foul = {"id": 9, "entry": 60, "code": "restart_falta_direta", "rule": "000 Art. 19 §2–§3",
            "pt": f"Tiro livre (direto ou indireto) para {LONG_A} (000 Art. 19 §2–§3)",
            "en": "x"}
    live.publish(match_state(score={"A": 2, "B": 0}, goals=st["match"]["goals"],
                             announcements=[foul]))
    page.wait_for_function("document.getElementById('announce').textContent"
                           ".startsWith('Tiro livre')")
    assert page.get_attribute("#announce", "data-kind") == "foul"
