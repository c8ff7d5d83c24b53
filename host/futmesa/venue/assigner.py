"""Which match each free table plays next, across the day's categories.

The knockout places that are decided are filled in (only when the file changed since),
then every online table without a match gets the first playable one: the earliest in its
own category's schedule first, then the category created first; a team (a player entered
in two categories) plays one match at a time, and a table is never given two. What a
table is told is published on its retained ``assign`` topic, only when it changes.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from futmesa.competition.db import CompetitionDB, playable
from futmesa.competition.planning import knockout_draw
from futmesa.competition.settings import KNOCKOUT_DRAW_SETTINGS
from futmesa.i18n import _
from futmesa.matchbook.wording import table_name

log = logging.getLogger("futmesa.venue.desk")


def assignment(m: dict[str, Any], teams: dict[str, Any], comp: dict[str, Any]
               ) -> dict[str, Any]:
    """What a table is told to play: the teams, the ruleset and the match's settings."""
    s = comp["settings"]
    sides = {"A": teams[m["team_a"]].as_side(), "B": teams[m["team_b"]].as_side()}
    label = m["label"] or (_("Group {group} · round {round}").format(
        group=m["group"], round=m["round"]) if m["group"]
        else _("Swiss round {round}").format(round=m["round"]) if m["stage"] == "swiss"
        else _("Round {round}").format(round=m["round"]))
    if s.category:  # the table's kiosk says which category ("Sub-18 · Ouro: Final")
        label = f"{s.category} · {label}"
    settings = {**s.match_settings, "teams": sides, "event": comp["name"],
                "competition": "knockout" if m["stage"] == "ko" else "league",
                "competition_match": m["id"]}
    if m["stage"] == "ko":  # a level knockout: settled as the organiser chose (issue 47 §4)
        settings.update(KNOCKOUT_DRAW_SETTINGS[s.knockout_draw or knockout_draw(s)])
    return {"competition_match": m["id"], "label": label, "teams": sides,
            "ruleset": s.ruleset, "settings": settings}


class Assigner:
    def __init__(self, comp: CompetitionDB,
                 publish: Callable[[str, dict[str, Any]], None]) -> None:
        self.comp = comp
        self._publish = publish
        self.assigned: dict[str, dict[str, Any]] = {}  # table -> the payload last published
        self._advanced: tuple[Any, ...] = ()  # the file's revision the knockouts were filled at

    def fill_knockouts(self, comps: list[dict[str, Any]]) -> None:
        """Decided knockout places, Swiss rounds, walk-overs: only when the file changed."""
        if self.comp.revision() == self._advanced:
            return
        for comp in comps:
            self.comp.advance(comp["id"])
        self._advanced = self.comp.revision()

    def assign(self, comps: list[dict[str, Any]], online: list[str]) -> None:
        """Every online table: its current match again, or its next one, or nothing."""
        by_id = {c["id"]: c for c in comps}
        per_comp = {c["id"]: self.comp.matches(c["id"]) for c in comps}
        matches = [m for c in comps for m in per_comp[c["id"]]]
        teams = self.comp.team_map()
        on_table = {m["table_id"]: m for m in matches if m["status"] == "assigned"}
        busy = {t for m in matches if m["status"] == "assigned"
                for t in (m["team_a"], m["team_b"])}
        options = sorted((m for c in comps for m in playable(per_comp[c["id"]], busy)),
                         key=lambda m: (m["slot"], m["competition_id"], m["seq"]))
        for table in online:
            current = on_table.get(table)
            if current is not None:
                self.tell(table, assignment(current, teams, by_id[current["competition_id"]]))
                continue
            m = next((o for o in options if o["team_a"] not in busy
                      and o["team_b"] not in busy), None)
            if m is None:
                self.tell(table, {})
                continue
            self.comp.set_assigned(m["id"], table)
            busy |= {m["team_a"], m["team_b"]}
            # the teams by their names, the table by its name (the log is read by a person)
            log.info(_("match %d (%s × %s) to %s"), m["id"],
                     teams[m["team_a"]].name if m["team_a"] in teams else m["team_a"],
                     teams[m["team_b"]].name if m["team_b"] in teams else m["team_b"],
                     table_name(table))
            self.tell(table, assignment(m, teams, by_id[m["competition_id"]]))

    def tell(self, table: str, payload: dict[str, Any]) -> None:
        if self.assigned.get(table) == payload:
            return
        self.assigned[table] = payload
        self._publish(table, payload)
