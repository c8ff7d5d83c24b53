"""Watching the day keep its plan (issue 47 "done when"): the demo and the organiser's walk
test look at the desk's file as the day goes and check that no table has two matches at
one time, that every match is played at the table it was announced at, and how far each
match's last estimated start was from when it really began (the median and the worst).
``speed``: the simulated tables play that many times faster than the rules' clock; the
errors are given in the day's own minutes (× speed).
"""

from __future__ import annotations

import statistics
import time
from dataclasses import dataclass, field
from typing import Any

from futmesa.competition.db import CompetitionDB
from futmesa.venue.views import estimates


@dataclass
class PlanWatch:
    comp: CompetitionDB
    speed: float = 1.0
    last_estimate: dict[int, float] = field(default_factory=dict)  # match -> its last ETA
    errors: dict[int, float] = field(default_factory=dict)  # match -> start - last ETA (s)
    announced: dict[int, str] = field(default_factory=dict)  # match -> the table it was given
    problems: list[str] = field(default_factory=list)
    # (competition, Swiss round not drawn yet) -> its pairs' last estimated starts
    rounds: dict[tuple[int, int], list[float]] = field(default_factory=dict)

    def look(self, now: float | None = None) -> None:
        """One look at the day: estimates of the matches waiting, the matches just given."""
        now = time.time() if now is None else now
        day = self.comp.active()
        at_table: dict[str, int] = {}
        for c in day:
            matches = self.comp.matches(c["id"])
            est = estimates(self.comp, c, matches, now, self.speed)
            for m in matches:
                if m["status"] == "scheduled" and m["id"] in est.starts:
                    self.last_estimate[m["id"]] = est.starts[m["id"]]
            # a Swiss round not drawn yet: its pairs' last estimates go to the matches drawn
            self.rounds.update({(c["id"], r): at for r, at in
                                _round_pairs(est, c["id"]).items()})
            for (cid, r), starts in self.rounds.items():
                drawn = sorted((m for m in matches if cid == c["id"] and m["stage"] == "swiss"
                                and m["round"] == r and m["team_b"]), key=lambda m: m["seq"])
                for m, at in zip(drawn, starts, strict=False):
                    self.last_estimate.setdefault(m["id"], at)
            for m in matches:
                if m["status"] != "assigned":
                    continue
                if m["table_id"] in at_table and at_table[m["table_id"]] != m["id"]:
                    self.problems.append(f"{m['table_id']}: matches {at_table[m['table_id']]}"
                                         f" and {m['id']} at one time")
                at_table[m["table_id"]] = m["id"]
                if m["id"] not in self.announced:
                    self.announced[m["id"]] = m["table_id"]
                    if m["id"] in self.last_estimate:
                        self.errors[m["id"]] = m["updated_at"] - self.last_estimate[m["id"]]

    def check_played(self) -> None:
        """Every result a table sent came from the table its match was announced at."""
        for c in self.comp.active():
            for m in self.comp.matches(c["id"]):
                r = m["result"]
                if not r or r["source"] != "table":
                    continue
                played = r["uid"].rsplit(":", 1)[0]
                if played != self.announced.get(m["id"], m["table_id"]):
                    self.problems.append(f"match {m['id']} announced at "
                                         f"{self.announced.get(m['id'])}, played at {played}")

    def summary(self) -> dict[str, Any]:
        """The estimates' errors at the matches' start, in minutes (positive: later than
        estimated)."""
        errs = [abs(e) * self.speed / 60 for e in self.errors.values()]
        return {"matches": len(errs),
                "median_min": statistics.median(errs) if errs else 0.0,
                "worst_min": max(errs, default=0.0), "problems": list(self.problems)}


def _round_pairs(est: Any, cid: int) -> dict[int, list[float]]:
    """A Swiss round not drawn yet -> its pairs' estimated starts, in the pairs' order
    (eta.rounds_to_draw's ids)."""
    out: dict[int, list[tuple[int, float]]] = {}
    for mid, at in est.starts.items():
        if mid < 0 and -mid // 10000 == cid:
            out.setdefault((-mid % 10000) // 100, []).append((-mid % 100, at))
    return {r: [at for _k, at in sorted(pairs)] for r, pairs in out.items()}
