"""The Registro and the súmula say each row in words the referee can read there (walk45h-b,
issue #45): an answer names the fact it decided, never a folded row's number (B4); a goal's
botão is corrected on the goal's row and Correções says "Gol … botão 9 → 7" (B5); a row is
headed by the fact entered, what it caused under it, and a voided goal keeps its headline
(B7). A real SQLite log applied to the live book, read live and stored as the console and the
súmula read it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from test_account import kicked_off
from test_registro_corrections import _rows, _stored, refusals

from futmesa.matchbook import MatchLibrary, build


def test_a_lance_time_answer_names_the_fact_it_decided(tmp_path: Path) -> None:
    """B4: "Árbitro decide sobre o registro nº 26 (Tempo do lance … esgotado): sem falta"
    cited a row folded away in the console and left out of the PDF."""
    t = kicked_off(tmp_path / "m.sqlite", clock=65_000)
    t.device("lance_started", {"side": "B"})
    t.device("lance_expired", {"side": "B", "warning": True})
    t.device("lance_expired", {"side": "B", "count": 1})
    asked = t.device("lance_expired", {"side": "B", "count": 2})
    answer = t.put("confirm", {"target": asked, "choice": "no_foul"})
    for rows in (_rows(t), _stored(t)):
        assert rows[asked]["folded"], rows[asked]
        text = rows[answer]["text"]
        assert "registro" not in text and f"{asked}" not in text, text
        assert text.startswith("Árbitro decide sobre «Tempo do lance de Botafogo da Mesa "), text
        assert text.endswith("» (1º tempo 2'): sem falta"), text
    record = MatchLibrary(t.store).match_record(t.book.id)
    en = [e["text_en"] for e in record["entries"] if e["id"] == answer][0]
    assert en.startswith("Referee decides on “") and en.endswith("” (1st half 2'): no foul"), en


def test_a_row_is_headed_by_the_fact_entered_not_what_it_caused(tmp_path: Path) -> None:
    """B7: the referee's "Chute sem gol: para fora" on the last lance was headed "Fim do 2º
    tempo / Fim de jogo: 1 × 1, empate" with Anular/Corrigir under it: it read as if the final
    whistle could be voided. The headline is the entry's own fact (none here: its sentence);
    the end of the half it caused is said under it, in the rules' words."""
    t = kicked_off(tmp_path / "m.sqlite", clock=65_000)
    t.kick_off_first()  # no shot from the kick-off (000 Art. 12 §5)
    t.put("shot_asked", {"side": "A", "disc": 9})
    t.clock = 180_000
    t.device("alarm")
    assert t.book.state.m["status"] == "last_lance", t.book.state.m["status"]
    shot = t.put("shot_result", {"outcome": "wide"})
    for rows in (_rows(t), _stored(t)):
        row = rows[shot]
        assert row["fact_lines"] == [], row["fact_lines"]
        assert row["text"].startswith("Chute de Estrela do Norte, botão 9: para fora"), \
            row["text"]
        assert "Fim do 1º tempo" in "; ".join(row["meaning"]), row["meaning"]
        assert row["correctable"]
    # the account still places the end of the half (súmula, /assinar, history)
    record = MatchLibrary(t.store).match_record(t.book.id)
    assert [f["text"] for f in record["account"] if f["kind"] == "time"][-1] == "Fim do 1º tempo"


def test_a_voided_goal_keeps_its_headline_struck(tmp_path: Path) -> None:
    """B7 (Low): a voided goal's row kept only the struck sensor text; it keeps the goal it
    was as its headline, struck with the row (28-after-void.png)."""
    t = kicked_off(tmp_path / "m.sqlite", clock=65_000)
    t.kick_off_first()  # no shot from the kick-off (000 Art. 12 §5)
    t.put("shot_asked", {"side": "A", "disc": 9})
    goal = t.device("goal_line", {"goal": 1, "held_ms": 40})
    t.put("void", {"target": goal, "reason": "bateu na trave"})
    for rows in (_rows(t), _stored(t)):
        row = rows[goal]
        assert row["voided"] and row["fact_lines"] == [
            "Gol de Estrela do Norte (1 × 0, 2', botão 9)"], row["fact_lines"]


