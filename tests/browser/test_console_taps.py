"""The taps table in docs/operating.md is true: each of the ten most frequent referee actions
is played on the phone console, from its first screen, counting every tap, and the count must
be the table's. The action must reach the host as meant.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from futmesa.hub import StateHub
from futmesa.rules.answers import answer_words
from futmesa_testkit.liveserver import TOKEN, ScriptedTable, serving

pytestmark = pytest.mark.browser

DOC = Path(__file__).resolve().parents[2] / "docs" / "operating.md"
MARK = "<!-- taps: tests/browser/test_console_taps.py -->"
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
WAIT_MS = 60_000
QUESTION = {"id": 1, "kind": "goal_no_shot", "pt": "Gol sem chute pedido: o gol vale?",
            "options": ["counts", "no_goal"], "default": "no_goal",
            "answers": {"pt": answer_words(["counts", "no_goal"], "pt_BR")}}


class Recorder(ScriptedTable):
    """Takes every action (the rules are not what this test is about) and records it."""

    async def handle(self, kind: str, data: dict[str, Any], author: str,
                     pressed_at: float | None = None) -> dict[str, Any]:
        if kind in ("goal", "shot_asked", "void", "amend", "start_period"):
            return await super().handle(kind, data, author, pressed_at)
        self.entries.append({"id": len(self.entries) + 1, "kind": kind, "data": data,
                             "author": author, "voided": False, "source": "referee",
                             "amended_by": None, "period": 1, "clock_ms": 0, "created_at": 0})
        return {"entry": len(self.entries)}

    between_periods = False  # the interval, where a period can start (its button not grey)

    def state(self) -> dict[str, Any]:
        st = super().state()
        st["match"]["turn"] = "A"
        st["match"]["pending"] = [QUESTION]
        if self.between_periods and not self.running:
            st["status"] = st["match"]["status"] = "interval"
        return st


class Thumb:
    """The referee's thumb on the console: every tap is counted."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.taps = 0

    def tap(self, selector: str) -> None:
        self.page.click(selector)
        self.taps += 1



# what the referee does (the table's first column) -> the taps, and what the host must get
ACTIONS: dict[str, tuple[Callable[[Thumb], None], str, dict[str, Any]]] = {
    "Chute pedido pela equipe na vez, botão 7": (
        lambda t: [t.tap("[data-key='7']"), t.tap("#act-shot")],
        "shot_asked", {"side": "A", "disc": 7, "ball": "opponent_half"}),
    "Chute pedido pela outra equipe, botão 11": (
        lambda t: [t.tap("#side-B"), t.tap("[data-key='1']"), t.tap("[data-key='1']"),
                   t.tap("#act-shot")],
        "shot_asked", {"side": "B", "disc": 11, "ball": "opponent_half"}),
    "Chute sem gol (defendido, para fora, na trave…)": (
        lambda t: [t.tap("[data-outcome=saved]")], "shot_result", {"outcome": "saved"}),
    "Responder a pergunta de \"A confirmar\"": (
        lambda t: [t.tap("#pending [data-choice=no_goal]")],
        "confirm", {"target": 1, "choice": "no_goal"}),
    "Falta da equipe na vez": (
        lambda t: [t.tap("[data-sheet=sheet-foul]"),
                   t.tap("[data-field=foul-where] [data-value=opponent_half]"),
                   t.tap("#sheet-foul [data-act=foul]")],
        "foul", {"side": "A", "disc": None, "type": "falta", "where": "opponent_half"}),
    "Falta da outra equipe, na área": (
        lambda t: [t.tap("[data-sheet=sheet-foul]"), t.tap("#sheet-foul .side[data-side=B]"),
                   t.tap("[data-field=foul-where] [data-value=box]"),
                   t.tap("#sheet-foul [data-act=foul]")],
        "foul", {"side": "B", "disc": None, "type": "falta", "where": "box"}),
    "Último toque desta equipe": (
        lambda t: [t.tap("[data-sheet=sheet-foul]"), t.tap("#sheet-foul [data-act=last_touch]")],
        "last_touch", {"side": "A"}),
    "Lateral para a outra equipe": (
        lambda t: [t.tap("[data-sheet=sheet-foul]"), t.tap("#sheet-foul .side[data-side=B]"),
                   t.tap("#sheet-foul [data-restart=lateral]")],
        "restart", {"side": "B", "kind": "lateral"}),
    "Iniciar período": (
        lambda t: [t.tap("[data-sheet=sheet-clock]"), t.tap("#sheet-clock [data-act=start]")],
        "start_period", {}),
    "Anular um registro": (
        lambda t: [t.tap("[data-sheet=sheet-log]"),
                   t.tap("#log li[data-id='1'] button[data-fix=void]"), t.tap("#fix-send")],
        "void", {"target": 1}),
}


def documented() -> dict[str, int]:
    """The taps table of docs/operating.md: what the referee does -> taps."""
    text = DOC.read_text(encoding="utf-8")
    assert MARK in text, f"{DOC} has lost its taps table (marked {MARK})"
    rows: dict[str, int] = {}
    for line in text.split(MARK, 1)[1].lstrip().splitlines():
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in line.strip("|").split("|")]
        if re.fullmatch(r"\d+", cells[1]):
            rows[cells[0]] = int(cells[1])
    return rows


def test_the_taps_table_is_true(browser: Any) -> None:
    table_doc = documented()
    assert sorted(table_doc) == sorted(ACTIONS), "the table and this test name other actions"
    assert len(table_doc) == 10
    hub = StateHub()
    table = Recorder(hub)
    counted: dict[str, int] = {}
    with serving(hub, history=table) as live:
        live.call(table.handle, "goal", {"side": "A"}, "árbitro")  # entry 1, for "Anular"
        ctx = browser.new_context(**PHONE)
        page = ctx.new_page()
        try:
            page.goto(live.url + f"/console?token={TOKEN}")
            for what, (play, kind, data) in ACTIONS.items():
                page.goto(live.url + "/console")  # the first screen, side on turn
                page.wait_for_function("document.getElementById('token-status').textContent"
                                       ".includes('✓')", timeout=WAIT_MS)
                page.wait_for_selector("#pending [data-choice]", timeout=WAIT_MS)
                page.wait_for_function("document.getElementById('side-A')"
                                       ".getAttribute('aria-pressed') === 'true'")
                if kind == "void":
                    page.click("[data-sheet=sheet-log]")  # let the log load; not a tap
                    page.wait_for_selector("#log li[data-id='1'] button", timeout=WAIT_MS)
                    page.click("#sheet-log [data-close]")
                if kind == "start_period":  # Iniciar período is grey in a running half
                    table.between_periods = True
                    live.publish(table.state())
                    page.wait_for_function("document.getElementById('c-period').textContent"
                                           " === 'Intervalo'", timeout=WAIT_MS)
                before = len(table.entries)
                thumb = Thumb(page)
                play(thumb)
                page.wait_for_function("Referee.queued().length === 0", timeout=WAIT_MS)
                page.wait_for_function("/^[✓✗]/.test(document.getElementById('result')"
                                       ".textContent)", timeout=WAIT_MS)
                assert page.text_content("#result").startswith("✓"), (what, page.text_content(
                    "#result"))
                sent = table.entries[before:]
                assert [(e["kind"], e["data"]) for e in sent] == [(kind, data)], what
                counted[what] = thumb.taps
        finally:
            ctx.close()
    print("\ntaps per action:", counted)
    assert counted == table_doc
