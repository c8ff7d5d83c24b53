"""A CBFM disciplinary foul cites the paragraph that makes it one (000 Art. 26 §1, "As faltas
disciplinares se identificam quando: …"); §1 F is the 3rd foul onward, each one expelling a
disc — walk 49b L3: the 1st disciplinary foul read "Falta disciplinar de Botafogo (1ª) (CBFM 1
Toque, Art. 26 §1 F)", the article of an expulsion it did not make."""

from __future__ import annotations

from futmesa_testkit.entry_builder import EntryBuilder


def test_a_disciplinary_foul_cites_26_1_and_its_expulsion_26_1_f() -> None:
    match = EntryBuilder("cbfm-1toque")
    match.kick_off("A")
    match.put("touch", {"side": "A", "disc": 3})
    for _ in range(3):
        match.put("discipline", {"side": "A", "type": "disciplinary"})
    said = [(a["code"], a["rule"]) for a in match.state.m["announcements"]
            if a["code"] in ("disciplinary", "expelled", "expelled_named")]
    assert said == [("disciplinary", "000 Art. 26 §1"), ("disciplinary", "000 Art. 26 §1"),
                    ("disciplinary", "000 Art. 26 §1"), ("expelled", "000 Art. 26 §1 F")], said
