"""The draw (pots, club-mates apart, the same seed the same draw) and the Swiss pairing
(never a rematch while a pairing without one exists), checked on many random seeds."""

from __future__ import annotations

import itertools
import random

import networkx as nx
import pytest

from futmesa.competition.draw import Entrant, club_mates_first, draw
from futmesa.competition.schedule import round_robin
from futmesa.competition.swiss import SwissTeam, assign_tables, pair_round, rematches

SEEDS = range(60)


def _entrants(rng: random.Random, n: int, clubs: int, pots: int | None) -> list[Entrant]:
    out = []
    for i in range(n):
        club = f"c{rng.randrange(clubs)}" if rng.random() < 0.8 else ""
        pot = (i * pots // n) + 1 if pots else None
        out.append(Entrant(f"t{i}", club, pot))
    return out


def _fewest_clashes(entrants: list[Entrant], groups: int) -> int:
    """The fewest club-mate pairs sharing a group that pots of `groups` allow: each club's
    teams spread as evenly as the groups allow (a lower bound every valid draw meets)."""
    by_club: dict[str, int] = {}
    for e in entrants:
        if e.club:
            by_club[e.club] = by_club.get(e.club, 0) + 1
    total = 0
    for count in by_club.values():
        q, r = divmod(count, groups)
        total += r * (q + 1) * q // 2 + (groups - r) * q * (q - 1) // 2
    return total


@pytest.mark.parametrize("seed", SEEDS)
def test_the_draw_keeps_pots_spread_and_club_mates_apart(seed: int) -> None:
    rng = random.Random(seed)
    groups = rng.choice([2, 3, 4, 6, 8])
    n = groups * rng.randint(2, 5) + rng.randrange(groups)
    entrants = _entrants(rng, n, clubs=rng.randint(2, 8), pots=rng.choice([None, 2, 3, 4]))
    d = draw(entrants, groups, seed)
    placed = [k for ks in d.groups.values() for k in ks]
    assert sorted(placed) == sorted(e.key for e in entrants), "every team once"
    sizes = [len(ks) for ks in d.groups.values()]
    assert max(sizes) - min(sizes) <= 1, "groups differ by one team at most"
    pot_of = {e.key: e.pot for e in entrants}
    if all(p is not None for p in pot_of.values()):
        for pot in {p for p in pot_of.values()}:
            per = [sum(1 for k in ks if pot_of[k] == pot) for ks in d.groups.values()]
            assert max(per) - min(per) <= 1, f"pot {pot} spread one per group: {per}"
    clubs = {e.key: e.club for e in entrants}
    shared = sum(1 for ks in d.groups.values() for a, b in itertools.combinations(ks, 2)
                 if clubs[a] and clubs[a] == clubs[b])
    assert shared == len(d.shared)
    assert shared >= _fewest_clashes(entrants, groups)
    # no swap of two teams of the same pot between two groups would part more club-mates
    pot_index = {k: i for i, pot in enumerate(d.pots) for k in pot}
    where = {k: g for g, ks in d.groups.items() for k in ks}

    def clashes(ks: list[str]) -> int:
        return sum(1 for a, b in itertools.combinations(ks, 2) if clubs[a] and clubs[a] == clubs[b])

    for a, b in itertools.combinations(placed, 2):
        if pot_index[a] != pot_index[b] or where[a] == where[b]:
            continue
        ga, gb = d.groups[where[a]], d.groups[where[b]]
        swapped_a = [b if k == a else k for k in ga]
        swapped_b = [a if k == b else k for k in gb]
        assert clashes(swapped_a) + clashes(swapped_b) >= clashes(ga) + clashes(gb), (a, b)
    assert draw(entrants, groups, seed) == d, "the same seed, the same draw"


def test_club_mates_apart_whenever_the_pots_allow() -> None:
    # four clubs of two, two groups, two pots: a draw without a shared club exists
    entrants = [Entrant("a1", "A", 1), Entrant("b1", "B", 1), Entrant("a2", "A", 2),
                Entrant("b2", "B", 2), Entrant("c1", "C", 1), Entrant("d1", "D", 1),
                Entrant("c2", "C", 2), Entrant("d2", "D", 2)]
    for seed in SEEDS:
        d = draw(entrants, 4, seed)
        assert d.shared == [], (seed, d.groups)


def test_a_different_seed_can_give_a_different_draw() -> None:
    entrants = [Entrant(f"t{i}", "", None) for i in range(16)]
    draws = {tuple(tuple(ks) for ks in draw(entrants, 4, s).groups.values()) for s in SEEDS}
    assert len(draws) > 10


@pytest.mark.parametrize("seed", SEEDS)
def test_club_mates_who_share_a_group_meet_in_round_one(seed: int) -> None:
    rng = random.Random(seed)
    teams = [f"t{i}" for i in range(rng.randint(3, 8))]
    club_of = {t: f"c{rng.randrange(3)}" for t in teams}
    ordered = club_mates_first(teams, club_of)
    assert sorted(ordered) == sorted(teams)
    first = round_robin(ordered)[0]
    met = {frozenset(p) for p in first}
    mates = nx.Graph([(a, b) for a, b in itertools.combinations(teams, 2)
                      if club_of[a] == club_of[b]])
    most = len(nx.max_weight_matching(mates)) if mates.number_of_edges() else 0
    assert sum(1 for p in met if len({club_of[t] for t in p}) == 1) == most


def _play_swiss(rng: random.Random, n: int, rounds: int) -> list[list[tuple[str, str]]]:
    teams = {f"t{i}": {"points": 0, "opp": set(), "byes": 0,
                       "club": f"c{rng.randrange(max(2, n // 3))}"} for i in range(n)}
    order = list(teams)
    played = []
    for _r in range(rounds):
        ranked = sorted(order, key=lambda k: (-teams[k]["points"], order.index(k)))
        view = [SwissTeam(k, teams[k]["points"], teams[k]["club"],
                          frozenset(teams[k]["opp"]), teams[k]["byes"]) for k in ranked]
        pairs, bye = pair_round(view)
        assert len(pairs) == n // 2 and (bye is None) == (n % 2 == 0)
        seen = [t for p in pairs for t in p] + ([bye] if bye else [])
        assert sorted(seen) == sorted(order), "everyone plays once or has the bye"
        # no rematch while the round could be paired without one
        free = nx.Graph([(a.key, b.key) for a, b in itertools.combinations(view, 2)
                         if b.key not in a.opponents])
        if bye:
            free.remove_nodes_from([bye])  # the bye decided first; then the rest
        possible = len(nx.max_weight_matching(free, maxcardinality=True)) == n // 2
        if possible:
            assert rematches(view, pairs) == 0, (pairs, [t.opponents for t in view])
        for a, b in pairs:
            teams[a]["opp"].add(b)
            teams[b]["opp"].add(a)
            w = rng.choice([a, b, None])
            for t in (a, b):
                teams[t]["points"] += 3 if w == t else 1 if w is None else 0
        if bye:
            assert teams[bye]["byes"] == 0 or all(t["byes"] for t in teams.values())
            teams[bye]["byes"] += 1
            teams[bye]["points"] += 3
        played.append(pairs)
    return played


@pytest.mark.parametrize("seed", SEEDS)
def test_swiss_rounds_never_rematch_when_avoidable(seed: int) -> None:
    rng = random.Random(seed)
    n = rng.randint(4, 24)
    _play_swiss(rng, n, rounds=min(n - 1, rng.randint(3, 6)))


def test_swiss_pairs_equal_points_and_keeps_club_mates_apart() -> None:
    view = [SwissTeam("a", 6, "X"), SwissTeam("b", 6, "X"), SwissTeam("c", 6, "Y"),
            SwissTeam("d", 6, "Y"), SwissTeam("e", 0), SwissTeam("f", 0)]
    pairs, bye = pair_round(view)
    assert bye is None
    as_sets = {frozenset(p) for p in pairs}
    assert frozenset(("e", "f")) in as_sets, "the two on 0 points meet"
    assert frozenset(("a", "b")) not in as_sets and frozenset(("c", "d")) not in as_sets


def test_the_bye_goes_to_the_lowest_placed_team_without_one() -> None:
    view = [SwissTeam("a", 6), SwissTeam("b", 3), SwissTeam("c", 3), SwissTeam("d", 0, byes=1),
            SwissTeam("e", 0)]
    assert pair_round(view)[1] == "e"
    view[-1] = SwissTeam("e", 0, byes=1)
    assert pair_round(view)[1] == "c", "d and e had theirs: the next lowest"


def test_tables_are_not_repeated_while_a_fresh_one_is_free() -> None:
    pairs = [("a", "b"), ("c", "d"), ("e", "f")]
    played = {"a": frozenset({1}), "c": frozenset({2}), "f": frozenset({3}),
              "d": frozenset({1})}
    tables = assign_tables(pairs, [1, 2, 3], played)
    assert tables == {("a", "b"): 2, ("c", "d"): 3, ("e", "f"): 1}
    assert len(assign_tables(pairs, [1, 2], played)) == 2, "two tables, two pairs now"


def test_round_one_folds_the_seeding() -> None:
    view = [SwissTeam(f"s{i}") for i in range(1, 9)]
    pairs, bye = pair_round(view, fold=True)
    assert bye is None
    assert pairs == [("s1", "s5"), ("s2", "s6"), ("s3", "s7"), ("s4", "s8")]
