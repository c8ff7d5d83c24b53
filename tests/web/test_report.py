"""The súmula from a hand-made record: HTML, CSV, JSON and a PDF whose text is read back."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pypdfium2 as pdfium

from futmesa import report
from futmesa.web.testing import sample_record


def pdf_text(path: Path) -> str:
    doc = pdfium.PdfDocument(str(path))
    try:
        return "\n".join(doc[i].get_textpage().get_text_range() for i in range(len(doc)))
    finally:
        doc.close()


def test_html_has_result_goals_and_escapes_names() -> None:
    record = sample_record(name_a="<script>alert(1)</script>", name_b="B & Cia")
    page = report.render_html(record)
    assert "<script>alert(1)</script>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt; 2 × 1 B &amp; Cia" in page
    assert "Árbitro Silva" in page and "Copa Teste" in page
    # goals with their disc, by minute (03:05 is the 4th minute)
    assert "<td>1º T</td><td>4&#x27;</td>" in page
    assert "sai 4, entra 12" in page
    assert 'class="voided"' in page  # the voided goal stays in the log, struck through


def test_minute_convention() -> None:
    assert report.minute(0) == "1'"
    assert report.minute(59_999) == "1'"
    assert report.minute(60_000) == "2'"
    assert report.minute(None) == ""


def test_csv_has_every_entry_with_voided_flag() -> None:
    record = sample_record()
    rows = list(csv.DictReader(io.StringIO(report.render_csv(record))))
    assert [int(r["id"]) for r in rows] == [e["id"] for e in record["entries"]]
    voided = {r["id"]: r["voided"] for r in rows}
    assert voided["5"] == "True" and voided["3"] == "False"
    assert rows[1]["description"] == "Chute pedido — Alvorada, botão 7"


def test_json_round_trips_record_and_summary() -> None:
    record = sample_record()
    data = json.loads(report.render_json(record))
    assert data["entries"] == record["entries"]
    assert data["summary"]["score"] == {"A": 2, "B": 1}
    assert data["summary"]["result"] == "Alvorada 2 × 1 Botafogo"


def test_pdf_contains_final_score_and_names(tmp_path: Path) -> None:
    record = sample_record(name_a="<b>Alvo</b>", name_b="Grêmio")
    out = report.render_pdf(record, tmp_path / "s.pdf")
    assert out.read_bytes().startswith(b"%PDF")
    text = pdf_text(out)
    assert "<b>Alvo</b> 2 × 1 Grêmio" in text
    assert "Árbitro Silva" in text


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


def test_competition_line() -> None:
    assert report.summary(sample_record())["competition"] == "Copa Teste — mata-mata"


def test_corrections_section_lists_who_corrected_what() -> None:
    record = sample_record()
    page = report.render_html(record)
    start = page.index("<h2>Correções</h2>")
    section = page[start:page.index("<h2>Registro de eventos</h2>")]
    assert "<td>7</td><td>anulação</td><td>#5 Bola na linha de gol</td>" in section
    assert "Árbitro Silva" in section and "bola não entrou" in section
