"""Issue #45 (low): in a second match on one database (Nova partida) the words a referee reads
cite an entry by its number in HIS Registro (matchbook/numbers.py), never by the stored id: a
correction the rules refuse (the console's ✗ line), the rules' words on a correction in the
answer to it. A real daemon over a real SQLite log, served by the real web app; inputs through
POST /api/referee as the console sends them."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_corrections_api import Table

import futmesa_wire as W


@pytest.fixture
def second(tmp_path: Path) -> Iterator[Table]:
    """The table's second match, set up and under way; the first was played before it."""
    t = Table(tmp_path)
    t.start()
    teams = {"A": {"name": "Alvorada"}, "B": {"name": "Botafogo"}}
    try:
        t.referee("set_up", {"kickoff": "A", "teams": teams})
        t.referee("start_period", {})
        t.device(W.EV_PERIOD_STARTED)
        t.device(W.EV_CLOCK_STARTED)
        for disc in (6, 9):  # the kick-off's two lances (000 Art. 9 §2)
            t.referee("touch", {"side": "A", "disc": disc})
        t.referee("new_match", {})
        t.referee("set_up", {"kickoff": "A", "teams": teams})
        t.referee("start_period", {})
        t.device(W.EV_PERIOD_STARTED)
        t.device(W.EV_CLOCK_STARTED)
        yield t
    finally:
        t.live.stop()
        t.store.close()


def numbers(t: Table) -> dict[int, int]:
    """The match's entries: stored id -> the number its Registro shows."""
    assert t.daemon.match is not None
    return {e.id: n for n, e in enumerate(t.store.entries(t.daemon.match["id"]), 1)}


def refused(t: Table, kind: str, data: dict[str, Any]) -> str:
    # (posted as the console posts it; an answer still being applied is followed — under load
    # the server answers 202 first, and this helper once called a method Table never had)
    body = t.post("/api/referee", {"kind": kind, "data": data,
                                   "input_id": uuid.uuid4().hex}).json()
    assert not body.get("ok"), body
    return str(body["error"])


def test_a_correction_is_said_with_the_registros_number(second: Table) -> None:
    t = second
    t.referee("touch", {"side": "A", "disc": 6})
    touch = t.newest_entry()
    no = numbers(t)
    assert touch != no[touch]  # the store's ids go on from the first match
    answer = t.referee("void", {"target": touch, "reason": "não houve"})
    (said,) = [e for e in answer["result"]["effects"] if e.get("code") == "correction"]
    # (no author named: "pelo árbitro", never the API's internal "referee", issue 45 #3)
    assert said["pt"] == f"Registro nº {no[touch]} anulado pelo árbitro", said
    assert said["en"].startswith(f"Entry no. {no[touch]} voided by "), said


def test_a_refused_correction_cites_the_registros_number(second: Table) -> None:
    t = second
    no = numbers(t)
    clock = next(e.id for e in t.store.entries(t.daemon.match["id"])  # type: ignore[index]
                 if e.kind == "period_started")  # the table's clock row: no fact to correct
    assert clock != no[clock]
    said = refused(t, "void", {"target": clock})
    assert said.startswith(f"O registro nº {no[clock]} não é um fato a corrigir"), said


def test_an_answer_to_no_question_says_so_without_a_number(second: Table) -> None:
    """"Não há confirmação pendente com esse número": the referee never keyed a number (the
    console answers the question it shows); the question was answered or withdrawn."""
    said = refused(second, "confirm", {"target": 1, "choice": "A"})
    assert "número" not in said and "nº" not in said, said
    assert said == "Essa pergunta não está mais pendente: já foi respondida ou retirada", said


def test_a_correction_of_the_last_matchs_entry_names_no_number(second: Table) -> None:
    """A console left on the last match sends one of its entries: "Não há registro 5 para
    corrigir" named a stored id no Registro of this match shows."""
    first = min(e.id for e in second.store.entries(1))
    said = refused(second, "void", {"target": first})
    assert said == "Esse registro não é desta partida: não há o que corrigir", said
