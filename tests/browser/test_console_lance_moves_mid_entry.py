"""Walk51b M2 (Regra Gaúcha), on a 390×844 touch phone in headless Chromium with the real rules
engine behind the hub: a technical free kick for one team, the referee opens «Falta / toque»
and keys its disc 10 — meanwhile that team's own lance passes 15 s (001 Art. XXIX e: the
technical foul, the lance to the other team). The sheet followed the lance and his «Toque» was
stored for the other team's disc 10. The team he chose stays while he is keying its entry, the
console says the vez moved, and his tap goes to the team on the buttons he pressed — refused
here by the engine, in its words: never a disc stored for a team he did not pick."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from phone_console import answered, wait_js
from rules_table import phone_on_rules_table

pytestmark = pytest.mark.browser

SHEET = "#sheet-foul"


def _card(team: str) -> str:
    """The page's test that the restart card shows the technical free kick for `team`."""
    return ("document.getElementById('restart-title').textContent"
            f" === 'Cobrança: falta técnica para {team}'")


def _sheet_pressed(side: str) -> str:
    return (f"document.querySelector('{SHEET} .side[data-side={side}]')"
            ".getAttribute('aria-pressed') === 'true'")


def test_the_team_keyed_in_the_sheet_stays_when_its_lance_runs_out(browser: Any,
                                                                    output_dir: Path) -> None:
    with phone_on_rules_table(browser, "gaucha") as (live, table, phone):
        live.call(table.apply, "touch", {"side": "A", "disc": 9})  # the kick-off taken
        # Time A passes 15 s: a technical free kick for Time B, the buttons on Time B
        live.call(table.apply, "lance_expired", {"side": "A", "count": 1}, "device")
        wait_js(phone, _card("Time B"))
        phone.tap("[data-sheet=sheet-foul]")
        wait_js(phone, _sheet_pressed("B"))
        for k in "10":
            phone.tap(f"{SHEET} [data-key='{k}']")
        wait_js(phone, f"document.querySelector('{SHEET} .disc-shown').textContent === 'nº 10'")
        # …and Time B's own lance runs out before his «Toque»: the free kick is Time A's now
        live.call(table.apply, "lance_expired", {"side": "B", "count": 1}, "device")
        wait_js(phone, _card("Time A"))
        # the console says it, the sheet stays on the team he keyed the disc for
        wait_js(phone, "document.getElementById('result').textContent"
                       ".includes('A vez passou para Time A: confira a equipe')")
        assert phone.evaluate(f"document.querySelector('{SHEET} .disc-shown').textContent") \
            == "nº 10"
        assert phone.evaluate(_sheet_pressed("B")), "the sheet switched team under his thumb"
        phone.screenshot(path=str(output_dir / "console-lance-moved-mid-entry.png"))
        phone.tap(f"{SHEET} [data-act=touch]")
        said = answered(phone)
        touches = [e["data"] for e in table.entries if e["kind"] == "touch"]
        assert touches == [{"side": "A", "disc": 9}], touches  # no disc 10 for Time A
        # Time B may not play now: the engine's words, naming the team he keyed it for
        assert said.startswith("✗ toque Time B — ação recusada: Falta técnica para Time A"), said
        assert phone.js_errors == []
