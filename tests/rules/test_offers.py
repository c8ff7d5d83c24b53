"""The ruleset's own referee inputs the console offers (``possession.offers``): each ruleset
declares the inputs it reads (``Ruleset.referee_inputs``) and the engine says when each
applies, so the console names no ruleset (issue 31). 001 Art. XXXII (offside), XXXVI (the
corner arc), XXXIII §1 (discs moved at a goal kick), XXIX l (the pass); 004 Tiros de meta."""

from __future__ import annotations

from typing import Any

import pytest

from futmesa.rules import Engine, Entry, load_ruleset
from futmesa.rules.possession import offers


def match(ruleset: str, **over: Any) -> tuple[Any, dict[str, Any]]:
    rules = load_ruleset(ruleset)
    m = Engine(rules).initial_state().m
    m.update({"status": "running", "turn": "A"}, **over)
    return rules, m


def goal_kick(taken: bool = False, **more: Any) -> dict[str, Any]:
    return {"kind": "tiro_de_meta", "side": "A", "taken": taken, **more}


def test_each_ruleset_offers_only_its_own_inputs() -> None:
    rules, m = match("cbfm-1toque", restart=goal_kick())
    # a goal kick given by hand: in play, 000 Art. 9 §4; its kicker near the ball, Art. 26 §1 E
    assert offers(rules, m) == ["set_piece_distance", "disc_out"]
    rules, m = match("cbfm-1toque", restart=goal_kick(out_line="end", out_by="B", out_end=0))
    assert offers(rules, m) == ["set_piece_distance", "disc_out", "straight_out"]  # VI C/H
    rules, m = match("pastilha-8x2", restart=goal_kick())
    assert offers(rules, m) == ["positions", "ball_stopped_big"]  # 003 Art. 64 §6, Art. 43
    rules, m = match("gaucha", restart=goal_kick())
    assert offers(rules, m) == ["ball_on_arc", "discs_moved", "ball_from_attack", "disc_out",
                                 "rebound_midline"]
    rules, m = match("mesa-posta", restart=goal_kick())
    assert offers(rules, m) == ["discs_moved", "disc_moved"]  # 004 Tiros de meta


def test_an_infraction_kicks_first_lance_off_an_opponent() -> None:
    # 000 Art. 18 §1, 001 Art. XXIII §4: only after the first lance of two
    kick = {"kind": "falta_indireta", "side": "A", "taken": True, "open": True, "lances": 2,
            "infraction": True}
    for name in ("cbfm-1toque", "gaucha"):
        rules, m = match(name, restart={**kick, "taker_lances": 1})
        assert "pass_touched_opponent" in offers(rules, m), name
        rules, m = match(name, restart={**kick, "taker_lances": 2})
        assert "pass_touched_opponent" not in offers(rules, m), name
    rules, m = match("pastilha-8x2", restart={**kick, "taker_lances": 1})
    assert "pass_touched_opponent" not in offers(rules, m)


def test_when_each_applies() -> None:
    rules, m = match("gaucha", restart=None, last_player="B")
    assert offers(rules, m) == ["offside", "ball_on_arc", "ball_from_attack", "disc_out",
                                "rebound_midline"]
    rules, m = match("gaucha", status="interval", restart=goal_kick())
    assert offers(rules, m) == []  # the ball is not in play
    rules, m = match("gaucha", restart={"kind": "lateral_cedida", "side": "A", "taken": True,
                                        "open": True, "lances": 2, "taker_lances": 0},
                     last_player="A")
    assert offers(rules, m) == ["offside", "ball_on_arc", "pass", "ball_from_attack", "disc_out",
                                 "rebound_midline"]  # a pass?
    m["restart"]["taker_lances"] = 1
    assert "pass" not in offers(rules, m)
    # the escanteio cedido's first lance: a pass, or short of the big area (001 XXVIII §2 a)
    rules, m = match("gaucha", restart={"kind": "escanteio_cedido", "side": "A", "taken": False,
                                        "open": True, "lances": 2, "taker_lances": 0})
    assert {"pass", "corner_short"} <= set(offers(rules, m))
    m["restart"].update(taken=True, taker_lances=1)
    assert "corner_short" not in offers(rules, m)
    # its first lance off an opponent loses the second (§4), as an infraction's does
    assert "pass_touched_opponent" in offers(rules, m)
    rules, m = match("mesa-posta", restart=goal_kick(True, touches_since=0))
    assert offers(rules, m) == ["keeper_kick_hit"]  # right after the chutão
    m["restart"]["touches_since"] = 1
    assert offers(rules, m) == []
    rules, m = match("gaucha", finished=True, restart=goal_kick())
    assert offers(rules, m) == []


