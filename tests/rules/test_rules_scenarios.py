"""Every scenario file under tests/rules/scenarios/ runs and meets its expectations;
replaying its log in one go gives exactly the state built entry by entry."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from rules_scenario import load, run

from futmesa.rules import ruleset_names

HERE = Path(__file__).parent / "scenarios"
FILES = sorted(HERE.glob("*/*.yaml"))
MAIN = ("cbfm-1toque", "gaucha", "pastilha-8x2", "mesa-posta")


@pytest.mark.parametrize("path", FILES, ids=[f"{p.parent.name}/{p.stem}" for p in FILES])
def test_scenario(path: Path) -> None:
    doc = load(path)
    engine, entries, final = run(doc, path.name)
    replayed, _ = engine.replay(entries)
    assert replayed.to_dict() == final


@pytest.mark.parametrize("ruleset", MAIN)
def test_at_least_ten_scenarios_per_ruleset(ruleset: str) -> None:
    assert ruleset in ruleset_names()
    assert len(list((HERE / ruleset).glob("*.yaml"))) >= 10


def test_every_article_the_rulesets_cite_has_a_scenario() -> None:
    """Each citation in the ruleset code ("000 Art. 12 §1", …) is exercised by a scenario."""
    code = Path(__file__).parents[2] / "host" / "futmesa" / "rules"
    cited: set[str] = set()
    for source in code.glob("*.py"):
        cited |= set(re.findall(r'"((?:000|001|003|004) [^":]{3,40})"', source.read_text()))
    covered = {article for path in FILES for article in load(path)["articles"]}
    assert len(cited) > 60
    assert sorted(cited - covered) == []
