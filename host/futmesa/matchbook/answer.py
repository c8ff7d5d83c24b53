"""What the console's result line says after a referee input: the Registro's words of the
entry it stored (walk 45h-b B6) — its sentence, its facts in the account of the match and the
rules' words on it, each said once — so every input is answered alike: the fact and its
consequence, never the button's label or a bare row number."""

from __future__ import annotations

import re
from typing import Any

from futmesa.i18n import translator
from futmesa.matchbook.wording import ruleset_title, team

# a trailing citation "(Pastilha 8x2, Art. 74)": left out when comparing what two parts say
_CITED = re.compile(r"\s*\([^()]*\)\s*$")
_WORD = re.compile(r"\w+")


def _words(text: str) -> set[str]:
    return set(_WORD.findall(text.lower()))


def _parts(record: dict[str, Any], lang: str) -> list[str]:
    key = "text" if lang == "pt" else "text_en"
    meaning = record.get("meaning" if lang == "pt" else "meaning_en") or []
    facts = [str(f.get(key) or "") for f in record.get("facts") or []]
    return [p for p in [str(record.get(key) or ""), *facts, *map(str, meaning)] if p.strip()]


def said(record: dict[str, Any], lang: str) -> str:
    """The entry's Registro words in one line: the entry's sentence, its facts, the rules'
    words; a part whose words another, longer part already says (its citation aside) is left
    out ("Falta de X no campo do infrator" under its fact "Falta de X no campo do infrator:
    Falta … para Y"); the rest joined by " · "."""
    parts = _parts(record, lang)
    # compared without their citations: the rules' words under a fact that already says them
    # are not longer for their "(Regra Gaúcha, Art. XXIX)" (walk 45i-b, low)
    bare = [_CITED.sub("", p) or p for p in parts]
    words = [_words(b) for b in bare]
    kept: list[str] = []
    for i, part in enumerate(parts):
        if part in kept or any(
                j != i and (words[i] < words[j] or (words[i] == words[j] and (
                    len(bare[j]), -j) > (len(bare[i]), -i)))
                for j in range(len(parts))):
            continue
        kept.append(part)
    return " · ".join(kept)


def answer_words(record: dict[str, Any] | None) -> dict[str, str] | None:
    """:func:`said` in both languages, or None without a record."""
    if not record:
        return None
    return {lang: said(record, lang) for lang in ("pt", "en")}


def new_match_words(match: dict[str, Any] | None) -> dict[str, str] | None:
    """What a "Nova partida" opened, in both languages: its teams and its rules ("Nova partida:
    Alvorada × Botafogo — CBFM — Regra 1 Toque"), never only "nova partida" (walk45i-a, low)."""
    if not match:
        return None
    settings = match.get("settings") if isinstance(match.get("settings"), dict) else {}
    teams = settings.get("teams") if isinstance(settings.get("teams"), dict) else {}
    out = {}
    for lang in ("pt", "en"):
        out[lang] = translator(lang).gettext("New match: {a} × {b} — {rules}").format(
            a=team(teams, "A", lang), b=team(teams, "B", lang),
            rules=ruleset_title(match.get("ruleset"), lang))
    return out
