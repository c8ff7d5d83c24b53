"""The question of a ball in the goal with no shot asked (walk45h-b B1): its words and its
answers are one list, and it offers no answer the engine would refuse as an input.

004 Chute pedido: "Só vale gol de chute pedido … Gol sem chute pedido vira tiro de meta para a
defesa" (no own goal); own goals in 000 Art. 12 §2, 001 Art. XXXI §2, 003 Art. 59 §único.
"""

from __future__ import annotations

from typing import Any

import pytest

from futmesa.rules import DEVICE_KINDS, Engine, Entry, load_ruleset

RULESETS = ("cbfm-1toque", "gaucha", "pastilha-8x2", "mesa-posta")


def _log(goal: int, *more: tuple[str, dict[str, Any]]) -> list[Entry]:
    steps = [("clock_started", {}), ("touch", {"side": "A", "disc": 9}),
             ("touch", {"side": "A", "disc": 10}), ("goal_line", {"goal": goal}), *more]
    return [Entry(n, kind, data, "device" if kind in ("clock_started", "goal_line") else "referee",
                  1, n * 1000, n * 1000) for n, (kind, data) in enumerate(steps, 1)]


def _question(ruleset: str, goal: int) -> tuple[Engine, Any, dict[str, Any]]:
    engine = Engine(load_ruleset(ruleset), {"kickoff": "A"})
    state, _ = engine.replay(_log(goal))
    (asked,) = [p for p in state.m["pending"] if p["kind"] == "goal_no_shot"]
    return engine, state, asked


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("goal", [0, 1])
def test_the_question_says_the_answers_its_buttons_offer(ruleset: str, goal: int) -> None:
    _, _, asked = _question(ruleset, goal)
    for lang in ("pt", "en"):
        answers = asked["answers"][lang]
        assert list(answers) == asked["options"], (lang, answers)
        text = asked[lang]
        said = [answers[o] for o in asked["options"]]
        assert text.endswith(said[-1] + "?"), (lang, text)
        positions = [text.find(w) for w in said]
        assert -1 not in positions and positions == sorted(positions), (lang, text, said)
    # no answer named that is not offered (the walk: "gol contra" said, no button for it)
    offered = set(asked["answers"]["pt"].values())
    for other in ("gol contra", "escanteio", "chute pedido (não registrado)"):
        assert (other in asked["pt"]) == any(other in o for o in offered), (asked["pt"], offered)


def test_a_shot_for_the_team_without_the_lance_is_not_an_answer() -> None:
    """mesa-posta: Time A has the lance (004 Sua vez) and the ball goes into its own goal:
    Time B could not have asked a shot ("só quem tem o lance pede chute"), so "chute pedido
    (não registrado)" is no answer, and the engine refuses it if sent."""
    engine, state, asked = _question("mesa-posta", 0)
    assert asked["options"] == ["no_goal", "false_trip"]
    assert "own_goal" not in asked["options"]  # 004: only an asked shot scores
    refused, _ = engine.apply(state, Entry(5, "confirm", {"target": asked["id"],
                                                          "choice": "shot_asked"}, "referee"))
    assert refused.m["score"] == {"A": 0, "B": 0}
    # the ball into Time B's goal while Time A has the lance: A may have asked it unentered
    _, _, asked = _question("mesa-posta", 1)
    assert "shot_asked" in asked["options"]


@pytest.mark.parametrize("ruleset", ["cbfm-1toque", "gaucha", "pastilha-8x2"])
def test_an_own_goal_is_offered_where_the_document_has_one(ruleset: str) -> None:
    _, _, asked = _question(ruleset, 0)
    assert "own_goal" in asked["options"] and asked["default"] == "own_goal"
    # whose own goal it is, in the question and on its button alike (issue 45)
    team = asked["pt"].split("Bola no gol de ")[1].split(" sem chute")[0]
    assert asked["answers"]["pt"]["own_goal"] == f"gol contra de {team}", asked["answers"]
    assert f"gol contra de {team}" in asked["pt"], asked["pt"]


@pytest.mark.parametrize("ruleset", ["cbfm-1toque", "gaucha", "pastilha-8x2"])
def test_no_own_goal_for_the_attackers_own_lance(ruleset: str) -> None:
    """lowB 3: an own goal is the defender's own lance into his goal — "arremessada …
    contra sua própria meta" by the "executante da jogada" (000 Art. 12 §2), "partindo do
    campo do defensor que estiver efetuando a jogada" (001 Art. XXXI §2), "se um Técnico
    arremessar a bola … para dentro de seu próprio gol" (003 Art. 59 §único). Time A's lance
    went into Time B's goal with no shot asked: "gol contra" is neither said nor offered (an
    attacker's lance off a defender is a corner, 000 Art. 15 C, 001 Art. XXVIII §6, 003 Art.
    60 §único); sent anyway, the answer is refused."""
    engine, state, asked = _question(ruleset, 1)
    assert "own_goal" not in asked["options"] and "corner" in asked["options"], asked["options"]
    assert "gol contra" not in asked["pt"] and asked["default"] == "no_goal", asked["pt"]
    refused, _ = engine.apply(state, Entry(5, "confirm", {"target": asked["id"],
                                                          "choice": "own_goal"}, "referee"))
    assert refused.m["score"] == {"A": 0, "B": 0}
    assert [p["kind"] for p in refused.m["pending"]] == ["goal_no_shot"]


