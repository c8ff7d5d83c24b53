"""The restarts a ruleset knows are its document's (issue #45): the console's "Falta e toque"
sheet offered every ruleset's restarts in each, and the engine took them — a "lateral cavada"
(001 Art. XXXIV) in "A mesa está posta", announced on the TV with no article. 000 has saída
(Art. 9), tiro de meta, lateral, escanteio and reposição (Art. 11, 13–16), the infractions'
direct and indirect kicks (Art. 18), pênalti (Art. 20), falta técnica (Art. 24) and the
disciplinary foul's kick (Art. 26 §2); 001 the lateral and the escanteio cedidos or cavados
(Art. XXXIV §1, XXVIII), tiro de meta (XXXIII), bola do goleiro (XXXV), the direct and
indirect kicks (XXIII §1), pênalti (XXVII), falta técnica (XXIX), the offside's kick (XXXII
§3) and the saída (XXIX c); 003 saída, lateral, escanteio, tiro de meta, reposição, bola do
goleiro, the direct and indirect kicks, pênalti, falta técnica and the tiro livre (Art. 87);
004 only saída, lateral, escanteio, tiro de meta, tiro livre, pênalti and bola do goleiro.
The engine publishes them (`possession.restart_kinds`), the console offers those only, one
given by the referee cites its article, and another, sent anyway, is refused citing the
document."""

from __future__ import annotations

from pathlib import Path

import pytest
from rules_scenario import load, restart_history, run

from futmesa.rules.core import RESTART_NAMES
from futmesa_testkit.entry_builder import EntryBuilder

CBFM = ["saida", "tiro_de_meta", "lateral", "escanteio", "reposicao", "falta_direta",
        "falta_indireta", "penalti", "falta_tecnica", "tiro_livre"]
GAUCHA = ["saida", "tiro_de_meta", "lateral_cedida", "lateral_cavada", "escanteio_cedido",
          "escanteio_cavado", "bola_do_goleiro", "falta_direta", "falta_indireta", "penalti",
          "falta_tecnica", "tiro_livre"]
PASTILHA = ["saida", "tiro_de_meta", "lateral", "escanteio", "reposicao", "bola_do_goleiro",
            "falta_direta", "falta_indireta", "penalti", "falta_tecnica", "tiro_livre"]
KINDS = {
    "cbfm-1toque": CBFM,
    "gaucha": GAUCHA,
    "pastilha-8x2": PASTILHA,
    "pastilha-8x2-clube": PASTILHA,
    "mesa-posta": ["saida", "tiro_de_meta", "lateral", "escanteio", "tiro_livre", "penalti",
                   "bola_do_goleiro"],
}
# what a refusal cites: a throw-in's or a corner's kind the article of the throw-in or the
# corner, a foul's kick the document's list of fouls, any other the list of its restarts
CITED = {
    "cbfm-1toque": {"lateral": "000 Art. 14", "escanteio": "000 Art. 15",
                    "other": "000 Art. 11"},
    "gaucha": {"lateral": "001 Art. XXXIV", "escanteio": "001 Art. XXVIII",
               "other": "001 Art. XXX"},
    "pastilha-8x2": {"lateral": "003 Art. 66", "escanteio": "003 Art. 58",
                     "other": "003 Art. 64"},
    "pastilha-8x2-clube": {"lateral": "003 Art. 66", "escanteio": "003 Art. 58",
                           "other": "003 Art. 64"},
    "mesa-posta": {"lateral": "004 Bola fora", "escanteio": "004 Bola fora",
                   "other": "004 Bola fora", "foul": "004 Faltas"},
}
FOUL_KICKS = ("falta_direta", "falta_indireta", "falta_tecnica", "penalti", "tiro_livre")
SCENARIOS = Path(__file__).parent / "scenarios"


def _cited(ruleset: str, kind: str) -> str:
    family = next((f for f in ("lateral", "escanteio") if kind.startswith(f)), None)
    if family is None and kind in FOUL_KICKS:
        family = "foul"
    return CITED[ruleset].get(family or "other", CITED[ruleset]["other"])


def _given(ruleset: str, kind: str) -> tuple[EntryBuilder, list[dict[str, object]]]:
    match = EntryBuilder(ruleset)
    match.kick_off("A")
    match.put("touch", {"side": "A", "disc": 3})
    entry = match.put("restart", {"side": "B", "kind": kind})
    said = [a for a in match.state.m["announcements"] if a["entry"] == entry.id]
    return match, said


@pytest.mark.parametrize("ruleset", sorted(KINDS))
def test_the_engine_publishes_the_restarts_of_the_document(ruleset: str) -> None:
    match = EntryBuilder(ruleset)
    match.kick_off("A")
    assert match.state.m["possession"]["restart_kinds"] == KINDS[ruleset]


@pytest.mark.parametrize(("ruleset", "kind"),
                         [(r, k) for r in sorted(KINDS) for k in RESTART_NAMES
                          if k not in KINDS[r]] + [("mesa-posta", "canto"), ("gaucha", 7)])
def test_a_restart_the_ruleset_does_not_know_is_refused_citing_it(ruleset: str,
                                                                  kind: object) -> None:
    match, said = _given(ruleset, kind)  # type: ignore[arg-type]
    refused = [a for a in said if a["code"] == "refused"]
    assert len(refused) == 1, said
    words = refused[0]["pt"]
    assert words.startswith("Esta regra não tem essa cobrança"), words
    assert str(kind) not in words and "_" not in words, words  # no internal name
    assert _cited(ruleset, str(kind)) in (refused[0].get("rule") or ""), refused[0]
    assert (match.state.m["restart"] or {}).get("kind") != kind


@pytest.mark.parametrize(("ruleset", "kind"),
                         [(r, k) for r in sorted(KINDS) for k in KINDS[r]])
def test_a_restart_of_the_document_given_by_the_referee_cites_its_article(ruleset: str,
                                                                          kind: str) -> None:
    match, said = _given(ruleset, kind)
    assert not [a for a in said if a["code"] == "refused"], said
    assert match.state.m["restart"]["kind"] == kind
    doc = ruleset.removesuffix("-clube").replace("cbfm-1toque", "000").replace(
        "gaucha", "001").replace("pastilha-8x2", "003").replace("mesa-posta", "004")
    assert match.state.m["restart"]["rule"].startswith(doc + " "), match.state.m["restart"]


@pytest.mark.parametrize("ruleset", ["cbfm-1toque", "gaucha", "pastilha-8x2", "mesa-posta"])
def test_every_restart_the_engine_calls_is_one_it_publishes(ruleset: str) -> None:
    """The list is the engine's too: in every scenario of the ruleset, each restart it called
    is one the console offers (the referee can give and correct it)."""
    called: set[str] = set()
    for path in sorted((SCENARIOS / ruleset).glob("*.yaml")):
        engine, entries, _ = run(load(path), path.name)
        called |= {str(r["kind"]) for r in restart_history(engine, entries)}
    assert called and sorted(called - set(KINDS[ruleset])) == []
