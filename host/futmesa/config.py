"""The competition settings file an organiser writes (``serve --settings teams.json``).

Checked once, at load, with pydantic: unknown keys are refused with a "did you mean",
values are range-checked, durations are in the units a person uses (minutes for halves,
seconds for the lance), and every problem is one line saying what to write instead.
``validate_settings`` turns such a dict into the settings the rules engine stores (times
in milliseconds); the console's "Nova partida" goes through the same check.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, ValidationError

from futmesa.i18n import _
from futmesa.rules.settings import CHOICES, EXPEL_FROM, PERIODS
from futmesa.textfiles import OrganiserFileError, read_json
from futmesa.wordmatch import fold, json_lines, line_of, suggest

MINUTE_MS = 60_000
COLOR_PATTERN = r"^#[0-9a-fA-F]{6}$"

# person's key -> (engine key, milliseconds per unit)
UNITS: dict[str, tuple[str, int]] = {
    "half_minutes": ("period_ms", MINUTE_MS),
    "interval_minutes": ("interval_ms", MINUTE_MS),
    "extra_minutes": ("extra_ms", MINUTE_MS),
    "lance_seconds": ("lance_ms", 1000),
    "lance_warn_seconds": ("lance_warn_ms", 1000),
}


# the organiser's words for a match's competition (the console says "mata-mata")
COMPETITION_WORDS: dict[str, str] = {
    "league": "league", "pontos corridos": "league", "liga": "league",
    "knockout": "knockout", "mata mata": "knockout", "eliminatoria": "knockout",
}


def competition_word(value: Any) -> Any:
    """"mata-mata", "Pontos Corridos" … as the engine's "knockout" / "league"."""
    return COMPETITION_WORDS.get(fold(value), value) if isinstance(value, str) else value


