"""Issue 31 §11: with two questions and the Cobrança card up, the referee's main controls
stay on the first screen of a phone — the team, the disc keypad and "Chute pedido" — so a
15-second lance is not spent scrolling. The real rules engine behind the hub (000: a goal
the sensor saw with no shot asked, a second lance expiry, a free kick to take)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from rules_table import RulesTable

from futmesa.hub import StateHub
from futmesa_testkit.liveserver import TOKEN, LiveServer, serving

pytestmark = pytest.mark.browser

PHONES = [(390, 844), (360, 740)]


@pytest.fixture
def busy_table() -> Iterator[tuple[LiveServer, RulesTable]]:
    hub = StateHub()
    table = RulesTable(hub, "cbfm-1toque")
    with serving(hub, history=table) as server:
        for kind, data, source in (
                ("kickoff", {"side": "A"}, "referee"), ("start_period", {}, "referee"),
                ("clock_started", {"period": 1}, "device"),
                ("touch", {"side": "A", "disc": 5}, "referee"),
                ("foul", {"side": "B", "disc": 3, "where": "opponent_half"}, "referee"),
                # the lance runs out first: while a goal question waits no expiry counts
                ("lance_expired", {"count": 1}, "device"),
                ("lance_expired", {"count": 2}, "device"),
                ("goal_line", {"goal": 1}, "device")):
            server.call(table.apply, kind, data, source, "t")
        m = table.state.to_dict()
        assert sorted(p["kind"] for p in m["pending"]) == ["goal_no_shot", "lance_timeout"]
        assert m["restart"]["kind"] == "falta_direta" and not m["restart"]["taken"]
        yield server, table


@pytest.mark.parametrize("size", PHONES, ids=[f"{w}x{h}" for w, h in PHONES])
def test_two_questions_and_a_free_kick_leave_the_keypad_and_the_shot_on_screen(
        busy_table: tuple[LiveServer, RulesTable], browser: Any, output_dir: Path,
        size: tuple[int, int]) -> None:
    live, _table = busy_table
    width, height = size
    context = browser.new_context(viewport={"width": width, "height": height},
                                  is_mobile=True, has_touch=True)
    page = context.new_page()
    try:
        page.goto(f"{live.url}/console?token={TOKEN}")
        page.wait_for_selector("#pending-card:not([hidden]) button", timeout=20000)
        page.wait_for_selector("#restart-card:not([hidden])", timeout=20000)
        page.screenshot(path=str(output_dir / f"console-fold-{width}x{height}.png"))
        bar = page.locator(".sheet-bar").bounding_box()  # the fixed bar at the bottom
        assert bar is not None
        fold = min(height, bar["y"])
        for sel in ("#side-A", ".lance .keypad", "#act-shot"):
            box = page.locator(sel).bounding_box()
            assert box is not None, sel
            assert box["y"] >= 0 and box["y"] + box["height"] <= fold, (
                f"{sel} is below the fold at {width}×{height}: bottom at "
                f"{box['y'] + box['height']:.0f} px, the bar's top at {fold:.0f} px")
        # the questions and the card are still there, each reachable (not hidden)
        # (one question at a time, its answers on screen and the other counted)
        assert page.locator("#pending-card button").count() >= 2
        assert page.get_by_text("mais 1 pergunta depois desta").is_visible()
        assert page.is_visible("#restart-card")
    finally:
        context.close()
