"""The referee's own answer stays on the result line (docs/operating.md §3: «Toda ação responde
na hora com ✓ e o que foi registrado»). Walk52b M2: with «Estrela do Norte passou do tempo do
lance: falta disciplinar?» open, the referee entered a foul; its «✓ Falta de Botafogo …» stood
for about a second, then «» Pergunta encerrada sem resposta: … o lance seguinte já começou; sem
falta (CBFM 1 Toque, Art. 26 §1 A)» took its place — the table's next lance had withdrawn the
question. That side effect is said beside the ✓, never in its place; and a refusal (✗) is read
before news of the table takes the line (the walker's «toque irregular», unconfirmed). The real
rules engine behind the hub; Chromium at 390×844 (touch)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from phone_console import WAIT_MS, wait_js
from rules_table import RulesTable, phone_on_rules_table

from futmesa_testkit.liveserver import LiveServer

pytestmark = pytest.mark.browser

CLOSED = "Pergunta encerrada sem resposta: Time B passou do tempo do lance"
RESULT = "document.getElementById('result').textContent"


def _question(live: LiveServer, table: RulesTable, phone: Any) -> None:
    """Team A's kick-off (its two lances), Team B's lance run out twice: the question."""
    live.call(table.apply, "touch", {"side": "A", "disc": 5})
    live.call(table.apply, "touch", {"side": "A", "disc": 6})
    for kind, data in (("lance_started", {"side": "B"}),
                       ("lance_expired", {"side": "B", "count": 1}),
                       ("lance_expired", {"side": "B", "count": 2})):
        live.call(table.apply, kind, data, "device", "SIM")
    assert [p["kind"] for p in table.state.m["pending"]] == ["lance_timeout"]
    wait_js(phone, "document.getElementById('pending').textContent"
                   ".includes('passou do tempo do lance')")


def _next_lance(live: LiveServer, table: RulesTable, phone: Any) -> None:
    """The table starts the next lance: the question is withdrawn, said on the console."""
    live.call(table.apply, "lance_started", {"side": "B"}, "device", "SIM")
    assert table.state.m["pending"] == []
    phone.wait_for_function("t => document.getElementById('c-announce').textContent.includes(t)",
                            arg=CLOSED, timeout=WAIT_MS)
    phone.wait_for_function(f"t => {RESULT}.includes(t)", arg=CLOSED, timeout=WAIT_MS)


def test_the_check_of_a_foul_stays_when_the_question_closes(
    browser: Any, output_dir: Path
) -> None:
    with phone_on_rules_table(browser, "cbfm-1toque") as (live, table, phone):
        _question(live, table, phone)
        phone.tap("[data-sheet=sheet-foul]")
        phone.tap("#sheet-foul .side[data-side=A]")
        phone.tap("#sheet-foul [data-field=foul-where] [data-value=own_half]")
        phone.tap("#sheet-foul [data-act=foul]")
        phone.wait_for_function(f"/^✓/.test({RESULT}.trim())", timeout=WAIT_MS)
        check = (phone.text_content("#result") or "").strip()
        _next_lance(live, table, phone)
        phone.screenshot(path=str(output_dir / "answer-stays-foul-phone.png"))
        said = (phone.text_content("#result") or "").strip()
        assert said.startswith(check), (check, said)  # the ✓ first, whole
        assert CLOSED in said and said.index(CLOSED) > len(check), said  # the news beside it
        assert phone.eval_on_selector("#result", "e => e.classList.contains('ok')"), said
        assert not phone.js_errors, phone.js_errors


def test_a_refusal_is_not_replaced_by_the_tables_news(browser: Any, output_dir: Path) -> None:
    with phone_on_rules_table(browser, "cbfm-1toque") as (live, table, phone):
        _question(live, table, phone)
        phone.tap("#act-shot")  # no disc keyed: refused on the phone, with why
        phone.wait_for_function(f"/^✗/.test({RESULT}.trim())", timeout=WAIT_MS)
        refusal = (phone.text_content("#result") or "").strip()
        _next_lance(live, table, phone)
        phone.screenshot(path=str(output_dir / "answer-stays-refusal-phone.png"))
        said = (phone.text_content("#result") or "").strip()
        # said beside the table's news, until it could be read (then the news alone)
        assert said.startswith(refusal) and CLOSED in said, (refusal, said)
        # once read, the refusal of a state the match has left goes; the news stays
        phone.wait_for_function(f"t => !{RESULT}.includes('✗') && {RESULT}.includes(t)",
                                arg=CLOSED, timeout=WAIT_MS)
        assert not phone.js_errors, phone.js_errors
