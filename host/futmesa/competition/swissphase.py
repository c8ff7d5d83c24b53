"""A competition's Swiss phase: round 1 from the seeding at the draw, each next round once
the last one is decided (pairings by :mod:`futmesa.competition.swiss` from the Swiss table
as it stands), and the knockout the Swiss table's first places go into ("swiss:1", …).

Pure functions over the stored matches; :class:`futmesa.competition.db.CompetitionDB`
stores what they plan. A round takes ``ceil(pairs / tables)`` time slots; the knockout's
slots follow the last Swiss round's.
"""

from __future__ import annotations

from typing import Any

from futmesa.competition import schedule
from futmesa.competition.swiss import SwissTeam, assign_tables, pair_round

DECIDED = ("finished", "walkover", "bye")


def slots_per_round(teams: int, tables: int) -> int:
    return max(1, -(-(teams // 2) // tables))


def round_matches(round_no: int, pairs: list[tuple[str, str]], tables: int, teams: int,
                  played: dict[str, frozenset[int]]) -> list[schedule.Planned]:
    """The round's matches with their slot and table: a table neither team has played on
    where there is one (swiss.assign_tables), the pairs beyond the tables in later slots."""
    base = (round_no - 1) * slots_per_round(teams, tables)
    out: list[schedule.Planned] = []
    for start in range(0, len(pairs), tables):
        chunk = pairs[start:start + tables]
        given = assign_tables(chunk, list(range(1, tables + 1)), played)
        for a, b in chunk:
            out.append(schedule.Planned("swiss", "", round_no, a, b,
                                        slot=base + start // tables,
                                        table=given.get((a, b), 0)))
    return out


def first_round(keys: list[str], club_of: dict[str, str],
                tables: int) -> tuple[list[schedule.Planned], str | None]:
    """Round 1: the seeding folded (1st against the (n/2+1)th), club-mates apart."""
    pairs, bye = pair_round([SwissTeam(k, club=club_of.get(k, "")) for k in keys], fold=True)
    return round_matches(1, pairs, tables, len(keys), {}), bye


def knockout(advance: int, swiss_rounds: int, teams: int, tables: int,
             rest_slots: int) -> list[schedule.Planned]:
    """The knockout of the Swiss table's first `advance`, after the last Swiss round."""
    ko = schedule.knockout_rounds([f"swiss:{i}" for i in range(1, advance + 1)])
    schedule.assign_slots(ko, tables, rest_slots)
    base = swiss_rounds * slots_per_round(teams, tables) + rest_slots
    for p in ko:
        p.slot += base
    return ko


def history(matches: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Per team: the opponents it met, its byes and the tables it played on in the phase."""
    out: dict[str, dict[str, Any]] = {}
    for m in matches:
        if m["stage"] != "swiss":
            continue
        a, b = m["team_a"], m["team_b"]
        for me, them in ((a, b), (b, a)):
            if not me:
                continue
            h = out.setdefault(me, {"opponents": set(), "byes": 0, "tables": set()})
            if m["status"] == "bye":
                h["byes"] += 1
            elif them:
                h["opponents"].add(them)
                if m.get("planned_table"):
                    h["tables"].add(int(m["planned_table"]))
    return out


def phase_state(matches: list[dict[str, Any]]) -> tuple[int, bool]:
    """(the last Swiss round stored, whether every match of it is decided)."""
    swiss = [m for m in matches if m["stage"] == "swiss"]
    if not swiss:
        return 0, False
    last = max(m["round"] for m in swiss)
    done = all(m["status"] in DECIDED for m in swiss if m["round"] == last)
    return last, done


def next_round(matches: list[dict[str, Any]], table: list[dict[str, Any]],
               club_of: dict[str, str], out: set[str], settings: Any,
               ) -> tuple[int, list[schedule.Planned], str | None] | None:
    """The next round to store, or None (a round still being played, or the last one
    played). `table` is the Swiss table in order; disqualified teams (`out`) are left out."""
    last, done = phase_state(matches)
    if not done or last >= settings.swiss_rounds:
        return None
    seen = history(matches)
    ranked = [SwissTeam(r["team"], r["points"], club_of.get(r["team"], ""),
                        frozenset(seen.get(r["team"], {}).get("opponents", ())),
                        seen.get(r["team"], {}).get("byes", 0))
              for r in table if r["team"] not in out and not r.get("disqualified")]
    pairs, bye = pair_round(ranked)
    played = {k: frozenset(v["tables"]) for k, v in seen.items()}
    teams = len({t for m in matches if m["stage"] == "swiss" and m["round"] == 1
                 for t in (m["team_a"], m["team_b"]) if t})
    return last + 1, round_matches(last + 1, pairs, settings.tables, teams, played), bye
