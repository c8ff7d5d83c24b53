"""Issue 25, item 4, made of real parts: mosquitto, ``futmesa desk``, ``futmesa serve`` with a
simulated table (the real firmware on a pty) and a scripted referee. The match's result
reaches the desk with its chain's final hash and no signature ("sem assinatura"); the referee
signs on the table's phone routes after the result was acknowledged and the desk's stored
proof becomes the signed one (its short hash on the summary); a reopening makes it unsigned
again. ``futmesa competition verify`` confirms the result against the table's own file and
fails, naming the result and the entry, when one entry of a copy of that file is altered."""

from __future__ import annotations

import base64
import io
import sqlite3
import subprocess
from pathlib import Path
from typing import Any

import httpx
import pytest
from PIL import Image, ImageDraw

from futmesa_testkit.venue import FAST_MATCH, FUTMESA, Venue, wait_for

pytestmark = [pytest.mark.timeout(900)]

TEAMS = "name,short,color\nAlvorada,ALV,#c8102e\nBotafogo da Mesa,BOT,#1d1d1b\n"
SETTINGS = {"name": "Dia da prova", "format": "league", "tables": 1, "match_settings": FAST_MATCH}


def drawing() -> str:
    img = Image.new("1", (400, 150), 1)
    ImageDraw.Draw(img).line([(20, 80), (120, 30), (220, 120), (380, 60)], fill=0, width=4)
    out = io.BytesIO()
    img.save(out, "PNG")
    return "data:image/png;base64," + base64.b64encode(out.getvalue()).decode()


class Phone:
    """The referee's phone at the table: the signing routes of the table's web app."""

    def __init__(self, base_url: str, table: str) -> None:
        self.url, self.table = base_url, table

    def token(self) -> str:
        r = httpx.get(f"{self.url}/console/recover", params={"format": "json",
                                                             "table": self.table}, timeout=10)
        return str(r.json()["token"])

    def view(self) -> dict[str, Any]:
        return dict(httpx.get(f"{self.url}/api/assinaturas", params={"table": self.table},
                              timeout=10).json())

    def post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        auth = {"Authorization": f"Bearer {self.token()}"}
        r = httpx.post(self.url + path, json={**body, "table": self.table}, headers=auth,
                       timeout=20)
        if r.status_code == 202:  # received, still being applied: follow it
            rid = r.json()["id"]
            r = wait_for(lambda: (x := httpx.get(f"{self.url}/api/referee/{rid}", headers=auth,
                                                 timeout=10)).json().get("pending") is False
                         and x, 20, "the signature to be applied")
        assert r.status_code == 200, r.text
        return dict(r.json())


def desk_match(venue: Venue) -> dict[str, Any]:
    [m] = venue.competition()["matches"]
    return dict(m)


def summary_row(venue: Venue, cm: int) -> str:
    html = httpx.get(f"{venue.desk_url}/summary", timeout=5).text
    start = html.index(f'<tr data-match="{cm}">')
    return html[start:html.index("</tr>", start)]


def verify(desk_db: Path, *tables: Path) -> tuple[int, str]:
    args = [FUTMESA, "competition", "verify", "--db", str(desk_db)]
    for t in tables:
        args += ["--tables", str(t)]
    out = subprocess.run(args, capture_output=True, text=True, timeout=120)
    assert "Traceback" not in out.stderr, out.stderr
    return out.returncode, out.stdout + out.stderr


def test_a_signed_result_reaches_the_desk_and_is_verified_against_the_table(
        tmp_path: Path) -> None:
    venue = Venue(tmp_path / "venue", TEAMS, SETTINGS, layout=[1])
    with venue:
        try:
            _sign_and_verify(venue, tmp_path)
        except AssertionError as exc:
            raise AssertionError(f"{exc}\n{venue.logs()}") from None


def _sign_and_verify(venue: Venue, tmp_path: Path) -> None:
    table = venue.table_ids[0]
    daemon = venue.daemons[0]
    phone = Phone(daemon.base_url, table)
    m = wait_for(lambda: (x := desk_match(venue))["status"] == "finished" and x, 120,
                 "the match's result at the desk")
    cm = m["id"]
    final = phone.view()["chain"]["final_hash"]
    assert m["proof"] == {"signed": False, "hash": final, "short": final[:12],
                          "label": "sem assinatura", "text": "sem assinatura"}
    assert "sem assinatura" in summary_row(venue, cm)
    table_match = phone.view()["match_id"]

    # the referee signs after the result was sent and acknowledged: the desk gets the new
    # version of the same result, with the signature's entry
    assert phone.post("/api/assinar", {"role": "referee", "name": "Rui Árbitro",
                                       "image": drawing(), "signs": final})["ok"]
    signed_hash = phone.view()["chain"]["final_hash"]
    assert signed_hash != final
    m = wait_for(lambda: (x := desk_match(venue))["proof"]["signed"] and x, 60,
                 "the signed result at the desk")
    assert m["proof"]["hash"] == signed_hash and m["status"] == "finished"
    row = summary_row(venue, cm)
    assert signed_hash[:12] in row and "Rui Árbitro" in row and "sem assinatura" not in row

    # the table's file confirms it; without the file the result is "mesa não trazida"
    code, out = verify(venue.desk_db, daemon.db)
    assert code == 0 and f"partida {cm} (" in out and ": confirmada — hash final " \
        f"{signed_hash[:12]}, assinada por Rui Árbitro" in out, out
    code, out = verify(venue.desk_db)
    assert code == 0 and "mesa não trazida" in out and f"mesa {table}" in out, out

    # one entry of a copy of the table's file altered: the result does not match, named
    altered = tmp_path / "mesa-alterada.sqlite"
    src = sqlite3.connect(f"file:{daemon.db}?mode=ro", uri=True)
    dst = sqlite3.connect(altered)
    src.backup(dst)
    src.close()
    entry = dst.execute("SELECT id FROM entries WHERE match_id=? AND source='device'"
                        " ORDER BY id LIMIT 1 OFFSET 1", (table_match,)).fetchone()[0]
    # the match's own number of that entry (matchbook/numbers.py), the stored id beside it
    number = dst.execute("SELECT COUNT(*) FROM entries WHERE match_id=? AND id<=?",
                         (table_match, entry)).fetchone()[0]
    dst.execute("UPDATE entries SET clock_ms = clock_ms + 1 WHERE id=?", (entry,))
    dst.commit()
    dst.close()
    code, out = verify(venue.desk_db, altered)
    assert code == 1, out
    assert f"partida {cm} (" in out and "não confere" in out \
        and f"o registro nº {number} foi alterado" in out and f"id gravado {entry}" in out, out

    # a reopening (a correction to come) makes the desk's result unsigned again
    assert phone.post("/api/reabrir", {"reason": "revisão do placar"})["ok"]
    reopened = phone.view()["chain"]["final_hash"]
    m = wait_for(lambda: (x := desk_match(venue))["proof"]["hash"] == reopened and x, 60,
                 "the reopened result at the desk")
    assert m["proof"]["text"] == "sem assinatura"
    code, out = verify(venue.desk_db, daemon.db)
    assert code == 0 and f"partida {cm} (" in out and ": sem assinatura — o banco confirma " \
        f"placar e hash {reopened[:12]}" in out, out