def test_offside_is_against_the_side_that_played_the_last_lance() -> None:
    """001 Art. XXXII: offside is of the attacking side's disc on a pass, so the call names
    the side whose lance it was (not the one on turn) and is not offered at the kick-off,
    where no lance was played (issue 45 blind walk, medium 6)."""
    engine = Engine(load_ruleset("gaucha"))
    state, _ = engine.replay([
        Entry(1, "set_up", {"kickoff": "A"}),
        Entry(2, "start_period", {}),
        Entry(3, "clock_started", {"reason": 0}, source="device", period=1),
    ])
    pos = state.m["possession"]
    assert "offside" not in pos["offers"] and pos["offside_side"] is None  # the kick-off
    refused, _ = engine.apply(state, Entry(4, "offside", {}))
    assert refused.m["restart"]["kind"] == "saida", "an offside at the kick-off"
    state, _ = engine.apply(state, Entry(5, "touch", {"side": "A", "disc": 5}, source="device"))
    assert state.m["possession"]["offside_side"] is None  # from the centre: XXXII §1 b
    state, _ = engine.apply(state, Entry(6, "touch", {"side": "B", "disc": 3}, source="device"))
    pos = state.m["possession"]
    assert (state.m["turn"], pos["offside_side"]) == ("A", "B")  # the lance's, not the turn's
    assert "offside" in pos["offers"]
    state, _ = engine.apply(state, Entry(7, "offside", {}))
    assert state.m["restart"]["kind"] == "tiro_livre"
    assert state.m["restart"]["side"] == "A"  # against B


def test_no_offside_after_a_lance_from_the_attack_field() -> None:
    """001 Art. XXXII §1 b: offside needs "que a bola parta do campo de defesa para a
    ataque"; a shot asked from the opponent's field (then saved) or a touch from there cannot
    be one, so it is not offered and is refused (walk #45g low: Impedimento offered right
    after the team's own shot was saved). A lance from its own field still can."""
    engine = Engine(load_ruleset("gaucha"))
    state, _ = engine.replay([
        Entry(1, "set_up", {"kickoff": "A"}),
        Entry(2, "start_period", {}),
        Entry(3, "clock_started", {"reason": 0}, source="device", period=1),
        Entry(4, "touch", {"side": "A", "disc": 5, "ball": "own_half"}, source="device"),
        Entry(5, "touch", {"side": "B", "disc": 3, "ball": "own_half"}, source="device"),
    ])
    assert state.m["possession"]["offside_side"] == "B"  # from its own field: it can be
    state, _ = engine.apply(state, Entry(6, "shot_asked", {"side": "A", "disc": 8,
                                                           "ball": "opponent_half"}))
    assert state.m["shot_asked"], "the shot was asked"
    state, _ = engine.apply(state, Entry(7, "shot_result", {"outcome": "saved"}))
    pos = state.m["possession"]
    assert "offside" not in pos["offers"] and pos["offside_side"] is None, pos
    refused, _ = engine.apply(state, Entry(8, "offside", {}))
    assert not refused.m["restart"] or refused.m["restart"]["kind"] != "tiro_livre"
    said = [a for a in refused.m["announcements"] if a.get("entry") == 8]
    assert said and "XXXII" in str(said[-1]), said
    # a touch from the attack field (or on the midline): no offside either
    state, _ = engine.apply(state, Entry(9, "touch", {"side": "B", "disc": 2,
                                                      "ball": "midline"}, source="device"))
    assert state.m["possession"]["offside_side"] is None


def _gaucha_kicked_off(*more: Entry) -> tuple[Engine, Any]:
    """A Gaúcha match whose kick-off A took with a touch of its disc 9 (walk51b M1)."""
    engine = Engine(load_ruleset("gaucha"))
    state, _ = engine.replay([
        Entry(1, "set_up", {"kickoff": "A"}),
        Entry(2, "start_period", {}),
        Entry(3, "clock_started", {"reason": 0}, source="device", period=1),
        Entry(4, "touch", {"side": "A", "disc": 9}, source="device"),
        *more,
    ])
    return engine, state


