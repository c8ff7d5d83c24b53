"""What a new competition will play: the draw (pots and clubs with a seed, or the list's
order snake-wise) and every match of the schedule with its slot and table; for a Swiss
phase its first round and the knockout of its first places. Pure: nothing is stored here
(:meth:`futmesa.competition.db.CompetitionDB.create` stores it).
"""

from __future__ import annotations

import secrets

from futmesa.competition import schedule, swissphase
from futmesa.competition.draw import Entrant, club_mates_first, draw
from futmesa.competition.settings import CompetitionSettings
from futmesa.competition.teams import Team
from futmesa.i18n import _
from futmesa.rules import load_ruleset


def plan(settings: CompetitionSettings, keys: list[str], teams: dict[str, Team]
         ) -> tuple[CompetitionSettings, list[schedule.Planned], dict[str, list[str]],
                    str | None]:
    """(the settings with the draw's seed kept, the matches, the groups, a Swiss round-1
    bye); ValueError saying what to change for a competition that cannot be played."""
    settings = settings.model_copy(update={"knockout_draw": knockout_draw(settings)})
    club_of = {k: teams[k].club_key for k in keys}
    # a draw by pots and clubs when the teams file has them or the settings give a seed
    # (kept with the settings: the same seed draws the same groups); else the list
    # order is the seeding, snake-wise, as before
    drawing = (settings.seed is not None or any(club_of.values())
               or any(teams[k].pot is not None for k in keys))
    seed = settings.seed if settings.seed is not None else secrets.randbelow(2**31)
    if drawing:
        settings = settings.model_copy(update={"seed": seed})
    bye: str | None = None
    if settings.format == "swiss_knockout":
        planned, groups, bye = _plan_swiss(settings, keys, teams, club_of)
        return settings, planned, groups, bye
    groups = {"": list(keys)}
    if settings.format == "groups_knockout" and not drawing:
        groups = schedule.draw_groups(keys, settings.groups)
    elif settings.format == "groups_knockout" and settings.groups * 2 <= len(keys):
        drawn = draw([Entrant(k, club_of[k], teams[k].pot) for k in keys], settings.groups,
                     seed)
        # club-mates the pots left in one group meet in its first round
        groups = {g: club_mates_first(ks, club_of) for g, ks in drawn.groups.items()}
    planned = schedule.plan(keys, settings.format, settings.groups, settings.advance,
                            drawn=groups, divisions=settings.divisions, legs=settings.legs)
    schedule.assign_slots(planned, settings.tables, settings.rest_slots)
    return settings, planned, groups, bye


def knockout_draw(settings: CompetitionSettings) -> str:
    """How a level knockout match is settled: the organiser's choice, checked against what
    the ruleset can play at the table; unset, the ruleset's own (extra time, else a
    shoot-out, else the desk decides)."""
    rules = load_ruleset(settings.ruleset)
    can = {"extra_time": bool(rules.extra_periods), "shootout": bool(rules.shootout_series),
           "advantage": True, "desk": True}
    choice = settings.knockout_draw
    if choice is None:
        return next(c for c in ("extra_time", "shootout", "desk") if can[c])
    if not can[choice]:
        raise ValueError(_('knockout_draw: the {rules} rules have no {what}: write "vantagem" '
                           'or "mesa de controle"').format(
            rules=rules.title, what=_("extra time") if choice == "extra_time"
            else _("penalty shoot-out")))
    return choice


def _plan_swiss(settings: CompetitionSettings, keys: list[str], teams: dict[str, Team],
                club_of: dict[str, str]
                ) -> tuple[list[schedule.Planned], dict[str, list[str]], str | None]:
    """Round 1 of the Swiss phase (the seeding: pots, then the file's order) and the
    knockout of its first places; the later rounds come as rounds are decided."""
    if settings.swiss_rounds >= len(keys):
        raise ValueError(_("{rounds} Swiss rounds need more than {rounds} teams (there "
                           "are {count})").format(rounds=settings.swiss_rounds,
                                                 count=len(keys)))
    if settings.advance > len(keys):
        raise ValueError(_("{advance} teams into the knockout, but only {count} teams")
                         .format(advance=settings.advance, count=len(keys)))
    seeded = sorted(keys, key=lambda k: (teams[k].pot or 99, keys.index(k)))
    first, bye = swissphase.first_round(seeded, club_of, settings.tables)
    ko = swissphase.knockout(settings.advance, settings.swiss_rounds, len(keys),
                             settings.tables, settings.rest_slots)
    for p in ko:
        p.src_a, p.src_b = (schedule.shift_source(s, len(first)) for s in (p.src_a, p.src_b))
    return first + ko, {"": seeded}, bye
