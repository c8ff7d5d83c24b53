"""The engine applies the log in the order things happened (rules/ordering.py): a referee input
pressed before device events that reached the log first is put back in its place, whether the
match is replayed or built entry by entry, and the late input's answer repeats no device command."""

from __future__ import annotations

from futmesa.rules import Engine, Entry, load_ruleset
from futmesa.rules.ordering import in_time_order

BASE = 1_700_000_000_000


def ref(i: int, kind: str, data: dict, at: int) -> Entry:
    return Entry(i, kind, data, source="referee", at=BASE + at if at else 0)


def dev(i: int, kind: str, data: dict, at: int) -> Entry:
    return Entry(i, kind, data, source="device", ticks=at, clock_ms=at, at=BASE + at)


def first_half() -> list[Entry]:
    return [dev(1, "clock_started", {}, 0), ref(2, "touch", {"side": "A", "disc": 5}, 5_000),
            dev(3, "alarm", {}, 600_000), ref(4, "shot_asked", {"side": "A", "disc": 9}, 599_000)]


def test_a_late_referee_input_goes_where_it_happened() -> None:
    ordered = in_time_order(first_half())
    assert [e.id for e in ordered] == [1, 2, 4, 3]
    assert in_time_order(ordered) == ordered  # a log already in time order stays as it is


def test_step_by_step_and_replay_agree_and_the_shot_counts() -> None:
    engine = Engine(load_ruleset("pastilha-8x2"), {"kickoff": "A"})
    state = engine.initial_state()
    effects = []
    for entry in first_half():
        state, effects = engine.apply(state, entry)
    replayed, _ = engine.replay(first_half())
    assert state.to_dict() == replayed.to_dict()
    assert state.m["status"] == "last_lance" and state.m["shot_asked"]["disc"] == 9
    codes = [e.data.get("code") for e in effects if e.kind == "announce"]
    assert "shot_asked" in codes and "last_lance" in codes
    # the alarm's end of the period is not commanded again; only the shot's own lance timer
    assert [e.data["cmd"] for e in effects if e.kind == "device"] == ["lance_restart"]


def test_entries_without_a_time_keep_their_arrival_order() -> None:
    log = [dev(1, "clock_started", {}, 0), dev(2, "alarm", {}, 600_000),
           ref(3, "shot_asked", {"side": "A", "disc": 9}, 0)]
    assert [e.id for e in in_time_order(log)] == [1, 2, 3]


def test_a_referee_input_never_overtakes_an_earlier_referee_input() -> None:
    log = [dev(1, "clock_started", {}, 0), ref(2, "touch", {"side": "A"}, 9_000),
           dev(3, "alarm", {}, 10_000), ref(4, "touch", {"side": "B"}, 8_000)]
    assert [e.id for e in in_time_order(log)] == [1, 2, 4, 3]