def test_no_offside_after_a_kick_taken_on_the_midline_or_in_the_attack_field() -> None:
    """001 Art. XXXII §1 b "que a bola parta do campo de defesa para a ataque": the lance
    that takes a kick from a place the engine knows is from there, whatever the touch says
    (walk51b M1: «Impedimento de …» offered after the kick-off's touch, from the centre, and
    after a lateral cedida's first lance in the opponent's field). A kick taken in the
    taker's own field (and a touch whose field nobody said) still offers it."""
    engine, state = _gaucha_kicked_off()
    pos = state.m["possession"]
    assert "offside" not in pos["offers"] and pos["offside_side"] is None, pos
    refused, _ = engine.apply(state, Entry(5, "offside", {}))
    said = [a for a in refused.m["announcements"] if a.get("entry") == 5]
    assert said and "XXXII §1 b" in str(said[-1]), said
    # B's lance out over the side line off its own disc, in B's field: A's lateral cedida,
    # taken there — A's attack field
    ends = state.m["ends"]
    for n, (half, offered) in enumerate((("B", None), ("A", "A"))):
        _, state = _gaucha_kicked_off(
            Entry(5, "touch", {"side": "B", "disc": 4}, source="device"),
            Entry(6, "last_touch", {"side": "B"}),
            Entry(7, "ball_out", {"zone": 1, "line": "side", "end": ends[half]},
                  source="device"),
        )
        assert state.m["restart"]["kind"] == "lateral_cedida", (n, state.m["restart"])
        state, _ = engine.apply(state, Entry(8, "touch", {"side": "A", "disc": 7},
                                             source="device"))
        assert state.m["possession"]["offside_side"] == offered, (half, state.m["restart"])
    # a free kick from the penalty mark (001 Art. XXIX b, m): in the taker's attack field
    _, state = _gaucha_kicked_off(
        Entry(5, "touch", {"side": "B", "disc": 4}, source="device"),
        Entry(6, "foul", {"side": "B", "type": "tecnica"}),
        Entry(7, "kick_spot_choice", {"spot": "penalty_mark"}),
        Entry(8, "touch", {"side": "A", "disc": 7}, source="device"),
    )
    assert state.m["restart"]["taken"], state.m["restart"]
    assert state.m["possession"]["offside_side"] is None


def test_the_engine_publishes_them() -> None:
    rules = load_ruleset("gaucha")
    state = Engine(rules).initial_state()
    assert state.m["possession"]["offers"] == []  # before the start


def test_the_blind_cases_inputs_only_while_their_kick_waits() -> None:
    # 000 Art. 26 §1 E: a restart not yet taken; 004 Tiros de meta: a goal kick not yet taken
    rules, m = match("cbfm-1toque", restart=goal_kick(taken=True))
    assert "set_piece_distance" not in offers(rules, m)
    rules, m = match("cbfm-1toque", restart=None)
    assert "set_piece_distance" not in offers(rules, m)
    rules, m = match("mesa-posta", restart=goal_kick(taken=True, touches_since=1))
    assert "disc_moved" not in offers(rules, m)
    rules, m = match("mesa-posta", restart={"kind": "lateral", "side": "A", "taken": False})
    assert "disc_moved" not in offers(rules, m)
    for name in ("gaucha", "pastilha-8x2"):  # neither document has these articles
        rules, m = match(name, restart=goal_kick())
        assert not {"set_piece_distance", "disc_moved"} & set(offers(rules, m)), name


def test_the_shot_struck_by_another_disc_only_where_it_voids_the_shot() -> None:
    # 003 Art. 54 §2: "não poderá ser trocado, em hipótese alguma" — while the shot waits
    shot = {"side": "A", "disc": 9}
    rules, m = match("pastilha-8x2", restart=None, shot_asked=shot)
    assert "other_disc_shot" in offers(rules, m)
    rules, m = match("pastilha-8x2", restart=None, shot_asked={**shot, "struck_by": 8})
    assert "other_disc_shot" not in offers(rules, m)
    rules, m = match("pastilha-8x2", restart=None)
    assert "other_disc_shot" not in offers(rules, m)
    rules, m = match("cbfm-1toque", restart=None, shot_asked=shot)  # 000 Art. 12 §1: refused
    assert "other_disc_shot" not in offers(rules, m)


