"""A correction, a shot without a goal and a withdrawn row said as facts (walk45i-a M4, M5,
lows): the Resumo of the súmula, /assinar and /history show no record numbers, so a correction
says what it changed, before and after ("Corrige «… entra o 12»: passa a ser «… entra o 13»"),
never "Corrige o registro nº 33"; a void of a row and the undo of a correction name the row;
"Chute sem gol" names the shooting team and its disc, as the console's Vez line did; an undone
void reads "Anulação desfeita", an answer withdrawn with its goal "o gol foi anulado".

A real SQLite log applied to the live book, read live and stored, as every view reads it."""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Any

from test_account import TEAMS, a_match, kicked_off

from futmesa import report
from futmesa.matchbook import MatchLibrary, build
from futmesa.matchbook.account import line
from futmesa.matchbook.answer import answer_words, answered
from futmesa.matchbook.entries import to_entry
from futmesa.web.console import entry_view, live_log_view
from futmesa.web.history import history_rows
from futmesa.web.signing import signing_view

OLD = "Substituição em Botafogo da Mesa: sai o botão 5, entra o 12"
NEW = "Substituição em Botafogo da Mesa: sai o botão 5, entra o 13"


def _views(t: Any) -> list[dict[int, dict[str, Any]]]:
    """The console's Registro, live and read back from the store."""
    live = live_log_view(t.book.live_log, None, "0", "pt")["entries"]
    record = MatchLibrary(t.store).match_record(t.book.id)
    return [{e["id"]: e for e in live},
            {e["id"]: entry_view(e, TEAMS, {}, "pt") for e in record["entries"]}]


def _summaries(t: Any) -> list[list[str]]:
    """The Resumo as the súmula, /assinar and /history list it."""
    record = MatchLibrary(t.store).match_record(t.book.id)
    sumula = build(record).table("account")
    assert sumula is not None
    signing = signing_view(record, "http://h/verificar/1")
    listed = history_rows(MatchLibrary(t.store).list_matches())
    return [[line(f) for f in record["account"]],
            [f"{r['when']} — {r['what']}" for r in sumula.rows],
            [x for x in signing["summary"] if " — " in x],
            [f["line"] for f in listed[0]["facts"]]]


def test_an_amendment_says_the_fact_before_and_after(tmp_path: Path) -> None:
    t = a_match(tmp_path / "m.sqlite")
    subst = max(e.id for e in t.store.entries(t.book.id) if e.kind == "substitution")
    amend = t.put("amend", {"target": subst, "reason": "número anotado errado",
                            "data": {"side": "B", "out": 5, "in": 13}})
    meant = f"Corrige «{OLD}»: passa a ser «{NEW}» — motivo: número anotado errado"
    for rows in _views(t):
        assert rows[amend]["text"] == meant, rows[amend]["text"]
    for said in _summaries(t):
        fixes = [x for x in said if "Corrige" in x]
        assert fixes and fixes[-1].endswith(meant), said
        assert not [x for x in said if "registro nº" in x], said
    # the Correções table says the same before and after
    record = MatchLibrary(t.store).match_record(t.book.id)
    table = build(record).table("corrections")
    assert table is not None
    row = table.rows[-1]
    assert row["target"].endswith(OLD) and row["now"] == NEW, row


