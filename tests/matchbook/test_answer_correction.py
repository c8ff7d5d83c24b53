"""Correcting a referee's answer to a question (walk52a findings 4 and 5).

4. Registro → Corrigir on the answer to the goal sensor's question showed a free-text box
holding the internal code «shot_asked»; «sem gol» typed there was taken with a ✓ and did
nothing (the question came back). The form offers the answers the question offered, in the
words of its buttons, the current one chosen — never a code.

5. That correction took the 2 × 3 goal away with no trace: no GOL ANULADO on the TV, nothing
in the súmula's Gols table. A goal a correction takes away is annulled as a void annuls it
(004 «Só vale gol de chute pedido»: the answer decided whether the goal counts).

A real SQLite log applied to the live book, read live and stored, as every view reads it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from test_account import TEAMS, kicked_off

from futmesa.matchbook import MatchLibrary, build
from futmesa.matchbook.answer import correction_words
from futmesa.web.console import entry_view, live_log_view

ANSWERS = ["sem gol", "chute pedido (não registrado)", "falso acionamento"]


def _views(t: Any) -> list[dict[int, dict[str, Any]]]:
    """The console's Registro, live and read back from the store."""
    live = live_log_view(t.book.live_log, None, "0", "pt")["entries"]
    record = MatchLibrary(t.store).match_record(t.book.id)
    return [{e["id"]: e for e in live},
            {e["id"]: entry_view(e, TEAMS, {}, "pt") for e in record["entries"]}]


def _answered(tmp_path: Path) -> tuple[Any, int]:
    """mesa-posta: a ball in Botafogo's goal with no shot asked, answered «chute pedido (não
    registrado)»: 1 × 0 (004 «Só vale gol de chute pedido»). (the table, the answer's id)"""
    t = kicked_off(tmp_path / "m.sqlite", "mesa-posta", clock=65_000)
    t.kick_off_first()  # a goal straight from the kick-off offers no shot (walk52a M3)
    t.put("touch", {"side": "A", "disc": 10})
    goal = t.device("goal_line", {"goal": 1, "held_ms": 40})
    assert t.book.state.m["pending"][0]["options"] == ["no_goal", "shot_asked", "false_trip"]
    answer = t.put("confirm", {"target": goal, "choice": "shot_asked"})
    assert t.book.state.m["score"] == {"A": 1, "B": 0}
    return t, answer


def test_an_answer_is_corrected_by_choosing_among_the_questions_answers(
        tmp_path: Path) -> None:
    t, answer = _answered(tmp_path)
    for rows in _views(t):
        fields = rows[answer]["fields"]
        assert [f["key"] for f in fields] == ["choice"], fields
        choice = fields[0]
        assert choice["type"] == "choice" and choice["label"] == "Resposta", choice
        assert [o["label"] for o in choice["options"]] == ANSWERS, choice
        assert [o["value"] for o in choice["options"]] == ["no_goal", "shot_asked",
                                                           "false_trip"], choice
        assert choice["value"] == "shot_asked", choice  # the current answer, chosen


def test_a_goal_a_corrected_answer_takes_away_is_annulled(tmp_path: Path) -> None:
    t, answer = _answered(tmp_path)
    amend = t.put("amend", {"target": answer, "reason": "não houve chute pedido",
                            "data": {"target": answer - 1, "choice": "no_goal"}})
    assert t.book.state.m["score"] == {"A": 0, "B": 0}
    # the TV: GOL ANULADO, as for a void of the goal (answer.correction_words)
    said = correction_words(t.book.live_log.record(amend))
    assert said is not None and said["goal"], said
    assert said["pt"].startswith("Gol de Estrela do Norte (1 × 0, 2') anulado"), said
    for rows in _views(t):
        assert rows[amend]["text"].startswith("Gol de Estrela do Norte (1 × 0, 2') anulado"), \
            rows[amend]["text"]
    # the súmula: the goal kept in the Gols table, struck, and in the Resumo
    sumula = build(MatchLibrary(t.store).match_record(t.book.id))
    goals = sumula.table("goals")
    assert goals is not None and len(goals.rows) == 1, goals
    assert goals.rows[0]["score"] == "1 × 0" and goals.struck == [True], goals.rows
    resumo = sumula.table("account")
    assert resumo is not None
    assert any("Gol de Estrela do Norte (1 × 0, 2') anulado" in str(r["what"])
               for r in resumo.rows), resumo.rows
    # undone, the goal counts again: the annulment struck, the goal back in the table
    t.put("void", {"target": amend, "reason": "revisto"})
    assert t.book.state.m["score"] == {"A": 1, "B": 0}
    goals = build(MatchLibrary(t.store).match_record(t.book.id)).table("goals")
    assert goals is not None and goals.struck == [False], goals.rows
