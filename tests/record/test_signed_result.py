"""A signature keeps the result it attests (the score the rules read when it was signed), on the
current match and on an earlier one; a later version of futmesa that reads the same log
otherwise (a rule changed: walk 45g's pastilha match replayed 0 × 1 after it was played 1 × 1)
shows both scores on the súmula, never the new one in silence."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pypdfium2 as pdfium
from signed_table import SignedTable

from futmesa.matchbook import MatchLibrary
from futmesa.matchbook.proof import proof_of
from futmesa.report import render_pdf
from futmesa.store import EventLog


def _signature_data(table: SignedTable, match: int) -> dict[str, Any]:
    return next(e.data for e in table.store.entries(match) if e.kind == "signature")


def test_a_signature_keeps_the_score_it_attests(table: SignedTable) -> None:
    first = table.match_id
    assert table.sign("referee", "Rui Árbitro").status_code == 200
    assert _signature_data(table, first)["result"] == {"score": {"A": 1, "B": 0}}
    # an earlier match signed after Nova partida keeps its own result too
    assert table.referee("new_match", {}).json()["ok"]
    assert table.sign("captain_A", "Ana", match=first).status_code == 200
    kept = [e.data["result"] for e in table.store.entries(first) if e.kind == "signature"]
    assert kept == [{"score": {"A": 1, "B": 0}}] * 2


def test_a_result_read_otherwise_shows_both_scores(table: SignedTable, tmp_path: Path) -> None:
    assert table.sign("referee", "Rui Árbitro").status_code == 200
    record = MatchLibrary(EventLog(table.db)).match_record(table.match_id)
    line = proof_of(record).signatures[0]
    assert line.differs == ""  # read as it was signed: nothing to say
    # the same log read by a version whose rules make it 1 × 1
    later = copy.deepcopy(record)
    later["state"]["match"]["score"] = {"A": 1, "B": 1}
    line = proof_of(later).signatures[0]
    assert "assinada com o placar 1 × 0" in line.differs.lower(), line.differs
    assert "1 × 1" in line.differs
    pdf = tmp_path / "s.pdf"
    render_pdf(later, pdf)
    doc = pdfium.PdfDocument(str(pdf))
    text = " ".join(doc[i].get_textpage().get_text_range() for i in range(len(doc)))
    assert "placar 1 × 0" in " ".join(text.split()), text[-800:]
