"""The screen checks themselves can fail: each finds what it is meant to find, and only that."""

from __future__ import annotations

from typing import Any

import pytest
from screen_checks import cut_texts, internal_codes, overflow

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("text", [
    "Falta (000 Art. 8 §10)", "Mesa sim-SIM00001", "pico-e66038b7132f5a2b", "Regra cbfm-1toque",
    "zona 4", "linha do gol 1", "defende o gol 0", "America/Sao_Paulo", '{"side": "A"}',
    "Origem: demo-referee", "LANCE 300", "goal_disallowed", "regra gaucha",
])
def test_codes_are_found(text: str) -> None:
    assert internal_codes(text), text


@pytest.mark.parametrize("text", [
    "Regra CBFM 1 Toque, Art. 8 §10", "Mesa 1", "Regra Gaúcha", "gol de Estrela do Norte",
    "horário de São Paulo", "Alvorada 2 × 1 Botafogo", "GOL! Alvorada", "LANCE 15",
    "linha de fundo, lado do Botafogo", "1º tempo 12:30",
])
def test_words_pass(text: str) -> None:
    assert internal_codes(text) == [], text


def test_overflow_and_cut_text_are_found(page: Any) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    page.set_content('<p style="width:300px">fits</p>')
    assert overflow(page) == [] and cut_texts(page) == []
    page.set_content('<p id="wide" style="width:600px">too wide</p>')
    assert any("wide" in p for p in overflow(page))
    page.set_content('<p id="cut" style="width:50px;white-space:nowrap;overflow:hidden;'
                     'text-overflow:ellipsis">Botafogo da Mesa</p>')
    assert any("#cut" in p for p in cut_texts(page))
    page.set_content('<p id="clamp" style="width:60px;display:-webkit-box;-webkit-box-orient:'
                     'vertical;-webkit-line-clamp:1;overflow:hidden">União Operária da Mesa</p>')
    assert any("#clamp" in p for p in cut_texts(page))
