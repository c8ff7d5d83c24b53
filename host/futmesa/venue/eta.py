"""When each match of the day should start, and when the day ends — re-estimated live.

Players ask "when do I play?"; the organiser asks "when do we finish?". The answer is a
small simulation of the venue from now on: each table is free now or when its match in
play should end (its start plus the match's length); the matches still to play go, in the
schedule's order, to the table that frees first, not before both teams are free (their
previous match ended, plus the rest the settings give). A match in play started when the
desk gave it to its table (``updated_at``); one past its length is *late* and pushes every
estimate behind it, so the estimates move with the day. A Swiss round not drawn yet is
counted as its pairs with no teams (:func:`rounds_to_draw`), so the knockout after it is
not estimated early. Pure: it reads the competition's matches as the desk stores them and
the time now.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass
from typing import Any

from futmesa.competition import swissphase
from futmesa.rules import load_ruleset

PLAYING = ("assigned",)
WAITING = ("scheduled",)


@dataclass(frozen=True)
class Estimate:
    starts: dict[int, float]  # match id -> estimated start (Unix s)
    ends: dict[int, float]  # match id -> estimated end (Unix s), also for matches in play
    finish: float | None  # when the last match should end (None: nothing left)
    late: frozenset[int] = frozenset()  # matches in play past their length


def match_seconds(settings: Any) -> float:
    """A match's length at this competition: its periods and intervals (the ruleset's, or
    the match settings'), plus the changeover between two matches at a table."""
    profile = load_ruleset(settings.ruleset).clock_profile(settings.match_settings or None)
    periods = int(profile["periods"])
    ms = periods * int(profile["period_ms"]) + (periods - 1) * int(profile["interval_ms"])
    return ms / 1000 + settings.changeover_minutes * 60


def estimate(matches: list[dict[str, Any]], tables: int, now: float, length: float,
             rest: float = 0.0, lengths: dict[int, float] | None = None) -> Estimate:
    """See the module. `tables`: how many tables play the competition; `length`: a match
    (with its changeover) in seconds; `rest`: seconds a team gets between two matches;
    `lengths`: a match's own length where it differs (the day's categories, each its own
    ruleset and halves, sharing the tables)."""
    lengths = lengths or {}
    starts: dict[int, float] = {}
    ends: dict[int, float] = {}
    free_team: dict[str, float] = {}
    busy = []
    late: set[int] = set()
    for m in matches:
        if m["status"] in PLAYING:
            begun = float(m.get("updated_at") or now)
            # running late: it ends no earlier than now
            due = begun + lengths.get(m["id"], length)
            if due < now:
                late.add(m["id"])
            end = max(now, due)
            ends[m["id"]] = end
            busy.append(end)
            for t in (m["team_a"], m["team_b"]):
                if t:
                    free_team[t] = end + rest
    free_tables = [now] * max(0, tables - len(busy)) + sorted(busy)[:tables]
    heapq.heapify(free_tables)
    waiting = [m for m in matches if m["status"] in WAITING]
    waiting.sort(key=lambda m: (m["slot"], m.get("competition_id", 0), m.get("seq", 0),
                                m["id"]))
    for m in waiting:
        if not free_tables:
            break
        table_free = heapq.heappop(free_tables)
        # a match whose teams are not known yet (a knockout place) waits for the matches
        # it follows: no earlier than the latest end estimated so far for its stage before
        teams = [t for t in (m["team_a"], m["team_b"]) if t]
        ready = max([table_free] + [free_team.get(t, now) for t in teams])
        if not teams:
            ready = max(ready, _stage_before(m, matches, ends, now))
        mine = lengths.get(m["id"], length)
        starts[m["id"]] = ready
        ends[m["id"]] = ready + mine
        for t in teams:
            free_team[t] = ready + mine + rest
        heapq.heappush(free_tables, ready + mine)
    finish = max(ends.values()) if ends else None
    return Estimate(starts, ends, finish, frozenset(late))


def _stage_before(m: dict[str, Any], matches: list[dict[str, Any]], ends: dict[int, float],
                  now: float) -> float:
    """The latest estimated end of the same competition's matches in earlier slots (a
    knockout place, a Swiss round's pairs, are known only when they are over)."""
    comp = m.get("competition_id")
    before = [ends[o["id"]] for o in matches if o["slot"] < m["slot"] and o["id"] in ends
              and o.get("competition_id") == comp]
    return max(before, default=now)


def rounds_to_draw(settings: Any, matches: list[dict[str, Any]], cid: int
                   ) -> list[dict[str, Any]]:
    """A Swiss phase's rounds not drawn yet, as matches with no teams (negative ids: round
    r's k-th pair is ``-(cid * 10000 + r * 100 + k)``), in the slots the draw will give
    them: what the estimates count before the knockout."""
    if settings.format != "swiss_knockout":
        return []
    swiss = [m for m in matches if m["stage"] == "swiss"]
    drawn = max((m["round"] for m in swiss), default=0)
    teams = len({t for m in swiss if m["round"] == 1 for t in (m["team_a"], m["team_b"]) if t})
    per = swissphase.slots_per_round(teams, settings.tables)
    out = []
    for r in range(drawn + 1, settings.swiss_rounds + 1):
        for k in range(teams // 2):
            out.append({"id": -(cid * 10000 + r * 100 + k), "competition_id": cid,
                        "stage": "swiss", "round": r, "seq": 0, "status": "scheduled",
                        "slot": (r - 1) * per + k // max(1, settings.tables),
                        "team_a": None, "team_b": None, "src_a": "", "src_b": ""})
    return out


def round_starts(est: Estimate, cid: int) -> dict[int, float]:
    """A Swiss round not drawn yet -> its estimated start (its first pair's)."""
    out: dict[int, float] = {}
    for mid, at in est.starts.items():
        if mid < 0 and -mid // 10000 == cid:
            r = (-mid % 10000) // 100
            out[r] = min(at, out.get(r, at))
    return out
