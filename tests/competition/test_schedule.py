"""The draw and the schedule: every pair once, no team on two tables at once, rest kept."""

from __future__ import annotations

import itertools

import pytest

from futmesa.competition import schedule


@pytest.mark.parametrize("n", [2, 3, 4, 5, 8])
def test_round_robin_plays_every_pair_once(n: int) -> None:
    teams = [f"t{i}" for i in range(n)]
    rounds = schedule.round_robin(teams)
    pairs = [frozenset(p) for r in rounds for p in r]
    assert sorted(map(sorted, pairs)) == sorted(map(sorted, map(frozenset,
                                                                itertools.combinations(teams, 2))))
    for r in rounds:  # nobody twice in one round
        flat = [t for p in r for t in p]
        assert len(flat) == len(set(flat))


def test_groups_are_drawn_by_snake_seeding() -> None:
    assert schedule.draw_groups(list("abcdefgh"), 2) == {"A": list("adeh"), "B": list("bcfg")}


@pytest.mark.parametrize("tables,rest", [(1, 0), (2, 0), (4, 0), (4, 1), (3, 2)])
def test_slots_never_put_a_team_on_two_tables_and_keep_rest(tables: int, rest: int) -> None:
    planned = schedule.assign_slots(schedule.plan(list("abcdefgh"), "groups_knockout", 2, 2),
                                    tables, rest)
    by_slot: dict[int, list[schedule.Planned]] = {}
    for m in planned:
        by_slot.setdefault(m.slot, []).append(m)
    for slot, ms in by_slot.items():
        assert len(ms) <= tables
        assert sorted(m.table for m in ms) == list(range(1, len(ms) + 1))
        teams = [t for m in ms for t in (m.team_a, m.team_b) if t]
        assert len(teams) == len(set(teams)), f"a team plays twice in slot {slot}"
    slots_of: dict[str, list[int]] = {}
    for m in planned:
        for t in (m.team_a, m.team_b):
            if t:
                slots_of.setdefault(t, []).append(m.slot)
    for t, slots in slots_of.items():
        slots.sort()
        assert all(b - a > rest for a, b in itertools.pairwise(slots)), (t, slots)
    # the knockout comes after every group match, the final after both semifinals
    group_end = max(m.slot for m in planned if m.stage == "group")
    ko = [m for m in planned if m.stage == "ko"]
    assert [m.group for m in ko] == ["Semifinal", "Semifinal", "Final"]
    assert all(m.slot > group_end for m in ko)
    assert ko[2].slot > max(ko[0].slot, ko[1].slot)
    assert (ko[0].src_a, ko[0].src_b) == ("group:A:1", "group:B:2")
    assert (ko[1].src_a, ko[1].src_b) == ("group:B:1", "group:A:2")


def test_a_knockout_needs_a_power_of_two() -> None:
    with pytest.raises(ValueError, match="2, 4, 8 ou 16"):
        schedule.plan(list("abcdefghi"), "groups_knockout", 3, 1)


def test_league_is_a_single_round_robin() -> None:
    planned = schedule.plan(list("abcde"), "league", 1, 1)
    assert len(planned) == 10 and {m.stage for m in planned} == {"league"}


@pytest.mark.parametrize("fmt,groups", [("league", 1), ("groups_knockout", 2)])
def test_home_and_away_plays_every_pair_twice_sides_swapped(fmt: str, groups: int) -> None:
    """`legs: 2` (*turno e returno*, as Brazilian chaves are often played): every pair of a
    league or group meets twice, once on each side, the return leg after every first leg
    of the group, and the slots still keep every team on one table at a time."""
    teams = list("abcdefgh")
    planned = schedule.assign_slots(schedule.plan(teams, fmt, groups, 1, legs=2), 3)
    rr = [m for m in planned if m.stage in ("league", "group")]
    once = [m for m in schedule.plan(teams, fmt, groups, 1) if m.stage in ("league", "group")]
    assert len(rr) == 2 * len(once)
    sides = [(m.team_a, m.team_b) for m in rr]
    assert len(set(sides)) == len(sides), "a pair met twice on the same sides"
    assert {frozenset(p) for p in sides} == {frozenset((m.team_a, m.team_b)) for m in once}
    for g in {m.group for m in rr}:
        mine = [m for m in rr if m.group == g]
        half = len(mine) // 2
        firsts = {frozenset((m.team_a, m.team_b)) for m in mine[:half]}
        assert len(firsts) == half, "the return legs come after every first leg"
    for slot in {m.slot for m in planned}:
        playing = [t for m in planned if m.slot == slot for t in (m.team_a, m.team_b) if t]
        assert len(playing) == len(set(playing))


def test_legs_are_checked_in_the_settings() -> None:
    from futmesa.competition.settings import SettingsFileError, parse_settings

    assert parse_settings({"legs": 2}).legs == 2
    with pytest.raises(SettingsFileError, match="legs"):
        parse_settings({"legs": 3})
