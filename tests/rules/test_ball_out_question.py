"""The question a ball out raises says where the ball went out, as the Registro does (walk
49a M7, low: the phone asked only "Bola fora: quem tocou por último?" while the Registro said
"Bola fora pela linha de fundo, lado de Botafogo"): the line and whose end or field it was."""

from __future__ import annotations

import pytest

from futmesa_testkit.entry_builder import EntryBuilder


@pytest.mark.parametrize(("ruleset", "out", "pt", "en"), [
    ("cbfm-1toque", {"line": "end", "end": 1, "zone": 3},
     "Bola fora pela linha de fundo, lado de Time B: quem tocou por último?",
     "Ball out over the end line, Time B's end: who touched it last?"),
    ("mesa-posta", {"line": "side", "end": 0, "zone": 1},
     "Bola fora pela lateral, no campo de Time A: quem tocou por último?",
     "Ball out over the side line, in Time A's half: who touched it last?"),
])
def test_the_ball_out_question_says_where_it_went_out(ruleset: str, out: dict[str, int],
                                                      pt: str, en: str) -> None:
    match = EntryBuilder(ruleset)
    match.kick_off("A")  # A defends end 0 in the 1st half
    match.put("touch", {"side": "A", "disc": 10})
    match.put("ball_out", out, "device")
    asked = [p for p in match.state.m["pending"] if p["kind"] == "ball_out_touch"]
    assert [(p["pt"], p["en"]) for p in asked] == [(pt, en)], asked