def test_a_second_amendment_says_what_the_first_made(tmp_path: Path) -> None:
    """Issue 45 #2: a second correction of the same row quoted the row as logged, "12 → 13"
    then "12 → 14"; each says the fact as it read when it was made: "12 → 13", "13 → 14"."""
    t = a_match(tmp_path / "m.sqlite")
    subst = max(e.id for e in t.store.entries(t.book.id) if e.kind == "substitution")
    first = t.put("amend", {"target": subst, "data": {"side": "B", "out": 5, "in": 13}})
    second = t.put("amend", {"target": subst, "data": {"side": "B", "out": 5, "in": 14}})
    later = NEW.replace("entra o 13", "entra o 14")
    meant = {first: f"Corrige «{OLD}»: passa a ser «{NEW}»",
             second: f"Corrige «{NEW}»: passa a ser «{later}»"}
    for rows in _views(t):
        assert {n: rows[n]["text"] for n in meant} == meant
    for said in _summaries(t):
        assert [x.split(" — ", 1)[1] for x in said if "Corrige" in x] == list(meant.values())
    table = build(MatchLibrary(t.store).match_record(t.book.id)).table("corrections")
    assert table is not None
    assert [(r["target"].split(" — ", 1)[1], r["now"]) for r in table.rows[-2:]] == [
        (OLD, NEW), (NEW, later)], table.rows



def test_undoing_a_second_amendment_gives_back_the_first(tmp_path: Path) -> None:
    """Issue 45: "12 → 13", "13 → 14", then the second undone: the row reads "entra o 13"
    again, and the undo said «… entra o 12» volta a valer como foi lançado (the Correções
    table: "Volta a valer como registrado: … entra o 12"). It says the first correction's
    value comes back; undoing the first too, the row as logged."""
    t = a_match(tmp_path / "m.sqlite")
    subst = max(e.id for e in t.store.entries(t.book.id) if e.kind == "substitution")
    first = t.put("amend", {"target": subst, "data": {"side": "B", "out": 5, "in": 13}})
    second = t.put("amend", {"target": subst, "data": {"side": "B", "out": 5, "in": 14}})
    undo = t.put("void", {"target": second, "reason": "era o 13"})
    back = t.put("void", {"target": first, "reason": "era o 12"})
    meant = {undo: f"Correção desfeita: «{NEW}» volta a valer como ficou na correção anterior"
                   " — motivo: era o 13",
             back: f"Correção desfeita: «{OLD}» volta a valer como foi lançado — motivo: era o 12"}
    for rows in _views(t):
        assert {n: rows[n]["text"] for n in meant} == meant
    for said in _summaries(t):
        assert [x.split(" — ", 1)[1] for x in said if "Correção desfeita" in x] == list(
            meant.values()), said
    table = build(MatchLibrary(t.store).match_record(t.book.id)).table("corrections")
    assert table is not None
    assert [r["now"] for r in table.rows[-2:]] == [
        f"Volta a valer como ficou na correção anterior: {NEW}",
        f"Volta a valer como registrado: {OLD}"], table.rows

def test_a_void_and_its_undo_name_the_row_not_its_number(tmp_path: Path) -> None:
    t = kicked_off(tmp_path / "m.sqlite", clock=65_000)
    foul = t.put("foul", {"side": "A", "disc": 4, "where": "opponent_half"})
    void = t.put("void", {"target": foul, "reason": "foi do outro"})
    undo = t.put("void", {"target": void, "reason": "revisto"})
    amend = t.put("amend", {"target": foul, "reason": "botão 7",
                            "data": {"side": "A", "disc": 7, "where": "opponent_half"}})
    back = t.put("void", {"target": amend, "reason": "era o 4 mesmo"})
    for rows in _views(t):
        said = {k: rows[k]["text"] for k in (void, undo, back)}
        assert "nº" not in " ".join(said.values()), said
        assert said[void].startswith("Anula «Falta de Estrela do Norte, botão 4"), said
        assert said[void].endswith("» — motivo: foi do outro"), said
        assert said[undo].startswith("Anulação desfeita: «Falta de Estrela do Norte, botão 4"), \
            said
        assert said[back].startswith("Correção desfeita: «Falta de Estrela do Norte, botão 4"), \
            said
        # the undone void and the undone amendment say so, as a fact
        assert rows[void]["status_text"].startswith("Anulação desfeita pelo registro nº"), \
            rows[void]["status_text"]
        assert rows[amend]["status_text"].startswith("Correção desfeita pelo registro nº"), \
            rows[amend]["status_text"]
    for summary in _summaries(t):
        assert not [x for x in summary if "registro nº" in x], summary


