"""The season ranking across every competition in the desk's file, the federation's choice
of method, and each team's history.

- ``placement`` (points by placement, as FISTF and most federations publish): each
  competition gives points by the place a team finished — champion, runner-up, the
  semi-final losers level in 3rd, the quarter-final losers level in 5th, … and below the
  knockout the group or league places; ``PLACEMENT_POINTS`` by default, a list of the
  federation's own.
- ``openskill`` (a rating with uncertainty, like chess's Glicko): every match of every
  competition in the order it was decided updates both teams' skill (``mu``) and the
  uncertainty about it (``sigma``); teams are ranked by ``mu - 3·sigma``, so a team with few
  matches is not ranked above a steady one on one lucky day. Draws count as draws.

Each category is ranked apart (an Adulto's places never mix with a Máster's), and
``placement`` counts only the competitions that are over (every match decided): a
semi-final loser is not "2nd" while the final is to play (issue 47 §15).

Pure reading of the competition tables; nothing is stored.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from futmesa.competition.db import CompetitionDB, CompetitionError
from futmesa.i18n import _

# points for 1st, 2nd, 3rd… (a place shared by several teams gives each its points)
PLACEMENT_POINTS = (100, 70, 50, 50, 30, 30, 30, 30, 15, 15, 15, 15, 15, 15, 15, 15)
METHODS = ("placement", "openskill")


@dataclass
class Standing:
    team: str
    name: str
    points: float = 0.0
    mu: float = 0.0
    sigma: float = 0.0
    played: int = 0
    history: list[dict[str, Any]] = field(default_factory=list)  # per competition


def competitions(db: CompetitionDB) -> list[dict[str, Any]]:
    return [db.competition(cid) for cid in db.competition_ids()]


def categories(db: CompetitionDB) -> list[str]:
    """The categories of the file's competitions, in the order first created ("" none)."""
    try:
        return list(dict.fromkeys(c["settings"].category for c in competitions(db)))
    except CompetitionError:
        return []


def over(db: CompetitionDB, comp: dict[str, Any]) -> bool:
    """Every match of the competition decided (a level knockout decided too)."""
    from futmesa.competition.actions import undecided

    matches = db.matches(comp["id"])
    return bool(matches) and not undecided(matches) and all(
        m["status"] in ("finished", "walkover", "bye", "abandoned") for m in matches)


def places(db: CompetitionDB, comp: dict[str, Any]) -> dict[str, int]:
    """Where each team of a competition finished (1 the champion; knockout losers of one
    round share a place), from its matches and standings as they stand."""
    matches = db.matches(comp["id"])
    table = db.table(comp["id"])
    out: dict[str, int] = {}
    ko = [m for m in matches if m["stage"] == "ko" and m["status"] in ("finished", "walkover")]
    divisions = comp["settings"].divisions or [""]
    offset = 0
    for division in divisions:
        mine = [m for m in ko if not division or m["group"].startswith(f"{division}: ")]
        if not mine:
            continue
        last = max(m["round"] for m in mine)
        placed = offset
        for rnd in range(last, 0, -1):
            losers, winners = [], []
            for m in (x for x in mine if x["round"] == rnd):
                w = (m.get("result") or {}).get("winner")
                if w not in ("A", "B"):
                    continue
                winners.append(m["team_a"] if w == "A" else m["team_b"])
                losers.append(m["team_b"] if w == "A" else m["team_a"])
            if rnd == last:
                for t in winners:
                    out.setdefault(t, placed + 1)
                placed += len(winners)
            for t in losers:
                out.setdefault(t, placed + 1)
            placed += len(losers)
        offset = placed
    rows = sorted((r for g in table.values() for i, r in enumerate(g)),
                  key=lambda r: (r.get("disqualified", False), _group_place(table, r["team"]),
                                 -r["points"], -r["goal_difference"]))
    for r in rows:
        if r["team"] not in out:
            out[r["team"]] = len(out) + 1
    return out


def _group_place(table: dict[str, list[dict[str, Any]]], team: str) -> int:
    for rows in table.values():
        for i, r in enumerate(rows):
            if r["team"] == team:
                return i
    return 99


def ranking(db: CompetitionDB, method: str = "placement",
            points: tuple[int, ...] = PLACEMENT_POINTS,
            category: str | None = None) -> list[Standing]:
    """The ranking of one ``category`` (None: the competitions of every category, as one),
    best first, with each team's history (competition, place, points); placements only
    from competitions that are over."""
    if method not in METHODS:
        raise CompetitionError(_("the ranking's method: {methods}").format(
            methods=" or ".join(METHODS)))
    try:
        comps = [c for c in competitions(db)
                 if category is None or c["settings"].category == category]
    except CompetitionError:
        comps = []
    teams = db.team_map()
    table: dict[str, Standing] = {k: Standing(k, t.name) for k, t in teams.items()}
    for comp in (c for c in comps if over(db, c)):
        for team, place in places(db, comp).items():
            row = table.setdefault(team, Standing(team, team))
            got = points[place - 1] if place <= len(points) else 0
            row.history.append({"competition": comp["name"], "place": place,
                                "points": got, "date": comp["created_at"]})
            if method == "placement":
                row.points += got
    if method == "openskill":
        _rate(db, comps, table)
    ranked = [r for r in table.values() if r.history or (method == "openskill" and r.played)]
    if method == "openskill":
        ranked.sort(key=lambda r: (-(r.mu - 3 * r.sigma), r.name.casefold()))
    else:
        ranked.sort(key=lambda r: (-r.points, min(h["place"] for h in r.history),
                                   r.name.casefold()))
    return ranked


def _rate(db: CompetitionDB, comps: list[dict[str, Any]], table: dict[str, Standing]) -> None:
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    ratings: dict[str, Any] = {}
    decided = []
    for comp in comps:
        for m in db.matches(comp["id"]):
            r = m.get("result")
            if m["status"] in ("finished", "walkover") and r and m["team_a"] and m["team_b"]:
                decided.append((r.get("received_at") or 0, m["id"], m, r))
    for _at, _id, m, r in sorted(decided, key=lambda x: (x[0], x[1])):
        a = ratings.setdefault(m["team_a"], model.rating(name=m["team_a"]))
        b = ratings.setdefault(m["team_b"], model.rating(name=m["team_b"]))
        w = r.get("winner")
        ranks = [1, 1] if w not in ("A", "B") else ([1, 2] if w == "A" else [2, 1])
        [[a], [b]] = model.rate([[a], [b]], ranks=ranks)
        ratings[m["team_a"]], ratings[m["team_b"]] = a, b
        for t in (m["team_a"], m["team_b"]):
            if t in table:
                table[t].played += 1
    for team, rating in ratings.items():
        if team in table:
            table[team].mu, table[team].sigma = rating.mu, rating.sigma