class SettingsError(ValueError):
    """A settings file or dict is wrong: one line per problem saying what to fix.
    ``problems`` keeps each one's location in the file (a pydantic ``loc``)."""

    def __init__(self, message: str,
                 problems: list[tuple[tuple[Any, ...], str]] | None = None) -> None:
        super().__init__(message)
        self.problems = problems if problems is not None else [((), message)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class Team(_Strict):
    name: str = Field(default="", max_length=40)
    color: str = Field(default="#1f6feb", pattern=COLOR_PATTERN)
    logo: str | None = Field(default=None, max_length=120)


class Teams(_Strict):
    A: Team = Team()
    B: Team = Team(color="#d1242f")


class MatchSettings(_Strict):
    """Every key is optional; a missing key means the ruleset's own value."""

    competition: Annotated[Literal[CHOICES["competition"]] | None,  # type: ignore[valid-type]
                           BeforeValidator(competition_word)] = None
    event: str | None = Field(default=None, max_length=120)
    referee: str | None = Field(default=None, max_length=80)
    teams: Teams | None = None
    kickoff: Literal[CHOICES["kickoff"]] | None = None  # type: ignore[valid-type]
    advantage: Literal[CHOICES["advantage"]] | None = None  # type: ignore[valid-type]
    periods: int | None = Field(default=None, ge=PERIODS[0], le=PERIODS[1])
    half_minutes: float | None = Field(default=None, ge=1, le=60)
    interval_minutes: float | None = Field(default=None, ge=0, le=30)
    extra_minutes: float | None = Field(default=None, ge=1, le=30)
    lance_seconds: float | None = Field(default=None, ge=5, le=300)
    lance_warn_seconds: float | None = Field(default=None, ge=0, le=60)
    extra_time: bool | None = None
    shootout: bool | None = None
    substitutions: int | None = Field(default=None, ge=0, le=20)
    touch_limit: int | None = Field(default=None, ge=1, le=50)
    # the choices of rules/settings.py (CHOICES): who kicks off extra time, and the readings
    # of articles that contradict each other or are silent (docs/rulesets.md)
    extra_kickoff: Literal[CHOICES["extra_kickoff"]] | None = None  # type: ignore[valid-type]
    lateral_taker: Literal[CHOICES["lateral_taker"]] | None = None  # type: ignore[valid-type]
    lance_warning: Literal[CHOICES["lance_warning"]] | None = None  # type: ignore[valid-type]
    second_cera: Literal[CHOICES["second_cera"]] | None = None  # type: ignore[valid-type]
    keeper_foul: Literal[CHOICES["keeper_foul"]] | None = None  # type: ignore[valid-type]
    foul_at_alarm: Literal[CHOICES["foul_at_alarm"]] | None = None  # type: ignore[valid-type]
    failed_area: Literal[CHOICES["failed_area"]] | None = None  # type: ignore[valid-type]
    last_lance_fouls: Literal[CHOICES["last_lance_fouls"]] | None = None  # type: ignore[valid-type]
    expel_from: Literal[EXPEL_FROM] | None = None  # type: ignore[valid-type]
    shootout_early_end: bool | None = None
    # the table's name on every screen ("Mesa Central"); table_names: one per table id
    table_name: str | None = Field(default=None, max_length=40)
    table_names: dict[str, str] | None = None
    # the venue's time zone for the súmula's times (IANA name, e.g. "America/Sao_Paulo")
    timezone: str | None = Field(default=None, max_length=64,
                                 pattern=r"^[A-Za-z][A-Za-z0-9_+\-]*(/[A-Za-z0-9_+\-]+)*$")
    # set by the venue desk: the competition's match this table plays (docs/operating.md §12)
    competition_match: int | None = Field(default=None, ge=1, le=2**63 - 1)
    # the same durations in milliseconds, as the console and stored matches carry them
    period_ms: int | None = Field(default=None, ge=MINUTE_MS, le=60 * MINUTE_MS)
    interval_ms: int | None = Field(default=None, ge=0, le=30 * MINUTE_MS)
    extra_ms: int | None = Field(default=None, ge=MINUTE_MS, le=30 * MINUTE_MS)
    lance_ms: int | None = Field(default=None, ge=5000, le=300_000)
    lance_warn_ms: int | None = Field(default=None, ge=0, le=60_000)


def _known_keys(model: type[BaseModel]) -> list[str]:
    return list(model.model_fields)


def _model_at(loc: tuple[Any, ...]) -> type[BaseModel]:
    if not loc:
        return MatchSettings
    if loc[0] == "teams":
        return Teams if len(loc) == 1 else Team
    return MatchSettings


def where_of(loc: tuple[Any, ...]) -> str:
    return ".".join(str(p) for p in loc)


def _problems(exc: ValidationError) -> list[tuple[tuple[Any, ...], str]]:
    """Every problem pydantic found, each with its location, in the organiser's words."""
    seen: dict[str, tuple[Any, ...]] = {}
    for err in exc.errors():
        seen.setdefault(_one_line(err), tuple(err["loc"]))
    return [(loc, line) for line, loc in seen.items()]


def _one_line(err: Any) -> str:
    """One problem pydantic found, as one line in the organiser's words."""
    loc = tuple(err["loc"])
    kind = err["type"]
    where = where_of(loc)
    if kind == "extra_forbidden":
        known = _known_keys(_model_at(loc[:-1]))
        close = suggest(loc[-1], known)
        hint = (_('; did you mean "{word}"?').format(word=close) if close
                else _("; accepted keys: {keys}").format(keys=", ".join(known)))
        return _('unknown key "{where}"{hint}').format(where=where, hint=hint)
    if kind == "model_type":
        model = _model_at(loc)
        if model is Teams:
            return _('"teams" must be an object {"A": {"name": "…", "color": "#rrggbb"}, '
                     '"B": {…}}, not a list')
        if model is Team:
            return _('"{where}" must be an object {{"name": "…", "color": "#rrggbb"}}').format(
                where=where)
        return _('the settings must be a JSON object, for example {"competition": '
                 '"knockout"}')
    if kind == "literal_error":
        if loc and loc[-1] == "competition":
            expected = _('"pontos corridos" or "mata-mata" (league or knockout)')
            words = [*COMPETITION_WORDS, "mata-mata"]
        else:
            expected = err.get("ctx", {}).get("expected", "").replace(" or ", _(" or "))
            words = re.findall(r"'([^']*)'", expected)
        close = suggest(err["input"], words)
        hint = _('; did you mean "{word}"?').format(word=close) if close else ""
        return _('"{where}" must be {expected} (got {given}){hint}').format(
            where=where, expected=expected, given=repr(err["input"]), hint=hint)
    if kind == "string_pattern_mismatch":
        return _('"{where}" must be a colour such as "#1f6feb" (got {given})').format(
            where=where, given=repr(err["input"]))
    if kind in ("greater_than_equal", "less_than_equal"):
        lo, hi = _range(loc[-1])
        unit = _unit_word(str(loc[-1]))
        return _('"{where}" must be between {low} and {high}{unit} (got {given})').format(
            where=where, low=lo, high=hi, unit=unit, given=repr(err["input"]))
    if kind.startswith("bool"):
        return _('"{where}" must be true or false (got {given})').format(
            where=where, given=repr(err["input"]))
    if kind.startswith(("int", "float")):
        return _('"{where}" must be a number (got {given})').format(
            where=where, given=repr(err["input"]))
    if kind.startswith("string"):
        return _('"{where}" must be a short text (got {given})').format(
            where=where, given=repr(err["input"]))
    return f'"{where}": {err["msg"]}'


def _range(key: Any) -> tuple[Any, Any]:
    field = MatchSettings.model_fields.get(str(key))
    lo = hi = None
    if field is not None:
        for meta in field.metadata:
            lo = getattr(meta, "ge", lo)
            hi = getattr(meta, "le", hi)
    return lo, hi


def _unit_word(key: str) -> str:
    if key.endswith("_minutes"):
        return _(" minutes")
    if key.endswith("_seconds"):
        return _(" seconds")
    if key.endswith("_ms"):
        return _(" milliseconds")
    return ""


def validate_settings(data: Any) -> dict[str, Any]:
    """The engine's settings (durations in ms) from what a person wrote, or SettingsError
    listing every problem at once: pydantic's and the contradictions between keys, each with
    its location (``SettingsError.problems``)."""
    problems: list[tuple[tuple[Any, ...], str]] = []
    try:
        given = MatchSettings.model_validate(data).model_dump(exclude_unset=True)
    except ValidationError as exc:
        problems = _problems(exc)
        given = _valid_part(data, problems)
    problems += _contradictions(given)
    if problems:
        raise SettingsError("\n".join(line for _loc, line in problems), problems)
    out: dict[str, Any] = {}
    for key, value in given.items():
        if key in UNITS:
            target, scale = UNITS[key]
            out[target] = round(value * scale)
        elif key == "teams":
            out["teams"] = {side: {k: v for k, v in team.items() if v is not None}
                            for side, team in value.items()}
        else:
            out[key] = value
    return out


def _valid_part(data: Any, problems: list[tuple[tuple[Any, ...], str]]) -> dict[str, Any]:
    """The keys of ``data`` pydantic found nothing wrong with, checked (so the contradictions
    between keys are found in the same run as the other problems)."""
    if not isinstance(data, dict):
        return {}
    wrong = {loc[0] for loc, _line in problems if loc}
    fine = {k: v for k, v in data.items() if k in MatchSettings.model_fields and k not in wrong}
    try:
        return MatchSettings.model_validate(fine).model_dump(exclude_unset=True)
    except ValidationError:
        return {}


def _contradictions(given: dict[str, Any]) -> list[tuple[tuple[Any, ...], str]]:
    """Keys that contradict each other: one duration given in two units, a lance warning
    not shorter than the lance. Each at the key to change."""
    out: list[tuple[tuple[Any, ...], str]] = []
    for key in given:
        target = UNITS.get(key, ("", 0))[0]
        if target in given:
            out.append(((target,), _('"{key}" and "{target}" say the same thing: keep only '
                                     '"{key}"').format(key=key, target=target)))

    def ms(engine_key: str) -> tuple[str, float] | None:
        person_key = next(k for k, (t, _scale) in UNITS.items() if t == engine_key)
        if given.get(person_key) is not None:
            return person_key, given[person_key] * UNITS[person_key][1]
        if given.get(engine_key) is not None:
            return engine_key, given[engine_key]
        return None

    lance, warn = ms("lance_ms"), ms("lance_warn_ms")
    if lance is not None and warn is not None and round(warn[1]) >= round(lance[1]):
        out.append(((warn[0],), _('the lance warning ("lance_warn_seconds") must be shorter '
                                  'than the lance ("lance_seconds")')))
    return out


def load_settings_file(path: str | Path) -> dict[str, Any]:
    """Read and check a settings file; SettingsError names the file and every problem, each
    at its line."""
    p = Path(path)
    try:
        # UTF-8 with or without BOM, UTF-16, cp1252/Latin-1: what editors on Windows write
        text, data = read_json(p)
    except OrganiserFileError as exc:
        raise SettingsError(str(exc)) from None
    try:
        return validate_settings(data)
    except SettingsError as exc:
        raise SettingsError(at_lines(str(p), text, exc.problems), exc.problems) from None


def at_lines(where: str, text: str, problems: list[tuple[tuple[Any, ...], str]]) -> str:
    """Each problem as "FILE linha N: …", N the line of its key in the JSON ``text``."""
    lines = json_lines(text)
    out = []
    for loc, problem in problems:
        n = line_of(lines, loc)
        out.append(_("{where} line {line}: {problem}").format(where=where, line=n, problem=problem)
                   if n else f"{where}: {problem}")
    return "\n".join(out)
