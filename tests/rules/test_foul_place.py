"""A foul entered without its place, where the place chooses its kick, is refused by the engine
(lowB 2): direct or indirect by the field, a penalty in the box — 000 Art. 19 §2–§3 and 20,
001 Art. XXIII §2, 003 Art. 74. The console asks for the place since walk45h-b B3; through the
API or the expert console a foul with no `where` was taken as a direct kick, a guess. Refused
in the engine, every door refuses it alike, saying what to enter. A technical foul or a
penalty has one kick wherever it was; 004 gives a free kick wherever it was (a penalty only
when the referee says the box)."""

from __future__ import annotations

import pytest

from futmesa_testkit.entry_builder import EntryBuilder

PLACED = ("cbfm-1toque", "gaucha", "pastilha-8x2", "pastilha-8x2-clube")


def _refused(match: EntryBuilder, data: dict[str, object]) -> list[str]:
    entry = match.put("foul", data)
    return [a["pt"] for a in match.state.m["announcements"]
            if a["code"] == "refused" and a["entry"] == entry.id]


@pytest.mark.parametrize("ruleset", PLACED)
@pytest.mark.parametrize("ftype", ["falta", "toque", "mao"])
def test_a_foul_without_its_place_is_refused_saying_what_to_enter(ruleset: str,
                                                                   ftype: str) -> None:
    match = EntryBuilder(ruleset)
    match.kick_off("A")
    before = match.state.to_dict()
    said = _refused(match, {"side": "B", "disc": 4, "type": ftype})
    assert len(said) == 1 and said[0].startswith("Diga onde foi a falta:"), said
    assert "no campo do infrator" in said[0] and "na área" in said[0], said
    after = match.state.to_dict()
    assert (after["restart"], after["fouls"]) == (before["restart"], before["fouls"])
    replayed, _ = match.engine.replay(match.log)
    assert replayed.to_dict() == after


@pytest.mark.parametrize("ruleset", PLACED)
@pytest.mark.parametrize(("where", "kind"), [("own_half", "falta_indireta"),
                                             ("opponent_half", "falta_direta"),
                                             ("box", "penalti")])
def test_a_foul_with_its_place_gets_the_kick_of_that_place(ruleset: str, where: str,
                                                           kind: str) -> None:
    match = EntryBuilder(ruleset)
    match.kick_off("A")
    assert _refused(match, {"side": "B", "disc": 4, "type": "falta", "where": where}) == []
    assert match.state.m["restart"]["kind"] == kind and match.state.m["restart"]["side"] == "A"


@pytest.mark.parametrize("ruleset", PLACED)
@pytest.mark.parametrize("ftype", ["tecnica", "penalti", "dois_toques"])
def test_a_foul_with_one_kick_wherever_it_was_needs_no_place(ruleset: str, ftype: str) -> None:
    match = EntryBuilder(ruleset)
    match.kick_off("A")
    assert _refused(match, {"side": "B", "disc": 4, "type": ftype}) == []


def test_mesa_posta_gives_a_free_kick_wherever_the_foul_was() -> None:
    match = EntryBuilder("mesa-posta")
    match.kick_off("A")
    assert _refused(match, {"side": "B", "disc": 4, "type": "falta"}) == []
    assert match.state.m["restart"]["kind"] == "tiro_livre"
