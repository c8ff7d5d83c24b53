"""A foul entered without its place, where the place chooses its kick, is refused by the engine
(lowB 2): direct or indirect by the field, a penalty in the box — 000 Art. 19 §2–§3 and 20,
001 Art. XXIII §2, 003 Art. 74. The console asks for the place since walk45h-b B3; through the
API or the expert console a foul with no `where` was taken as a direct kick, a guess. Refused
in the engine, every door refuses it alike, saying what to enter. A technical foul, a penalty
or a two-touch throw-in / corner (000 Art. 22 §único "sempre cobrança indireta") has one kick
wherever it was, and a place entered with it changes nothing; 004 gives a free kick, but "Falta
dentro da área é pênalti" (004 Pênaltis): its place is asked too (issue #44/#45). The engine
publishes the foul kinds whose place it asks (`possession.foul_place`), and the console asks
the place for those only."""

from __future__ import annotations

import pytest

from futmesa.rules.registry import RULESETS
from futmesa_testkit.entry_builder import EntryBuilder

PLACED = ("cbfm-1toque", "gaucha", "pastilha-8x2", "pastilha-8x2-clube")


def _known(ftypes: tuple[str, ...]) -> list[tuple[str, str]]:
    """(ruleset, kind) for each ruleset where the place is asked and each of these kinds its
    document has (rules.foul_kinds, issue #45)."""
    return [(ruleset, ftype) for ruleset in PLACED for ftype in ftypes
            if ftype in RULESETS[ruleset].foul_kinds]


def _refused(match: EntryBuilder, data: dict[str, object]) -> list[str]:
    entry = match.put("foul", data)
    return [a["pt"] for a in match.state.m["announcements"]
            if a["code"] == "refused" and a["entry"] == entry.id]


@pytest.mark.parametrize(("ruleset", "ftype"), _known(("falta", "toque", "mao")))
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


@pytest.mark.parametrize(("ruleset", "ftype"), _known(("tecnica", "penalti", "dois_toques")))
def test_a_foul_with_one_kick_wherever_it_was_needs_no_place(ruleset: str, ftype: str) -> None:
    match = EntryBuilder(ruleset)
    match.kick_off("A")
    assert _refused(match, {"side": "B", "disc": 4, "type": ftype}) == []


@pytest.mark.parametrize(("where", "kind"), [("own_half", "tiro_livre"),
                                             ("opponent_half", "tiro_livre"),
                                             ("box", "penalti")])
def test_mesa_posta_asks_the_place_a_foul_in_the_area_being_a_penalty(where: str,
                                                                        kind: str) -> None:
    """004 Faltas: "cobra um tiro livre no local"; 004 Pênaltis: "Falta dentro da área é
    pênalti" — a foul entered without its place was a free kick, never a penalty."""
    match = EntryBuilder("mesa-posta")
    match.kick_off("A")
    said = _refused(match, {"side": "B", "disc": 4, "type": "falta"})
    assert len(said) == 1 and said[0].startswith("Diga onde foi a falta:"), said
    assert _refused(match, {"side": "B", "disc": 4, "type": "falta", "where": where}) == []
    assert match.state.m["restart"]["kind"] == kind and match.state.m["restart"]["side"] == "A"


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
def test_the_engine_publishes_the_fouls_whose_place_it_asks(ruleset: str) -> None:
    """The console asks the place for the foul kinds the engine publishes, and only those:
    they are exactly the kinds refused without it."""
    match = EntryBuilder(ruleset)
    match.kick_off("A")
    published = match.state.m["possession"]["foul_place"]
    refused = [ftype for ftype in RULESETS[ruleset].foul_kinds
               if _refused(match, {"side": "B", "disc": 4, "type": ftype})]
    assert sorted(published) == sorted(refused) and "falta" in published, (published, refused)


@pytest.mark.parametrize(("ruleset", "ftype"), _known(("tecnica", "dois_toques")))
def test_a_place_entered_with_a_placeless_foul_changes_nothing(ruleset: str, ftype: str) -> None:
    kinds = []
    for where in (None, "own_half", "opponent_half", "box"):
        match = EntryBuilder(ruleset)
        match.kick_off("A")
        assert _refused(match, {"side": "B", "disc": 4, "type": ftype,
                                **({"where": where} if where else {})}) == []
        kinds.append(match.state.m["restart"]["kind"])
    assert len(set(kinds)) == 1 and kinds[0] != "penalti", kinds