def test_a_disc_moved_where_the_document_counts_them() -> None:
    # 004 Saída de bola: the kicking-off team, two; Escanteios: three each, the attack first
    rules, m = match("mesa-posta", restart={"kind": "saida", "side": "B", "taken": False})
    assert "disc_moved" in offers(rules, m) and rules.movers(m) == ["B"]
    corner = {"kind": "escanteio", "side": "A", "taken": False}
    rules, m = match("mesa-posta", restart=corner)
    assert rules.movers(m) == ["A"]  # the attack first
    m["restart"]["moved"] = {"A": [9]}
    assert rules.movers(m) == ["A", "B"]
    m["restart"]["moved"] = {"A": [9, 10, 11], "B": [3, 4, 5]}
    assert rules.movers(m) == [] and "disc_moved" not in offers(rules, m)  # three each
    # 003 Art. 72: the lateral's team, one disc; a reposição: none (Art. 64)
    rules, m = match("pastilha-8x2", restart={"kind": "lateral", "side": "B", "taken": False})
    assert "disc_moved" in offers(rules, m) and rules.movers(m) == ["B"]
    rules, m = match("pastilha-8x2", restart={"kind": "reposicao", "side": "B", "taken": False})
    assert "disc_moved" not in offers(rules, m)


def test_the_arrangement_in_the_documents_order() -> None:
    # 003 Art. 64 §6: the taker's attack, the other's attack, the taker's defence, the other's
    rules, m = match("pastilha-8x2", restart=goal_kick())
    assert rules.arrange_next(m) == ("A", "attack")
    m["restart"]["arranged"] = ["A:attack", "B:attack", "A:defence"]
    assert rules.arrange_next(m) == ("B", "defence")
    m["restart"]["arranged"].append("B:defence")
    assert "positions" not in offers(rules, m)
    # 004 Escanteios: the defence's goalkeeper in the small area; none before a goal kick
    rules, m = match("mesa-posta", restart={"kind": "escanteio", "side": "B", "taken": False})
    assert rules.arrange_next(m) == ("A", "goalkeeper") and "positions" in offers(rules, m)
    rules, m = match("mesa-posta", restart=goal_kick())
    assert "positions" not in offers(rules, m)


def test_where_a_kick_is_taken_only_while_it_waits() -> None:
    # 001 Art. XXIX b, m: a technical foul's place is the referee's tap while its kick waits
    foul = {"kind": "falta_tecnica", "side": "A", "taken": False, "infraction": True,
            "spot": "ball", "spot_choices": ["penalty_mark", "ball", "ball_out"]}
    rules, m = match("gaucha", restart=foul)
    assert "kick_spot_choice" in offers(rules, m)
    rules, m = match("gaucha", restart={**foul, "taken": True})
    assert "kick_spot_choice" not in offers(rules, m)
    rules, m = match("gaucha", restart=goal_kick())  # its place is the rule's
    assert "kick_spot_choice" not in offers(rules, m)
    rules, m = match("cbfm-1toque", restart={**foul, "kind": "falta_tecnica"})  # not in 000
    assert "kick_spot_choice" not in offers(rules, m)
    # 003 Art. 73 §1: the distances at a free kick not yet taken, never at a penalty
    kick = {"kind": "falta_direta", "side": "A", "taken": False, "infraction": True}
    rules, m = match("pastilha-8x2", restart=kick)
    assert "disc_distances" in offers(rules, m)
    for other in ({**kick, "taken": True}, {**kick, "kind": "penalti"}, goal_kick()):
        rules, m = match("pastilha-8x2", restart=other)
        assert "disc_distances" not in offers(rules, m), other
    rules, m = match("gaucha", restart=kick)
    assert "disc_distances" not in offers(rules, m)


def test_the_grey_shot_button_says_the_interval_in_the_interval() -> None:
    """Walk #45 low: in the interval the greyed Chute pedido read "Pedido no alarme ou depois
    dele" (the reason for a shot asked as time ran out), not the interval; the button says
    what a tap would be refused with."""
    engine = Engine(load_ruleset("cbfm-1toque"))
    state = engine.initial_state()
    for i, (kind, source, at) in enumerate((("clock_started", "device", 0),
                                            ("alarm", "device", 1_500_000)), 1):
        state, _ = engine.apply(state, Entry(i, kind, {}, source, at=at))
    m = state.to_dict()
    assert m["status"] == "interval"
    why = m["possession"]["why_not"]["A"]["shot_asked"]
    assert why["pt"] == "É o intervalo: a bola não está em jogo", why
    _state, effects = engine.apply(state, Entry(3, "shot_asked", {"side": "A", "disc": 9}))
    (said,) = [e.data for e in effects if e.data.get("code") == "refused"]
    assert said["pt"] == why["pt"]


