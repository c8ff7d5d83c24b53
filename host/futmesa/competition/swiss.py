"""Swiss rounds: each round's pairings by a maximum-weight matching, and its tables.

FISTF-style days play a few Swiss rounds into a knockout: every round pairs teams of equal
or near points, never two who have met while a pairing without a rematch exists, keeps
club-mates apart where it can, and gives the odd team out a bye (counted as the configured
result, e.g. 3–0). A greedy "pair the next two in the table" loop misses pairings that
exist (it paints itself into a rematch at the bottom), so the whole round is one maximum-
weight perfect matching (:func:`networkx.max_weight_matching`) over every possible pair,
with weights ordered so that:

1. a rematch (or a second bye) costs more than every other penalty of the round put
   together — so a round has one only when no pairing without it exists at all;
2. then club-mates, likewise above everything below;
3. then the bye one place higher than the lowest-placed team without one;
4. then the difference in points (squared), then the distance in the standings.

The bye goes to the lowest-placed team that has not had one (a second bye costs like a
rematch). Tables: each match of the round gets a table neither team has played on, where
there is one (:func:`assign_tables`, a matching too).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import networkx as nx

BYE = "\0bye"


@dataclass(frozen=True)
class SwissTeam:
    """A team in the Swiss standings, as the pairing sees it."""

    key: str
    points: int = 0
    club: str = ""
    opponents: frozenset[str] = field(default_factory=frozenset)
    byes: int = 0
    tables: frozenset[int] = field(default_factory=frozenset)


def pair_round(ranked: list[SwissTeam],
               fold: bool = False) -> tuple[list[tuple[str, str]], str | None]:
    """The round's pairs (the better placed team first) and the team with the bye, from
    the teams in standings order (the first is the leader; for round 1, the seeding).
    Neighbours in the standings meet; with `fold` (round 1, everyone on 0) the top half
    meets the bottom half, 1st against the (n/2+1)th, as seeded draws do."""
    n = len(ranked)
    if n < 2:
        return [], (ranked[0].key if ranked else None)
    rank = {t.key: i for i, t in enumerate(ranked)}
    spread = max(t.points for t in ranked) - min(t.points for t in ranked)
    # each level costs more than everything below it in the whole round can add up to
    half = n // 2 + 1
    gap_max = spread * spread * n + n  # the most one pair's score and place terms can cost
    bye_step = half * gap_max + 1  # the bye one place higher than the lowest without one
    club = (n + 1) * bye_step + half * gap_max + 1
    rematch = half * club + (n + 1) * bye_step + half * gap_max + 1
    base = 2 * (half + 1) * rematch
    graph = nx.Graph()
    for i, a in enumerate(ranked):
        for b in ranked[i + 1:]:
            apart = abs(rank[a.key] - rank[b.key])
            cost = (b.points - a.points) ** 2 * n + (abs(apart - n // 2) if fold else apart)
            if b.key in a.opponents or a.key in b.opponents:
                cost += rematch
            if a.club and a.club == b.club:
                cost += club
            graph.add_edge(a.key, b.key, weight=base - cost)
    if n % 2:
        for a in ranked:
            # the lowest-placed team without a bye; a second bye only when all had one
            cost = (n - 1 - rank[a.key]) * bye_step + (rematch if a.byes else 0)
            graph.add_edge(a.key, BYE, weight=base - cost)
    matched = nx.max_weight_matching(graph, maxcardinality=True)
    pairs: list[tuple[str, str]] = []
    bye: str | None = None
    for u, v in matched:
        if BYE in (u, v):
            bye = v if u == BYE else u
            continue
        pairs.append((u, v) if rank[u] < rank[v] else (v, u))
    pairs.sort(key=lambda p: rank[p[0]])
    return pairs, bye


def rematches(ranked: list[SwissTeam], pairs: list[tuple[str, str]]) -> int:
    """How many of `pairs` are rematches (for the checks and the organiser's sheet)."""
    met = {t.key: t.opponents for t in ranked}
    return sum(1 for a, b in pairs if b in met.get(a, frozenset()))


def assign_tables(pairs: list[tuple[str, str]], tables: list[int],
                  played: dict[str, frozenset[int]]) -> dict[tuple[str, str], int]:
    """A table for as many pairs as there are tables: one neither team has played on where
    there is one, else the least used by them (a matching, not first come first served).
    Pairs left without a table wait for the next free one (the desk gives it)."""
    graph = nx.Graph()
    step = (len(tables) + 1) * (len(pairs) + 1)
    for i, p in enumerate(pairs):
        for j, t in enumerate(tables):
            seen = sum(1 for team in p if t in played.get(team, frozenset()))
            # every pair gets a table while there are tables (the largest matching); among
            # those, the fewest repeats; then the leading pair on the first table, and so on
            graph.add_edge(("p", p), ("t", t), weight=(3 - seen) * step * step - abs(i - j))
    out: dict[tuple[str, str], int] = {}
    for u, v in nx.max_weight_matching(graph, maxcardinality=True):
        pair, table = (u, v) if u[0] == "p" else (v, u)
        out[pair[1]] = table[1]
    return out
