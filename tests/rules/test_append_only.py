"""What keeps a match's cost growing as its length (issue 32 §6), held on every scenario.

The engine copies the match before each step (a refused input is rolled back) but shares the
items of the lists that grow with the match (announcements, goals, open questions, the
correction history: model.APPEND_ONLY). That is right only if no rule changes such an item
once it is in its list: every scenario is run with each step checked for it. And a correction
or a late entry recomputes the match from a checkpoint, not from the kick-off: for every
scenario, each entry voided from a state holding checkpoints gives exactly what replaying
the whole log gives.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
from rules_scenario import load, run

from futmesa.rules import Entry
from futmesa.rules.engine import Engine
from futmesa.rules.model import APPEND_ONLY, CHECKPOINT_EVERY, MatchState

HERE = Path(__file__).parent / "scenarios"
FILES = sorted(HERE.glob("*/*.yaml"))


@pytest.fixture
def watched_steps(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Engine._step, checking that no item of an append-only list changed in the step."""
    changed: list[str] = []
    step = Engine._step

    def checked(self: Engine, state: MatchState, entry: Entry, **kw: Any) -> Any:
        before = {k: [(item, copy.deepcopy(item)) for item in state.m.get(k) or []]
                  for k in APPEND_ONLY}
        effects = step(self, state, entry, **kw)
        for key, items in before.items():
            for item, was in items:
                if item != was:
                    changed.append(f"{entry.kind} changed an item of {key}: {was} -> {item}")
        return effects

    monkeypatch.setattr(Engine, "_step", checked)
    return changed


@pytest.mark.parametrize("path", FILES, ids=[f"{p.parent.name}/{p.stem}" for p in FILES])
def test_no_rule_changes_an_item_of_a_list_that_grows(path: Path,
                                                      watched_steps: list[str]) -> None:
    run(load(path), path.name)
    assert watched_steps == []


def test_the_check_sees_an_item_changed(watched_steps: list[str]) -> None:
    """The watch can fail: a rule that rewrites an announcement already made is caught."""
    from futmesa.rules import load_ruleset

    engine = Engine(load_ruleset("cbfm-1toque"))
    state = engine.initial_state()
    state.m["announcements"].append({"code": "x", "pt": "antes"})

    def rewrite(ctx: Any) -> None:
        ctx.m["announcements"][0]["pt"] = "depois"

    engine.ruleset.on_bench_probe = rewrite  # type: ignore[attr-defined]
    engine._step(state, Entry(1, "bench_probe", {}, "referee"))
    assert watched_steps and "announcements" in watched_steps[0]


@pytest.mark.parametrize("path", FILES, ids=[f"{p.parent.name}/{p.stem}" for p in FILES])
def test_a_void_from_a_checkpoint_gives_the_whole_replay(path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("futmesa.rules.engine.CHECKPOINT_EVERY", 2)  # checkpoints everywhere
    engine, entries, _final = run(load(path), path.name)
    state, _ = engine.replay(entries)
    assert len(state.marks) == state.applied // 2, "the replay kept its checkpoints"
    last = state.log[-1]
    for target in [e for e in entries if not e.is_correction][::3]:
        # the referee voids it now: after everything logged (the clock as it stands)
        void = Entry(10_000 + target.id, "void", {"target": target.id}, "referee",
                     last.period, last.clock_ms, last.ticks, at=last.at + 1000)
        resumed, _ = engine.apply(state, void)
        whole, _ = engine.replay((*state.log, void))
        assert resumed.to_dict() == whole.to_dict(), f"void of {target.kind} {target.id}"
    assert CHECKPOINT_EVERY == 64  # the module's own value is unchanged by the patch
