"""The console's result line after an input says each thing once (matchbook/answer.py)."""

from __future__ import annotations

from futmesa.matchbook.answer import said


def test_the_rules_words_already_in_the_fact_are_not_said_again() -> None:
    """Walk 45i-b (low): gaúcha's disciplinary foul read "Falta disciplinar de Botafogo: punida
    com falta técnica, botão 3 · Falta disciplinar de Botafogo: punida com falta técnica (Regra
    Gaúcha, Art. XXIX)" — the rules' words under the fact, longer only by their citation."""
    record = {"text": "Falta disciplinar de Botafogo, botão 3",
              "facts": [{"text": "Falta disciplinar de Botafogo: punida com falta técnica, "
                                 "botão 3"}],
              "meaning": ["Falta disciplinar de Botafogo: punida com falta técnica (Regra "
                          "Gaúcha, Art. XXIX)"]}
    assert said(record, "pt") == ("Falta disciplinar de Botafogo: punida com falta técnica, "
                                  "botão 3")


def test_a_consequence_the_fact_does_not_say_is_kept() -> None:
    record = {"text": "Falta de Alvorada no campo do infrator",
              "facts": [{"text": "Falta de Alvorada no campo do infrator: Tiro livre para "
                                 "Botafogo"}],
              "meaning": ["Cartão amarelo para Alvorada (CBFM 1 Toque, Art. 26)"]}
    assert said(record, "pt") == ("Falta de Alvorada no campo do infrator: Tiro livre para "
                                  "Botafogo · Cartão amarelo para Alvorada (CBFM 1 Toque, "
                                  "Art. 26)")
