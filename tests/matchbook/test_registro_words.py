"""The Registro and the súmula say each row in words the referee can read there (walk45h-b,
issue #45): an answer names the fact it decided, never a folded row's number (B4); a goal's
botão is corrected on the goal's row and Correções says "Gol … botão 9 → 7" (B5); a row is
headed by the fact entered, what it caused under it, and a voided goal keeps its headline
(B7). A real SQLite log applied to the live book, read live and stored as the console and the
súmula read it."""

from __future__ import annotations

from pathlib import Path

from test_account import kicked_off
from test_registro_corrections import _rows, _stored

from futmesa.matchbook import MatchLibrary


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
