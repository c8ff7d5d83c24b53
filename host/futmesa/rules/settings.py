"""Competition settings: checked once, with messages that say what to write instead."""

from __future__ import annotations

from typing import Any

from futmesa.i18n import N_

_DURATIONS = ("period_ms", "interval_ms", "extra_ms", "lance_ms", "lance_warn_ms")
_FLAGS = ("extra_time", "shootout", "shootout_early_end")


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
    for key, allowed in (
        ("competition", ("league", "knockout")),
        ("kickoff", ("A", "B")),
        ("advantage", ("A", "B")),
        ("extra_kickoff", ("first", "other", "A", "B")),
        ("lateral_taker", ("not_last_touch", "half")),
        ("lance_warning", ("every_lance", "once")),
        ("second_cera", ("disqualify", "grade")),
        ("keeper_foul", ("document", "penalti")),
        ("foul_at_alarm", ("taken", "not_taken")),
        ("failed_area", ("technical", "choice")),
        ("last_lance_fouls", ("none", "against_player")),
    ):
        if s.get(key) is not None and s[key] not in allowed:
            raise BadSettings(N_('settings "{key}" must be one of {allowed}'), key=key,
                              allowed=", ".join(allowed))
    if s.get("expel_from") is not None and s["expel_from"] not in (3, 4):
        raise BadSettings(N_('settings "expel_from" must be 3 or 4'))
    for key in _FLAGS:
        if s.get(key) is not None and not isinstance(s[key], bool):
            raise BadSettings(N_('settings "{key}" must be true or false'), key=key)
    for key in _DURATIONS:
        if s.get(key) is not None and (not _int(s[key]) or s[key] < 0):
            raise BadSettings(N_('settings "{key}" must be a duration in milliseconds '
                                 '(e.g. 600000)'), key=key)
    if s.get("periods") is not None and (not _int(s["periods"]) or not 1 <= s["periods"] <= 4):
        raise BadSettings(N_('settings "periods" must be a whole number from 1 to 4'))
    for key in ("substitutions", "touch_limit"):
        if s.get(key) is not None and (not _int(s[key]) or s[key] < 0):
            raise BadSettings(N_('settings "{key}" must be a whole number, or null for no '
                                 'limit'), key=key)
    return dict(s)