def free_kick_on_the_post() -> Any:
    """Walk 45h-a A5's match (cbfm-1toque): Botafogo kicks off; Alvorada's foul gives it a
    direct free kick, taken as a shot by its botão 8 that hits the post (000 Art. 19, 12)."""
    from futmesa_testkit.entry_builder import EntryBuilder

    b = EntryBuilder()
    b.kick_off("B")
    b.put("touch", {"side": "B", "disc": None})
    b.put("foul", {"side": "A", "disc": None, "type": "falta", "where": "opponent_half"})
    b.put("shot_asked", {"side": "B", "disc": 8, "ball": "opponent_half"})
    b.put("shot_result", {"outcome": "post"})
    return b


def test_no_first_lance_off_an_opponent_once_the_vez_has_passed() -> None:
    """Walk 45h-a A5: Botafogo's direct free kick was a shot (000 Art. 19 §2–§3: two lances,
    the first a shot); it hit the post and the vez passed to Alvorada (Art. 12), which asked its
    own shot — and the console still offered "1º lance de Botafogo tocou no adversário" on a
    "Cobrado: falta direta para Botafogo" card. A lost second lance (Art. 18 §1) is a lance the
    kicking team still has: once the vez is the opponent's there is none to lose."""
    b = free_kick_on_the_post()
    m = b.state.to_dict()
    assert (m["restart"]["kind"], m["turn"]) == ("falta_direta", "A")
    assert "pass_touched_opponent" not in m["possession"]["offers"]
    b.put("shot_asked", {"side": "A", "disc": 9, "ball": "opponent_half"})
    assert "pass_touched_opponent" not in b.state.to_dict()["possession"]["offers"]
    said = b.put("pass_touched_opponent", {})
    assert b.state.to_dict()["announcements"][-1]["code"] == "refused", said


def test_a_kick_whose_article_names_its_place_offers_no_place_nor_side() -> None:
    """Walk45h-a low (46-gaucha-lance-expired-during-question.png): after gaúcha's lance-time
    technical foul the card offered "Cobrar pela esquerda / direita", "Cobrança na marca do
    pênalti", "Cobrança onde a bola saiu" — no ball went out. Its article names the place:
    "e) demorar mais de quinze segundos para efetuar um lance; (cobra-se no local onde está a
    bola)" (001 Art. XXIX e; f alike): the rule's place, no choice of place or side. A
    technical foul the referee enters without its reason keeps the places to tap (XXIX b, m)."""
    rules = load_ruleset("gaucha")
    engine = Engine(rules, {"kickoff": "A"})
    log = [Entry(1, "clock_started", {}, "device", 1, 1000, 1000),
           Entry(2, "lance_expired", {"side": "A", "count": 1}, "device", 1, 16_000, 16_000)]
    state, _ = engine.replay(log)
    r = state.m["restart"]
    assert (r["kind"], r["side"], r["spot"], r["rule"]) == (
        "falta_tecnica", "B", "ball", "001 Art. XXIX e"), r
    assert not r.get("side_choice") and not r.get("spot_choices"), r
    assert "kick_spot_choice" not in offers(rules, state.m)
    state, effects = engine.apply(state, Entry(3, "kick_spot_choice", {"spot": "ball_out"},
                                               "referee", 1, 17_000, 17_000))
    assert [e.data["code"] for e in effects if e.kind == "announce"] == ["refused"]
    # the referee's technical foul, its reason his: the places to tap, the side to choose
    state, _ = engine.apply(state, Entry(4, "foul", {"side": "B", "type": "tecnica"},
                                         "referee", 1, 18_000, 18_000))
    r = state.m["restart"]
    assert r["side"] == "A" and r["spot_choices"] == ["penalty_mark", "ball", "ball_out"], r
    assert r.get("side_choice") and "kick_spot_choice" in offers(rules, state.m)


