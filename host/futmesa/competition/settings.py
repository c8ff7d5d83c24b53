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

import json
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from futmesa.competition.files import OrganiserFileError, read_text
from futmesa.config import SettingsError, validate_settings
from futmesa.rules import load_ruleset

TIE_BREAKS = ("wins", "goal_difference", "goals_for", "head_to_head", "goals_against")
TIE_BREAK_NAMES = {
    "points": ("pontos", "points"),
    "wins": ("vitórias", "wins"),
    "goal_difference": ("saldo de gols", "goal difference"),
    "goals_for": ("gols pró", "goals scored"),
    "head_to_head": ("confronto direto", "head-to-head"),
    "goals_against": ("menos gols sofridos", "fewest goals conceded"),
}


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
    name: str = Field(default="Torneio", min_length=1, max_length=80)
    ruleset: str = "cbfm-1toque"
    format: Literal["league", "groups_knockout"] = "groups_knockout"
    groups: int = Field(default=2, ge=1, le=16)
    advance: int = Field(default=1, ge=1, le=8, description="teams per group into the knockout")
    points: Points = Field(default_factory=Points)
    tie_breaks: list[str] = Field(default_factory=lambda: list(TIE_BREAKS))
    tables: int = Field(default=4, ge=1, le=256)
    rest_slots: int = Field(default=0, ge=0, le=8,
                        description="free time slots a team gets between two matches")
    walkover_score: int = Field(default=2, ge=0, le=20,
                                description="goals a walk-over is scored (e.g. 003 Art. 83 §3)")
    match_settings: dict[str, Any] = Field(default_factory=dict,
                                           description="settings of every match (half length…)")

    @field_validator("ruleset")
    @classmethod
    def _ruleset(cls, value: str) -> str:
        try:
            load_ruleset(value)
        except KeyError as exc:
            raise ValueError(str(exc.args[0] if exc.args else exc)) from exc
        return value

    @field_validator("tie_breaks")
    @classmethod
    def _tie_breaks(cls, value: list[str]) -> list[str]:
        bad = [t for t in value if t not in TIE_BREAKS]
        if bad:
            raise ValueError(f"unknown tie-break {bad[0]!r}: use {', '.join(TIE_BREAKS)}")
        return value

    @field_validator("match_settings")
    @classmethod
    def _match_settings(cls, value: dict[str, Any]) -> dict[str, Any]:
        try:
            return validate_settings(value)
        except SettingsError as exc:
            raise ValueError(str(exc)) from None


def load_settings(path: str | Path | None) -> CompetitionSettings:
    """Read a settings JSON file; SettingsFileError listing every problem, one a line."""
    if path is None:
        return CompetitionSettings()
    try:
        text = read_text(path).lstrip("\ufeff")
    except OrganiserFileError as exc:
        raise SettingsFileError(str(exc)) from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise SettingsFileError(f"{path} linha {exc.lineno}: JSON inválido ({exc.msg})") from None
    except RecursionError:
        raise SettingsFileError(f"{path}: JSON aninhado demais") from None
    return parse_settings(data, str(path))


def parse_settings(data: Any, where: str = "settings") -> CompetitionSettings:
    try:
        return CompetitionSettings.model_validate(data)
    except ValidationError as exc:
        lines = []
        for err in exc.errors():
            field = ".".join(str(p) for p in err["loc"]) or "(top level)"
            lines.append(f"{where}: {field}: {_pt(err)}")
        raise SettingsFileError("\n".join(lines)) from None


def _pt(err: Any) -> str:
    """One pydantic problem in the organiser's words."""
    kind, ctx, got = err["type"], err.get("ctx") or {}, err.get("input")
    if kind in ("greater_than_equal", "less_than_equal", "greater_than", "less_than"):
        bound = next(iter(ctx.values()), "?")
        word = {"greater_than_equal": "no mínimo", "less_than_equal": "no máximo",
                "greater_than": "mais que", "less_than": "menos que"}[kind]
        return f"deve ser {word} {bound} (veio {got!r})"
    if kind == "extra_forbidden":
        return "chave desconhecida: apague-a ou corrija o nome"
    if kind.startswith("int"):
        return f"deve ser um número inteiro (veio {got!r})"
    if kind == "literal_error":
        return f"deve ser {ctx.get('expected', '')} (veio {got!r})".replace(" or ", " ou ")
    if kind.startswith("string_too"):
        return f"deve ter de 1 a {ctx.get('max_length', 80)} caracteres"
    return str(err["msg"]).removeprefix("Value error, ")
