"""Walk50a M1 («A mesa está posta»), on a 390×844 touch phone in headless Chromium with the real
rules engine behind the hub: «Último toque desta equipe» answering a ball in goal without Chute
pedido brought a goal kick, but the Falta / toque sheet stayed open over its card (its «▶
Cobrança dada» hidden) still offering «Gol de … (o sensor não viu)» — the referee's next tap
went to the sheet (walk50a H1). A restart to take that comes closes the sheet, as a question
does (docs/operating.md §5)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from phone_console import answered
from rules_table import phone_on_rules_table

pytestmark = pytest.mark.browser

WAIT_MS = 60_000


def test_a_restart_brought_by_an_answer_closes_the_sheet(browser: Any, output_dir: Path) -> None:
    with phone_on_rules_table(browser, "mesa-posta") as (live, table, phone):
        live.call(table.apply, "touch", {"side": "A", "disc": 9})  # the kick-off taken
        ends = table.state.to_dict()["ends"]
        live.call(table.apply, "goal_line", {"goal": ends["B"]}, "device")  # no shot asked
        live.call(table.apply, "clock_stopped", {"reason": 1}, "device")
        phone.wait_for_selector("#pending button", state="visible", timeout=WAIT_MS)
        phone.tap("[data-sheet=sheet-foul]")
        phone.tap("#sheet-foul .side[data-side=B]")
        phone.tap("#sheet-foul [data-act=last_touch]")
        said = answered(phone)
        assert said.startswith("✓"), said
        assert table.state.to_dict()["restart"]["kind"] == "tiro_de_meta"
        # the goal kick is what comes next: the sheet closed, its card's button at hand
        phone.wait_for_selector("#sheet-foul", state="hidden", timeout=WAIT_MS)
        phone.wait_for_selector("#rc-taken", state="visible", timeout=WAIT_MS)
        phone.screenshot(path=str(output_dir / "console-last-touch-restart-closes-sheet.png"))
        assert phone.js_errors == []