def test_the_ball_passed_is_said_as_its_button_says_it() -> None:
    """Walk45i-a M1: the console's button shows the rule's words for the ball that went to the
    other team (possession.pass_words); the Registro says the same words, with the article."""
    from futmesa.rules.possession import possession
    cases = {"pastilha-8x2": {"restart": None},  # 003 Art. 47 §4
             "mesa-posta": {"restart": {"kind": "lateral", "side": "A", "taken": True,
                                        "touches_since": 0}}}  # 004 Bola fora
    for name, over in cases.items():
        rules, m = match(name, **over)
        offer = possession(rules, m)
        assert offer["passes_to"] == "B" and "ball_passed" in offer["offers"], name
        state = Engine(rules).initial_state()
        state.m.update(m)
        state, effects = Engine(rules).apply(state, Entry(1, "ball_passed", {"side": "B"}))
        said = [e.data for e in effects if e.kind == "announce"]
        assert [a["code"] for a in said] == ["ball_passed"], said
        assert said[0]["pt"] == f"{offer['pass_words']['pt']} ({said[0]['rule']})", said
        assert said[0]["en"].startswith(offer["pass_words"]["en"]), said
        assert state.m["turn"] == "B", name
    rules, m = match("cbfm-1toque", restart=None)  # 000: one lance a turn, none by a word
    assert possession(rules, m)["passes_to"] is None


@pytest.mark.parametrize("ruleset", ["cbfm-1toque", "gaucha"])
def test_a_shot_asked_out_of_the_vez_says_whose_lance_to_enter(ruleset: str) -> None:
    """walk45j-a H1: "Se a bola passou para Alvorada, registre antes esse lance" read as
    Alvorada's own lance — entered, it stood out of the vez and the shot was refused again: with
    one lance per turn (000 Art. 12 §3 A, 001 Art. XXI §1) the lance to enter is the holder's."""
    engine = Engine(load_ruleset(ruleset))
    state = engine.initial_state()
    steps = (("clock_started", {}, "device"), ("touch", {"side": "A", "disc": 9}, "referee"),
             ("touch", {"side": "A", "disc": 10}, "referee"))
    for i, (kind, data, source) in enumerate(steps, 1):
        state, _ = engine.apply(state, Entry(i, kind, data, source, at=1000 * i))
    assert state.to_dict()["possession"]["side"] == "B"
    why = state.to_dict()["possession"]["why_not"]["A"]["shot_asked"]
    assert "registre antes o lance de Time B" in why["pt"], why
    state, _ = engine.apply(state, Entry(4, "touch", {"side": "B", "disc": 3}, at=4000))
    assert "shot_asked" in state.to_dict()["possession"]["allowed"]["A"]


@pytest.mark.parametrize("ruleset", ["cbfm-1toque", "gaucha", "pastilha-8x2", "mesa-posta"])
def test_the_restart_taken_in_one_tap_only_on_a_ball_in_play_clock(ruleset: str) -> None:
    """Walk48a M1: 004 A partida, "num relógio que só corre com a bola rolando" — the clock
    waits for the restart taken, which no sensor sees: the engine offers the one tap that
    records it (`possession.restart_tap`: the taker's touch) for every restart but the penalty,
    whose kick is the asked shot (004 Pênaltis). On a continuous clock (000 Art. 8 §10, 001,
    003 Art. 27) nothing waits for it: never offered, the restarts taken as before."""
    from futmesa.rules.possession import possession
    ball_in_play = ruleset == "mesa-posta"
    for kind in ("saida", "lateral", "tiro_de_meta", "penalti"):
        rules, m = match(ruleset, restart={"kind": kind, "side": "B", "taken": False})
        m["_secret"] = {"penalty": "left"}  # (004: the goalkeeper has chosen)
        offer = possession(rules, m)
        tap = "B" if ball_in_play and kind != "penalti" else None
        assert offer["restart_tap"] == tap, (kind, offer)
        if tap:
            assert "touch" in offer["allowed"]["B"], kind
    rules, m = match(ruleset, restart={"kind": "lateral", "side": "B", "taken": True})
    assert possession(rules, m)["restart_tap"] is None  # taken: nothing to record
    rules, m = match(ruleset, status="interval",
                     restart={"kind": "saida", "side": "B", "taken": False})
    assert possession(rules, m)["restart_tap"] is None  # the ball is not in play


# what each document has besides its fouls and restarts (walk49a M5): its disciplinary acts
# (000 Art. 26, 001 Art. XXIX f / XLIII, 003 Arts. 83–86; 004 none), a lance entered as out of
# turn (000 Art. 23's foul; 001 and 003 fix no vez it breaks; 004 Sua vez: refused) and the
# restarts whose failure it has (000 Arts. 13, 14, 16; 003; none in 001's excerpt nor in 004)
ACTS = {
    "cbfm-1toque": (["disciplinary", "cera", "expel", "end_match"], True,
                    ["tiro_de_meta", "reposicao", "lateral"]),
    "gaucha": (["disciplinary", "cera", "expel", "end_match"], True, []),
    "pastilha-8x2": (["disciplinary", "cera", "expel", "end_match", "deliberate_foul",
                      "disqualify"], True, None),
    "mesa-posta": ([], False, []),
}


