"""The competition settings file an organiser writes (``serve --settings teams.json``).

Checked once, at load, with pydantic: unknown keys are refused with a "did you mean",
values are range-checked, durations are in the units a person uses (minutes for halves,
seconds for the lance), and every problem is one line saying what to write instead.
``validate_settings`` turns such a dict into the settings the rules engine stores (times
in milliseconds); the console's "Nova partida" goes through the same check.
"""

from __future__ import annotations

import difflib
import json
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

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


class SettingsError(ValueError):
    """A settings file or dict is wrong; the message is one line saying what to fix."""


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

    competition: Literal["league", "knockout"] | None = None
    event: str | None = Field(default=None, max_length=120)
    referee: str | None = Field(default=None, max_length=80)
    teams: Teams | None = None
    kickoff: Literal["A", "B"] | None = None
    advantage: Literal["A", "B"] | None = None
    periods: int | None = Field(default=None, ge=1, le=4)
    half_minutes: float | None = Field(default=None, ge=1, le=60)
    interval_minutes: float | None = Field(default=None, ge=0, le=30)
    extra_minutes: float | None = Field(default=None, ge=1, le=30)
    lance_seconds: float | None = Field(default=None, ge=5, le=300)
    lance_warn_seconds: float | None = Field(default=None, ge=0, le=60)
    extra_time: bool | None = None
    shootout: bool | None = None
    substitutions: int | None = Field(default=None, ge=0, le=20)
    touch_limit: int | None = Field(default=None, ge=1, le=50)
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


def _where(loc: tuple[Any, ...]) -> str:
    return ".".join(str(p) for p in loc)


def _one_line(exc: ValidationError) -> str:
    """The first problem pydantic found, as one line in the organiser's words."""
    err = exc.errors()[0]
    loc = tuple(err["loc"])
    kind = err["type"]
    where = _where(loc)
    if kind == "extra_forbidden":
        known = _known_keys(_model_at(loc[:-1]))
        close = difflib.get_close_matches(str(loc[-1]), known, n=1, cutoff=0.6)
        hint = (f'; você quis dizer "{close[0]}"?' if close
                else f"; chaves aceitas: {', '.join(known)}")
        return f'chave desconhecida "{where}"{hint}'
    if kind == "model_type":
        model = _model_at(loc)
        if model is Teams:
            return ('"teams" deve ser um objeto {"A": {"name": "…", "color": "#rrggbb"}, '
                    '"B": {…}}, não uma lista')
        if model is Team:
            return f'"{where}" deve ser um objeto {{"name": "…", "color": "#rrggbb"}}'
        return ('as configurações devem ser um objeto JSON, '
                'por exemplo {"competition": "knockout"}')
    if kind == "literal_error":
        expected = err.get("ctx", {}).get("expected", "")
        return f'"{where}" deve ser {expected.replace(" or ", " ou ")} (veio {err["input"]!r})'
    if kind == "string_pattern_mismatch":
        return f'"{where}" deve ser uma cor como "#1f6feb" (veio {err["input"]!r})'
    if kind in ("greater_than_equal", "less_than_equal"):
        lo, hi = _range(loc[-1])
        unit = _unit_word(str(loc[-1]))
        return f'"{where}" deve estar entre {lo} e {hi}{unit} (veio {err["input"]!r})'
    if kind.startswith("bool"):
        return f'"{where}" deve ser true ou false (veio {err["input"]!r})'
    if kind.startswith(("int", "float")):
        return f'"{where}" deve ser um número (veio {err["input"]!r})'
    if kind.startswith("string"):
        return f'"{where}" deve ser um texto curto (veio {err["input"]!r})'
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
        return " minutos"
    if key.endswith("_seconds"):
        return " segundos"
    if key.endswith("_ms"):
        return " milissegundos"
    return ""


def validate_settings(data: Any) -> dict[str, Any]:
    """The engine's settings (durations in ms) from what a person wrote, or SettingsError."""
    try:
        model = MatchSettings.model_validate(data)
    except ValidationError as exc:
        raise SettingsError(_one_line(exc)) from None
    given = model.model_dump(exclude_unset=True)
    out: dict[str, Any] = {}
    for key, value in given.items():
        if key in UNITS:
            target, scale = UNITS[key]
            if target in given:
                raise SettingsError(f'"{key}" e "{target}" dizem a mesma coisa: deixe só "{key}"')
            out[target] = round(value * scale)
        elif key == "teams":
            out["teams"] = {side: {k: v for k, v in team.items() if v is not None}
                            for side, team in value.items()}
        else:
            out[key] = value
    lance, warn = out.get("lance_ms"), out.get("lance_warn_ms")
    if lance is not None and warn is not None and warn >= lance:
        raise SettingsError('o aviso do lance ("lance_warn_seconds") deve ser menor que o lance '
                            '("lance_seconds")')
    return out


def load_settings_file(path: str | Path) -> dict[str, Any]:
    """Read and check a settings file; SettingsError names the file and the one problem."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise SettingsError(f"{p}: arquivo não encontrado") from None
    except OSError as exc:
        raise SettingsError(f"{p}: não foi possível ler ({exc.strerror})") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise SettingsError(f"{p}: JSON inválido na linha {exc.lineno}, coluna {exc.colno} "
                            f"({exc.msg}); JSON não aceita comentários nem vírgula no fim"
        ) from None
    try:
        return validate_settings(data)
    except SettingsError as exc:
        raise SettingsError(f"{p}: {exc}") from None
