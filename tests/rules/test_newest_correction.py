"""A correction applied live resolves only what it corrects (corrections.resolve_newest, issue
32 §6): applied entry by entry, a match with voids and amendments of goals, shots and other
corrections, and corrections of nothing, is at every step the match its whole log replays
to — the score, the questions, the correction history, the entries the rules apply."""

from __future__ import annotations

import random

import pytest

from futmesa.rules import Engine, Entry, load_ruleset
from futmesa.sim.referee_moves import lance_towards
from futmesa_testkit.entry_builder import EntryBuilder


def corrected_match(seed: int) -> list[Entry]:
    """A cbfm-1toque match of lances, shots and goals with corrections drawn at random."""
    rng = random.Random(seed)
    match = EntryBuilder()
    put, log = match.put, match.log
    match.kick_off()
    side = "A"
    for _goal in range(25):
        for _ in range(rng.randint(0, 4)):
            move = lance_towards(match.state.m, side)
            if move is not None:
                put(*move)
        put("shot_asked", {"side": side, "disc": rng.choice([7, 9, 10])})
        other = "B" if side == "A" else "A"
        put("goal_line", {"goal": match.state.m["ends"][other]}, "device")
        for _ in range(rng.choice([0, 0, 1, 2])):
            target = rng.choice(log[-12:]).id
            roll = rng.random()
            if roll < 0.5:
                put("void", {"target": target})
            elif roll < 0.8:
                put("amend", {"target": target, "data": {"side": other, "disc": 4}})
            elif roll < 0.9:
                put("void", {"target": 10_000})  # a correction of nothing
            else:
                put("amend", {"target": target})  # an amendment without its data
        side = other
    return log


@pytest.mark.parametrize("seed", range(12))
def test_stepped_equals_replayed_at_every_correction(seed: int) -> None:
    log = corrected_match(seed)
    engine = Engine(load_ruleset("cbfm-1toque"))
    stepped = engine.initial_state()
    for n, entry in enumerate(log, 1):
        stepped, _ = engine.apply(stepped, entry)
        if entry.is_correction:
            replayed, _ = engine.replay(log[:n])
            assert stepped.to_dict() == replayed.to_dict(), (seed, n, entry)
            assert stepped.resolved is not None and replayed.resolved is not None
            assert stepped.resolved[1:] == replayed.resolved[1:], (seed, n, entry)
    assert sum(e.is_correction for e in log) > 5