@pytest.mark.parametrize("ruleset", sorted(ACTS))
def test_the_sheets_offer_only_the_documents_acts(ruleset: str) -> None:
    """The console's Disciplina sheet, «Toque fora da vez» and the failed-restart block offer
    what the engine publishes (walk49a M5: «A mesa está posta» offered them all, and took a
    disciplinary foul with no article)."""
    from futmesa.rules.possession import possession
    rules, m = match(ruleset, restart=None)
    published = possession(rules, m)
    kinds, out_of_turn, failed = ACTS[ruleset]
    assert published["discipline_kinds"] == kinds
    assert published["out_of_turn"] is out_of_turn
    assert sorted(published["failed_restarts"]) == sorted(
        failed if failed is not None else rules.failed_restart_rules)
    assert (published["failed_restarts"] == []) == (ruleset in ("gaucha", "mesa-posta"))


def _refusal(ruleset: str, *entries: tuple[str, dict[str, Any]]) -> dict[str, Any] | None:
    from futmesa_testkit.entry_builder import EntryBuilder
    built = EntryBuilder(ruleset)
    built.kick_off("A")
    built.put("touch", {"side": "A", "disc": 9})
    for kind, data in entries:
        entry = built.put(kind, data)
    said = [a for a in built.state.m["announcements"]
            if a["code"] == "refused" and a["entry"] == entry.id]
    return said[0] if said else None


@pytest.mark.parametrize("kind", ["disciplinary", "cera", "expel", "end_match",
                                  "deliberate_foul", "disqualify"])
def test_a_disciplinary_act_the_document_lacks_is_refused_naming_it(kind: str) -> None:
    said = _refusal("mesa-posta", ("discipline", {"side": "B", "disc": 6, "type": kind}))
    assert said is not None
    assert said["pt"].startswith("Esta regra não tem essa medida disciplinar"), said
    assert said["rule"] == "004 Faltas", said
    for ruleset in ("cbfm-1toque", "gaucha", "pastilha-8x2"):
        if kind in ACTS[ruleset][0]:
            assert _refusal(ruleset, ("discipline", {"side": "B", "disc": 6,
                                                     "type": kind})) is None, ruleset
        else:
            said = _refusal(ruleset, ("discipline", {"side": "B", "disc": 6, "type": kind}))
            assert said is not None and said["rule"], (ruleset, said)
            assert said["pt"].startswith("Esta regra não tem essa medida disciplinar"), said


@pytest.mark.parametrize("ruleset", ["gaucha", "mesa-posta"])
def test_a_failed_restart_the_document_lacks_is_refused_naming_it(ruleset: str) -> None:
    said = _refusal(ruleset, ("restart", {"side": "B", "kind": "tiro_de_meta"}),
                    ("restart_failed", {"reason": "area"}))
    assert said is not None
    assert said["pt"].startswith("Esta regra não tem cobrança que falhou"), said
    assert said["rule"] == {"gaucha": "001 Art. XXX", "mesa-posta": "004 Bola fora"}[ruleset]


@pytest.mark.parametrize("ruleset", ["cbfm-1toque", "gaucha", "pastilha-8x2", "mesa-posta"])
def test_a_period_starts_with_the_clock_held_only_on_a_ball_in_play_clock(ruleset: str) -> None:
    """Walk49a M1: 004 A partida, "num relógio que só corre com a bola rolando" — the clock
    ran from «▶ Iniciar o 1º tempo», before the kick-off. The start is the table's `start` and
    at once its `dead_ball`; the kick-off's touch runs it (`play_on`). A continuous clock (000
    Art. 8 §10, 001, 003 Art. 27) runs from the start, as before."""
    engine = Engine(load_ruleset(ruleset), {"kickoff": "A"})
    state = engine.initial_state()
    commands = []
    entries = [("start_period", {}, "referee"), ("clock_started", {"reason": 0}, "device"),
               ("touch", {"side": "A", "disc": 9}, "referee")]
    for n, (kind, data, source) in enumerate(entries, 1):
        state, effects = engine.apply(state, Entry(n, kind, data, source, at=n * 1000))
        commands.append([e.data["cmd"] for e in effects if e.kind == "device"])
        if n == 2:
            assert state.to_dict()["clock_running"] is (ruleset != "mesa-posta")
    held = ruleset == "mesa-posta"
    assert commands[0] == (["start", "dead_ball"] if held else ["start"])
    assert ("play_on" in commands[2]) is held
    assert state.to_dict()["clock_running"] is True


