"""Walk 45g G8: a match played to its end and not signed before "Nova partida" could never be
signed — /assinar showed only the table's current match. The page lists the table's unsigned
matches of the day; a signature names its match and lands in that match's own log (chained
there), so /assinar, /history and the súmula agree that it is signed."""

from __future__ import annotations

import httpx
from signed_table import SignedTable


def _history_row(table: SignedTable, match: int) -> str:
    page = httpx.get(f"{table.live.url}/history", timeout=20).text
    return page[page.index(f'id="how-{match}"'):].split("</tr>")[0]


def test_an_earlier_match_is_signed_after_nova_partida(table: SignedTable) -> None:
    first = table.match_id
    assert table.referee("new_match", {}).json()["ok"]
    assert table.match_id != first
    now = table.view()  # the new match, not started: the earlier one is offered
    assert [m["id"] for m in now["unsigned"]] == [first]
    assert "Alvorada 1 × 0 Botafogo" in now["unsigned"][0]["title"]
    assert "sem a assinatura do árbitro" in _history_row(table, first)

    earlier = table.view(first)
    assert earlier["finished"] and earlier["signatures"] == []
    r = table.sign("referee", "Rui Árbitro", match=first)
    assert r.status_code == 200, r.text
    # the signature is the earlier match's entry, chained after what the referee saw there
    row = table.store.chain_rows(first)[max(table.store.chain_rows(first))]
    assert row["kind"] == "signature" and row["prev_hash"] == earlier["chain"]["final_hash"]
    assert all(e.kind != "signature" for e in table.store.entries(table.match_id))
    assert [(s["role"], s["valid"]) for s in table.view(first)["signatures"]] == [
        ("referee", True)]
    assert table.view()["unsigned"] == []
    assert "assinada pelo árbitro" in _history_row(table, first)
    sumula = httpx.get(f"{table.live.url}/report/{first}.txt", timeout=20)
    assert "Rui Árbitro" in sumula.text or "Rui Árbitro" in httpx.get(
        f"{table.live.url}/report/{first}", timeout=20).text
    # a captain signs it too; a second referee signature is refused, as on the current match
    assert table.sign("captain_A", "Ana", match=first).status_code == 200
    again = table.sign("referee", "Outro", match=first)
    assert again.status_code == 409 and "já assinou" in again.json()["error"]


def test_only_this_tables_matches_are_signed_and_an_earlier_one_is_not_reopened(
        table: SignedTable) -> None:
    first = table.match_id
    r = table.sign("referee", "Rui", match=first + 7, signs="0" * 64)
    assert r.status_code == 409 and "nenhuma partida" in r.json()["error"].lower(), r.text
    assert table.sign("referee", "Rui").status_code == 200  # closed before Nova partida
    assert table.referee("new_match", {}).json()["ok"]
    assert table.view()["unsigned"] == []  # signed: nothing left to sign
    # a reopening is the current match's only (an earlier one is corrected nowhere)
    r = table.post("/api/reabrir", {"reason": "rever", "match": first})
    assert r.status_code == 409 and "anterior" in r.json()["error"], r.text
    assert all(e.kind != "reopen" for e in table.store.entries(first))
    assert all(e.kind != "reopen" for e in table.store.entries(table.match_id))
