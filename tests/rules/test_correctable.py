"""What a referee may correct is the engine's to say, in one place (rules/corrections.py
``correctable``; walk #45g G3, G4): a period's start, the table's clock rows and alarms are
no fact to void; a correction is undone by a void, never amended; an answer to a question
whose entry was voided (the kick-off after a voided goal) has nothing left to correct. The
engine refuses each with a sentence, and the refused correction changes nothing, live or on
replay."""

from __future__ import annotations

from typing import Any

from test_offers import free_kick_on_the_post

from futmesa.rules import Entry
from futmesa.rules.corrections import correctable
from futmesa_testkit.entry_builder import EntryBuilder


def _refusal(match: EntryBuilder, kind: str, data: dict[str, Any]) -> str:
    n = len(match.log) + 1
    before = match.state.to_dict()
    entry = Entry(n, kind, data, "referee", 1, n * 500, n * 500, author="ref", at=10**6 + n)
    match.state, effects = match.engine.apply(match.state, entry)
    match.log.append(entry)
    refused = [fx.data for fx in effects if fx.kind == "announce"
               and fx.data.get("code") == "refused"]
    replayed, _ = match.engine.replay(match.log)
    assert replayed.to_dict() == match.state.to_dict()
    after = match.state.to_dict()
    assert after["corrections"] == before["corrections"], (kind, data)
    assert after["score"] == before["score"]
    return str(refused[0]["pt"]) if refused else ""


def _goal_answered() -> tuple[EntryBuilder, Entry, Entry]:
    match = EntryBuilder()
    match.kick_off()
    match.put("shot_asked", {"side": "B", "disc": 11})
    goal = match.put("goal_by_hand", {"side": "B"})
    answer = match.put("confirm", {"target": goal.id, "choice": "A"})
    return match, goal, answer


def test_time_rows_are_refused_with_a_sentence() -> None:
    match, _goal, _answer = _goal_answered()
    starts = [e for e in match.log if e.kind in ("start_period", "clock_started")]
    assert len(starts) == 2
    for e in starts:
        for how, data in (("void", {"target": e.id}),
                          ("amend", {"target": e.id, "data": {}})):
            said = _refusal(match, how, data)
            assert f"{e.id}" in said and "Relógio" in said, said


def test_a_correction_is_undone_never_amended() -> None:
    match, goal, _answer = _goal_answered()
    void = match.put("void", {"target": goal.id, "reason": "mão"})
    assert match.state.m["score"] == {"A": 0, "B": 0}
    said = _refusal(match, "amend", {"target": void.id, "data": {"target": goal.id}})
    assert "desfaça" in said.lower() or "anul" in said.lower(), said


def test_the_answer_to_a_voided_goal_is_moot() -> None:
    match, goal, answer = _goal_answered()
    match.put("void", {"target": goal.id, "reason": "mão"})
    said = _refusal(match, "void", {"target": answer.id})
    assert str(answer.id) in said, said
    assert _refusal(match, "amend", {"target": answer.id,
                                     "data": {"target": goal.id, "choice": "B"}})


def test_the_answer_is_correctable_again_once_the_void_is_undone() -> None:
    match, goal, answer = _goal_answered()
    void = match.put("void", {"target": goal.id, "reason": "mão"})
    match.put("void", {"target": void.id, "reason": "revisto"})
    match.put("void", {"target": answer.id})
    assert match.state.to_dict()["corrections"][-1]["target"] == answer.id
    assert match.state.to_dict()["corrections"][-1]["in_effect"]


def test_facts_stay_correctable() -> None:
    for kind in ("goal_line", "goal_by_hand", "confirm", "foul", "touch", "lance_expired",
                 "substitution"):
        assert correctable(kind, "void") and correctable(kind, "amend"), kind
    assert correctable("void", "void") and not correctable("void", "amend")
    for kind in ("start_period", "period_started", "alarm", "period_over", "clock_started",
                 "signature"):
        assert not correctable(kind, "void"), kind