def test_a_goals_boton_is_corrected_on_the_goal_row(tmp_path: Path) -> None:
    """B5: Corrigir on "Gol de Democrata … botão 9" offered only Equipe; the referee had to
    correct the Chute pedido row, and Correções said "Chute pedido … botão 9 → 7". The goal's
    row offers its Botão (the engine takes it as the asked shot's disc: rules/corrections.py,
    goals.ball_in_goal) and Correções names the goal before and after."""
    t = kicked_off(tmp_path / "m.sqlite", clock=65_000)
    t.kick_off_first()  # no shot from the kick-off (000 Art. 12 §5)
    t.put("shot_asked", {"side": "A", "disc": 9})
    goal = t.device("goal_line", {"goal": 1, "held_ms": 40})
    for rows in (_rows(t), _stored(t)):
        fields = {f["key"]: f for f in rows[goal]["fields"]}
        assert fields.get("disc", {}).get("value") == 9, rows[goal]["fields"]
        assert fields["disc"]["label"] == "Botão"
    # a number no disc has is refused as the correction, before it is logged (on replay the
    # goal itself would be refused and the goal lost)
    wrong = refusals(t, "amend", {"target": goal, "data": {"goal": 1, "held_ms": 40,
                                                          "disc": 150}})
    assert wrong == ["O número de um botão vai de 0 a 99"], wrong
    amend = t.put("amend", {"target": goal, "data": {"goal": 1, "held_ms": 40, "disc": 7},
                            "reason": "foi o botão 7"})
    assert [g["disc"] for g in t.book.state.m["goals"]] == [7]
    for rows in (_rows(t), _stored(t)):
        assert rows[goal]["fact_lines"] == ["Gol de Estrela do Norte (1 × 0, 2', botão 7)"]
        # the correction's own row says it in words too, never "passa a ser «Sensor: …»"
        assert rows[amend]["text"] == (
            "Corrige o gol de Estrela do Norte (1 × 0, 2', botão 9): passa a ser Gol de "
            "Estrela do Norte (1 × 0, 2', botão 7) — motivo: foi o botão 7"), rows[amend]
    record = MatchLibrary(t.store).match_record(t.book.id)
    table = build(record).table("corrections")
    assert table is not None
    assert [(r["target"], r["now"]) for r in table.rows] == [
        (f"nº {goal} — Gol de Estrela do Norte (1 × 0, 2', botão 9)",
         "Gol de Estrela do Norte (1 × 0, 2', botão 7)")], table.rows


def test_a_goal_entered_by_hand_offers_its_boton(tmp_path: Path) -> None:
    """B5 as walked (66-mp-corrigir-goal.png): the referee's own goal entry (the sensor did
    not see it) offers Equipe and Botão; a goal with no disc (none was asked) offers none."""
    t = kicked_off(tmp_path / "m.sqlite", clock=65_000)
    t.kick_off_first()  # no shot from the kick-off (000 Art. 12 §5)
    t.put("shot_asked", {"side": "A", "disc": 9})
    goal = t.put("goal_by_hand", {"side": "A"})
    assert [g["disc"] for g in t.book.state.m["goals"]] == [9], t.book.state.m["goals"]
    for rows in (_rows(t), _stored(t)):
        assert [f["key"] for f in rows[goal]["fields"]] == ["side", "disc"], rows[goal]
    t.put("amend", {"target": goal, "data": {"side": "A", "disc": 7}})
    assert [g["disc"] for g in t.book.state.m["goals"]] == [7]


def test_a_lance_time_answer_reads_as_the_button_tapped(tmp_path: Path) -> None:
    """walk45j-b 34-lance-ans and walk45j-a: the button said "cera — bola no campo de
    Botafogo: indireta para Botafogo" (Pastilha) or "falta disciplinar" (CBFM), the Registro's
    answer row ended "…: falta". The row says the answer in the words of the button tapped
    (rules/answers.py chosen_words), in both languages."""
    for ruleset, where, pt, en in (
            ("pastilha-8x2", "own_half",
             "cera — bola no campo de Botafogo da Mesa: indireta para Botafogo da Mesa",
             "cera — ball in Botafogo da Mesa's field: indirect for Botafogo da Mesa"),
            ("pastilha-8x2", "opponent_half", "cera — bola no campo de Estrela do Norte: "
             "direta ou indireta para Botafogo da Mesa", "cera — ball in Estrela do Norte's "
             "field: direct or indirect for Botafogo da Mesa"),
            ("cbfm-1toque", None, "falta disciplinar", "disciplinary foul")):
        t = kicked_off(tmp_path / f"{ruleset}-{where}.sqlite", ruleset, clock=65_000)
        t.put("touch", {"side": "A", "disc": 5})
        t.device("lance_started", {"side": "A"})
        t.device("lance_expired", {"side": "A", "warning": True})
        for count in (1, 2):  # each ruleset asks at its own count (its 15 s, its tolerance)
            t.device("lance_expired", {"side": "A", "count": count})
        asked = next(p for p in t.book.state.m["pending"] if p["kind"] == "lance_timeout")
        answer = t.put("confirm", {"target": asked["id"], "choice": "foul",
                                   **({"where": where} if where else {})})
        for rows in (_rows(t), _stored(t)):
            assert rows[answer]["text"].endswith(f": {pt}"), rows[answer]["text"]
        record = MatchLibrary(t.store).match_record(t.book.id)
        said = [e["text_en"] for e in record["entries"] if e["id"] == answer][0]
        assert said.endswith(f": {en}"), said