@pytest.mark.parametrize("ruleset", ["cbfm-1toque", "gaucha", "pastilha-8x2"])
def test_an_own_goal_before_any_lance_entered_is_the_referees_to_say(ruleset: str) -> None:
    """No lance entered since the kick-off's: who played last is not known, so the answer
    stays (the referee saw it)."""
    engine = Engine(load_ruleset(ruleset), {"kickoff": "A"})
    state, _ = engine.replay([Entry(1, "clock_started", {}, "device", 1, 1000, 1000),
                              Entry(2, "goal_line", {"goal": 0}, "device", 1, 2000, 2000)])
    (asked,) = [p for p in state.m["pending"] if p["kind"] == "goal_no_shot"]
    assert "own_goal" in asked["options"]


@pytest.mark.parametrize("ruleset", ["cbfm-1toque", "gaucha", "pastilha-8x2"])
@pytest.mark.parametrize("answered", [None, "A", "B"])
def test_the_alarm_with_the_kickoff_not_taken_ends_the_period(ruleset: str,
                                                              answered: str | None) -> None:
    """walk45j-a M5 (Gaúcha): time ran out while the kick-off after a goal was still to be
    taken, and the kick-off became "último lance". The ball is dead after a goal: no lance is
    being played, so the period ends at the alarm (001 Art. XXI §1 "o técnico que tiver a vez
    de jogar … efetuar este lance" — a lance under way; 000 Art. 8 §10, 12 §6)."""
    steps = [("clock_started", {}), ("touch", {"side": "A", "disc": 8}),  # the kick-off
             ("shot_asked", {"side": "A", "disc": 9}), ("goal_line", {"goal": 1})]
    log = [Entry(n, kind, data, "device" if kind in DEVICE_KINDS else "referee", 1,
                 n * 1000, n * 1000) for n, (kind, data) in enumerate(steps, 1)]
    engine = Engine(load_ruleset(ruleset), {"kickoff": "A"})
    state, _ = engine.replay(log)
    asked = [p for p in state.m["pending"] if p["kind"] == "kickoff_side"]
    if answered and asked:  # the referee chose who kicks off; it is still not taken
        log.append(Entry(5, "confirm", {"target": asked[0]["id"], "choice": answered},
                         "referee", 1, 5000, 5000))
    log += [Entry(n, kind, {}, "device", 1, n * 1000, n * 1000)
            for n, kind in ((6, "alarm"), (7, "period_over"))]
    state, _ = engine.replay(log)
    m = state.m
    assert m["score"]["A"] == 1, m["score"]
    assert m["status"] == "interval" and m.get("last_lance") is None, (m["status"],
                                                                       m.get("last_lance"))


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_goal_straight_from_the_kick_off_offers_no_shot_asked(ruleset: str) -> None:
    """Walk52a M3: a ball into the goal straight from the kick-off (its kick entered, no lance
    after it) was offered «chute pedido (não registrado)», and the answer gave the goal — while
    the console refuses a shot asked from the kick-off (000 Art. 12 §5, 001 Art. XXI a, 003
    Art. 34, 004 Chute pedido): the question offers only what the engine allows, and that
    answer is refused. One lance after the kick-off and it is offered again."""
    engine = Engine(load_ruleset(ruleset), {"kickoff": "A"})
    steps = [("clock_started", {}), ("touch", {"side": "A", "disc": 9}), ("goal_line", {"goal": 1})]
    log = [Entry(n, kind, data, "device" if kind in ("clock_started", "goal_line") else "referee",
                 1, n * 1000, n * 1000) for n, (kind, data) in enumerate(steps, 1)]
    state, _ = engine.replay(log)
    (asked,) = [p for p in state.m["pending"] if p["kind"] == "goal_no_shot"]
    assert "shot_asked" not in asked["options"], asked["options"]
    after, effects = engine.apply(state, Entry(4, "confirm", {"target": 3, "choice": "shot_asked"},
                                               "referee", 1, 4000, 4000))
    assert any(e.data.get("code") == "refused" for e in effects)
    assert after.m["score"] == {"A": 0, "B": 0}
    _, _, asked = _question(ruleset, 1)  # the kick-off and another touch: a shot may be asked
    assert "shot_asked" in asked["options"], asked["options"]