def test_an_answer_withdrawn_with_its_goal_says_the_goal_was_voided(tmp_path: Path) -> None:
    t = kicked_off(tmp_path / "m.sqlite", clock=65_000)
    t.kick_off_first()  # no shot from the kick-off (000 Art. 12 §5)
    t.put("shot_asked", {"side": "A", "disc": 9})
    goal = t.device("goal_line", {"goal": 1, "held_ms": 40})
    answer = t.put("confirm", {"target": goal, "choice": "B"})
    t.put("void", {"target": goal, "reason": "a bola não entrou"})
    for rows in _views(t):
        assert rows[answer]["status_text"].startswith("Sem efeito: o gol foi anulado"), \
            rows[answer]["status_text"]


def test_a_shot_without_a_goal_names_the_shooter(tmp_path: Path) -> None:
    """walk45i-a M5: "Chute sem gol: defendido" named no team where the Vez line said "Chute
    de Botafogo: defendido"."""
    t = kicked_off(tmp_path / "m.sqlite", clock=30_000)
    t.kick_off_first()  # no shot from the kick-off (000 Art. 12 §5)
    t.put("shot_asked", {"side": "A", "disc": 9})
    shot = t.put("shot_result", {"outcome": "saved"})
    meant = "Chute de Estrela do Norte, botão 9: defendido"
    for rows in _views(t):
        assert rows[shot]["text"] == meant, rows[shot]["text"]
        assert not rows[shot]["meaning"], rows[shot]["meaning"]  # said once
    record = MatchLibrary(t.store).match_record(t.book.id)
    log = build(record).table("log")
    assert log is not None and [r["what"] for r in log.rows
                                if r.get("number") == str(shot)] == [meant], log.rows
    body = report.render_csv(record).split("# Registro de eventos\n", 1)[1].split("\n\n")[0]
    assert [r for r in csv.reader(io.StringIO(body), delimiter=";") if meant in r], body


def test_a_lance_time_foul_is_said_once_on_the_answer_line(tmp_path: Path) -> None:
    """walk45i-a, low (53-ph): "… falta · Falta disciplinar de Alvorada (1ª): passou do tempo
    do lance · Falta disciplinar de Alvorada (1ª) (CBFM 1 Toque, Art. 26 §1 A) · …": the rules'
    words said again beside the fact (answer.said, since d2e1458). The question's button
    says the foul it records ("falta disciplinar", not "falta": 52-ph)."""
    t = kicked_off(tmp_path / "m.sqlite", clock=65_000)
    t.put("touch", {"side": "A", "disc": 5})
    t.device("lance_started", {"side": "A"})
    t.device("lance_expired", {"side": "A", "warning": True})
    t.device("lance_expired", {"side": "A", "count": 1})
    asked = t.device("lance_expired", {"side": "A", "count": 2})
    question = t.book.state.m["pending"][0]
    assert question["answers"]["pt"] == {"foul": "falta disciplinar", "no_foul": "sem falta"}
    answer = t.put("confirm", {"target": asked, "choice": "foul"})
    row = next(e for e in t.book.live_log.since(None, 0)["entries"] if e["id"] == answer)
    said = answer_words(row)
    assert said is not None
    assert said["pt"].count("Falta disciplinar de Estrela do Norte (1ª)") == 1, said["pt"]
    assert "Falta disciplinar de Estrela do Norte (1ª): passou do tempo do lance" in said["pt"]
    assert "Tiro livre para Botafogo da Mesa (CBFM 1 Toque, Art. 26 §2)" in said["pt"]


