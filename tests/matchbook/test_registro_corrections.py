"""The Registro offers Anular / Corrigir on exactly what the engine corrects (walk #45g G3,
G4): never on "Árbitro autoriza o início do período" nor the table's clock rows; the answer to
"Quem dá a saída depois do gol?" names the goal, not the sensor's row, and once that goal is
voided the answer is withdrawn — struck, said so, no buttons — and the engine refuses it too.
A real SQLite log applied to the live book, read as the console reads it, live and stored."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from test_account import TEAMS, kicked_off

from futmesa.matchbook import MatchLibrary, build
from futmesa.rules import Entry
from futmesa.web.console import entry_view, live_log_view


def refusals(t: Any, kind: str, data: dict[str, Any]) -> list[str]:
    """What the engine says to a correction tried on the live match (nothing: accepted)."""
    effects = t.book.probe(Entry(0, kind, data, "referee", t.period, t.clock, author="Rui"))
    return [str(e.data["pt"]) for e in effects
            if e.kind == "announce" and e.data.get("code") == "refused"]


def _rows(t: Any) -> dict[int, dict[str, Any]]:
    live = live_log_view(t.book.live_log, None, "0", "pt")
    return {e["id"]: e for e in live["entries"]}


def _stored(t: Any) -> dict[int, dict[str, Any]]:
    record = MatchLibrary(t.store).match_record(t.book.id)
    return {e["id"]: entry_view(e, TEAMS, {}, "pt") for e in record["entries"]}


def test_a_period_start_offers_no_correction(tmp_path: Path) -> None:
    t = kicked_off(tmp_path / "m.sqlite", clock=65_000)
    for rows in (_rows(t), _stored(t)):
        start = [e for e in rows.values() if e["kind"] == "start_period"]
        assert start and not start[0]["correctable"] and not start[0]["fields"], start
        assert start[0]["text"] == "Árbitro autoriza o início do período"


def test_the_kick_off_answer_names_the_goal_and_is_withdrawn_with_it(tmp_path: Path) -> None:
    t = kicked_off(tmp_path / "m.sqlite", clock=65_000)
    t.kick_off_first()  # no shot from the kick-off (000 Art. 12 §5)
    t.put("shot_asked", {"side": "A", "disc": 9})
    goal = t.device("goal_line", {"goal": 1, "held_ms": 40})
    answer = t.put("confirm", {"target": goal, "choice": "B"})
    for rows in (_rows(t), _stored(t)):
        row = rows[answer]
        assert row["text"] == ("Árbitro decide sobre o gol de Estrela do Norte (1 × 0, 2', "
                               "botão 9): saída para Botafogo da Mesa"), row["text"]
        assert row["correctable"]
    void = t.put("void", {"target": goal, "reason": "a bola não entrou"})
    for rows in (_rows(t), _stored(t)):
        row = rows[answer]
        assert row["voided"] and not row["correctable"] and not row["fields"], row
        assert row["status_text"] == f"Sem efeito: o gol foi anulado pelo registro nº {void}"
    # the engine refuses what the console no longer offers (the daemon probes an input so:
    # table/referee.py; refused, it is not logged and the console reads why)
    for kind, data in (("void", {"target": answer}),
                       ("amend", {"target": answer, "data": {"target": goal, "choice": "A"}})):
        said = refusals(t, kind, data)
        assert said and f"registro nº {answer}" in said[0], said
    start = next(e["id"] for e in _rows(t).values() if e["kind"] == "start_period")
    assert "não é um fato a corrigir" in refusals(t, "void", {"target": start})[0]
    # the void undone: the goal and its answer are back, correctable again
    t.put("void", {"target": void, "reason": "revisto"})
    for rows in (_rows(t), _stored(t)):
        assert rows[answer]["correctable"] and not rows[answer]["voided"], rows[answer]
    assert refusals(t, "void", {"target": answer}) == []


def test_sumula_corrections_say_before_and_after_in_words(tmp_path: Path) -> None:
    """Walk #45g G5 (sumula1.txt): "Registro corrigido" named the sensor's row and "Passa a
    ser" was empty for a void: each row says what the entry was and what it is now."""
    t = kicked_off(tmp_path / "m.sqlite", clock=65_000)
    t.kick_off_first()  # no shot from the kick-off (000 Art. 12 §5)
    t.put("shot_asked", {"side": "A", "disc": 9})
    goal = t.device("goal_line", {"goal": 1, "held_ms": 40})
    t.put("confirm", {"target": goal, "choice": "B"})
    void = t.put("void", {"target": goal, "reason": "toque de mão"})
    t.put("void", {"target": void, "reason": "revisto"})
    foul = t.put("foul", {"side": "A", "disc": 4, "where": "opponent_half"})
    t.put("amend", {"target": foul, "data": {"side": "A", "disc": 7, "where": "opponent_half"},
                    "reason": "era o botão 7"})
    record = MatchLibrary(t.store).match_record(t.book.id)
    table = build(record).table("corrections")
    assert table is not None
    said = [(r["kind"], r["target"], r["now"]) for r in table.rows]
    scored = "Gol de Estrela do Norte (1 × 0, 2', botão 9)"
    assert said[0] == ("Anulação", f"nº {goal} — {scored}", "Anulado: o gol não vale"), said[0]
    assert said[1][0] == "Anulação desfeita" and said[1][1].startswith(
        f"nº {void} — {scored} anulado pelo árbitro"), said[1]
    assert said[1][2] == f"{scored} volta a valer", said[1]
    assert said[2][0] == "Correção" and said[2][1].startswith(
        f"nº {foul} — Falta de Estrela do Norte, botão 4"), said[2]
    assert said[2][2].startswith("Falta de Estrela do Norte, botão 7"), said[2]
    for _kind, before, after in said:
        assert "Sensor" not in before and after, (before, after)


def test_one_goal_offers_one_row_to_void(tmp_path: Path) -> None:
    """walk45j-b 12: the sensor's "Sensor: bola na linha do gol de …" row and the answer's
    "Gol de …" row both offered Anular and Corrigir for one goal. The goal an answer counted
    is the answer's row's (rules/corrections.correctable): the sensor's row offers nothing, the
    engine refuses a void of it and says where to go; voided on the answer's row, the goal is
    gone, and the sensor's row is the table's sight again (correctable)."""
    for ruleset, choice in (("pastilha-8x2", "own_goal"), ("mesa-posta", "shot_asked")):
        t = kicked_off(tmp_path / f"{ruleset}.sqlite", ruleset, clock=65_000)
        t.kick_off_first()  # a goal straight from the kick-off offers no shot (walk52a M3)
        t.put("touch", {"side": "A", "disc": 5})
        ends = t.book.state.m["ends"]
        goal = t.device("goal_line", {"goal": ends["A" if choice == "own_goal" else "B"],
                                      "held_ms": 40})
        answer = t.put("confirm", {"target": goal, "choice": choice})
        assert sum(t.book.state.m["score"].values()) == 1
        for rows in (_rows(t), _stored(t)):
            assert rows[answer]["correctable"] and rows[answer]["fact_lines"], rows[answer]
            assert not rows[goal]["correctable"], rows[goal]
        said = refusals(t, "void", {"target": goal, "reason": "x"})
        assert said and "anule ou corrija o gol na linha dessa resposta" in said[0], said
        t.put("void", {"target": answer, "reason": "a bola não entrou"})
        assert sum(t.book.state.m["score"].values()) == 0
        for rows in (_rows(t), _stored(t)):
            assert rows[goal]["correctable"], rows[goal]
