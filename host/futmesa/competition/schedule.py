"""The draw and the schedule: groups, round robin, knockout seeds, time slots and tables.

Pure functions. A *slot* is one round of play across the venue: every table
plays at most one match per slot, no team plays twice in a slot, and a team
gets ``rest_slots`` free slots between two of its matches.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from futmesa.i18n import _


@dataclass
class Planned:
    """A match of the schedule before it is stored."""

    stage: str  # "league", "group" or "ko"
    group: str  # "A", "B"… for groups; "" for league; the round name for knockouts
    round: int
    team_a: str | None
    team_b: str | None
    src_a: str = ""  # knockout: "group:A:1" (1st of group A) or "winner:<index>"
    src_b: str = ""
    slot: int = 0
    table: int = 0
    label: str = ""
    after: list[int] = field(default_factory=list)  # planned indexes that must finish first


def group_names(n: int) -> list[str]:
    return [chr(ord("A") + i) for i in range(n)]


def draw_groups(teams: list[str], groups: int) -> dict[str, list[str]]:
    """Snake seeding in list order: the first teams of the list (the seeds) are kept apart."""
    names = group_names(groups)
    out: dict[str, list[str]] = {g: [] for g in names}
    for i, team in enumerate(teams):
        lap, pos = divmod(i, groups)
        out[names[pos if lap % 2 == 0 else groups - 1 - pos]].append(team)
    return out


def round_robin(teams: list[str]) -> list[list[tuple[str, str]]]:
    """Every pair once (circle method): rounds of matches, each team at most once per round."""
    ring: list[str | None] = list(teams)
    if len(ring) % 2:
        ring.append(None)  # a bye
    n = len(ring)
    rounds: list[list[tuple[str, str]]] = []
    for r in range(n - 1):
        pairs = []
        for i in range(n // 2):
            a, b = ring[i], ring[n - 1 - i]
            if a is not None and b is not None:
                # alternate who is side A so nobody is always "home"
                pairs.append((a, b) if (r + i) % 2 == 0 else (b, a))
        rounds.append(pairs)
        ring = [ring[0], ring[-1], *ring[1:-1]]
    return rounds


def both_legs(rounds: list[list[tuple[str, str]]], legs: int) -> list[list[tuple[str, str]]]:
    """``legs`` 2 (*turno e returno*): after every round, the same rounds again with the
    sides swapped (who was side A is side B), so each pair meets twice."""
    if legs < 2:
        return rounds
    return rounds + [[(b, a) for a, b in r] for r in rounds]


def knockout_rounds(qualifiers: list[str], prefix: str = "") -> list[Planned]:
    """A single-elimination bracket over seeded sources ("group:A:1"…), best seed vs worst;
    `prefix` names a division's bracket ("Ouro: Final")."""
    n = len(qualifiers)
    if n < 2 or n & (n - 1):
        raise ValueError(_("a knockout needs 2, 4, 8 or 16 qualifiers, not {count}: "
                           "change groups × advance").format(count=n))
    # stored with the match, in the organiser's language (shown on the board and bracket)
    names = {2: _("Final"), 4: _("Semi-final"), 8: _("Quarter-final"), 16: _("Round of 16")}
    out: list[Planned] = []
    sources = list(qualifiers)
    rnd = 1
    while len(sources) >= 2:
        name = prefix + (names.get(len(sources)) or _("Round {round}").format(round=rnd))
        nxt = []
        half = len(sources) // 2
        for i in range(half):
            a, b = sources[i], sources[len(sources) - 1 - i]
            after = [int(s.split(":")[1]) for s in (a, b) if s.startswith("winner:")]
            out.append(Planned("ko", name, rnd, None, None, a, b,
                               label=f"{name} {i + 1}" if half > 1 else name, after=after))
            nxt.append(f"winner:{len(out) - 1}")
        # pair the next round so the two best seeds meet only in the final
        sources = [nxt[i] for i in _fold(len(nxt))]
        rnd += 1
    return out


def _fold(n: int) -> list[int]:
    """Order of round winners for the next round: 0, n-1 paired … keeps seeds apart."""
    if n <= 2:
        return list(range(n))
    left = list(range(0, n, 2))
    right = list(range(1, n, 2))
    return left + right[::-1]


