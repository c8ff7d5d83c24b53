"""Issue 25: a match played, signed on the phone's routes, verified; a byte changed in the
database is named by `futmesa verify`; a correction after the referee signed needs "reabrir",
which makes the signatures invalid; a forged JSON súmula fails `verify --sumula`."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import httpx
from click.testing import CliRunner
from signed_table import SignedTable, drawing

from futmesa import chain
from futmesa.cli import cli
from futmesa.store import EventLog


def verify(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["verify", *args])
    return result.exit_code, result.output


def signatures(table: SignedTable) -> list[dict[str, Any]]:
    return table.view()["signatures"]


def test_a_match_played_signed_and_verified(table: SignedTable) -> None:
    view = table.view()
    assert view["finished"] and view["result"] == "Alvorada 1 × 0 Botafogo"
    assert view["chain"]["ok"] and view["chain"]["unchained"] == 0
    head = view["chain"]["final_hash"]
    assert head == table.store.chain_head(table.match_id)
    assert any("Alvorada" in line for line in view["summary"])  # the goal in the summary
    assert table.sign("captain_A", "Ana Capitã").status_code == 200
    r = table.sign("referee", "Rui Árbitro")
    assert r.status_code == 200, r.text
    assert table.sign("captain_B", "Beto").status_code == 200  # a captain after the referee
    signed = signatures(table)
    assert [(s["role"], s["name"], s["valid"]) for s in signed] == [
        ("captain_A", "Ana Capitã", True), ("referee", "Rui Árbitro", True),
        ("captain_B", "Beto", True)]
    assert signed[0]["signs"] == head  # the hash the first signer saw
    # each signature is an entry, chained like every other one: it signs its predecessor
    rows = table.store.chain_rows(table.match_id)
    for s in signed:
        row = rows[s["entry"]]
        assert row["kind"] == "signature" and row["prev_hash"] == s["signs"]
    # twice the same role is refused
    again = table.sign("referee", "Outro")
    assert again.status_code == 409 and "já assinou" in again.json()["error"]
    code, out = verify("--db", str(table.db))
    assert code == 0, out
    assert f"partida {table.match_id}: a cadeia confere" in out
    assert chain.short(table.store.chain_head(table.match_id)) in out
    page = httpx.get(f"{table.live.url}/verificar/{table.match_id}", timeout=20).text
    assert "A cadeia de registros confere" in page
    assert table.store.chain_head(table.match_id) in page and "Rui Árbitro" in page
    # the command to check it names this host's own database (issue 31 §13)
    assert f"--db {table.db.name}</code>" in page and "futmesa.sqlite" not in page


def test_signing_refuses_what_it_must(table: SignedTable) -> None:
    head = table.view()["chain"]["final_hash"]
    stale = table.sign("referee", "Rui", signs="0" * 64)
    assert stale.status_code == 409 and "mudou" in stale.json()["error"]
    big = "data:image/png;base64," + "A" * 60_000
    r = table.sign("referee", "Rui", image=big, signs=head)
    assert r.status_code == 409 and "grande demais" in r.json()["error"]
    r = table.sign("referee", "Rui", image="data:image/png;base64,aGVsbG8=", signs=head)
    assert r.status_code == 409 and "PNG" in r.json()["error"]
    r = table.sign("goleiro", "Rui", signs=head)
    assert r.status_code == 409 and "quem assina" in r.json()["error"]
    r = httpx.post(table.live.url + "/api/assinar", json={"role": "referee", "name": "x",
                                                          "image": drawing(), "signs": head})
    assert r.status_code == 401  # no console token: nobody else signs
    assert signatures(table) == []
    # a device event after the whistle does not make the summary the referee saw stale
    from futmesa_wire import EV_BUTTON
    table.device(EV_BUTTON, a=2, period=2, clock_ms=1_500_000)
    assert table.sign("referee", "Rui", signs=head).status_code == 200


def test_a_match_not_over_cannot_be_signed(tmp_path: Path) -> None:
    t = SignedTable(tmp_path)
    t.start()
    try:
        assert t.referee("set_up", {"kickoff": "A"}).json()["ok"]
        r = t.sign("referee", "Rui")
        assert r.status_code == 409 and "apito final" in r.json()["error"]
    finally:
        t.stop()


def test_a_correction_after_signing_needs_reopening(table: SignedTable) -> None:
    goal = next(e.id for e in table.store.entries(table.match_id) if e.kind == "goal_line")
    assert table.sign("captain_A", "Ana").status_code == 200
    assert table.sign("referee", "Rui").status_code == 200
    refused = table.referee("void", {"target": goal, "reason": "bola não entrou"})
    assert refused.status_code == 409
    assert "reabra a partida" in refused.json()["error"].lower()
    no_reason = table.post("/api/reabrir", {"reason": " "})
    assert no_reason.status_code == 409 and "motivo" in no_reason.json()["error"]
    assert table.post("/api/reabrir", {"reason": "gol anulado após revisão"}).status_code == 200
    signed = signatures(table)
    assert [s["valid"] for s in signed] == [False, False]
    assert all(s["reason"] == "gol anulado após revisão" for s in signed)
    voided = table.referee("void", {"target": goal, "reason": "bola não entrou"})
    assert voided.status_code == 200, voided.text
    assert table.daemon.state.to_dict()["score"] == {"A": 0, "B": 0}
    # the súmula shows the earlier signatures as no longer valid, then the new ones
    assert table.sign("referee", "Rui").status_code == 200
    page = httpx.get(f"{table.live.url}/report/{table.match_id}", timeout=20).text
    assert page.count("sem validade: partida reaberta") == 2
    assert "motivo: gol anulado após revisão" in page
    assert 'id="proof-qr"' in page and "<svg" in page
    assert table.store.chain_check(table.match_id).ok


def test_one_byte_changed_in_the_database_is_named(table: SignedTable) -> None:
    assert table.sign("referee", "Rui").status_code == 200
    table.stop()
    goal = next(e.id for e in EventLog(table.db).entries(table.match_id)
                if e.kind == "goal_line")
    db = sqlite3.connect(table.db)
    before = db.execute("SELECT data FROM entries WHERE id=?", (goal,)).fetchone()[0]
    assert '"goal": 1' in before
    db.execute("UPDATE entries SET data=replace(data, '\"goal\": 1', '\"goal\": 0')"
               " WHERE id=?", (goal,))
    db.commit()
    db.close()
    code, out = verify("--db", str(table.db), str(table.match_id))
    assert code == 1
    assert f"o registro nº {goal} foi alterado depois de gravado" in out
    # the check carries the problem in both languages, from the catalogs
    db = sqlite3.connect(table.db)
    found = chain.check_match(db, table.match_id)
    db.close()
    assert found.bad_entry == goal and not found.ok
    # the match's number and the stored id (one match in the log: the same)
    assert found.problem == (f"o registro nº {goal} foi alterado depois de gravado "
                             f"(o conteúdo não confere com o hash; id gravado {goal})")
    assert found.problem_en == (f"entry no. {goal} was altered after it was stored "
                                f"(its content does not match its hash; stored id {goal})")
    # a deleted entry: the one after it no longer follows the chain
    db = sqlite3.connect(table.db)
    db.execute("UPDATE entries SET data=? WHERE id=?", (before, goal))  # put it back
    db.commit()
    assert verify("--db", str(table.db))[0] == 0
    db.execute("DELETE FROM entries WHERE id=?", (goal,))
    db.commit()
    db.close()
    code, out = verify("--db", str(table.db))
    # the entry after it now stands in its place in the match (nº {goal}), its stored id kept
    assert code == 1 and f"o registro nº {goal} não segue o anterior" in out, out
    assert f"id gravado {goal + 1})" in out, out


def test_a_log_from_before_the_chain_opens_and_says_what_is_unchained(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite"
    store = EventLog(path)
    match = store.new_match("t", "cbfm-1toque", {})
    for i in range(2):
        store.append_entry(match, "referee", "set_up", {"kickoff": "A", "n": i}, 0, 0, "ref")
    store.close()
    db = sqlite3.connect(path)
    db.execute("ALTER TABLE entries DROP COLUMN hash")  # as futmesa wrote it before the chain
    db.execute("ALTER TABLE entries DROP COLUMN prev_hash")
    db.execute("DROP TABLE futmesa_schema")  # nor the count of schema steps
    db.commit()
    db.close()
    code, out = verify("--db", str(path))
    assert code == 0 and "2 registros gravados antes da cadeia existir" in out
    store = EventLog(path)  # opens: the columns are added, the old entries stay unchained
    ids = [store.append_entry(match, "referee", "set_up", {"n": i}, 0, 0, "ref")
           for i in range(2, 4)]
    store.close()
    code, out = verify("--db", str(path))
    assert code == 0 and "2 registros encadeados" in out and "2 registros gravados antes" in out
    db = sqlite3.connect(path)  # erasing a chained entry's hashes does not hide it
    db.execute("UPDATE entries SET hash=NULL, prev_hash=NULL WHERE id=?", (ids[1],))
    db.commit()
    db.close()
    code, out = verify("--db", str(path))
    assert code == 1 and f"o registro nº {ids[1]} não tem hash" in out


def test_a_forged_json_sumula_fails(table: SignedTable, tmp_path: Path) -> None:
    assert table.sign("referee", "Rui").status_code == 200
    good = tmp_path / "sumula.json"
    r = CliRunner().invoke(cli, ["report", str(table.match_id), "--db", str(table.db),
                                 "--json", str(good)])
    assert r.exit_code == 0, r.output
    doc = json.loads(good.read_text(encoding="utf-8"))
    assert doc["chain"]["final_hash"] == table.store.chain_head(table.match_id)
    assert [s["name"] for s in doc["signatures"]] == ["Rui"]
    code, out = verify("--sumula", str(good))
    assert code == 0 and "confere consigo mesma" in out, out
    code, out = verify("--sumula", str(good), "--db", str(table.db))
    assert code == 0 and "é a mesma da súmula" in out, out

    def forged(change: Any) -> Path:
        d = json.loads(good.read_text(encoding="utf-8"))
        change(d)
        path = tmp_path / "forged.json"
        path.write_text(json.dumps(d, ensure_ascii=False), encoding="utf-8")
        return path

    goal = next(e for e in doc["entries"] if e["kind"] == "goal_line")

    def flip_goal(d: dict[str, Any]) -> None:
        next(e for e in d["entries"] if e["id"] == goal["id"])["data"]["goal"] = 0

    code, out = verify("--sumula", str(forged(flip_goal)))
    assert code == 1 and f"o registro nº {goal['id']} foi alterado" in out

    def other_signer(d: dict[str, Any]) -> None:
        d["signatures"][0]["name"] = "Outro"

    code, out = verify("--sumula", str(forged(other_signer)))
    assert code == 1 and "assinaturas" in out

    def other_final(d: dict[str, Any]) -> None:
        d["chain"]["final_hash"] = "f" * 64

    assert verify("--sumula", str(forged(other_final)))[0] == 1

    def rechained(d: dict[str, Any]) -> None:
        """A forger who recomputes every hash after changing the goal: consistent with
        itself, but not the match stored in the database."""
        flip_goal(d)
        prev = chain.GENESIS
        for e in d["entries"]:
            if e["kind"] == "signature":
                e["data"]["signs"] = prev
            content = chain.content(e["id"], d["match"]["id"], e["source"], e["kind"],
                                    e["data"], e["period"], e["clock_ms"], e["ticks"],
                                    e["author"], e["created_at"], e["occurred_at"],
                                    e["device"])
            e["prev_hash"], e["hash"] = prev, chain.entry_hash(content, prev)
            prev = e["hash"]
        d["chain"]["final_hash"] = prev
        for s in d["signatures"]:
            s["signs"] = next(e["data"]["signs"] for e in d["entries"] if e["id"] == s["entry"])

    path = forged(rechained)
    assert verify("--sumula", str(path))[0] == 0  # self-consistent...
    code, out = verify("--sumula", str(path), "--db", str(table.db))
    assert code == 1 and (
        f"o registro nº {goal['id']} da súmula (id gravado {goal['id']}) não é o gravado" in out)


def test_the_result_for_the_desk_carries_the_final_hash_and_the_referee_signature(
        table: SignedTable) -> None:
    from futmesa.matchbook import MatchLibrary
    from futmesa.matchbook.proof import result_proof

    library = MatchLibrary(table.store)
    unsigned = result_proof(library.match_record(table.match_id))
    assert unsigned["signed"] is False and unsigned["referee_signature"] is None
    assert unsigned["final_hash"] == table.store.chain_head(table.match_id)
    assert table.sign("referee", "Rui").status_code == 200
    signed = result_proof(library.match_record(table.match_id))
    entry = signed["referee_signature"]
    assert signed["signed"] and signed["chain_ok"]
    assert entry["data"]["role"] == "referee" and entry["data"]["signs"] == entry["prev_hash"]
    assert entry["hash"] == signed["final_hash"] == table.store.chain_head(table.match_id)
    # the entry alone re-hashes to its stored hash: the desk can check it without the log
    content = chain.content(entry["id"], table.match_id, entry["source"], entry["kind"],
                            entry["data"], entry["period"], entry["clock_ms"], entry["ticks"],
                            entry["author"], entry["created_at"], entry["occurred_at"], None)
    assert chain.entry_hash(content, entry["prev_hash"]) == entry["hash"]
    assert table.post("/api/reabrir", {"reason": "revisão"}).status_code == 200
    assert result_proof(library.match_record(table.match_id))["signed"] is False