def test_a_voided_goal_offers_no_straight_out_at_its_goal_kick(tmp_path: Path) -> None:
    """walk45i-a, low (46-ph): after a voided goal the CBFM tiro de meta offered "Saiu direto,
    sem rolar: falta técnica de Botafogo" — the team that had not even shot. 000 Art. 23 VI
    C is a lance from the opponent's field over one's own line, VI H one from one's own field
    over the opponent's: an asked shot is made from the opponent's field (Art. 12 §4) at the
    opponent's goal, so neither fits the ball it sent in."""
    t = kicked_off(tmp_path / "m.sqlite", clock=30_000)
    t.put("touch", {"side": "A", "disc": 10})
    t.put("shot_asked", {"side": "A", "disc": 9})
    goal = t.device("goal_line", {"goal": 1, "held_ms": 40})
    assert t.book.state.m["score"]["A"] == 1
    t.put("void", {"target": goal, "reason": "bola empurrada com a mão"})
    m = t.book.state.m
    assert m["restart"] and m["restart"]["kind"] == "tiro_de_meta", m["restart"]
    assert "straight_out" not in m["possession"]["offers"], m["possession"]


def test_a_voided_answer_is_quoted_as_its_row_reads(tmp_path: Path) -> None:
    """walk45j-a H2: voiding the kick-off answer quoted it as «Árbitro decide sobre o registro
    nº 88: saída para …» — a stored id no Registro shows — where its own row reads «Árbitro
    decide sobre o gol de …»."""
    t = kicked_off(tmp_path / "m.sqlite", clock=65_000)
    t.kick_off_first()  # no shot from the kick-off (000 Art. 12 §5)
    t.put("shot_asked", {"side": "A", "disc": 9})
    goal = t.device("goal_line", {"goal": 1, "held_ms": 40})
    answer = t.put("confirm", {"target": goal, "choice": "B"})
    void = t.put("void", {"target": answer, "reason": "botão 8 empurrou a bola"})
    for rows in _views(t):
        quoted = rows[answer]["text"]
        assert quoted.startswith("Árbitro decide sobre o gol de"), quoted
        assert rows[void]["text"] == f"Anula «{quoted}» — motivo: botão 8 empurrou a bola", \
            rows[void]["text"]
    for summary in _summaries(t):
        assert not [x for x in summary if "registro nº" in x], summary


def test_a_voided_answer_keeps_the_button_the_referee_tapped(tmp_path: Path) -> None:
    """walk48b H1: a ball in the goal with no shot asked, answered "chute pedido (não
    registrado)", then voided: its row read "…: sem gol — Gol! Botafogo da Mesa — 1 × 1",
    the answer the void made of it, never tapped. Struck, it says the button tapped; undone,
    the same (every question, every ruleset: test_answer_rows)."""
    t = kicked_off(tmp_path / "m.sqlite", clock=65_000)
    t.kick_off_first()  # a goal straight from the kick-off offers no shot (walk52a M3)
    t.put("touch", {"side": "A", "disc": 10})
    goal = t.device("goal_line", {"goal": 1, "held_ms": 40})
    answer = t.put("confirm", {"target": goal, "choice": "shot_asked"})
    tapped = _views(t)[0][answer]["text"]
    assert tapped.endswith(": chute pedido (não registrado)"), tapped
    void = t.put("void", {"target": answer, "reason": "chute não pedido de fato"})
    for rows in _views(t):
        assert rows[answer]["voided"] and rows[answer]["text"] == tapped, rows[answer]["text"]
        assert rows[void]["text"].startswith("Gol de Estrela do Norte (1 × 0, 2') anulado"), \
            rows[void]["text"]
    t.put("void", {"target": void, "reason": "revisto"})
    for rows in _views(t):
        assert not rows[answer]["voided"] and rows[answer]["text"] == tapped


def _stopped_by_mistake(tmp_path: Path) -> tuple[Any, int]:
    """Walk49a M3: in the mesa-posta a «Bola parada na pequena área» entered by mistake at
    00:38 stops the ball-in-play clock (the host's dead_ball, the table's clock_stopped):
    (the table, the wrong entry's id)."""
    t = kicked_off(tmp_path / "m.sqlite", "mesa-posta", clock=30_000)
    t.put("touch", {"side": "A", "disc": 9})
    t.clock = 38_000
    wrong = t.put("ball_stopped", {"side": "A", "area": "small"})
    t.device("clock_stopped", {"reason": 1})
    return t, wrong


