"""The draw as organisers make it: seeding pots, club-mates apart, the same seed the same draw.

Pots come from the teams file's ``pot`` column (1 the best); teams without a pot make one
last pot in the file's order. When no team has a pot, the file's order is the seeding: its
first ``groups`` teams are pot 1, the next pot 2, and so on (the old snake seeding's seeds).
Each pot is spread over the groups, one team per group while it can, the smallest groups
first. Which team goes to which group is a maximum-weight matching (:mod:`networkx`) whose
weights keep club-mates (the ``club`` column) in different groups while the pots allow it,
and break the remaining ties by the seed: the same teams, pots, clubs and seed give the same
draw, so it can be printed, checked and run again. Club-mates who still share a group meet
in its first round (:func:`club_mates_first`), as federations do.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import networkx as nx

# the matching's weights: a club-mate in the group costs more than any tie-break can win
_BASE = 10**9
_CLUB = 10**6
_TIE = 1000


@dataclass(frozen=True)
class Entrant:
    """A team as the draw sees it: its key, its club's key ("" none) and its pot."""

    key: str
    club: str = ""
    pot: int | None = None


@dataclass
class Draw:
    """A drawn set of groups, and what an organiser checks on the printed sheet."""

    seed: int
    groups: dict[str, list[str]]
    pots: list[list[str]]
    # club-mates the pots forced into one group: (group, team, team)
    shared: list[tuple[str, str, str]] = field(default_factory=list)


def group_names(n: int) -> list[str]:
    return [chr(ord("A") + i) for i in range(n)]


def pots_of(entrants: list[Entrant], groups: int) -> list[list[Entrant]]:
    """The pots in order: by the `pot` column, teams without one last; with no pot at all,
    the list order in runs of `groups` (the seeds first)."""
    if all(e.pot is None for e in entrants):
        return [entrants[i:i + groups] for i in range(0, len(entrants), groups)]
    numbers = sorted({e.pot for e in entrants if e.pot is not None})
    out = [[e for e in entrants if e.pot == n] for n in numbers]
    rest = [e for e in entrants if e.pot is None]
    return out + ([rest] if rest else [])


def draw(entrants: list[Entrant], groups: int, seed: int) -> Draw:
    """The groups, drawn pot by pot with club-mates kept apart (see the module)."""
    if groups < 1:
        raise ValueError("groups must be at least 1")
    rng = random.Random(seed)
    names = group_names(groups)
    members: dict[str, list[Entrant]] = {g: [] for g in names}
    pots = pots_of(entrants, groups)
    for pot in pots:
        placed = _place_pot(pot, names, members, rng)
        for g, teams in placed.items():
            members[g].extend(teams)
    _settle(members, pots)
    shared = [(g, a.key, b.key) for g, ms in members.items()
              for i, a in enumerate(ms) for b in ms[i + 1:] if a.club and a.club == b.club]
    return Draw(seed=seed, groups={g: [e.key for e in ms] for g, ms in members.items()},
                pots=[[e.key for e in p] for p in pots], shared=shared)


def _place_pot(pot: list[Entrant], names: list[str], members: dict[str, list[Entrant]],
               rng: random.Random) -> dict[str, list[Entrant]]:
    """One pot over the groups: a team per group while it can, the smallest groups first;
    club-mates of a group's teams kept out of it while possible."""
    order = list(pot)
    rng.shuffle(order)
    # how many of this pot each group takes: the smallest groups (then a seeded order) first
    by_size = sorted(names, key=lambda g: (len(members[g]), rng.random()))
    cap = dict.fromkeys(names, 0)
    for i in range(len(order)):
        cap[by_size[i % len(names)]] += 1
    graph = nx.Graph()
    for t in order:
        for g in names:
            clash = sum(1 for m in members[g] if t.club and m.club == t.club)
            for k in range(cap[g]):
                graph.add_edge(("t", t.key), ("s", g, k),
                               weight=_BASE - _CLUB * clash - _TIE * k + rng.randrange(_TIE))
    matched = nx.max_weight_matching(graph, maxcardinality=True)
    by_key = {t.key: t for t in order}
    placed: dict[str, list[Entrant]] = {g: [] for g in names}
    for u, v in matched:
        team, slot = (u, v) if u[0] == "t" else (v, u)
        placed[slot[1]].append(by_key[team[1]])
    for g in names:  # the order within a group: the pot's draw order
        placed[g].sort(key=order.index)
    return placed


