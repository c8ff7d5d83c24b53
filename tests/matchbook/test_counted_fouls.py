"""Every foul the rules count is a fact of the account, so the TV's counters ("Faltas 1 ·
técnicas 3") and the súmula's tables (Resumo, Faltas e disciplina), /assinar, /history and the
console's Resumo always agree (issue 45, walk47b M1: a Gaúcha penalty shot into the shooter's
own goal, a technical foul the rules gave — Art. XXII §1 — was counted on the TV and only in
the súmula's event register).

Beside the walker's case, a property over every rules scenario of every ruleset, its log
stored in a real SQLite file and read as the súmula reads it: per team and kind, the fouls the
account lists equal the engine's counters (``fouls``, what the TV shows)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from test_account import kicked_off
from test_answer_rows import SCENARIOS, played, scenario_engine, stored_match

from futmesa.matchbook import MatchLibrary
from futmesa.store import EventLog

COUNTERS = ("fouls", "technical", "disciplinary")  # what the TV shows (kiosk.js)


def listed(facts: list[dict[str, Any]]) -> Counter[tuple[str, str]]:
    """(team, kind) of every foul the account lists as counted, struck ones left out."""
    out: Counter[tuple[str, str]] = Counter()
    for f in facts:
        if f.get("kind") == "discipline" and not f.get("struck"):
            for kind, n in (f.get("counted") or {}).items():
                out[(str(f.get("side")), kind)] += n
    return out


def counted(m: dict[str, Any]) -> Counter[tuple[str, str]]:
    """(team, kind) of every foul the engine counts, as the TV reads them (``m["fouls"]``)."""
    return Counter({(side, kind): int(n) for side, row in (m.get("fouls") or {}).items()
                    for kind, n in row.items() if kind in COUNTERS and n})


def test_a_gaucha_penalty_shot_into_its_own_goal_is_a_listed_technical_foul(
        tmp_path: Path) -> None:
    t = kicked_off(tmp_path / "m.sqlite", "gaucha", clock=30_000)
    t.put("touch", {"side": "A", "disc": 6})
    t.put("foul", {"side": "B", "disc": 2, "where": "box"})
    assert t.book.state.m["restart"]["kind"] == "penalti"
    t.put("shot_asked", {"side": "A", "disc": 10})
    t.device("goal_line", {"goal": 0, "held_ms": 40})  # A's own goal in the 1st half
    m = t.book.state.m
    assert m["fouls"]["A"]["technical"] == 1  # what the TV shows: "técnicas 1"
    record = MatchLibrary(t.store).match_record(t.book.id)
    own = [f for f in record["account"] if f["kind"] == "discipline" and f.get("side") == "A"]
    assert [f["counted"] for f in own] == [{"technical": 1}], own
    text = own[0]["text"]
    assert "terminou no próprio gol" in text and "Falta técnica para" in text, text
    assert listed(record["account"]) == counted(m)


def test_every_foul_the_rules_count_is_listed_in_the_account(tmp_path: Path) -> None:
    store = EventLog(tmp_path / "m.sqlite")
    library = MatchLibrary(store)
    wrong: list[str] = []
    for path in sorted(SCENARIOS.glob("*/*.yaml")):
        doc, engine = scenario_engine(path)
        steps = list(played(doc, engine, path.name))
        if not steps:
            continue
        record = library.match_record(stored_match(store, doc, list(steps[-1][1].log)))
        facts, m = record["account"], record["state"]["match"]
        if listed(facts) != counted(m):
            wrong.append(f"{path.parent.name}/{path.name}: listed {dict(listed(facts))}, "
                         f"counted {dict(counted(m))}")
    assert not wrong, "\n".join(wrong)
