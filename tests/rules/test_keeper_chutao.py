"""The goalkeeper's chutão is the restart taken, one tap (walk52a finding 7, A mesa está posta).
004 Tiros de meta: "O goleiro dá um chutão com a chuteira"; Bola do goleiro: "ele dá um chutão
com a chuteira de onde ela está" — the kick is always the goalkeeper's, so the console's card
has no separate «Goleiro cobra» step (it named the taker and left the clock PARADO): its
«▶ Cobrança dada: chutão do goleiro (bola em jogo)» is his kick, a touch with no disc number
(he has none), and the restart is taken with the clock running (004 A partida: "um relógio que
só corre com a bola rolando"). A disc's touch before it is refused in words that name that
button."""

from __future__ import annotations

from futmesa.rules import Entry
from futmesa_testkit.entry_builder import EntryBuilder


def _goal_kick_for_b() -> EntryBuilder:
    """Time A kicks off, then puts the ball over Time B's end line: B's goal kick waits, the
    ball dead, the clock stopped."""
    match = EntryBuilder("mesa-posta")
    match.kick_off("A")
    match.put("touch", {"side": "A", "disc": 9})
    match.put("last_touch", {"side": "A"})
    match.put("ball_out", {"line": "end", "end": 1}, "device")
    match.put("clock_stopped", {"reason": 1}, "device")
    m = match.state.m
    assert (m["restart"]["kind"], m["restart"]["side"], m["restart"]["taken"]) == (
        "tiro_de_meta", "B", False), m["restart"]
    assert not m["clock_running"]
    return match


def test_a_discs_touch_before_the_chutao_names_the_cards_button() -> None:
    match = _goal_kick_for_b()
    n = len(match.log) + 1
    _state, effects = match.engine.apply(
        match.state, Entry(n, "touch", {"side": "B", "disc": 5}, "referee", 1, n * 500,
                           n * 500, at=1_000_000 + n * 500))
    (said,) = [e.data for e in effects if e.data.get("code") == "refused"]
    assert said["pt"].startswith("Só o goleiro de Time B repõe a bola, com um chutão: toque "
                                 "«▶ Cobrança dada» no cartão da cobrança"), said["pt"]
    assert "Goleiro cobra" not in said["pt"] and "Goalkeeper takes it" not in said["en"]
    assert said["pt"].endswith("(004 Tiros de meta)"), said["pt"]


def test_the_cards_one_tap_is_the_chutao_the_restart_taken_and_the_clock_running() -> None:
    match = _goal_kick_for_b()
    match.put("touch", {"side": "B", "disc": None})  # the card's tap: the goalkeeper's kick
    m = match.state.m
    assert m["restart"]["taken"] and m["clock_running"], m["restart"]
    assert (m["restart"]["kind"], m["turn"]) == ("tiro_de_meta", "B")
