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

from futmesa import report
from futmesa.matchbook import MatchLibrary, build
from futmesa.matchbook.account import account, line
from futmesa.web.console import live_log_view
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
    # Correções: "Passa a ser" says the foul the amended row now is, not the timer's words only
    corrections = build(record).table("corrections")
    assert corrections is not None and [r["now"] for r in corrections.rows] == [
        "Tempo do lance de Botafogo da Mesa esgotado — Falta técnica de Botafogo da Mesa "
        "(passou do tempo do lance): Falta técnica para Estrela do Norte"], corrections.rows


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