def _void(t: Any, data: dict[str, Any], after_ms: float) -> tuple[int, dict[str, str]]:
    """The void stored ``after_ms`` after the stop and applied: (its id, the console's result
    line, as the table's answer to the referee says it)."""
    t.t += after_ms
    void = t.store.append_entry(t.book.id, "referee", "void", data, t.period, t.clock, "Rui",
                                occurred_at=t.t)
    stored = next(e for e in t.store.entries(t.book.id) if e.id == void)
    effects = t.book.apply(to_entry(stored))
    return void, answered(t.book.live_log.record(void), effects) or {}


def test_a_void_that_gives_back_dead_ball_time_says_how_much(tmp_path: Path) -> None:
    """The void's answer said only «✓ Anula «Bola parada…»» while the clock jumped 00:38 →
    01:22: it says the seconds it counts as played."""
    t, wrong = _stopped_by_mistake(tmp_path)
    stop = t.book.state.log[-1]
    # before the void, the engine names the entry whose void gives the clock its time back
    assert t.book.state.m["void_gives_back"] == {"entry": wrong, "stopped_at": stop.at}
    _void_id, said = _void(t, {"target": wrong, "reason": "toque errado"}, 44_000)
    assert said["pt"].startswith("Anula «Bola parada na pequena área de Estrela do Norte"), said
    assert said["pt"].endswith("Relógio: +44 s contados como jogados (a bola estava rolando)"), \
        said


def test_a_void_may_keep_the_clock_stopped(tmp_path: Path) -> None:
    """The ball stayed dead (it was a foul): the void says so (``keep_clock``), the table gets
    no command, the clock stays stopped, and every view says it kept it."""
    t, wrong = _stopped_by_mistake(tmp_path)
    void, said = _void(t, {"target": wrong, "reason": "era pênalti", "keep_clock": True},
                       43_000)
    m = t.book.state.m
    assert m["clock_running"] is False and m["void_gives_back"] is None
    kept = "relógio mantido parado: a bola seguia morta"
    assert kept in said["pt"] and "contados" not in said["pt"], said
    for rows in _views(t):
        assert kept in rows[void]["text"], rows[void]["text"]


def test_a_goal_tapped_by_mistake_voided_gives_the_time_back_and_no_goal_kick(
        tmp_path: Path) -> None:
    """Walk50a H1: «Gol de Botafogo (o sensor não viu)» tapped by mistake with the ball rolling
    (the question of a ball in goal without Chute pedido follows), voided saying the ball never
    went in: the clock stayed stopped (the 15 s promised not counted) and only the TV said
    «Gol anulado pelo árbitro: tiro de meta para …». Now the entry is erased (004 A partida:
    "um relógio que só corre com a bola rolando"): the answer counts the time, and no view,
    read live or back from the store, tells of a goal kick."""
    t = kicked_off(tmp_path / "m.sqlite", "mesa-posta", clock=5_000)
    t.put("touch", {"side": "A", "disc": 9})
    wrong = t.put("goal_by_hand", {"side": "B"})
    t.device("clock_stopped", {"reason": 1})
    assert [p["kind"] for p in t.book.state.m["pending"]] == ["goal_no_shot"]
    void, said = _void(t, {"target": wrong, "false_trip": True, "reason": "toque errado"},
                       15_000)
    m = t.book.state.m
    assert not m["pending"] and m["restart"]["taken"], m["restart"]
    assert said["pt"].endswith("Relógio: +15 s contados como jogados (a bola estava rolando)"), \
        said
    told = [a["pt"] for a in m["announcements"]] + [said["pt"]]
    for rows in _views(t):
        told.append(rows[void]["text"])
    for lines in _summaries(t):
        told += lines
    assert not [w for w in told if "tiro de meta" in w], told
