"""Standings, recomputed from results and sanctions every time (nothing is kept as a total).

Counted: a finished match (its score and result as the table's rules engine
decided it: the súmula), a walk-over (scored ``walkover_score`` × 0), a
forfeit or disqualification inside a match (the rules engine's result, e.g.
003 Art. 83 §3, 000 Art. 26 §1 C). Not counted: an abandoned match (its
replay counts instead). Sanctions on top of results:

- ``match_points``: the team loses the points of one match (001 Art. XLIII,
  "perder os pontos da partida");
- ``competition_points``: the team is disqualified and loses every point won
  in the competition (003 Art. 85, "perda dos pontos conquistados na
  competição em disputa"); it is listed last and its remaining matches are
  walk-overs for the opponents.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from futmesa.competition.settings import CompetitionSettings
from futmesa.i18n import _

COUNTED = ("finished", "walkover")


@dataclass
class Row:
    team: str
    group: str
    played: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    goals_for: int = 0
    goals_against: int = 0
    points: int = 0
    lost_points: int = 0
    disqualified: bool = False
    notes: list[str] = field(default_factory=list)

    @property
    def goal_difference(self) -> int:
        return self.goals_for - self.goals_against

    def as_dict(self) -> dict[str, Any]:
        return {"team": self.team, "group": self.group, "played": self.played,
                "wins": self.wins, "draws": self.draws, "losses": self.losses,
                "goals_for": self.goals_for, "goals_against": self.goals_against,
                "goal_difference": self.goal_difference, "points": self.points,
                "lost_points": self.lost_points, "disqualified": self.disqualified,
                "notes": list(self.notes)}


def match_points(result: dict[str, Any], side: str, s: CompetitionSettings) -> int:
    winner = result.get("winner")
    if winner is None:
        return s.points.draw
    return s.points.win if winner == side else s.points.loss


def counted(matches: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [m for m in matches if m["status"] in COUNTED and m.get("result")
            and m["team_a"] and m["team_b"]]


def standings(matches: list[dict[str, Any]], sanctions: list[dict[str, Any]],
              s: CompetitionSettings, stages: tuple[str, ...] = ("group", "league", "swiss"),
              groups: dict[str, list[str]] | None = None,
              shootouts: dict[str, list[str]] | None = None) -> dict[str, list[dict[str, Any]]]:
    """Per group ("" for a league), the ordered table rows. ``shootouts``: per group, the
    order tie-break shoot-outs gave (the winner first), for the ``shootout`` criterion."""
    rows: dict[str, Row] = {}
    for g, teams in (groups or {}).items():
        for t in teams:
            rows[t] = Row(t, g)
    played = [m for m in counted(matches) if m["stage"] in stages]
    for m in played:
        for side, team in (("A", m["team_a"]), ("B", m["team_b"])):
            row = rows.setdefault(team, Row(team, m["group"]))
            r = m["result"]
            mine, theirs = (r["score_a"], r["score_b"]) if side == "A" else (r["score_b"],
                                                                           r["score_a"])
            row.played += 1
            row.goals_for += mine
            row.goals_against += theirs
            if r.get("winner") is None:
                row.draws += 1
            elif r["winner"] == side:
                row.wins += 1
            else:
                row.losses += 1
            row.points += match_points(r, side, s)
    for m in matches:  # a Swiss bye: the configured win (FISTF: 3–0)
        if m["status"] == "bye" and m["stage"] in stages and m["team_a"]:
            row = rows.setdefault(m["team_a"], Row(m["team_a"], m["group"]))
            row.played += 1
            row.wins += 1
            row.goals_for += s.bye_score
            row.points += s.points.win
    by_id = {m["id"]: m for m in played}
    for sanction in sanctions:
        target = rows.get(sanction["team"])
        if target is None:
            continue
        row = target
        if sanction["kind"] == "match_points":
            sanctioned = by_id.get(sanction.get("match_id"))
            if sanctioned is None:
                continue
            side = "A" if sanctioned["team_a"] == row.team else "B"
            lost = match_points(sanctioned["result"], side, s)
            row.points -= lost
            row.lost_points += lost
            row.notes.append(f"−{lost} pts ({sanction['rule']})")
        elif sanction["kind"] == "competition_points":
            row.lost_points += row.points
            row.points = 0
            row.disqualified = True
            row.notes.append(f"desclassificado ({sanction['rule']})")
    out: dict[str, list[dict[str, Any]]] = {}
    for g in sorted({r.group for r in rows.values()}):
        members = [r for r in rows.values() if r.group == g]
        shot = (shootouts or {}).get(g, [])
        ordered = _order(members, played, s, shot)
        due = _shootouts_due(ordered, played, s, shot) if _group_over(g, matches, stages, s) \
            else set()
        for r in ordered:
            if r.team in due:
                r.notes.append(_("tie-break shoot-out to play"))
            elif r.team in shot and "shootout" in s.tie_breaks:
                r.notes.append(_("place decided by a tie-break shoot-out"))
        out[g] = [{**r.as_dict(), "shootout_due": r.team in due} for r in ordered]
    return out


def _group_over(group: str, matches: list[dict[str, Any]], stages: tuple[str, ...],
                s: CompetitionSettings) -> bool:
    """Every match of the group played (a Swiss phase: its last round too): only then can
    teams still be level for a place."""
    mine = [m for m in matches if m["stage"] in stages and m["group"] == group]
    if not mine or any(m["status"] in ("scheduled", "assigned") for m in mine):
        return False
    swiss = [m["round"] for m in mine if m["stage"] == "swiss"]
    return not swiss or max(swiss) >= s.swiss_rounds


def _shootouts_due(rows: list[Row], played: list[dict[str, Any]], s: CompetitionSettings,
                   shot: list[str]) -> set[str]:
    """Teams still level on every criterion before ``shootout`` with no shoot-out between
    them recorded: their places wait for it (the knockout is not filled from the group)."""
    if "shootout" not in s.tie_breaks:
        return set()
    before = s.model_copy(update={"tie_breaks": s.tie_breaks[:s.tie_breaks.index("shootout")]})
    due: set[str] = set()
    for level in _level_sets(rows, played, before):
        if len(level) > 1 and not set(level) <= set(shot):
            due |= set(level)
    return due


def _level_sets(rows: list[Row], played: list[dict[str, Any]],
                s: CompetitionSettings) -> list[list[str]]:
    """The teams level with each other on points and on every criterion of ``s``."""
    sets: dict[tuple[Any, ...], list[str]] = {}
    for r in rows:
        tied = {o.team for o in rows if o.points == r.points
                and o.disqualified == r.disqualified}
        h2h = _head_to_head(tied, played, s) if len(tied) > 1 else {}
        key = (r.disqualified, -r.points, *_key(r, h2h, s)[:-1])
        sets.setdefault(key, []).append(r.team)
    return list(sets.values())


def _order(rows: list[Row], played: list[dict[str, Any]], s: CompetitionSettings,
           shot: list[str] | None = None) -> list[Row]:
    ranked = sorted(rows, key=lambda r: (r.disqualified, -r.points))
    out: list[Row] = []
    i = 0
    while i < len(ranked):
        j = i
        while (j < len(ranked) and ranked[j].points == ranked[i].points
               and ranked[j].disqualified == ranked[i].disqualified):
            j += 1
        tied = ranked[i:j]
        h2h = _head_to_head({r.team for r in tied}, played, s) if len(tied) > 1 else {}
        lots = _lots([r.team for r in tied], s) if "lots" in s.tie_breaks else {}
        ordered = sorted(tied, key=lambda r: _key(r, h2h, s, lots, shot))
        if lots:
            _note_lots(ordered, h2h, s)
        out.extend(ordered)
        i = j
    return out


def _lots(teams: list[str], s: CompetitionSettings) -> dict[str, int]:
    """The draw of lots among teams still level: from the competition's seed and the tied
    teams themselves, so the same standings draw the same order every time (it is recorded:
    anyone can run it again) and another tie draws afresh."""
    import hashlib

    def ticket(team: str) -> str:
        return hashlib.sha256(f"{s.seed or 0}:{'|'.join(sorted(teams))}:{team}".encode())\
            .hexdigest()

    return {t: i for i, t in enumerate(sorted(teams, key=ticket))}


def _note_lots(rows: list[Row], h2h: dict[str, int], s: CompetitionSettings) -> None:
    """Say which places the lots decided (teams level on every criterion before them)."""
    before = s.tie_breaks[:s.tie_breaks.index("lots")]
    keyed = {r.team: _key(r, h2h, s.model_copy(update={"tie_breaks": before}), {})[:-1]
             for r in rows}
    for r in rows:
        if sum(1 for o in rows if keyed[o.team] == keyed[r.team]) > 1:
            r.notes.append(_("drawn by lot (seed {seed})").format(seed=s.seed or 0))


def _key(row: Row, h2h: dict[str, int], s: CompetitionSettings,
         lots: dict[str, int] | None = None, shot: list[str] | None = None) -> tuple[Any, ...]:
    parts: list[Any] = []
    for crit in s.tie_breaks:
        if crit == "wins":
            parts.append(-row.wins)
        elif crit == "goal_difference":
            parts.append(-row.goal_difference)
        elif crit == "goals_for":
            parts.append(-row.goals_for)
        elif crit == "goals_against":
            parts.append(row.goals_against)
        elif crit == "head_to_head":
            parts.append(-h2h.get(row.team, 0))
        elif crit == "lots":
            parts.append((lots or {}).get(row.team, 0))
        elif crit == "shootout":  # the order a tie-break shoot-out gave, the winner first
            parts.append(shot.index(row.team) if shot and row.team in shot else 0)
    parts.append(row.team)  # last resort: a stable order (the organiser draws lots)
    return tuple(parts)


def _head_to_head(teams: set[str], played: list[dict[str, Any]],
                  s: CompetitionSettings) -> dict[str, int]:
    pts: dict[str, int] = dict.fromkeys(teams, 0)
    for m in played:
        if m["team_a"] in teams and m["team_b"] in teams:
            pts[m["team_a"]] += match_points(m["result"], "A", s)
            pts[m["team_b"]] += match_points(m["result"], "B", s)
    return pts


def knockout_winner(match: dict[str, Any]) -> str | None:
    """The team that goes through from a decided knockout match, else None."""
    r = match.get("result")
    if match["status"] not in COUNTED or not r or r.get("winner") not in ("A", "B"):
        return None
    return match["team_a"] if r["winner"] == "A" else match["team_b"]