def seeds_from_groups(groups: list[str], advance: int) -> list[str]:
    """Qualifier sources: every group winner first, then every runner-up…"""
    return [f"group:{g}:{p}" for p in range(1, advance + 1) for g in groups]


def plan(teams: list[str], fmt: str, groups: int, advance: int,
         drawn: dict[str, list[str]] | None = None,
         divisions: list[str] | None = None, legs: int = 1) -> list[Planned]:
    """The whole competition's matches in playing order (slots not yet given); `drawn`: the
    groups as drawn (competition.draw), else the snake seeding of the list order;
    `divisions` ("Ouro", "Prata", "Bronze"): a knockout each, the first `advance` places of
    every group in the first, the next `advance` in the second…; `legs` 2: the league or the
    groups home and away (*turno e returno*)."""
    if fmt == "league":
        return [Planned("league", "", r + 1, a, b)
                for r, pairs in enumerate(both_legs(round_robin(teams), legs))
                for a, b in pairs]
    if groups * 2 > len(teams):
        raise ValueError(_("{count} teams cannot make {groups} groups of at least two").format(
            count=len(teams), groups=groups))
    if not drawn or set(drawn) == {""}:
        drawn = draw_groups(teams, groups)
    by_group = {g: both_legs(round_robin(ts), legs) for g, ts in drawn.items()}
    out: list[Planned] = []
    for r in range(max(len(rs) for rs in by_group.values())):
        for g, rounds in by_group.items():
            if r < len(rounds):
                out.extend(Planned("group", g, r + 1, a, b) for a, b in rounds[r])
    group_count = len(out)
    if divisions:
        smallest = min(len(ts) for ts in drawn.values())
        if smallest < len(divisions) * advance:
            raise ValueError(_("{divisions} divisions of {advance} places per group need "
                               "groups of {need} teams; the smallest has {count}").format(
                divisions=len(divisions), advance=advance, need=len(divisions) * advance,
                count=smallest))
        ko = []
        for i, division in enumerate(divisions):
            sources = [f"group:{g}:{p}" for p in range(i * advance + 1, (i + 1) * advance + 1)
                       for g in drawn]
            bracket = knockout_rounds(sources, prefix=f"{division}: ")
            for p in bracket:  # each bracket's own "winner:" indexes, after the ones before
                p.after = [len(ko) + j for j in p.after]
                p.src_a = shift_source(p.src_a, len(ko))
                p.src_b = shift_source(p.src_b, len(ko))
            ko.extend(bracket)
    else:
        ko = knockout_rounds(seeds_from_groups(list(drawn), advance))
    for p in ko:
        p.after = [group_count + i for i in p.after] or list(range(group_count))
        p.src_a = shift_source(p.src_a, group_count)
        p.src_b = shift_source(p.src_b, group_count)
    return out + ko


def shift_source(src: str, by: int) -> str:
    """A knockout source "winner:<index>" of a list placed after `by` other matches."""
    if src.startswith("winner:"):
        return f"winner:{int(src.split(':')[1]) + by}"
    return src


def assign_slots(matches: list[Planned], tables: int, rest_slots: int = 0) -> list[Planned]:
    """Give each match a slot and a table: in order, the earliest slot that keeps every rule.

    A knockout match waits for the slot after the matches it depends on.
    """
    used: dict[int, int] = {}  # slot -> tables taken
    busy: dict[int, set[str]] = {}  # slot -> teams / sources playing
    last: dict[str, int] = {}  # team -> its latest slot
    for i, m in enumerate(matches):
        earliest = max((matches[j].slot + 1 for j in m.after if j < i), default=0)
        who = [t for t in (m.team_a, m.team_b) if t] or [f"#{i}"]
        # no slot up to a team's last one (plus its rest) can do: start after them
        slot = max([earliest] + [last[t] + rest_slots + 1 for t in who if t in last])
        while True:
            free = used.get(slot, 0) < tables
            clash = any(t in busy.get(slot, set()) for t in who)
            rested = all(t not in last or slot > last[t] + rest_slots for t in who)
            if free and not clash and rested:
                break
            slot += 1
        m.slot = slot
        m.table = used.get(slot, 0) + 1
        used[slot] = m.table
        busy.setdefault(slot, set()).update(who)
        for t in who:
            last[t] = max(last.get(t, -1), slot)
    return matches
