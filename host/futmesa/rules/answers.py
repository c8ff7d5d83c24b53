"""The answers the rules offer to a question (`Ctx.confirm`), in words: one list, read by the
question that names them (walk45h-b B1: "…gol contra…" said, no button for it), by the
console's buttons (the question's item carries them) and by the Registro
(matchbook/wording.py), so the three never say an answer differently."""

from __future__ import annotations

from collections.abc import Iterable

from futmesa.i18n import NP_, translator

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


def answer_words(options: Iterable[str], lang: str,
                 named: dict[str, tuple[str, str]] | None = None) -> dict[str, str]:
    """``{option: its words in lang}`` for the options of a question that have words here (a
    team or a corner of an area is named by the page that shows it); ``named``: the words a
    question gives some of its options instead."""
    t = translator(lang)
    words = {**ANSWER_WORDS, **(named or {})}
    return {o: t.pgettext(*words[o]) for o in options if o in words}
