"""An amended entry counts as amended in every table of the súmula, as in its sentence (issue
45, walk45h-a A4 and A3).

A4 (sumula1-1.png, s1.csv): nº 25 "entra o 12" amended to "entra o 13"; the Substituições
table's Entra column still said 12 while its sentence said 13 — the facts of an entry read the
stored data, not the amended one. A3 (s2.pdf, 64-*.png): gaúcha's lance expiry that is itself
the technical foul (001 Art. XXIX e), amended from Alvorada's lance to Botafogo's: the rules
re-ran it (Botafogo's technical foul, the kick to Alvorada), but the Faltas row still read
"Falta técnica de Alvorada …: Falta técnica para Alvorada" — the offender from the stored data,
the kick from the rules. Every view reads one account (matchbook/account.py): the stored match
(the súmula, its CSV, /assinar, /history) and the console's live log alike.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Any

from test_account import Table, kicked_off
from test_registro_corrections import _rows, _stored, refusals

from futmesa import report
from futmesa.matchbook import MatchLibrary, build
from futmesa.matchbook.account import account, line
from futmesa.web.console import live_log_view
from futmesa.web.history import render_history
from futmesa.web.signing import signing_view


def views(t: Table) -> tuple[dict[str, Any], list[str], list[str]]:
    """(the stored match's record, its account's lines, the console's account's lines)."""
    record = MatchLibrary(t.store).match_record(t.book.id)
    live = live_log_view(t.book.live_log, None, "0", "pt")
    return (record, [line(f) for f in record["account"]],
            [line(f) for f in account(live["entries"])])


def csv_section(record: dict[str, Any], title: str) -> list[list[str]]:
    text = report.render_csv(record).split(f"# {title}\n", 1)[1].split("\n\n")[0]
    return list(csv.reader(io.StringIO(text), delimiter=";"))


def test_an_amended_substitution_reads_amended_in_the_substitutions_table(
        tmp_path: Path) -> None:
    t = kicked_off(tmp_path / "m.sqlite", clock=30_000)
    sub = t.put("substitution", {"side": "A", "out": 5, "in": 12})
    t.put("amend", {"target": sub, "data": {"side": "A", "out": 5, "in": 13},
                    "reason": "entrou o 13, não o 12"})
    record, stored, live = views(t)
    subs = build(record).table("substitutions")
    assert subs is not None
    assert [(r["team"], r["out"], r["in"]) for r in subs.rows] == [
        ("Estrela do Norte", "5", "13")], subs.rows
    assert "entra o 13" in subs.rows[0]["what"]
    rows = csv_section(record, "Substituições")
    assert [r[2:4] for r in rows[1:]] == [["5", "13"]], rows
    assert live == stored and any("entra o 13" in x for x in stored), stored
    # Corrigir again starts from the fact as it reads now, never the 12 first logged
    row = next(e for e in live_log_view(t.book.live_log, None, "0", "pt")["entries"]
               if e["id"] == sub)
    assert {f["key"]: f["value"] for f in row["fields"]} == {"side": "A", "out": 5, "in": 13}
    # amended to the other team: the Equipe column follows too
    t.put("void", {"target": sub + 1, "reason": "engano"})
    t.put("amend", {"target": sub, "data": {"side": "B", "out": 3, "in": 14},
                    "reason": "era do Botafogo"})
    record, stored, live = views(t)
    subs = build(record).table("substitutions")
    assert subs is not None and [(r["team"], r["out"], r["in"]) for r in subs.rows] == [
        ("Botafogo da Mesa", "3", "14")], subs.rows
    assert live == stored


def test_a_gaucha_lance_foul_amended_to_the_other_team_is_that_teams_foul(
        tmp_path: Path) -> None:
    g = kicked_off(tmp_path / "g.sqlite", "gaucha", clock=30_000)
    g.device("lance_started", {"side": "A"})
    foul = g.device("lance_expired", {"side": "A", "count": 1})  # the foul itself (XXIX e)
    assert g.book.state.m["fouls"]["A"]["technical"] == 1
    g.put("amend", {"target": foul, "data": {"side": "B", "warning": False, "count": 1},
                    "reason": "era o lance de Botafogo"})
    # the rules re-ran the amended fact: Botafogo's technical foul, the kick to Estrela
    m = g.book.state.m
    assert (m["fouls"]["A"]["technical"], m["fouls"]["B"]["technical"]) == (0, 1)
    assert m["restart"]["side"] == "A", m["restart"]
    record, stored, live = views(g)
    discipline = build(record).table("discipline")
    assert discipline is not None
    said = [(r["team"], r["what"]) for r in discipline.rows]
    assert said == [("Botafogo da Mesa", "Falta técnica de Botafogo da Mesa (passou do tempo "
                     "do lance): Falta técnica para Estrela do Norte")], said
    assert live == stored
    assert not [x for x in stored if "Falta técnica de Estrela do Norte" in x], stored
    rows = csv_section(record, "Faltas e disciplina")
    assert [r[1] for r in rows[1:]] == ["Botafogo da Mesa"], rows
    summary = signing_view(record, "http://h/verificar/1")["summary"]
    assert not [x for x in summary if "Falta técnica de Estrela do Norte" in x], summary
    # Correções: "Passa a ser" says the foul the amended row now is, not the timer's words
    # (the fact it is, as its row's headline says it: never its sentence and again the fact
    # that says it, walk45i-b M-b)
    corrections = build(record).table("corrections")
    assert corrections is not None and [r["now"] for r in corrections.rows] == [
        "Falta técnica de Botafogo da Mesa (passou do tempo do lance): Falta técnica para "
        "Estrela do Norte"], corrections.rows


def test_an_answered_lance_question_follows_its_amended_expiry(tmp_path: Path) -> None:
    """cbfm asks the referee (000 Art. 26 §1 A): the foul answered "sim" is the team's whose
    expiry it answers, as amended — the rules count it for that team and every table says so."""
    t = kicked_off(tmp_path / "m.sqlite", clock=65_000)
    t.device("lance_started", {"side": "B"})
    t.device("lance_expired", {"side": "B", "warning": True})
    t.device("lance_expired", {"side": "B", "count": 1})
    asked = t.device("lance_expired", {"side": "B", "count": 2})
    t.put("confirm", {"target": asked, "choice": "foul"})
    t.put("amend", {"target": asked, "data": {"side": "A", "count": 2},
                    "reason": "o lance era da Estrela"})
    fouls = t.book.state.m["fouls"]
    assert (fouls["A"]["disciplinary"], fouls["B"]["disciplinary"]) == (1, 0)
    record, stored, live = views(t)
    discipline = build(record).table("discipline")
    assert discipline is not None and [(r["team"], r["what"]) for r in discipline.rows] == [
        ("Estrela do Norte", "Falta disciplinar de Estrela do Norte (1ª): passou do tempo do "
                             "lance")], discipline.rows
    assert live == stored


# ---- walk45i-b M-a, M-b: an amended fact reads as the same fact entered with the new value --
def reads(t: Table, target: int) -> dict[str, Any]:
    """Everything a page says of the entry ``target`` and of the match, the correction's own
    row aside: its console row (live and stored: headline, detail line, rules' words), the
    account (súmula, /assinar, /history), the Faltas table, the signing page's summary."""
    record, stored, live = views(t)
    assert live == stored, (live, stored)
    rows = [_rows(t)[target], _stored(t)[target]]
    said = [{k: r[k] for k in ("fact_lines", "text", "meaning")} for r in rows]
    assert said[0] == said[1], said
    corrections = {f["entry"] for f in record["account"] if f["kind"] == "correction"}
    discipline = build(record).table("discipline")
    summary = signing_view(record, "http://h/verificar/1")["summary"]
    history = render_history(MatchLibrary(t.store).list_matches())
    return {"row": said[0],
            "account": [line(f) for f in record["account"] if f["entry"] not in corrections],
            "faltas": discipline.rows if discipline else [],
            "summary": [s for s in summary if "Corrige" not in s],
            "history": history}


def test_a_gaucha_disciplinary_foul_amended_to_botao_7_reads_as_if_entered_so(
        tmp_path: Path) -> None:
    """M-a (g33-corrected.png, sumula-1.txt): botão 3 → 7 made the fact "Falta disciplinar:
    Botafogo, botão 7": it lost "punida com falta técnica" (001 Art. XXIX f, the rules' re-run)
    in the Registro, súmula, /assinar and /history, and the row's detail line kept "botão 3"."""
    amended = kicked_off(tmp_path / "a.sqlite", "gaucha", clock=30_000)
    foul = amended.put("discipline", {"side": "B", "disc": 3, "type": "disciplinary"})
    amended.put("amend", {"target": foul, "data": {"side": "B", "disc": 7,
                                                    "type": "disciplinary"},
                          "reason": "número errado, era o 7"})
    entered = kicked_off(tmp_path / "e.sqlite", "gaucha", clock=30_000)
    same = entered.put("discipline", {"side": "B", "disc": 7, "type": "disciplinary"})
    assert same == foul
    now, meant = reads(amended, foul), reads(entered, same)
    assert now["row"] == meant["row"], (now["row"], meant["row"])
    assert now["row"]["fact_lines"] == [
        "Falta disciplinar de Botafogo da Mesa: punida com falta técnica, botão 7"], now["row"]
    assert now["row"]["text"] == "Falta disciplinar: Botafogo da Mesa, botão 7"
    assert "Falta técnica para Estrela do Norte (Regra Gaúcha, Art. XXIX f)" in now["row"][
        "meaning"], now["row"]
    for page in ("account", "faltas", "summary"):
        assert now[page] == meant[page], (page, now[page], meant[page])
    assert "punida com falta técnica, botão 7" in now["history"], now["history"]
    # Correções: before → after, the after as the fact now reads
    record = MatchLibrary(amended.store).match_record(amended.book.id)
    table = build(record).table("corrections")
    assert table is not None and [(r["target"], r["now"]) for r in table.rows] == [
        (f"nº {foul} — Falta disciplinar: Botafogo da Mesa, botão 3",
         "Falta disciplinar de Botafogo da Mesa: punida com falta técnica, botão 7")], table.rows


def test_a_mesa_posta_foul_amended_to_the_fouled_sides_half_reads_as_if_entered_so(
        tmp_path: Path) -> None:
    """M-b (m28-corrected.png, sumula-2.txt): Onde corrected to "no campo de quem sofreu a
    falta" read "Falta de Botafogo, botão no campo …" (a foul with no disc: the form sent "")
    and the Correções' "Passa a ser" said the sentence twice, joined by "—"."""
    amended = kicked_off(tmp_path / "a.sqlite", "mesa-posta", clock=30_000)
    foul = amended.put("foul", {"side": "B", "disc": None, "type": "falta",
                                "where": "opponent_half"})
    # the correction form's fields as the console offers them, sent unchanged but Onde
    row = _rows(amended)[foul]
    sent = {**row["data"], **{f["key"]: f["value"] for f in row["fields"]}}
    assert {f["key"]: f["type"] for f in row["fields"]}.get("disc") == "number", row["fields"]
    amended.put("amend", {"target": foul, "data": {**sent, "where": "own_half"},
                          "reason": "a falta foi no campo de Estrela"})
    entered = kicked_off(tmp_path / "e.sqlite", "mesa-posta", clock=30_000)
    same = entered.put("foul", {"side": "B", "disc": None, "type": "falta",
                                "where": "own_half"})
    now, meant = reads(amended, foul), reads(entered, same)
    assert now["row"] == meant["row"], (now["row"], meant["row"])
    for page in ("account", "faltas", "summary"):
        assert now[page] == meant[page], (page, now[page], meant[page])
    fact = ("Falta de Botafogo da Mesa no campo de quem sofreu a falta: Tiro livre para "
            "Estrela do Norte")
    assert now["row"]["fact_lines"] == [fact], now["row"]
    record = MatchLibrary(amended.store).match_record(amended.book.id)
    table = build(record).table("corrections")
    assert table is not None and [(r["target"], r["now"]) for r in table.rows] == [
        (f"nº {foul} — Falta de Botafogo da Mesa no campo do infrator", fact)], table.rows


def test_an_amendment_naming_no_disc_by_an_empty_number_is_refused(tmp_path: Path) -> None:
    """An amendment's botão is a number 0–99 or none: "" (what the form once sent for an
    empty field) is refused before it is logged, never read "botão " on every page."""
    t = kicked_off(tmp_path / "m.sqlite", "mesa-posta", clock=30_000)
    foul = t.put("foul", {"side": "B", "disc": None, "type": "falta", "where": "opponent_half"})
    wrong = refusals(t, "amend", {"target": foul, "data": {
        "side": "B", "disc": "", "type": "falta", "where": "own_half"}})
    assert wrong == ["O número de um botão vai de 0 a 99"], wrong
