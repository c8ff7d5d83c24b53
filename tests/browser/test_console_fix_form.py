"""The Registro's correction form on a phone (walk #45 M10): voiding a goal-line trip names
the goal it gave, and undoing that void is one action, said as such — no "Anular" / "Corrigir"
choice in it. Real parts: the simulated table (firmware under micropython on a pty), the
daemon, SQLite and uvicorn (LiveTable); headless Chromium at 390×844."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from phone_console import ALVORADA, LONG_LANCE, phone_on

from futmesa_testkit.livetable import LiveTable

pytestmark = pytest.mark.browser

WAIT_MS = 60_000


def _answered(page: Any) -> str:
    page.wait_for_function("Referee.queued().length === 0", timeout=WAIT_MS)
    page.wait_for_function("/^[✓✗]/.test(document.getElementById('result').textContent)",
                           timeout=WAIT_MS)
    return page.text_content("#result") or ""


@contextmanager
def _goal_in_the_registro(browser: Any) -> Iterator[tuple[LiveTable, Any, int]]:
    """Alvorada's goal on a live table (its shot asked by botão 9, the ball on Botafogo's goal
    line), then the console open on a phone at its Registro: (the table, the page, the
    goal_line entry's id); the phone closed, then the table stopped, however the test ends."""
    with LiveTable(speed=10, settings=LONG_LANCE) as live:
        live.start_match(teams=ALVORADA)
        live.give_lance("A")
        live.referee("shot_asked", {"side": "A", "disc": 9})
        live.sim.goal(live.match()["ends"]["B"])
        live.wait(lambda: live.match()["score"]["A"] == 1, 60, "the goal")
        d = live.daemon
        goal = max(r.id for r in d.store.entries(d.match["id"]) if r.kind == "goal_line")
        with phone_on(browser, live) as page:
            page.tap("[data-sheet=sheet-log]")
            yield live, page, goal


def test_void_names_the_goal_and_its_undo_offers_only_the_undo(
        browser: Any, output_dir: Path) -> None:
    with _goal_in_the_registro(browser) as (live, page, goal):
        void_it = f"#log li[data-id='{goal}'] [data-fix=void]"
        page.wait_for_selector(void_it, timeout=WAIT_MS)
        page.tap(void_it)
        page.wait_for_selector("#fix[open]", timeout=WAIT_MS)
        what = page.text_content("#fix-what") or ""
        assert what.startswith("Gol de Alvorada (1 × 0"), what
        assert "Sensor: bola na linha do gol de Botafogo" in what, what
        assert page.is_visible("#fix-amend") and page.is_checked("#fix-void")
        page.screenshot(path=str(output_dir / "console-fix-void-goal.png"))
        page.tap("#fix-send")
        assert _answered(page).startswith("✓"), page.text_content("#result")
        live.wait(lambda: live.match()["score"]["A"] == 0, 60, "the void")
        # the voided row keeps the goal it was as its (struck) headline (walk45h-b B7)
        page.wait_for_function(
            f"((document.querySelector(\"#log li.voided[data-id='{goal}'] .fact\") || {{}})"
            ".textContent || '').startsWith('Gol de Alvorada (1 × 0')", timeout=WAIT_MS)

        d = live.daemon
        void = max(r.id for r in d.store.entries(d.match["id"]) if r.kind == "void")
        undo = f"#log li[data-id='{void}'] [data-fix=void]"
        page.wait_for_selector(undo, timeout=WAIT_MS)
        assert page.text_content(undo) == "Desfazer anulação"
        page.tap(undo)
        page.wait_for_selector("#fix[open]", timeout=WAIT_MS)
        assert not page.is_visible("#fix-void") and not page.is_visible("#fix-amend")
        assert page.text_content("#fix-send") == "Desfazer anulação"
        page.screenshot(path=str(output_dir / "console-fix-undo-void.png"))
        page.tap("#fix-send")
        page.wait_for_function("(document.getElementById('result').textContent || '')"
                               ".startsWith('✓ Anulação desfeita: Gol de Alvorada (1 × 0')",
                               timeout=WAIT_MS)  # the Registro's words (walk 45h-b B6)
        live.wait(lambda: live.match()["score"]["A"] == 1, 60, "the goal back")
        assert not page.js_errors, page.js_errors


def test_a_goals_boton_is_corrected_on_the_goal_row(browser: Any, output_dir: Path) -> None:
    """Walk45h-b B5 (66-mp-corrigir-goal.png): Corrigir on a goal's row offered only the team;
    it offers the Botão of the goal's scorer, and sending 7 makes the goal botão 7."""
    with _goal_in_the_registro(browser) as (live, page, goal):
        fix = f"#log li[data-id='{goal}'] [data-fix=amend]"
        page.wait_for_selector(fix, timeout=WAIT_MS)
        page.tap(fix)
        page.wait_for_selector("#fix[open] [data-key=disc]", timeout=WAIT_MS)
        assert page.is_checked("#fix-amend")
        assert page.input_value("#fix-fields [data-key=disc]") == "9"
        assert "Botão" in (page.text_content("#fix-fields") or "")
        page.fill("#fix-fields [data-key=disc]", "7")
        page.fill("#fix-reason", "foi o botão 7")
        page.screenshot(path=str(output_dir / "console-fix-goal-boton.png"))
        page.tap("#fix-send")
        assert _answered(page).startswith("✓"), page.text_content("#result")
        live.wait(lambda: [g["disc"] for g in live.match()["goals"]] == [7], 60,
                  "the goal's botão 7")
        page.wait_for_function(
            f"(document.querySelector(\"#log li[data-id='{goal}'] .fact\") || {{}})"
            ".textContent === \"Gol de Alvorada (1 × 0, 1', botão 7)\"", timeout=WAIT_MS)
        assert not page.js_errors, page.js_errors


def test_a_fouls_onde_corrected_on_a_foul_with_no_disc(browser: Any, output_dir: Path) -> None:
    """Walk45i-b M-b (m27-correct-form.png, m28-corrected.png): a mesa-posta foul entered with
    no botão, its Onde corrected to "no campo de quem sofreu a falta", read "Falta de Botafogo,
    botão no campo …": the form sent the empty Botão box as "". It sends none, and the row
    reads as the foul entered so (004 Faltas: the free kick)."""
    with LiveTable(speed=10, ruleset="mesa-posta") as live:
        live.start_match(teams=ALVORADA)
        # as the console sends it: the Botão box left empty (m14-foul.png)
        live.referee("foul", {"side": "B", "disc": None, "type": "falta",
                              "where": "opponent_half"})
        d = live.daemon
        foul = max(r.id for r in d.store.entries(d.match["id"]) if r.kind == "foul")
        with phone_on(browser, live) as page:
            page.tap("[data-sheet=sheet-log]")
            fix = f"#log li[data-id='{foul}'] [data-fix=amend]"
            page.wait_for_selector(fix, timeout=WAIT_MS)
            page.tap(fix)
            page.wait_for_selector("#fix[open] [data-key=where]", timeout=WAIT_MS)
            assert page.input_value("#fix-fields [data-key=disc]") == ""
            page.select_option("#fix-fields [data-key=where]",
                               label="no campo de quem sofreu a falta")
            page.fill("#fix-reason", "a falta foi no campo de Alvorada")
            page.screenshot(path=str(output_dir / "console-fix-foul-where.png"))
            page.tap("#fix-send")
            assert _answered(page).startswith("✓"), page.text_content("#result")
            amend = max((r for r in d.store.entries(d.match["id"]) if r.kind == "amend"),
                        key=lambda r: r.id)
            assert amend.data["data"]["disc"] is None, amend.data
            assert amend.data["data"]["where"] == "own_half", amend.data
            meant = "Falta de Botafogo no campo de quem sofreu a falta: Tiro livre para Alvorada"
            page.wait_for_function(
                f"(document.querySelector(\"#log li[data-id='{foul}'] .fact\") || {{}})"
                f".textContent === \"{meant}\"", timeout=WAIT_MS)
            what = page.text_content(f"#log li[data-id='{foul}'] .what") or ""
            assert what.startswith("Falta de Botafogo no campo de quem sofreu a falta"), what
            assert not page.js_errors, page.js_errors
