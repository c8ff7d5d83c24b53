"""Each match's Registro is numbered from 1 (walk45h-b B9: match 2's Registro began at nº 77,
its corrections cited "nº 98"): the console's Registro, its void and amend rows, a status, the
súmula's Registro de eventos and Correções say the entry's number in ITS match
(matchbook/numbers.py); the stored ids, which the console sends back, stay the store's.
Two matches in one real SQLite log, read live and stored."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from test_account import Table, a_match

from futmesa import chain
from futmesa.matchbook import MatchLibrary, build
from futmesa.web.console import entry_view, live_log_view


def test_the_second_match_is_numbered_from_one(tmp_path: Path) -> None:
    path = tmp_path / "m.sqlite"
    first = a_match(path)
    t = Table(path)  # the next match on the same log: its ids go on from the first's
    t.put("set_up", {"kickoff": "A"})
    t.start_half(1)
    t.clock = 65_000
    foul = t.put("foul", {"side": "A", "disc": 4, "where": "opponent_half"})
    amend = t.put("amend", {"target": foul, "reason": "era o botão 7",
                            "data": {"side": "A", "disc": 7, "where": "opponent_half"}})
    ids = [e.id for e in t.store.entries(t.book.id)]
    assert ids[0] > len(first.store.entries(first.book.id)), ids  # the store's ids go on
    no = {entry_id: n for n, entry_id in enumerate(ids, 1)}
    live = live_log_view(t.book.live_log, None, "0", "pt")["entries"]
    record = MatchLibrary(t.store).match_record(t.book.id)
    stored = [entry_view(e, {}, {}, "pt") for e in record["entries"]]
    for rows in (live, stored):
        assert [(e["id"], e["no"]) for e in rows] == list(no.items()), rows
        by = {e["id"]: e for e in rows}
        assert by[amend]["text"].startswith(f"Corrige o registro nº {no[foul]}:"), by[amend]
        assert by[foul]["status_text"] == f"Corrigido pelo registro nº {no[amend]} (Rui)", \
            by[foul]["status_text"]
    sumula = build(record)
    log = sumula.table("log")
    assert log is not None and log.rows[0]["number"] == "1", log.rows[0]
    assert [r["number"] for r in log.rows if r.get("what")][-1] == str(no[amend])
    fixes = sumula.table("corrections")
    assert fixes is not None
    assert fixes.rows[0]["number"] == str(no[amend]), fixes.rows[0]
    assert fixes.rows[0]["target"].startswith(f"nº {no[foul]} — "), fixes.rows[0]


def test_the_chain_check_names_the_matchs_number_and_the_stored_id(tmp_path: Path) -> None:
    """`futmesa verify` reads the chain's problem: the entry a person finds in the súmula
    (its number in the match) and the stored id a database holds."""
    path = tmp_path / "m.sqlite"
    a_match(path)
    t = Table(path)
    t.put("set_up", {"kickoff": "A"})
    foul = t.put("foul", {"side": "A", "disc": 4, "where": "opponent_half"})
    ids = [e.id for e in t.store.entries(t.book.id)]
    db = sqlite3.connect(path)
    with db:
        db.execute("UPDATE entries SET data=? WHERE id=?", ('{"side": "B", "disc": 4}', foul))
    found = chain.check_match(db, t.book.id)
    db.close()
    assert found.problem == (f"o registro nº {ids.index(foul) + 1} foi alterado depois de gravado "
                             f"(o conteúdo não confere com o hash; id gravado {foul})"), found
