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
        # the correction says the fact before and after, no number (walk45i-a M4)
        assert by[amend]["text"].startswith("Corrige «Falta de Estrela do Norte, botão 4"), \
            by[amend]
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


def test_a_clip_is_cited_by_its_registro_number_on_every_screen(tmp_path: Path) -> None:
    """The camera's card on the phone ("↺ vídeo nº N", "registrado, citando o vídeo nº N"),
    the Registro's clip row, the súmula's list of clips and the answer's citation "(vídeo nº N,
    SHA-256 …)" say one number: the clip's in the match's Registro, not its stored id (the
    second match on one log)."""
    from types import SimpleNamespace

    from futmesa.server import proposal_now

    path = tmp_path / "m.sqlite"
    a_match(path)
    t = Table(path)
    t.put("set_up", {"kickoff": "A"})
    t.start_half(1)
    out = t.device("ball_out", {"line": "side", "end": 0})
    digest = "4482d85bf118" + "cd" * 26
    clip = t.put("clip", {"shows": out, "from_ms": 1_000, "to_ms": 11_000, "sha256": digest,
                          "file": f"match-{t.book.id}/entry-{out}.mp4", "frames": 300,
                          "format": "mp4/h264"}, source="camera")
    no = {e.id: n for n, e in enumerate(t.store.entries(t.book.id), 1)}
    assert clip != no[clip]  # the store's ids go on from the first match
    table = SimpleNamespace(book=t.book, inputs=SimpleNamespace(would_take=lambda *_: True))
    facts = {"left_field": {"line": "side", "half": 0, "along_mm": 445.0, "x_mm": 445.0,
                            "y_mm": -6.0, "t_ms": 1.0}, "stopped": None,
             "crossed_midline": False, "reached_goal_line": None, "confidence": 0.95,
             "field_mm": [1690.0, 1040.0]}
    made = proposal_now(table, {"match_id": t.book.id, "facts": facts, "shows": out,
                                "entry": clip})
    assert made["clip"] == clip  # what the tap sends back: the stored id
    assert made["clip_no"] == no[clip], made  # what the card says (console/questions.js)
    tap = t.put("confirm", {"target": out, "choice": made["choice"], "clip": clip,
                            "proposed": "camera"})
    cited = f"(vídeo nº {no[clip]}, SHA-256 4482d85bf118)"
    record = MatchLibrary(t.store).match_record(t.book.id)
    live = live_log_view(t.book.live_log, None, "0", "pt")["entries"]
    stored = [entry_view(e, {}, {}, "pt") for e in record["entries"]]
    for rows in (live, stored):
        by = {e["id"]: e for e in rows}
        assert by[tap]["text"].endswith(f"confirmado pelo vídeo {cited}"), by[tap]["text"]
        assert by[clip]["no"] == no[clip]
        assert by[clip]["text"].startswith(f"Vídeo do registro {no[out]} gravado"), by[clip]
    clips = build(record).table("clips")
    assert clips is not None
    assert [r["number"] for r in clips.rows] == [str(no[clip])], clips.rows
    assert clips.rows[0]["shows"].startswith(f"nº {no[out]} — "), clips.rows


def test_futmesa_verify_names_an_altered_clips_entry_by_its_number(tmp_path: Path) -> None:
    """`futmesa verify` on a changed clip file of the second match: the entry it shows as the
    súmula numbers it, and its stored id (as the chain's problems say them)."""
    from futmesa import verify
    from futmesa.camera.record import clip_dir

    path = tmp_path / "m.sqlite"
    a_match(path)
    t = Table(path)
    t.put("set_up", {"kickoff": "A"})
    out = t.device("ball_out", {"line": "side", "end": 0})
    name = f"match-{t.book.id}/entry-{out}.mp4"
    (clip_dir(path) / name).parent.mkdir(parents=True)
    (clip_dir(path) / name).write_bytes(b"not the clip that was filmed")
    t.put("clip", {"shows": out, "from_ms": 0, "to_ms": 1_000, "sha256": "ab" * 32,
                   "file": name, "frames": 30, "format": "mp4/h264"}, source="camera")
    no = {e.id: n for n, e in enumerate(t.store.entries(t.book.id), 1)}
    assert out != no[out]
    t.store.close()
    ok, lines = verify.verify_db(path, t.book.id)
    assert not ok
    assert (f"; o vídeo do registro nº {no[out]} ({name}; id gravado {out}) NÃO confere com o "
            "hash do registro") in lines[0], lines