def test_a_voided_goal_takes_its_kick_off_answer_without_a_refusal() -> None:
    """Walk 45h-a A5: after "Gol de Alvorada (o sensor não viu)" was voided, its kick-off answer
    (000 Art. 6 §1) was applied again on the replay and refused, "Não há confirmação pendente
    com esse número" — the newest thing the rules said, on the console's "Vez:" line. The
    question went with its goal, and its answer with it: no refusal, live or on replay."""
    match, goal, _answer = _goal_answered()
    said_before = len(match.state.m["announcements"])
    match.put("void", {"target": goal.id, "reason": "bola não entrou"})
    m = match.state.to_dict()
    assert m["score"] == {"A": 0, "B": 0} and m["pending"] == []
    refused = [a for a in m["announcements"]
               if a.get("code") == "refused" and a["entry"] > goal.id]
    assert refused == [], refused
    # the goal's own words went too; the void says the goal disallowed (walk46a H1)
    said = [a["code"] for a in m["announcements"][said_before - 1:]]
    assert "goal" not in said and "goal_disallowed" in said, said
    replayed, _ = match.engine.replay(match.log)
    assert replayed.to_dict() == m


def test_after_a_voided_goal_the_state_is_the_one_before_it() -> None:
    """Walk 45h-a A5, the whole first screen: Botafogo's direct free kick was a shot on the post
    (000 Art. 19, 12), Alvorada asked its shot, "Gol de Alvorada (o sensor não viu)" and its
    kick-off answer (Art. 6 §1), then the goal voided. The ball went in and is no goal: the
    asked shot it ended is over, as for a sensor goal disallowed (walk46a H1: a shot left
    pending reopened the period in the interval) — Botafogo's goal kick (Art. 13), no question,
    no card for Botafogo's free kick, no refusal."""
    match = free_kick_on_the_post()
    match.put("shot_asked", {"side": "A", "disc": 9, "ball": "opponent_half"})
    goal = match.put("goal_by_hand", {"side": "A"})
    match.put("confirm", {"target": goal.id, "choice": "B"})
    match.put("void", {"target": goal.id, "reason": "bola não entrou"})
    m = match.state.to_dict()
    assert (m["turn"], m["shot_asked"], m["pending"]) == ("B", None, [])
    assert (m["restart"]["kind"], m["restart"]["side"], m["restart"]["taken"]) == (
        "tiro_de_meta", "B", False)
    assert "pass_touched_opponent" not in m["possession"]["offers"]
    assert "refused" not in [a["code"] for a in m["announcements"] if a["entry"] >= goal.id]


def test_a_voided_goal_amended_back_brings_its_answer_back() -> None:
    """The property test's counter-example (test_void_then_amend_back_restores_the_state,
    found after 358e5c2): a void takes its question's answers out with it; an amendment that
    brings the entry back must bring them back too — live as on replay (the newest-correction
    fast path kept them out)."""
    match = EntryBuilder()
    match.kick_off()
    trip = match.put("goal_line", {"goal": 0}, "device")
    asked = match.state.m["pending"][0]
    match.put("confirm", {"target": asked["id"], "choice": "false_trip"})
    original = match.state.to_dict()
    assert original["pending"] == []
    match.put("void", {"target": trip.id})
    match.put("amend", {"target": trip.id, "data": dict(trip.data)})
    m = match.state.to_dict()
    assert m["pending"] == [] and m["score"] == original["score"]  # the answer counts again
    replayed, _ = match.engine.replay(match.log)
    assert replayed.to_dict() == m


def test_an_answer_entered_after_its_question_was_voided_reads_the_same_on_replay() -> None:
    """The property test (goal_by_hand among its entries, lowB 1) found it: a touch voided, then
    an answer naming it — refused live ("no pending question"), dropped on the replay as an
    answer that went with its voided question, so the replay lost the refusal. An answer
    entered after the void never had its question: refused live and on the replay alike."""
    match = EntryBuilder()
    match.kick_off()
    touch = match.put("touch", {"side": "A", "disc": 9})
    match.put("void", {"target": touch.id})
    answer = match.put("confirm", {"target": touch.id, "accept": False})
    live = match.state.to_dict()
    assert [a["entry"] for a in live["announcements"] if a["code"] == "refused"] == [answer.id]
    replayed, _ = match.engine.replay(match.log)
    assert replayed.to_dict() == live
