"""docs/rulesets.md stays in step with the code: every article the rulesets cite
has a row in its document's table, and every scenario named there exists."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).parents[2]
DOC = (ROOT / "docs" / "rulesets.md").read_text(encoding="utf-8")
SECTIONS = {
    m.group(1): (m.group(2), m.group(3))
    for m in re.finditer(r"^## (00\d) — `([\w-]+)`\n(.*?)(?=^## |\Z)", DOC, re.S | re.M)
}


def test_a_section_per_document() -> None:
    assert {k: v[0] for k, v in SECTIONS.items()} == {
        "000": "cbfm-1toque",
        "001": "gaucha",
        "003": "pastilha-8x2",
        "004": "mesa-posta",
    }


def test_every_cited_article_is_in_the_table() -> None:
    cited: set[str] = set()
    for source in (ROOT / "host" / "futmesa" / "rules").glob("*.py"):
        cited |= set(re.findall(r'"((?:000|001|003|004) [^":]{3,40})"', source.read_text()))
    missing = []
    for citation in sorted(cited):
        number, article = citation.split(" ", 1)
        if article not in SECTIONS[number][1]:
            missing.append(citation)
    assert missing == []


def test_scenarios_named_in_the_tables_exist_and_all_are_named() -> None:
    for name, body in SECTIONS.values():
        named = set(re.findall(r"`(\d\d_[a-z_0-9]+)`", body))
        files = {p.stem for p in (ROOT / "tests" / "rules" / "scenarios" / name).glob("*.yaml")}
        assert named <= files, f"{name}: no such scenario {sorted(named - files)}"
        assert files <= named, f"{name}: scenario not in the table {sorted(files - named)}"


CLASSES = ("**S**", "**R**", "**A**")


def _rows(body: str) -> list[list[str]]:
    rows = []
    for line in body.splitlines():
        if not line.startswith("| ") or line.startswith(("| article", "| section", "|---")):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
        rows.append(cells)
    return rows


def test_every_row_has_a_class_and_a_scenario_that_proves_it() -> None:
    """Each article's row says how futmesa handles it — sensor (**S**), referee input (**R**),
    automatic (**A**) or left to the referee (—, with the reason) — and every row that is not
    left to the referee names at least one scenario file of its ruleset that exists."""
    problems = []
    for number, (name, body) in SECTIONS.items():
        files = {p.stem for p in (ROOT / "tests" / "rules" / "scenarios" / name).glob("*.yaml")}
        for cells in _rows(body):
            assert len(cells) == 4, f"{number}: a row needs 4 cells: {cells}"
            article, _, how, scenario = cells
            named = re.findall(r"`(\d\d_[a-z_0-9]+)`", scenario)
            if how.startswith("—"):
                if len(how) < 8:
                    problems.append(f"{number} {article}: left to the referee without a reason")
                continue
            if not any(c in how for c in CLASSES):
                problems.append(f"{number} {article}: no class (S / R / A / —)")
            if not named:
                problems.append(f"{number} {article}: no scenario named")
            problems += [f"{number} {article}: no scenario {n}" for n in named if n not in files]
    assert problems == []
