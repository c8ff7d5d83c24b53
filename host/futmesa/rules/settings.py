"""The match settings the rules take, in one table, and their check.

The table (``CHOICES``, ``FLAGS``, ``DURATIONS``, ``PERIODS``, ``EXPEL_FROM``) is the one list
of what each setting may be: the rules check stored and console settings against it here,
and the organiser's settings file (futmesa/config.py) builds its pydantic model from it.
"""

from __future__ import annotations

from typing import Any

from futmesa.i18n import N_

# each setting with a closed set of values: the values, the first the engine's word
CHOICES: dict[str, tuple[str, ...]] = {
    "competition": ("league", "knockout"),
    "kickoff": ("A", "B"),
    "advantage": ("A", "B"),
    # who kicks off extra time: the documents are silent (docs/rulesets.md)
    "extra_kickoff": ("first", "other", "A", "B"),
    # readings of articles that contradict each other or are silent (docs/rulesets.md,
    # "Contradições entre artigos"): each a club's choice, the ruleset's default when unset
    "lateral_taker": ("not_last_touch", "half"),
    "lance_warning": ("every_lance", "once"),
    "second_cera": ("disqualify", "grade"),
    "keeper_foul": ("document", "penalti"),
    "foul_at_alarm": ("taken", "not_taken"),
    "failed_area": ("technical", "choice"),
    "last_lance_fouls": ("none", "against_player"),
}
EXPEL_FROM = (3, 4)  # the discs a side may lose before the match is lost (a club's choice)
PERIODS = (1, 4)  # fewest and most periods
FLAGS = ("extra_time", "shootout", "shootout_early_end")
DURATIONS = ("period_ms", "interval_ms", "extra_ms", "lance_ms", "lance_warn_ms")


def _int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class BadSettings(ValueError):
    """A setting the rules cannot take: one English msgid of the catalogs and its values (the
    exception's text is the English; a refusal shows it in each language)."""

    def __init__(self, msgid: str, **values: Any) -> None:
        super().__init__(msgid.format(**values))
        self.msgid, self.values = msgid, values


def check_settings(settings: dict[str, Any]) -> dict[str, Any]:
    """The settings, or BadSettings (a ValueError) naming the first bad key and what it
    should be."""
    if not isinstance(settings, dict):
        raise BadSettings(N_("settings must be a JSON object, e.g. {example}"),
                          example='{"competition": "knockout"}')
    s = settings
    teams = s.get("teams")
    if teams is not None:
        if not isinstance(teams, dict) or not set(teams) <= {"A", "B"}:
            raise BadSettings(N_('settings "teams" must be {shape}'),
                              shape='{"A": {"name", "color"}, "B": {…}}')
        for side, team in teams.items():
            if not isinstance(team, dict) or not all(
                isinstance(team.get(k), str) for k in ("name", "color") if k in team
            ):
                raise BadSettings(N_('settings "teams.{side}" must be {shape}'), side=side,
                                  shape='{"name": "…", "color": "#…"}')
    for key, allowed in CHOICES.items():
        if s.get(key) is not None and s[key] not in allowed:
            raise BadSettings(N_('settings "{key}" must be one of {allowed}'), key=key,
                              allowed=", ".join(allowed))
    if s.get("expel_from") is not None and s["expel_from"] not in EXPEL_FROM:
        raise BadSettings(N_('settings "expel_from" must be 3 or 4'))
    for key in FLAGS:
        if s.get(key) is not None and not isinstance(s[key], bool):
            raise BadSettings(N_('settings "{key}" must be true or false'), key=key)
    for key in DURATIONS:
        if s.get(key) is not None and (not _int(s[key]) or s[key] < 0):
            raise BadSettings(N_('settings "{key}" must be a duration in milliseconds '
                                 '(e.g. 600000)'), key=key)
    for key in ("period_ms", "extra_ms"):
        if s.get(key) == 0:
            raise BadSettings(N_('settings "{key}" must be more than 0 ms (leave it out for '
                                 "the ruleset's own)"), key=key)
    if s.get("periods") is not None and (not _int(s["periods"])
                                         or not PERIODS[0] <= s["periods"] <= PERIODS[1]):
        raise BadSettings(N_('settings "periods" must be a whole number from 1 to 4'))
    for key in ("substitutions", "touch_limit"):
        if s.get(key) is not None and (not _int(s[key]) or s[key] < 0):
            raise BadSettings(N_('settings "{key}" must be a whole number, or null for no '
                                 'limit'), key=key)
    return dict(s)
