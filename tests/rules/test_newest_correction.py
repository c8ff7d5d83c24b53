"""A correction applied live resolves only what it corrects (corrections.resolve_newest, issue
32 §6): applied entry by entry, a match with voids and amendments of goals, shots and other
corrections, and corrections of nothing, is at every step the match its whole log replays
to — the score, the questions, the correction history, the entries the rules apply."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from futmesa.rules import Engine, Entry, MatchState, load_ruleset
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


def stepped_and_replayed(engine: Engine, log: list[Entry], every: bool = False
                         ) -> Iterator[tuple[Entry, MatchState]]:
    """``log`` applied entry by entry (live), each correction's state (each entry's, with
    ``every``) checked equal to the replay of the log so far; yields (entry, state)."""
    stepped = engine.initial_state()
    for n, entry in enumerate(log, 1):
        stepped, _ = engine.apply(stepped, entry)
        if entry.is_correction or every:
            replayed, _ = engine.replay(log[:n])
            assert stepped.to_dict() == replayed.to_dict(), (n, entry)
        if entry.is_correction:
            assert stepped.resolved is not None and replayed.resolved is not None
            assert stepped.resolved[1:] == replayed.resolved[1:], (n, entry)
        yield entry, stepped


@pytest.mark.parametrize("seed", range(12))
def test_stepped_equals_replayed_at_every_correction(seed: int) -> None:
    log = corrected_match(seed)
    for _ in stepped_and_replayed(Engine(load_ruleset("cbfm-1toque")), log):
        pass
    assert sum(e.is_correction for e in log) > 5


def test_time_up_before_the_kick_off_reads_the_same_live_and_replayed() -> None:
    """Walk50c M1 (001): a penalty goal, the «Quem dá a saída depois do gol?» question still
    open when the alarm sounds: no lance is being played, so no last lance (001 Art. XXI §1,
    test_goal_question) — said so live and on the replay at every entry. Voided once the match
    is over, the goal is gone: the alarm reads as the vez's last lance, the match stays over
    (closings.py); the void undone, "sem último lance" again. The phone (after the void) and
    the súmula (after its undo) read two logs, not one log two ways."""
    match = EntryBuilder("gaucha")
    match.kick_off("A")
    match.put("touch", {"side": "A", "disc": 9})
    match.put("foul", {"side": "A", "type": "falta", "where": "box"})  # penalty to B
    match.put("shot_asked", {"side": "B", "disc": 10})
    goal = match.put("goal_line", {"goal": match.state.m["ends"]["A"]}, "device")
    assert match.state.m["score"]["B"] == 1
    assert [p["kind"] for p in match.state.m["pending"]] == ["kickoff_side"]
    alarm = match.put("alarm", {}, "device")
    match.put("period_over", {}, "device")
    void = match.put("void", {"target": goal.id, "false_trip": False, "reason": "invadiu"})
    match.put("void", {"target": void.id, "reason": "revisto"})
    said = {}
    for entry, state in stepped_and_replayed(match.engine, match.log, every=True):
        said[entry.id] = [a["code"] for a in state.m["announcements"] if a["entry"] == alarm.id]
        assert entry.id < alarm.id or state.m["status"] == "interval", entry  # over, always
    assert said[alarm.id] == said[void.id + 1] == ["time_up", "period_end", "change_ends"]
    assert said[void.id] == ["last_lance"]
