"""Issue 25, item 4, against a real mosquitto and a real ``futmesa desk``: a result carries its
proof (the table match's final chain hash, the referee's signature entry); the desk checks its
shape, keeps it with the result, shows "sem assinatura" or the short hash, takes a signature
made after the first result as a later version of the same result, and refuses a forged
proof with a Portuguese reason while it goes on working.

The end to end path (a simulated table played by a scripted referee, signed on its phone
routes, and ``futmesa competition verify`` against the tables' files) is in
``test_result_proof_venue.py``."""

from __future__ import annotations

import base64
import io
import json
from typing import Any

import httpx
from PIL import Image, ImageDraw

from futmesa import chain
from futmesa_testkit.venue import wait_for

from .test_rogue_table import FakeTable, day  # noqa: F401 - the fixture, shared


def drawing(width: int = 300) -> str:
    img = Image.new("1", (width, 100), 1)
    ImageDraw.Draw(img).line([(10, 50), (width - 10, 40), (width // 2, 90)], fill=0, width=3)
    out = io.BytesIO()
    img.save(out, "PNG")
    return "data:image/png;base64," + base64.b64encode(out.getvalue()).decode()


def signature_entry(match_id: int, prev: str, name: str = "Rui", image: str | None = None,
                    entry_id: int = 40) -> dict[str, Any]:
    """A referee's signature entry as a table stores and chains it."""
    data = {"role": "referee", "name": name, "signs": prev, "image": image or drawing()}
    entry = {"id": entry_id, "kind": "signature", "data": data, "source": "referee",
             "author": name, "period": 2, "clock_ms": 1_500_000, "ticks": 0,
             "created_at": 1_764_600_000.25, "occurred_at": None, "prev_hash": prev}
    content = chain.content(entry_id, match_id, "referee", "signature", data, 2, 1_500_000, 0,
                            name, entry["created_at"], None, None)
    return {**entry, "hash": chain.entry_hash(content, prev)}


def proof(final: str, chained: int, entry: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"final_hash": final, "chain_ok": True, "chained": chained,
            "signed": entry is not None, "referee_signature": entry}


def with_proof(table: FakeTable, n: int, cm: int, a: int, b: int, p: Any) -> dict[str, Any]:
    body = table.result(n, cm, a, b)
    body["proof"] = p
    body["digest"] = f"d{n}-{a}-{b}-{abs(hash(json.dumps(p, sort_keys=True))) % 10**12}"
    return body


def summary_row(url: str, cm: int) -> str:
    html = httpx.get(f"{url}/summary", timeout=5).text
    start = html.index(f'<tr data-match="{cm}">')
    return html[start:html.index("</tr>", start)]


def test_a_signature_after_the_result_updates_it_and_forged_proofs_are_refused(
        day: Any) -> None:  # noqa: F811 - the fixture
    broker, desk = day
    mesa1 = FakeTable(broker, "mesa-1")
    wait_for(lambda: mesa1.assigned.get("competition_match"), 20, "mesa-1 to get a match")
    cm = mesa1.assigned["competition_match"]
    h1, h2, h3 = ("1a" * 32), ("2b" * 32), ("3c" * 32)

    # the final whistle: the result goes with its chain's hash, not yet signed
    first = with_proof(mesa1, 1, cm, 1, 0, proof(h1, 30))
    mesa1.send(first)
    wait_for(lambda: mesa1.acked.get("mesa-1:1") == first["digest"], 20,
             "the desk to store the unsigned result")
    shown = desk.match(cm)
    assert shown["proof"]["text"] == "sem assinatura" and not shown["proof"]["signed"]
    assert "sem assinatura" in summary_row(desk.url, cm)
    assert "1 resultado sem assinatura" in httpx.get(f"{desk.url}/standings", timeout=5).text

    # the referee signs afterwards: a later version of the same result (a longer chain)
    entry = signature_entry(1, h1)
    signed = with_proof(mesa1, 1, cm, 1, 0, proof(entry["hash"], 31, entry))
    mesa1.send(signed)
    wait_for(lambda: mesa1.acked.get("mesa-1:1") == signed["digest"], 20,
             "the desk to take the signed version of the same result")
    shown = desk.match(cm)
    assert shown["proof"]["signed"] and shown["proof"]["hash"] == entry["hash"]
    row = summary_row(desk.url, cm)
    assert entry["hash"][:12] in row and "Rui" in row and "sem assinatura" not in row

    big = drawing()
    big += "A" * (41_000 - len(big))  # a drawing over 40 kB, the message under 64 kB
    altered = signature_entry(1, h1, name="Rui")
    altered["data"]["name"] = "Outro"  # changed after it was hashed
    attacks = [
        (with_proof(mesa1, 1, cm, 1, 0, proof("not-a-hash", 32)), "hash final que não é um hash"),
        (with_proof(mesa1, 1, cm, 1, 0, proof(h2.upper(), 32)), "hash final que não é um hash"),
        (with_proof(mesa1, 1, cm, 1, 0, proof(h2, 32, signature_entry(1, h1, image=big))),
         "o desenho da assinatura tem 41 kB"),
        (with_proof(mesa1, 1, cm, 1, 0, {**proof(h2, 32, entry), "image": "x" * 70_000}),
         "kB: um resultado, com o desenho da assinatura, tem no máximo 64 kB"),
        (with_proof(mesa1, 1, cm, 1, 0, proof(h2, 32, altered)),
         "não confere com o seu próprio hash"),
        (with_proof(mesa1, 1, cm, 1, 0, {**proof(h2, 32), "signed": True}),
         "diz que está assinado, mas não traz a assinatura"),
        (with_proof(mesa1, 1, cm, 1, 0, proof(h2 + "\n", 32)), "hash final que não é um hash"),
        (with_proof(mesa1, 1, cm, 1, 0, proof(h2, 32)) | {"match_id": 2},
         "diz ser da partida 2 da mesa"),
        (with_proof(mesa1, 1, cm, 1, 0, {**proof(h2, 32), "extra": 1}),
         "não tem a forma esperada"),
        (with_proof(mesa1, 1, cm, 1, 0, proof(h2, 32, {**entry, "id": "1"})),
         'o campo "id" da assinatura da prova não é um número inteiro'),
        (with_proof(mesa1, 1, cm, 1, 0, proof(h2, 32, {**entry, "data": [1]})),
         "não é a assinatura do árbitro"),
        (with_proof(mesa1, 1, cm, 1, 0, proof(h2, 32, {"id": 1})),
         "não tem a forma de um registro"),
        # the score a signature attests (matchbook/signing.signed_result) is a score or refused
        (with_proof(mesa1, 1, cm, 1, 0, proof(h2, 32, {**entry, "data": {
            **entry["data"], "result": {"score": "9 × 9"}}})),
         "o placar que a assinatura do árbitro atesta não é um placar"),
        # an old version, heard again, does not replace the signed one
        (first | {"digest": "replayed-old"}, "versão antiga do resultado mesa-1:1"),
        # a new score with no new entry in the table's log
        (with_proof(mesa1, 1, cm, 5, 0, proof(entry["hash"], 31, entry)),
         "mudou sem nenhum registro novo"),
        (with_proof(mesa1, 1, cm, 5, 0, None), "uma versão sem prova"),
    ]
    for message, _ in attacks:
        mesa1.send(message)
    # the desk goes on: a later version that reopened and changed the score is taken
    reopened = with_proof(mesa1, 1, cm, 2, 0, proof(h3, 34))
    mesa1.send(reopened)
    wait_for(lambda: mesa1.acked.get("mesa-1:1") == reopened["digest"], 30,
             "the desk to store the reopened result after the forged ones")
    wait_for(lambda: len(desk.venue()["refused"]) >= len({why for _, why in attacks}), 10,
             "every refusal on the desk's screen")
    reasons = [r["reason"] for r in desk.venue()["refused"]]
    for _, why in attacks:
        assert any(why in r for r in reasons), (why, reasons)
    shown = desk.match(cm)
    assert shown["score"] == "2 × 0" and shown["proof"]["text"] == "sem assinatura"
    assert desk.venue()["connected"]
    mesa1.stop()