# the article a document says a shot from the kick-off's centre spot is none by: 000 Art. 12
# §5 "sobre a linha divisória … será considerada neutra" (the marca de saída is on it, Art. 2
# E), 001 Art. XXI a "que a bola ultrapasse totalmente a linha divisória do campo" (§único: on
# it, neutral), 003 Art. 34 no shot "enquanto a bola permanecer dentro do círculo central",
# 004 Chute pedido "peça o chute do campo do adversário"
KICKOFF_SHOT = {"cbfm-1toque": "000 Art. 12 §5", "gaucha": "001 Art. XXI a",
                "pastilha-8x2": "003 Art. 34", "pastilha-8x2-clube": "003 Art. 34",
                "mesa-posta": "004 Chute pedido"}


@pytest.mark.parametrize("ruleset", sorted(KICKOFF_SHOT))
def test_no_shot_asked_from_the_kick_off(ruleset: str) -> None:
    """Walk49a M2 (004), walk50c M2 (001: «✓ Chute pedido por Grêmio F.C., botão 7 do campo
    adversário» before the kick-off, and the goal counted): at the kick-off the ball is on the
    centre spot, on the halfway line — the shot is refused, whatever field the selector marks,
    citing the document, and the console's grey reason says why; once the kick-off is taken,
    the selector's field stands again."""
    from futmesa.rules.possession import possession, shot_refusal
    from futmesa_testkit.entry_builder import EntryBuilder
    built = EntryBuilder(ruleset)
    built.kick_off("A")
    entry = built.put("shot_asked", {"side": "A", "disc": 7, "ball": "opponent_half"})
    m = built.state.m
    said = [a for a in m["announcements"] if a["entry"] == entry.id]
    assert [a["code"] for a in said] == ["refused"], said
    assert said[0]["rule"] == KICKOFF_SHOT[ruleset], said
    assert said[0]["pt"].startswith("Saída de bola: a bola está no centro, na linha divisória")
    assert m["shot_asked"] is None and m["restart"]["kind"] == "saida"
    rules = built.engine.ruleset
    why = possession(rules, m)["why_not"]["A"]["shot_asked"]["pt"]
    assert why.startswith("Saída de bola: a bola está no centro, na linha divisória"), why
    m["restart"]["taken"] = True
    assert shot_refusal(rules, m, "A", 9, "opponent_half") is None


@pytest.mark.parametrize("ruleset", ["mesa-posta", "cbfm-1toque", "gaucha", "pastilha-8x2"])
def test_no_shot_is_offered_while_a_ball_outs_question_waits(ruleset: str) -> None:
    """Walk52a M6: with the ball out and «quem tocou por último?» unanswered, «Chute pedido»
    was taken (the TV showed CHUTE PEDIDO beside «Bola fora»). The ball is dead until its
    restart is given (004 Bola fora, 000 Art. 1 §3, 001 Art. XXX, 003 Art. 64): the button is
    greyed with the words a tap is refused with, and the tap is refused."""
    engine = Engine(load_ruleset(ruleset), {"kickoff": "A"})
    state = engine.initial_state()
    for entry in (Entry(1, "start_period", {}, "referee", at=0),
                  Entry(2, "clock_started", {}, "device", at=0),
                  Entry(3, "touch", {"side": "A", "disc": 9}, "referee", at=1000),
                  Entry(4, "ball_out", {"line": "end", "end": 1}, "device", at=2000)):
        state, _ = engine.apply(state, entry)
    m = state.to_dict()
    assert [p["kind"] for p in m["pending"]] == ["ball_out_touch"], m["pending"]
    for side in ("A", "B"):
        assert "shot_asked" not in m["possession"]["allowed"][side]
        why = m["possession"]["why_not"][side]["shot_asked"]
        assert why["pt"].startswith("Bola fora: a bola não está em jogo"), why
    after, effects = engine.apply(state, Entry(5, "shot_asked", {"side": "A", "disc": 2},
                                               "referee", at=3000))
    (said,) = [e.data for e in effects if e.data.get("code") == "refused"]
    assert said["pt"].startswith("Bola fora: a bola não está em jogo"), said
    assert after.m["shot_asked"] is None
