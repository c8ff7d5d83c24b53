"""Every scenario file under tests/rules/scenarios/ runs and meets its expectations;
replaying its log in one go gives exactly the state built entry by entry."""

from __future__ import annotations

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
