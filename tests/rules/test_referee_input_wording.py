"""The referee inputs issue 22 added read as a sentence in the súmula, in Portuguese and English,
with no internal code in it (kinds, field names, JSON)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from futmesa.matchbook.wording import sentence, word

TEAMS = {"A": {"name": "Alvorada"}, "B": {"name": "Botafogo"}}
NEW_INPUTS: list[tuple[str, dict[str, Any]]] = [
    ("taker", {"disc": 4}), ("taker", {"goalkeeper": True}), ("waive", {}),
    ("keeper_foul", {"side": "A"}), ("restart_side", {"flank": "left"}),
    ("restart_side", {"flank": "right"}), ("ball_on_arc", {"end": 1}),
    ("discs_moved", {"side": "B"}), ("keeper_kick_hit", {}),
]
CODES = re.compile(r"=|[{}\[\]]|\b[a-z]+_[a-z_]+\b|\bTrue\b|\bFalse\b|\bNone\b|Registro «|Entry “")


@pytest.mark.parametrize("lang", ["pt", "en"])
@pytest.mark.parametrize(("kind", "data"), NEW_INPUTS, ids=[k for k, _ in NEW_INPUTS])
def test_new_input_has_a_sentence(kind: str, data: dict[str, Any], lang: str) -> None:
    text = sentence(kind, data, TEAMS, lang)
    assert text and not CODES.search(text), text


def test_the_sentences_say_what_was_entered() -> None:
    assert sentence("taker", {"disc": 4}, TEAMS) == "Cobrador escolhido: o botão 4"
    assert sentence("taker", {"goalkeeper": True}, TEAMS, "en") == "Taker chosen: the goalkeeper"
    assert "Alvorada" in sentence("keeper_foul", {"side": "A"}, TEAMS)
    assert "esquerdo" in sentence("restart_side", {"flank": "left"}, TEAMS)


def test_the_grading_answers_are_words() -> None:
    assert word("choice", "free_kick") == "tiro livre indireto"
    assert word("choice", "disqualify", "en") == "disqualification"
