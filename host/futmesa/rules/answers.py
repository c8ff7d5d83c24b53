"""The answers the rules offer to a question (`Ctx.confirm`), in words: one list, read by the
question that names them (walk45h-b B1: "…gol contra…" said, no button for it), by the
console's buttons (the question's item carries them) and by the Registro
(matchbook/wording.py), so the three never say an answer differently."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from futmesa.i18n import N_, NP_, translator

ANSWER_WORDS: dict[str, tuple[str, str]] = {
    "no_goal": NP_("choice", "no goal"),
    "corner": NP_("choice", "corner"),
    "own_goal": NP_("choice", "own goal"),
    "shot_asked": NP_("choice", "shot asked (not entered)"),
    "false_trip": NP_("choice", "false trip"),
    "counts": NP_("choice", "counts"),
    "foul": NP_("choice", "foul"),
    "no_foul": NP_("choice", "no foul"),
    # the referee's grading of a disciplinary foul (003 Art. 87)
    "free_kick": NP_("choice", "indirect free kick"),
    "disqualify": NP_("choice", "disqualification"),
    # the score after a disqualification at a one-goal lead (003 Art. 83 §3)
    "two_nil": NP_("choice", "2 × 0"),
    "as_played": NP_("choice", "the score of the moment"),
    # the opponent's choice after a kick short of the midline (000 Art. 13 §3, 16 §3)
    "lance": NP_("choice", "normal lance"),
    "falta_tecnica": NP_("choice", "technical foul"),
}


# the lance timer's question names the foul it asks about ("falta disciplinar?"): its button
# says the foul it records, not a bare "falta" (walk45i-a, low, 52-ph)
LANCE_FOUL_WORDS: dict[str, tuple[str, str]] = {
    "disciplinary": NP_("choice", "disciplinary foul"),
    "technical": NP_("choice", "technical foul"),
    "cera": NP_("choice", "time-wasting (disciplinary foul)"),
}


# a question's own words for an answer: (context, msgid) or (context, msgid, values), values
# being words (a team's name) filled in each language
Named = tuple[Any, ...]


def answer_words(options: Iterable[str], lang: str,
                 named: dict[str, Named] | None = None) -> dict[str, str]:
    """``{option: its words in lang}`` for the options of a question that have words here (a
    team or a corner of an area is named by the page that shows it); ``named``: the words a
    question gives some of its options instead."""
    t = translator(lang)
    words: dict[str, Named] = {**ANSWER_WORDS, **(named or {})}
    return {o: _said(t, lang, words[o]) for o in options if o in words}


def _said(t: Any, lang: str, word: Named) -> str:
    text = str(t.pgettext(word[0], word[1]))
    if len(word) < 3:
        return text
    return text.format(**{k: v.text(lang) if hasattr(v, "text") else v
                          for k, v in word[2].items()})


def own_goal_by(team: Any) -> dict[str, Named]:
    """The own goal's answer naming whose own goal it is, "gol contra de Alvorada" (issue 45:
    the button said "gol contra", no team): the question, its button and the Registro's answer
    row say it alike."""
    return {"own_goal": (*NP_("choice", "own goal by {team}"), {"team": team})}


# a corner of a big area the favoured side may take its kick from (000 Art. 26 §2 II B "qualquer
# 'bico' de área"), each named by the team whose area it is (walk46a M1: the Registro wrote the
# button "Área de Alvorada, bico esquerdo" as "A left")
CORNER_WORDS: dict[str, tuple[str, str]] = {
    "left": NP_("choice", "{team}'s area, left corner"),
    "right": NP_("choice", "{team}'s area, right corner"),
}


def corners_of(areas: dict[str, Any]) -> dict[str, Named]:
    """The words of the answers "A_left" … "B_right" (a side's area, its corner) for a
    question's ``named``: ``areas`` is each side's name; the question, its buttons and the
    Registro's answer row say them alike."""
    return {f"{side}_{flank}": (*words, {"team": name})
            for side, name in areas.items() for flank, words in CORNER_WORDS.items()}


# the cera's two buttons (003 Art. 84 "conforme o caso", Art. 74): where the ball was names the
# kick, each field by the team whose field it is (the console's questions.js, same msgids)
CERA_WHERE_WORDS: dict[str, str] = {
    "own_half": N_("cera — ball in {field_team}'s field: indirect for {team}"),
    "opponent_half": N_("cera — ball in {field_team}'s field: direct or indirect for {team}"),
}


def chosen_words(pending: dict[str, Any], choice: Any, where: Any,
                 names: dict[str, str]) -> dict[str, str] | None:
    """The words of the button the referee tapped, in each language (``{"pt", "en"}``), for
    the Registro's answer row to say them (walk45j-b 34-lance-ans: "cera — bola no campo de
    Botafogo: indireta para Botafogo" tapped, "falta" written); None for an answer named by
    its team or a disc (the row names those)."""
    if pending.get("kind") == "lance_timeout" and pending.get("foul") == "cera" \
            and choice == "foul" and where in CERA_WHERE_WORDS:
        fav = "B" if pending.get("side") == "A" else "A"
        field = fav if where == "own_half" else str(pending.get("side"))
        return {lang: translator(code).gettext(CERA_WHERE_WORDS[where]).format(
                    field_team=names.get(field, field), team=names.get(fav, fav))
                for lang, code in (("pt", "pt_BR"), ("en", "en"))}
    said = pending.get("answers") or {}
    if all(choice in (said.get(lang) or {}) for lang in ("pt", "en")):
        return {lang: str(said[lang][choice]) for lang in ("pt", "en")}
    return None
