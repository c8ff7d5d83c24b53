"""The goalkeeper's secret choice of a penalty (004 «Pênaltis»: "escolhe em segredo"), hidden
in every record shown while the match goes on: his own row reads «secreta», and so does every
void or correction of it — its words, its facts, the answer the console shows, the TV's
correction line and /api/state (walk51a H1: «Corrige «Escolha do goleiro de Democrata: canto
direito»…» on the TV the kicker reads). The súmula of a finished match shows it all."""

from __future__ import annotations

import re
from typing import Any

from futmesa.matchbook.wording import sentence, word
from futmesa.rules.shootout import KEEPER_CHOICES

SECRET_KINDS = ("keeper_choice",)  # 004: the goalkeeper's pick is secret until the kick
HIDDEN = "secreta"  # the value shown for it (wording: "secreta" / "secret")
CORRECTION_KINDS = ("void", "amend")


def _corners(lang: str) -> re.Pattern[str]:
    """The corners in ``lang``'s words, the longest first ("canto direito" before "direito")."""
    said = sorted({word("choice", c, lang) for c in KEEPER_CHOICES}, key=len, reverse=True)
    return re.compile(r"\b(" + "|".join(map(re.escape, said)) + r")\b", re.IGNORECASE)


_PATTERNS = {lang: _corners(lang) for lang in ("pt", "en")}


def _hide(value: Any) -> Any:
    """``value`` with every corner said or stored in it made the secret one."""
    if isinstance(value, str):
        for lang, pattern in _PATTERNS.items():
            value = pattern.sub(word("choice", HIDDEN, lang), value)
        return value
    if isinstance(value, list):
        return [_hide(v) for v in value]
    if isinstance(value, dict):
        return {k: HIDDEN if k == "choice" and v in KEEPER_CHOICES else _hide(v)
                for k, v in value.items()}
    return value


def _hidden_data(data: dict[str, Any]) -> dict[str, Any]:
    return {k: (HIDDEN if k == "choice" else v) for k, v in data.items()}


def _hidden_choice(e: dict[str, Any], teams: dict[str, Any]) -> dict[str, Any]:
    """The choice's own row: its corner «secreta», its correction form offers none
    (``secret``: the console offers only to ask the goalkeeper again)."""
    data = _hidden_data(e["data"])
    e = {**e, "data": data, "secret": True, "amend_data": None}
    amended = e.get("amended")
    if isinstance(amended, dict) and isinstance(amended.get("data"), dict):
        e["amended"] = {**amended, "data": _hidden_data(amended["data"])}
    for key, lang in (("text", "pt"), ("text_en", "en"), ("logged", "pt"), ("logged_en", "en")):
        if key in e:
            e[key] = sentence(e["kind"], data, teams, lang)
    return _hide(e)


def redact_secrets(entries: list[dict[str, Any]],
                   teams: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """Entries with the goalkeeper's secret choice hidden, for anything shown during a match:
    his row, and every void or correction of it (``corrects_kind``, records.entry_record)."""
    out = []
    for e in entries:
        if e.get("kind") in SECRET_KINDS and isinstance(e.get("data"), dict):
            e = _hidden_choice(e, teams or {})
        elif e.get("kind") in CORRECTION_KINDS and e.get("corrects_kind") in SECRET_KINDS:
            e = _hide(e)
        out.append(e)
    return out
