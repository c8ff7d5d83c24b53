"""The console's inputs for what the table cannot see, with the real rules engine behind the hub
(no device): the ball stopped in a small area (000 Art. 16) from its button, and an expulsion whose
disc is not known answered with the number field of "A confirmar" (000 Art. 26 §1 F)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from test_real_engine import RulesTable

from futmesa.hub import StateHub
from futmesa.web.testing import TOKEN, serving

pytestmark = pytest.mark.browser


def test_ball_stopped_and_expelled_disc_from_the_console(browser: Any, output_dir: Path) -> None:
    hub = StateHub()
    table = RulesTable(hub, "cbfm-1toque")
    with serving(hub, history=table) as live:
        for kind, source in (("set_up", "referee"), ("start_period", "referee"),
                             ("clock_started", "device")):
            live.call(table.apply, kind, {"kickoff": "A"} if kind == "set_up" else {}, source,
                      "t")
        console = browser.new_page()
        try:
            console.goto(live.url + f"/console?token={TOKEN}")
            console.click("[data-sheet=sheet-foul]")
            console.click("#sheet-foul .side[data-side=B]")
            console.click("#sheet-foul button[data-act=ball_stopped]")
            console.wait_for_function(
                "document.getElementById('result').textContent.startsWith('✓ bola parada')")
            restart = table.state.to_dict()["restart"]
            assert (restart["kind"], restart["side"]) == ("reposicao", "B")

            # three disciplinary fouls for B and no lance entered: which disc goes?
            console.click("#sheet-foul [data-close]")
            console.click("[data-sheet=sheet-discipline]")
            console.select_option("#disc-action", "disciplinary")
            for _ in range(3):
                console.click("#sheet-discipline button[data-act=discipline]")
                console.wait_for_function(
                    "document.getElementById('result').textContent.startsWith('✓ disciplina')")
            console.click("#sheet-discipline [data-close]")
            console.wait_for_selector("#pending input.pending-disc")
            assert "Qual botão" in console.text_content("#pending li")
            console.fill("#pending input.pending-disc", "7")
            console.click("#pending li button")
            console.wait_for_function("document.getElementById('pending').textContent"
                                      ".includes('nada pendente')")
            assert table.state.to_dict()["expelled"]["B"] == [7]
            console.screenshot(path=str(output_dir / "console-expel-disc.png"))
        finally:
            console.close()
