"""The foul kinds a ruleset knows are its document's (issue #45): the console's foul sheet
offered "dois toques", "toque" and "mão" in every ruleset. 000 Art. 17 lists falta, toque
and the lateral / escanteio dois-toques (Art. 22), its "toque" being the ball touching the
técnico (Art. 21) — no "mão"; 001 Art. XXIII lists falta, toque, mão, pênalti and falta
técnica — no dois-toques; 003 Art. 68 makes the ball hitting the técnico a "falta" ("toque"
is a move there, Art. 46), with pênalti (Art. 69) and falta técnica (Art. 80); 004 has only
"Faltas" and "Pênaltis". The engine publishes them (`possession.foul_kinds`), the console shows
those only, and a kind the ruleset does not know, sent anyway, is refused citing the
document."""

from __future__ import annotations

import pytest

from futmesa_testkit.entry_builder import EntryBuilder

KINDS = {
    "cbfm-1toque": ["falta", "toque", "dois_toques", "penalti", "tecnica"],
    "gaucha": ["falta", "toque", "mao", "penalti", "tecnica"],
    "pastilha-8x2": ["falta", "penalti", "tecnica"],
    "pastilha-8x2-clube": ["falta", "penalti", "tecnica"],
    "mesa-posta": ["falta", "penalti"],
}
CITED = {"cbfm-1toque": "000 Art. 17", "gaucha": "001 Art. XXIII",
         "pastilha-8x2": "003 Art. 68", "pastilha-8x2-clube": "003 Art. 68",
         "mesa-posta": "004 Faltas"}


@pytest.mark.parametrize("ruleset", sorted(KINDS))
def test_the_engine_publishes_the_foul_kinds_of_the_document(ruleset: str) -> None:
    match = EntryBuilder(ruleset)
    match.kick_off("A")
    possession = match.state.m["possession"]
    assert possession["foul_kinds"] == KINDS[ruleset]
    assert set(possession["foul_place"]) <= set(KINDS[ruleset])


@pytest.mark.parametrize(("ruleset", "ftype"),
                         [(r, k) for r in sorted(KINDS)
                          for k in ("falta", "toque", "mao", "penalti", "tecnica", "dois_toques")
                          if k not in KINDS[r]])
def test_a_foul_kind_the_ruleset_does_not_know_is_refused_citing_it(ruleset: str,
                                                                     ftype: str) -> None:
    match = EntryBuilder(ruleset)
    match.kick_off("A")
    before = match.state.to_dict()
    entry = match.put("foul", {"side": "B", "disc": 4, "type": ftype, "where": "own_half"})
    refused = [a for a in match.state.m["announcements"]
               if a["code"] == "refused" and a["entry"] == entry.id]
    assert len(refused) == 1, refused
    said = refused[0]["pt"]
    assert said.startswith("Esta regra não tem essa falta"), said
    assert ftype not in said, said
    assert CITED[ruleset] in (refused[0].get("rule") or ""), refused[0]
    after = match.state.to_dict()
    assert (after["restart"], after["fouls"]) == (before["restart"], before["fouls"])