def _botafogo_overran(tmp_path: Path) -> Any:
    """Estrela do Norte's kick-off (two lances), then Botafogo's lance run out twice: the
    question "passou do tempo do lance: falta disciplinar?" open."""
    t = kicked_off(tmp_path / "m.sqlite", clock=65_000)
    t.put("touch", {"side": "A", "disc": 5})
    t.put("touch", {"side": "A", "disc": 6})
    t.device("lance_started", {"side": "B"})
    t.device("lance_expired", {"side": "B", "count": 1})
    t.device("lance_expired", {"side": "B", "count": 2})
    return t


def test_a_lance_question_closed_unanswered_is_said_in_the_registro(tmp_path: Path) -> None:
    """walk48b M1: "Estrela do Norte passou do tempo do lance: falta disciplinar?" was open,
    the referee entered a foul in the box, and the question vanished — in no row of the
    Registro nor in the súmula. The row that withdrew it (the penalty's lance started on the
    device) is shown, headed by what the rules said of it."""
    t = _botafogo_overran(tmp_path)
    assert [p["kind"] for p in t.book.state.m["pending"]] == ["lance_timeout"]
    t.put("foul", {"side": "B", "where": "box"})
    started = t.device("lance_started", {"side": "A"})
    assert t.book.state.m["pending"] == []
    closed = ("Pergunta encerrada sem resposta: Botafogo da Mesa passou do tempo do lance — o "
              "lance seguinte já começou; sem falta")
    for rows in (_rows(t), _stored(t)):
        row = rows[started]
        assert not row["folded"], row
        assert closed in row["text"] + " ".join(row.get("fact_lines") or []), row
    # the súmula's event log says it on the same row (its Resumo does not: walk52b L5, below)
    log = build(MatchLibrary(t.store).match_record(t.book.id)).table("log")
    assert log is not None
    assert any(closed in " ".join(row.values()) for row in log.rows), log.rows


def test_a_question_closed_unanswered_is_not_in_the_resumo(tmp_path: Path) -> None:
    """walk52b L5: five «Pergunta encerrada sem resposta: … passou do tempo do lance — o lance
    seguinte já começou; sem falta» took 5 of the 19 lines of the Resumo da partida (súmula,
    /assinar, /history), each a question open for a second or two: the Registro's bookkeeping
    (000 Art. 26 §1 A: no foul for that delay), not a fact of the match. The Resumo — the
    account every view lists — keeps the foul that closed it; the event log keeps the line."""
    t = _botafogo_overran(tmp_path)
    t.put("foul", {"side": "A", "disc": 4, "type": "falta", "where": "own_half"})
    t.device("lance_started", {"side": "B"})
    assert t.book.state.m["pending"] == []
    record = MatchLibrary(t.store).match_record(t.book.id)
    said = [f["text"] for f in record["account"]]
    assert not [f for f in said if "Pergunta encerrada" in f], said
    assert any(f.startswith("Falta de Estrela do Norte, botão 4") for f in said), said
    sumula = build(record)
    resumo, log = sumula.table("account"), sumula.table("log")
    assert resumo is not None and log is not None
    assert not [r for r in resumo.rows if "Pergunta encerrada" in " ".join(r.values())]
    assert any("Pergunta encerrada sem resposta: Botafogo da Mesa passou do tempo do lance"
               in " ".join(r.values()) for r in log.rows), log.rows
    live = t.book.live_log.account()  # the console's /api/account: the same facts
    assert not [f for f in live if "Pergunta encerrada" in f["text"]], live
