"""Competition settings a person writes (JSON): format, points, tie-break order, rest.

The rule documents (000, 001, 003, 004) regulate a *match*; none of them fixes
how a competition counts points or breaks ties between teams level on points.
So points per result and the tie-break order are settings here, with the
common Brazilian defaults (3/1/0; wins, goal difference, goals scored,
head-to-head, fewest goals conceded, then a draw by lot — shown as name order).
A knockout match is played under the ruleset's own knockout rules (extra time,
shootout: 003 Art. 28, 004 "Disputa de pênaltis"), switched on by
``competition: knockout`` in the match settings.

The file may be UTF-8, UTF-16 or cp1252 (:mod:`futmesa.competition.files`); every value is
range-checked when the competition is created (the match settings by the same check as a
table's own settings file), and every problem is reported at once, one line each.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, ValidationError, field_validator

from futmesa.config import SettingsError, at_lines, validate_settings
from futmesa.i18n import N_, _
from futmesa.rules import UnknownRuleset, resolve_ruleset
from futmesa.textfiles import OrganiserFileError, read_json
from futmesa.wordmatch import fold, suggest

TIE_BREAKS = ("wins", "goal_difference", "goals_for", "head_to_head", "goals_against")
# criteria an organiser may add (not in the default order)
MORE_TIE_BREAKS = ("shootout", "lots")
# each criterion's name as shown (translated where shown, with _())
TIE_BREAK_NAMES = {
    "points": N_("points"),
    "wins": N_("wins"),
    "goal_difference": N_("goal difference"),
    "goals_for": N_("goals scored"),
    "head_to_head": N_("head-to-head"),
    "goals_against": N_("fewest goals conceded"),
    "shootout": N_("a tie-break shoot-out"),
    "lots": N_("drawing lots"),
}


# the organiser's words for a competition's format
FORMAT_WORDS: dict[str, str] = {
    "league": "league", "pontos corridos": "league", "liga": "league",
    "groups knockout": "groups_knockout", "grupos e mata mata": "groups_knockout",
    "grupos mata mata": "groups_knockout", "grupos": "groups_knockout",
    "swiss": "swiss_knockout", "swiss knockout": "swiss_knockout", "suico": "swiss_knockout",
    "suico e mata mata": "swiss_knockout", "suico mata mata": "swiss_knockout",
}


# how a knockout match the table ends level is settled (issue 47 §4), in the organiser's words
KNOCKOUT_DRAW_WORDS: dict[str, str] = {
    "extra time": "extra_time", "prorrogacao": "extra_time",
    "prorrogacao e penaltis": "extra_time", "shootout": "shootout", "penaltis": "shootout",
    "disputa de penaltis": "shootout", "advantage": "advantage", "vantagem": "advantage",
    "desk": "desk", "mesa de controle": "desk", "decisao na mesa de controle": "desk",
    "organizador": "desk"}
KNOCKOUT_DRAW_NAMES = {
    "extra_time": N_("extra time, then penalties where the rules have them (at the table)"),
    "shootout": N_("penalties at the table"),
    "advantage": N_("the first-named team (the better placed) goes through"),
    "desk": N_("decided at the desk (futmesa competition decide)")}
# what a knockout match's settings say for each choice (the table's rules engine reads them)
KNOCKOUT_DRAW_SETTINGS: dict[str, dict[str, Any]] = {
    "extra_time": {"extra_time": True, "shootout": True},
    "shootout": {"extra_time": False, "shootout": True},
    "advantage": {"extra_time": False, "shootout": False, "advantage": "A"},
    "desk": {"extra_time": False, "shootout": False}}


def knockout_draw_word(value: Any) -> Any:
    """"Pênaltis", "mesa de controle" … as "shootout" / "desk"."""
    return KNOCKOUT_DRAW_WORDS.get(fold(value), value) if isinstance(value, str) else value


def format_word(value: Any) -> Any:
    """"Grupos e mata-mata", "pontos corridos" … as "groups_knockout" / "league"."""
    return FORMAT_WORDS.get(fold(value), value) if isinstance(value, str) else value


class SettingsFileError(ValueError):
    """Competition settings that cannot be used; one line saying what to write."""


class Points(BaseModel):
    model_config = ConfigDict(extra="forbid")
    win: int = Field(default=3, ge=0, le=10)
    draw: int = Field(default=1, ge=0, le=10)
    loss: int = Field(default=0, ge=0, le=10)


class CompetitionSettings(BaseModel):
    """What the organiser decides for the day (``futmesa competition new --settings F``)."""

    model_config = ConfigDict(extra="forbid")
    name: str = Field(default_factory=lambda: _("Tournament"), min_length=1, max_length=80)
    category: str = Field(default="", max_length=40,
                          description="the category or division this competition is (e.g. "
                                      "masters, under-18): the day's categories share the tables")
    ruleset: str = "cbfm-1toque"
    format: Annotated[Literal["league", "groups_knockout", "swiss_knockout"],
                      BeforeValidator(format_word)] = "groups_knockout"
    groups: int = Field(default=2, ge=1, le=16)
    advance: int = Field(default=1, ge=1, le=16,
                         description="teams per group (Swiss: in all) into the knockout")
    swiss_rounds: int = Field(default=4, ge=1, le=15, description="rounds of a Swiss phase")
    legs: int = Field(default=1, ge=1, le=2,
                      description="1: each pair of a league or group meets once; 2: home and "
                                  "away (turno e returno), the second leg with the sides swapped")
    divisions: list[Annotated[str, Field(min_length=1, max_length=20)]] = Field(
        default_factory=list, max_length=4,
        description="knockouts after the groups, e.g. Ouro, Prata, Bronze: the first "
                    "`advance` places of each group in the first, the next in the second…")
    bye_score: int = Field(default=3, ge=0, le=20,
                           description="goals a Swiss bye is scored (FISTF: 3–0)")
    seed: int | None = Field(default=None, ge=0, le=2**31 - 1,
                             description="the draw's seed: the same seed, the same draw")
    points: Points = Field(default_factory=Points)
    tie_breaks: list[str] = Field(default_factory=lambda: list(TIE_BREAKS))
    tables: int = Field(default=4, ge=1, le=256)
    rest_slots: int = Field(default=0, ge=0, le=8,
                        description="free time slots a team gets between two matches")
    changeover_minutes: int = Field(default=5, ge=0, le=60,
                                    description="minutes between two matches at a table "
                                                "(the estimated times count them)")
    walkover_score: int = Field(default=2, ge=0, le=20,
                                description="goals a walk-over is scored (e.g. 003 Art. 83 §3)")
    match_settings: dict[str, Any] = Field(default_factory=dict,
                                           description="settings of every match (half length…)")
    knockout_draw: Annotated[Literal["extra_time", "shootout", "advantage", "desk"] | None,
                             BeforeValidator(knockout_draw_word)] = Field(
        default=None, description="a knockout match ended level: extra time, a shoot-out at "
                                  "the table, the first-named team, or the desk decides; "
                                  "unset: the ruleset's own (named when it is created)")

    @field_validator("ruleset")
    @classmethod
    def _ruleset(cls, value: str) -> str:
        try:
            return resolve_ruleset(value)
        except UnknownRuleset as exc:
            raise ValueError(str(exc)) from None

    @field_validator("tie_breaks")
    @classmethod
    def _tie_breaks(cls, value: list[str]) -> list[str]:
        known = (*TIE_BREAKS, *MORE_TIE_BREAKS)
        bad = [t for t in value if t not in known]
        if bad:
            close = suggest(bad[0], known)
            hint = _('did you mean "{word}"? ').format(word=close) if close else ""
            raise ValueError(_("unknown tie-break {name}: {hint}use {names}").format(
                name=repr(bad[0]), hint=hint, names=", ".join(known)))
        return value

    @field_validator("match_settings")
    @classmethod
    def _match_settings(cls, value: dict[str, Any]) -> dict[str, Any]:
        try:
            return validate_settings(value)
        except SettingsError as exc:
            raise ValueError(str(exc)) from None


def load_settings(path: str | Path | None) -> CompetitionSettings:
    """Read a settings JSON file; SettingsFileError listing every problem, one a line,
    each with the line of the file it is on."""
    if path is None:
        return CompetitionSettings()
    try:
        text, data = read_json(path)
    except OrganiserFileError as exc:
        raise SettingsFileError(str(exc)) from None
    return parse_settings(data, str(path), text)


def parse_settings(data: Any, where: str = "settings", text: str = "") -> CompetitionSettings:
    """The checked settings; SettingsFileError with every problem (of the match settings
    too), one a line, at its line of ``text`` when given."""
    problems: list[tuple[tuple[Any, ...], str]] = []
    inner = data.get("match_settings") if isinstance(data, dict) else None
    if isinstance(inner, dict):
        try:
            validate_settings(inner)
        except SettingsError as exc:
            problems += [(("match_settings", *loc), f"match_settings: {line}")
                         for loc, line in exc.problems]
            data = {k: v for k, v in data.items() if k != "match_settings"}
    model = None
    try:
        model = CompetitionSettings.model_validate(data)
    except ValidationError as exc:
        for err in exc.errors():
            field = ".".join(str(p) for p in err["loc"]) or _("(top level)")
            problems.append((tuple(err["loc"]), f"{field}: {_said(err)}"))
    if problems or model is None:
        raise SettingsFileError(at_lines(where, text, problems))
    return model


def _said(err: Any) -> str:
    """One pydantic problem in the organiser's words."""
    kind, ctx, got = err["type"], err.get("ctx") or {}, err.get("input")
    if kind in ("greater_than_equal", "less_than_equal", "greater_than", "less_than"):
        bound = next(iter(ctx.values()), "?")
        text = {"greater_than_equal": _("must be at least {bound} (got {given})"),
                "less_than_equal": _("must be at most {bound} (got {given})"),
                "greater_than": _("must be more than {bound} (got {given})"),
                "less_than": _("must be less than {bound} (got {given})")}[kind]
        return text.format(bound=bound, given=repr(got))
    if kind == "extra_forbidden":
        model = Points if "points" in err["loc"][:-1] else CompetitionSettings
        close = suggest(err["loc"][-1], list(model.model_fields))
        return (_('unknown key: did you mean "{word}"?').format(word=close) if close
                else _("unknown key: delete it or correct its name"))
    if kind.startswith("int"):
        return _("must be a whole number (got {given})").format(given=repr(got))
    if kind == "literal_error":
        if err["loc"][-1] == "format":
            close = suggest(got, [*FORMAT_WORDS, "grupos e mata-mata"])
            hint = _('; did you mean "{word}"?').format(word=close) if close else ""
            return _('must be "pontos corridos", "grupos e mata-mata" or "suíço e mata-mata" '
                     '(league, groups_knockout or swiss_knockout) (got {given}){hint}').format(
                given=repr(got), hint=hint)
        expected = str(ctx.get("expected", "")).replace(" or ", _(" or "))
        return _("must be {expected} (got {given})").format(expected=expected, given=repr(got))
    if kind.startswith("string_too"):
        return _("must have 1 to {most} characters").format(most=ctx.get("max_length", 80))
    if kind in ("model_type", "dict_type"):
        return _('must be an object {{"…": …}} (got {given})').format(given=repr(got))
    if kind == "list_type":
        return _('must be a list ["…", "…"] (got {given})').format(given=repr(got))
    if kind == "string_type":
        return _("must be a text in quotes (got {given})").format(given=repr(got))
    return str(err["msg"]).removeprefix("Value error, ")