def _clashes(teams: list[Entrant]) -> int:
    return sum(1 for i, a in enumerate(teams) for b in teams[i + 1:]
               if a.club and a.club == b.club)


def _settle(members: dict[str, list[Entrant]], pots: list[list[Entrant]]) -> None:
    """The pots are drawn one after the other, so an early pot cannot see the clubs of the
    later ones: at the end, swap two teams of the same pot between two groups while that
    parts more club-mates (the pots stay spread)."""
    pot_of = {e.key: i for i, pot in enumerate(pots) for e in pot}
    while True:
        best = None
        for g, h in ((g, h) for g in members for h in members if g < h):
            before = _clashes(members[g]) + _clashes(members[h])
            for i, a in enumerate(members[g]):
                for j, b in enumerate(members[h]):
                    if pot_of[a.key] != pot_of[b.key] or a.club == b.club:
                        continue
                    members[g][i], members[h][j] = b, a
                    gain = before - _clashes(members[g]) - _clashes(members[h])
                    members[g][i], members[h][j] = a, b
                    if gain > 0 and (best is None or gain > best[0]):
                        best = (gain, g, i, h, j)
        if best is None:
            return
        _, g, i, h, j = best
        members[g][i], members[h][j] = members[h][j], members[g][i]


def club_mates_first(teams: list[str], club_of: dict[str, str]) -> list[str]:
    """The group's teams reordered so that club-mates who share it meet in the first round
    of :func:`futmesa.competition.schedule.round_robin` (its first round pairs position
    ``i`` with ``n-1-i``; with an odd count position 0 has the bye): as many club-mate
    pairs as can meet at once (a maximum matching), the rest in their order."""
    graph = nx.Graph()
    for i, a in enumerate(teams):
        for b in teams[i + 1:]:
            if club_of.get(a) and club_of.get(a) == club_of.get(b):
                graph.add_edge(a, b)
    pairs = sorted((tuple(sorted(p, key=teams.index)) for p in nx.max_weight_matching(graph)),
                   key=lambda p: teams.index(p[0]))
    n = len(teams) + (len(teams) % 2)
    ring: list[str | None] = [None] * n
    first = 1 if len(teams) % 2 else 0  # position 0 meets the bye when the count is odd
    for k, (a, b) in enumerate(pairs):
        ring[first + k], ring[n - 1 - first - k] = a, b
    rest = iter(t for t in teams if not any(t in p for p in pairs))
    out = []
    for pos in range(len(teams)):
        out.append(ring[pos] if ring[pos] is not None else next(rest))
    return out


def draw_sheet(d: Draw, names: dict[str, str], club_of: dict[str, str],
               title: str) -> list[str]:
    """The draw as lines to print and pin up: the seed (to run it again), the pots, the
    groups with each team's club, and club-mates the pots forced together."""
    from futmesa.i18n import _

    lines = [title, _("Draw seed: {seed} (the same teams and seed give the same draw)")
             .format(seed=d.seed), ""]
    for i, pot in enumerate(d.pots, start=1):
        lines.append(_("Pot {n}: {teams}").format(
            n=i, teams=", ".join(names.get(k, k) for k in pot)))
    lines.append("")
    for g, keys in d.groups.items():
        lines.append(_("Group {group}").format(group=g))
        for k in keys:
            club = club_of.get(k, "")
            lines.append(f"  {names.get(k, k)}" + (f" ({club})" if club else ""))
    if d.shared:
        lines.append("")
        for g, a, b in d.shared:
            lines.append(_("Group {group}: {a} and {b} are club-mates (the pots left no "
                           "other way); they meet in the first round").format(
                group=g, a=names.get(a, a), b=names.get(b, b)))
    return lines
