"""The article map (issue 30): every article and paragraph of the four documents in
../shared/rules has a row in docs/rulesets.md saying how futmesa handles it (and
test_rules_docs.py checks that each scenario a row names exists)."""

from __future__ import annotations

import article_map
import pytest
from article_map import covered, missing, paragraphs, table_rows

# about how many paragraphs each document has: the reader must not silently find none
AT_LEAST = {"000": 85, "001": 75, "003": 190, "004": 10}


@pytest.mark.parametrize("number", sorted(AT_LEAST))
def test_every_paragraph_of_the_document_has_a_row(number: str) -> None:
    found = paragraphs(number)
    assert len(found) >= AT_LEAST[number], f"{number}: only {len(found)} paragraphs read"
    assert missing(number) == [], f"{number}: no row in docs/rulesets.md"


def test_the_reader_names_paragraphs_as_the_tables_cite_them() -> None:
    p000, p001 = paragraphs("000"), paragraphs("001")
    assert ("12", "") in p000 and ("12", "6") in p000 and ("20", "único") in p000
    assert ("XXIII", "9") in p001 and ("XXI", "único") in p001
    assert ("Sua vez", "") in paragraphs("004")
    assert covered("Art. 8 §1–§2, §4–§8", "000") >= {("8", "1"), ("8", "2"), ("8", "8")}
    assert ("8", "3") not in covered("Art. 8 §1–§2, §4–§8", "000")
    assert covered("Art. 51, 56–57", "003") == {("51", ""), ("56", ""), ("57", "")}
    assert ("XLI", "") in covered("Art. XXXVIII–XLII", "001")


def test_a_paragraph_without_a_row_is_found(monkeypatch: pytest.MonkeyPatch) -> None:
    rows = table_rows("000")
    monkeypatch.setattr(article_map, "table_rows",
                        lambda number: [r for r in rows if not r[0].startswith("Art. 25")])
    assert "Art. 25" in missing("000")
