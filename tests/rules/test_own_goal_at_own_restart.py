"""A ball into a team's own goal while that team's own restart waits (walk51c H1): the lance
is the restart's taker's, whoever played the lance before the call, so the ball can only have
gone in from its own play — an own goal, "se um Técnico arremessar a bola, direta ou
indiretamente, para dentro de seu próprio gol, em qualquer lado do campo" (003 Art. 59 §único);
"arremessada voluntariamente ou não contra sua própria meta (gol contra), partindo do campo de
defesa" from any restart (000 Art. 12 §2, Art. 13 §2 "a não ser gol contra"); "é válido o gol
contra de bola parada, em qualquer situação, desde que a bola esteja no campo de defesa de quem
está executando a jogada" (001 Art. XXXI 4º). Before: the question offered no own goal but
"chute pedido (não registrado)" for the other side, and «Último toque desta equipe» read a
ball off the defender in the attacker's lance — "Gol não vale: chute não pedido (Art. 60)" and a
corner, or, with the alarm in between, a final score without the own goal. 004 has no own goal
("Só vale gol de chute pedido"): there the question stays without one."""

from __future__ import annotations

from typing import Any

import pytest

from futmesa_testkit.entry_builder import EntryBuilder


def _free_kick_for_a(ruleset: str, where: str) -> EntryBuilder:
    """Time B kicks off and fouls at once (the walk's 2nd half, 00:02): Time A's free kick
    waits, the last lance played is Time B's kick-off."""
    match = EntryBuilder(ruleset)
    match.kick_off("B")
    match.put("foul", {"side": "B", "disc": 4, "type": "falta", "where": where})
    r = match.state.m["restart"]
    assert r["side"] == "A" and not r["taken"], r
    return match


def _ball_in_own_goal(match: EntryBuilder, goal: int) -> dict[str, Any]:
    match.put("goal_line", {"goal": goal}, "device")
    (asked,) = [p for p in match.state.m["pending"] if p["kind"] == "goal_no_shot"]
    return asked


# the free kick in Time A's own field (own_half: where the fouled disc was) — an own goal in
# every document that has one; 003 also from the attack field ("em qualquer lado do campo")
OWN_GOAL_CASES = [("cbfm-1toque", "own_half"), ("gaucha", "own_half"),
                  ("pastilha-8x2", "own_half"), ("pastilha-8x2", "opponent_half"),
                  ("pastilha-8x2-clube", "opponent_half")]


@pytest.mark.parametrize(("ruleset", "where"), OWN_GOAL_CASES)
def test_the_question_offers_the_own_goal_of_the_team_whose_restart_waits(ruleset: str,
                                                                          where: str) -> None:
    asked = _ball_in_own_goal(_free_kick_for_a(ruleset, where), 0)
    assert "own_goal" in asked["options"] and asked["default"] == "own_goal", asked["options"]
    assert "gol contra de Time A" in asked["pt"], asked["pt"]
    # Time B had no lance: it could not have asked a shot (003 Art. 54, 000 Art. 12 §3 A)
    assert "shot_asked" not in asked["options"], asked["pt"]


@pytest.mark.parametrize(("ruleset", "where"), OWN_GOAL_CASES)
def test_the_last_touch_of_the_team_whose_restart_waits_is_its_own_goal(ruleset: str,
                                                                        where: str) -> None:
    match = _free_kick_for_a(ruleset, where)
    _ball_in_own_goal(match, 0)
    match.put("last_touch", {"side": "A"})
    m = match.state.m
    assert m["score"] == {"A": 0, "B": 1}, [a["pt"] for a in m["announcements"][-3:]]
    assert m["goals"][-1]["own_goal"] and m["goals"][-1]["side"] == "B", m["goals"]


def test_no_own_goal_where_the_document_has_none() -> None:
    """004: no own goal; and Time A's free kick waits, so Time B asked no shot either."""
    asked = _ball_in_own_goal(_free_kick_for_a("mesa-posta", "own_half"), 0)
    assert asked["options"] == ["no_goal", "false_trip"], asked["options"]


def test_the_own_goal_answered_after_the_alarm_counts_in_the_final_score() -> None:
    """The walk's match 1: Time A's free kick waits in the 2nd half, the ball goes into Time A's
    goal, the alarm ends the match before the referee answers «Último toque desta equipe»:
    the own goal counts (003 Art. 59 §único) and the match ends 0 × 1, not 0 × 0."""
    match = EntryBuilder("pastilha-8x2")
    match.kick_off("A")
    for kind in ("alarm", "period_over"):
        match.put(kind, {}, "device")
    match.put("start_period", {})
    match.put("clock_started", {"reason": 0}, "device")
    match.put("foul", {"side": "B", "disc": 4, "type": "falta", "where": "own_half"})
    _ball_in_own_goal(match, int(match.state.m["ends"]["A"]))
    for kind in ("alarm", "period_over", "match_over"):
        match.put(kind, {}, "device")
    match.put("last_touch", {"side": "A"})
    m = match.state.m
    assert m["finished"] and m["score"] == {"A": 0, "B": 1}, m["score"]
    assert m["result"]["winner"] == "B", m["result"]
    replayed, _ = match.engine.replay(match.log)
    assert replayed.m["score"] == {"A": 0, "B": 1}
