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
_NUMBER = re.compile(r"\d+")


def _words(text: str) -> set[str]:
    return set(_WORD.findall(text.lower()))


def _same_fact(a: str, b: str) -> bool:
    """Whether two parts (their citations aside) say one fact in two voices: the same words
    after their first ": " and the same numbers before it ("Árbitro adianta o relógio 24 s: o
    jogo continuou …" and the rules' "Relógio adiantado 24 s: o jogo continuou …", walk 50a
    L3)."""
    head_a, sep_a, tail_a = a.partition(": ")
    head_b, sep_b, tail_b = b.partition(": ")
    return bool(sep_a and sep_b and tail_a.strip() and tail_a.strip() == tail_b.strip()
                and _NUMBER.findall(head_a) == _NUMBER.findall(head_b))


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
    return " · ".join(once(_parts(record, lang)))


def once(parts: list[str]) -> list[str]:
    """``parts`` (an entry's sentence, its facts, the rules' words) with each thing said once:
    what :func:`said` joins; the correction form names its entry with them too (walk 50a L3:
    "Falta de X …: Tiro livre para Y — Falta de X …")."""
    parts = [p for p in parts if p.strip()]
    # compared without their citations: the rules' words under a fact that already says them
    # are not longer for their "(Regra Gaúcha, Art. XXIX)" (walk 45i-b, low)
    bare = [_CITED.sub("", p) or p for p in parts]
    words = [_words(b) for b in bare]
    kept: list[str] = []
    for i, part in enumerate(parts):
        if part in kept or any(
                j != i and (words[i] < words[j] or (words[i] == words[j] and (
                    len(bare[j]), -j) > (len(bare[i]), -i)))
                for j in range(len(parts))) or any(
                    _same_fact(bare[j], bare[i]) for j in range(i)):  # the first voice stays
            continue
        kept.append(part)
    return _cited(kept, parts, words, bare)


def _citation(text: str) -> str:
    """A part's trailing citation "(CBFM 1 Toque, Art. 26 §2)", "" without one ("(1ª)" is none)."""
    found = _CITED.search(text)
    return found.group(0).strip() if found and ("," in found.group(0)
                                                 or "Art." in found.group(0)) else ""


def _cited(kept: list[str], parts: list[str], words: list[set[str]],
           bare: list[str]) -> list[str]:
    """``kept`` with the citation of each part left out given to the kept part that says its
    words (or its fact, :func:`_same_fact`), where that one cites nothing: the rules' article
    stays on the line, as the TV, which shows the rules' words, cites it (walk 48b L1)."""
    out = list(kept)
    for i, part in enumerate(parts):
        cite = _citation(part)
        if part in kept or not cite:
            continue
        for k, mine in enumerate(out):
            at = parts.index(kept[k])
            if not _citation(mine) and (words[i] <= words[at]
                                        or _same_fact(bare[at], bare[i])):
                out[k] = f"{mine} {cite}"
                break
    return out


def answer_words(record: dict[str, Any] | None) -> dict[str, str] | None:
    """:func:`said` in both languages, or None without a record."""
    if not record:
        return None
    return {lang: said(record, lang) for lang in ("pt", "en")}


def answered(record: dict[str, Any] | None, effects: list[Any]) -> dict[str, str] | None:
    """:func:`answer_words`, and the dead-ball time the rules' commands to the table count as
    played (a void on a ball-in-play clock, rules/resync.py: ``play_on give_back`` with the
    host's ``ms``, or ``adjust``): "… · Relógio: +44 s contados como jogados (a bola estava
    rolando)" — never a clock that jumps unsaid (walk49a M3)."""
    words = answer_words(record)
    if (record or {}).get("kind") == "clock_catch_up":
        return words  # its adjustment is the advance its own words say (walk 50a L3)
    given = sum(int(e.data.get("ms") or 0) for e in effects if e.kind == "device" and (
        e.data.get("cmd") == "adjust" or (e.data.get("cmd") == "play_on"
                                          and e.data.get("give_back"))))
    if not words or given <= 0:
        return words
    return {lang: " · ".join(p for p in (text, translator(lang).gettext(
        "Clock: +{seconds} s counted as played (the ball was rolling)").format(
            seconds=round(given / 1000))) if p) for lang, text in words.items()}


def correction_words(record: dict[str, Any] | None) -> dict[str, Any] | None:
    """What the screens say of a void or a correction in effect (its record): the words the
    referee's answer says (:func:`answer_words`), with its ``entry`` and the code
    "correction" — published in the state every TV reads (``correction``), so a TV opened
    after it says it as the one that saw it (issue 45 #4); None for any other record.
    ``goal``: it voids a goal (GOL ANULADO); ``restored``: it undoes a goal's void, the goal
    counts again (GOL VALIDADO, never a new GOL!: walk50b L1)."""
    if not record or record.get("kind") not in ("void", "amend") or record.get("voided"):
        return None
    words = answer_words(record) or {}
    facts = record.get("facts") or []
    goal = any(f.get("kind") == "void_goal" for f in facts)
    restored = any(f.get("kind") == "undo" and f.get("restores") for f in facts)
    return {"code": "correction", "entry": record.get("id"), "goal": goal,
            "restored": restored, **words}


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
