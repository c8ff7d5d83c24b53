"""The súmula from a hand-made record: HTML, CSV, JSON and a PDF whose text is read back."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

import pypdfium2 as pdfium

from futmesa import report
from futmesa.matchbook import build
from futmesa_testkit.liveserver import sample_record


def pdf_text(path: Path) -> str:
    doc = pdfium.PdfDocument(str(path))
    try:
        return "\n".join(doc[i].get_textpage().get_text_range() for i in range(len(doc)))
    finally:
        doc.close()


def cells(page: str) -> str:
    """The page with each cell's heading label (for the phone's card layout) left out."""
    return re.sub(r'<td data-label="[^"]*">', "<td>", page)


def test_html_has_result_goals_and_escapes_names() -> None:
    record = sample_record(name_a="<script>alert(1)</script>", name_b="B & Cia")
    page = cells(report.render_html(record))
    assert "<script>alert(1)</script>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt; 2 × 1 B &amp; Cia" in page
    assert "Árbitro Silva" in page and "Copa Teste" in page
    assert '<meta name="viewport"' in page
    # goals with their disc, by minute (03:05 is the 4th minute), and the running score
    assert "<td>1º tempo 4&#39;</td><td>&lt;script&gt;alert(1)&lt;/script&gt;</td>" in page
    assert "<td>7</td><td>1 × 0</td>" in page
    assert "sai o botão 4, entra o 12" in page
    assert 'class="voided"' in page  # the voided goal stays in the log, struck through


def test_minute_convention() -> None:
    assert report.minute(0) == "1'"
    assert report.minute(59_999) == "1'"
    assert report.minute(60_000) == "2'"
    assert report.minute(None) == ""
    # walk52b L1: the alarm of a 3-minute half is its 3rd minute; past it, added time
    assert report.minute(134_000, 180_000) == "3'"
    assert report.minute(180_000, 180_000) == "3'"
    assert report.minute(185_000, 180_000) == "3'+1"
    assert report.minute(245_000, 180_000) == "3'+2"
    assert report.minute(300_000, 180_000) == "3'+2"


def csv_sections(text: str) -> dict[str, list[list[str]]]:
    sections: dict[str, list[list[str]]] = {}
    current: list[list[str]] | None = None
    for row in csv.reader(io.StringIO(text), delimiter=";"):
        if row and row[0].startswith("# "):
            current = sections.setdefault(row[0][2:], [])
        elif row and current is not None:
            current.append(row)
    return sections


def test_csv_carries_the_tables_the_pdf_prints() -> None:
    record = sample_record()
    sections = csv_sections(report.render_csv(record))
    assert list(sections) == ["Resumo da partida", "Gols", "Faltas e disciplina",
                              "Substituições", "Correções", "Registro de eventos"]
    goals = sections["Gols"]
    assert goals[0] == ["Quando", "Equipe", "Botão", "Placar", "Ocorrência", "Em vigor"]
    assert goals[1:] == [["1º tempo 4'", "Alvorada", "7", "1 × 0",
                          "Gol de Alvorada (1 × 0, 4', botão 7)", "sim"],
                         ["1º tempo 21'", "Botafogo", "3", "1 × 1",
                          "Gol de Botafogo (1 × 1, 21', botão 3)", "sim"],
                         ["2º tempo 11'", "Alvorada", "10", "2 × 1",
                          "Gol de Alvorada (2 × 1, 11', botão 10)", "sim"]]
    assert sections["Substituições"][1] == [
        "2º tempo 9'", "Alvorada", "4", "12",
        "Substituição em Alvorada: sai o botão 4, entra o 12", "sim"]
    # the account lists the same facts in the same words
    assert [r[1] for r in sections["Resumo da partida"][1:]] == [
        "Gol de Alvorada (1 × 0, 4', botão 7)", "Gol de Botafogo (1 × 1, 21', botão 3)",
        # (the void of a sensor's row the account does not list: not listed either, issue 45)
        "Disciplinar de Botafogo, botão 5",
        "Expulsão: Botafogo, botão 5", "Substituição em Alvorada: sai o botão 4, entra o 12",
        "Gol de Alvorada (2 × 1, 11', botão 10)"]
    corrections = sections["Correções"][1]
    assert corrections[0] == "7" and corrections[1] == "Anulação"
    assert "bola não entrou" in corrections and "Árbitro Silva" in corrections
    log = sections["Registro de eventos"]
    assert [r[0] for r in log[1:]] == [str(e["id"]) for e in record["entries"]]
    voided = {r[0]: r[-2] for r in log[1:]}
    assert voided["5"].startswith("Anulado") and voided["3"] == ""
    # what the PDF strikes, the CSV says in its last column (walk 45f M4): the voided goal's
    # row reads as no longer in force, in every table that lists it
    in_force = {r[0]: r[-1] for r in log[1:]}
    assert in_force["5"] == "não — riscado" and in_force["3"] == "sim"
    assert {r[-1] for t in sections.values() for r in t[1:]} == {"sim", "não — riscado"}
    assert log[2][4] == "Chute pedido por Alvorada, botão 7"


def test_json_carries_the_same_tables_and_the_record() -> None:
    record = sample_record()
    data = json.loads(report.render_json(record))
    assert data["entries"] == record["entries"]
    assert data["summary"]["score"] == {"A": 2, "B": 1}
    assert data["summary"]["result"] == "Alvorada 2 × 1 Botafogo"
    assert set(data["tables"]) == {"account", "goals", "discipline", "substitutions",
                                   "corrections", "log"}
    assert [g["team"] for g in data["tables"]["goals"]["rows"]] == ["Alvorada", "Botafogo",
                                                                    "Alvorada"]
    assert data["tables"]["corrections"]["rows"][0]["reason"] == "bola não entrou"


def test_pdf_contains_final_score_and_names(tmp_path: Path) -> None:
    record = sample_record(name_a="<b>Alvo</b>", name_b="Grêmio")
    out = report.render_pdf(record, tmp_path / "s.pdf")
    assert out.read_bytes().startswith(b"%PDF")
    text = pdf_text(out)
    assert "<b>Alvo</b> 2 × 1 Grêmio" in text
    assert "Árbitro Silva" in text
    assert "página 1 de" in text


def test_pdf_changes_with_the_score(tmp_path: Path) -> None:
    record = sample_record()
    record["state"]["score"] = {"A": 0, "B": 5}
    text = pdf_text(report.render_pdf(record, tmp_path / "s.pdf"))
    assert "Alvorada 0 × 5 Botafogo" in text


def test_shootout_rows() -> None:
    record = sample_record()
    record["state"]["match"]["shootout"] = {"A": [True, False, True], "B": [False, False]}
    assert report.shootout_rows(record) == [("Alvorada", "G X G", 2), ("Botafogo", "X X", 0)]
    assert "Disputa de pênaltis" in report.render_html(record)


def test_export_writes_requested_formats(tmp_path: Path) -> None:
    written = report.export(sample_record(), pdf=tmp_path / "a.pdf", csv_path=tmp_path / "a.csv")
    assert sorted(p.name for p in written) == ["a.csv", "a.pdf"]


def test_engine_shaped_shootout_uses_tally() -> None:
    record = sample_record()
    record["state"]["match"]["shootout"] = {
        "kicks": [{"side": "A", "disc": 7, "scored": True}, {"side": "B", "disc": 3,
                                                             "scored": False}],
        "tally": {"A": 1, "B": 0}, "in_progress": None}
    assert report.shootout_rows(record) == [("Alvorada", "G", 1), ("Botafogo", "X", 0)]


def test_keeper_secret_hidden_until_the_match_is_over() -> None:
    record = sample_record()
    record["entries"].append({"id": 12, "kind": "keeper_choice", "data": {"side": "B",
                              "choice": "left"}, "source": "referee", "period": 3,
                              "clock_ms": 0, "created_at": 0, "author": "goleiro",
                              "voided": False, "amended_by": None})
    record["state"]["finished"] = False
    shown = report.public_record(record)
    assert shown["entries"][-1]["data"] == {"side": "B", "choice": "secreta"}
    assert record["entries"][-1]["data"]["choice"] == "left"  # the input is untouched
    record["state"]["finished"] = True
    assert report.public_record(record)["entries"][-1]["data"]["choice"] == "left"


def test_header_says_competition_and_time_in_the_venue_zone() -> None:
    record = sample_record()
    meta = dict(build(record).meta)
    assert meta["Competição"] == "Copa Teste — mata-mata"
    # 1_780_000_000 s is 2026-05-28 20:26:40 UTC: 17:26 in São Paulo (UTC−3)
    assert meta["Criada"] == "28/05/2026 17:26"
    record["match"]["settings"]["timezone"] = "Europe/Lisbon"
    assert dict(build(record).meta)["Criada"] == "28/05/2026 21:26"


def test_the_start_is_the_kick_off_not_the_match_made() -> None:
    """Walk 49b L5: "Início 07/12/2026 14:47" was the time the match was set up ("Mesa
    configurada"); the 1st half began at 14:48:23. Início is the 1st period's start (the
    table's, else the referee's), the match made is "Criada"; no kick-off yet: no Início."""
    record = sample_record()
    assert dict(build(record).meta)["Início"] == ""
    record["entries"][0]["kind"] = "start_period"  # the referee's, a minute after t0
    record["entries"].insert(1, {**record["entries"][0], "id": 100, "kind": "period_started",
                                 "source": "device", "created_at": 1_780_000_095_000})
    meta = dict(build(record).meta)
    assert (meta["Criada"], meta["Início"]) == ("28/05/2026 17:26", "28/05/2026 17:28"), meta
    assert dict(build(record, "en").meta)["Kick-off"] == "28/05/2026 17:28"


def test_a_league_match_reads_as_its_competition_alone() -> None:
    """Walk 45g G2: after "Nova partida" (its form's format, "pontos corridos") the competition
    read "Copa Walk45g — pontos corridos", the first match (no format: the same league play,
    core.py) "Copa Walk45g". A league is the default, said by nobody; a knockout changes the
    match (extra time, penalties) and says so, in the reader's language."""
    record = sample_record()
    settings = record["match"]["settings"]
    settings["competition"] = "league"
    assert dict(build(record).meta)["Competição"] == "Copa Teste"
    del settings["competition"]
    assert dict(build(record).meta)["Competição"] == "Copa Teste"
    settings["competition"] = "knockout"
    assert dict(build(record, "en").meta)["Competition"] == "Copa Teste — knockout"


def test_corrections_section_lists_who_corrected_what() -> None:
    record = sample_record()
    page = cells(report.render_html(record))
    start = page.index("<h2>Correções</h2>")
    section = page[start:page.index("<h2>Registro de eventos</h2>")]
    assert ("<td>7</td><td>Anulação</td><td>nº 5 — Sensor: bola na linha do gol de Botafogo"
            "</td>") in section
    assert "Árbitro Silva" in section and "bola não entrou" in section


def test_english_sumula() -> None:
    s = build(sample_record(), "en")
    assert s.title == "Match report no. 42"
    assert [t.title for t in s.tables][:4] == ["The match", "Goals", "Fouls and discipline",
                                               "Substitutions"]
    assert "Shot asked by Alvorada, disc 7" in [r["what"] for r in s.table("log").rows]
