"""The console's result line after an input says each thing once (matchbook/answer.py)."""

from __future__ import annotations

from pathlib import Path

from test_account import restored_from_log

from futmesa.matchbook.answer import answered, said


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
                                  "botão 3 (Regra Gaúcha, Art. XXIX)")


def test_the_article_of_words_said_by_the_fact_stays_on_the_line() -> None:
    """Walk 48b L1: the phone read "Falta disciplinar de Botafogo da Mesa (1ª), botão 3 · Tiro
    livre para Estrela do Norte (CBFM 1 Toque, Art. 26 §2)" while the TV cited the foul's
    article, Art. 26 §1 F: the rules' words the fact says took their article away with them.
    Now the line cites both, as the TV does."""
    record = {"text": "Falta disciplinar: Botafogo da Mesa, botão 3",
              "facts": [{"text": "Falta disciplinar de Botafogo da Mesa (1ª), botão 3"}],
              "meaning": ["Falta disciplinar de Botafogo da Mesa (1ª) (CBFM 1 Toque, Art. 26 §1)",
                          "Tiro livre para Estrela do Norte (CBFM 1 Toque, Art. 26 §2)"]}
    assert said(record, "pt") == (
        "Falta disciplinar de Botafogo da Mesa (1ª), botão 3 (CBFM 1 Toque, Art. 26 §1) · "
        "Tiro livre para Estrela do Norte (CBFM 1 Toque, Art. 26 §2)")


def test_a_consequence_the_fact_does_not_say_is_kept() -> None:
    record = {"text": "Falta de Alvorada no campo do infrator",
              "facts": [{"text": "Falta de Alvorada no campo do infrator: Tiro livre para "
                                 "Botafogo"}],
              "meaning": ["Cartão amarelo para Alvorada (CBFM 1 Toque, Art. 26)"]}
    assert said(record, "pt") == ("Falta de Alvorada no campo do infrator: Tiro livre para "
                                  "Botafogo · Cartão amarelo para Alvorada (CBFM 1 Toque, "
                                  "Art. 26)")


def test_the_clock_advanced_after_a_power_cut_is_said_once(tmp_path: Path) -> None:
    """Walk 50a L3 (27): «Sim: adiantar o relógio» was answered "✓ Árbitro adianta o relógio
    24 s: o jogo continuou com a mesa desligada · Relógio adiantado 24 s: o jogo continuou com
    a mesa desligada (…) · Relógio: +24 s contados como jogados (a bola estava rolando)" — one
    fact said three times: the entry, the rules' words of it, and the table's adjustment that
    carries it out. Said once, with the rules' article."""
    t = restored_from_log(tmp_path / "m.sqlite")
    entry = t.put("clock_catch_up", {"ms": 28_000})
    words = answered(t.book.live_log.record(entry), t.effects)
    assert words is not None
    for lang in ("pt", "en"):  # one part, the entry's, with the article the rules cite
        assert words[lang].count("28 s") == 1 and " · " not in words[lang], words[lang]
    assert words["pt"].endswith("(A mesa está posta, «A partida»)"), words["pt"]
