"""After the final whistle the console sends the referee to sign the súmula, and once he has
signed it shows the match as closed instead of inputs the daemon would refuse; a signature in
its log is never offered for "Anular" / "Corrigir" (docs/operating.md §9). A real daemon over a
real SQLite log, the real web app, the phone console at 390×844 in headless Chromium."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from phone_console import open_phone

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "record"))
from signed_table import AUTH, SignedTable  # noqa: E402

from futmesa_testkit.liveserver import TOKEN  # noqa: E402

pytestmark = pytest.mark.browser

WAIT_MS = 60_000


@pytest.fixture
def table(tmp_path: Path) -> Iterator[SignedTable]:
    t = SignedTable(tmp_path)
    t.start()
    try:
        t.play()  # Alvorada 1 × 0 Botafogo, to the final whistle
        yield t
    finally:
        t.stop()


def _log(t: SignedTable) -> dict[str, Any]:
    r = httpx.get(f"{t.live.url}/api/log?match={t.match_id}", timeout=20)
    assert r.status_code == 200, r.text
    return r.json()


def test_sign_after_the_whistle_then_closed_then_reopened(
        table: SignedTable, browser: Any, output_dir: Path) -> None:
    ctx, page = open_phone(browser, table.live.url + f"/console?table=sim-T1&token={TOKEN}")
    errors = page.js_errors
    try:
        page.wait_for_selector("#sign-link", state="visible", timeout=WAIT_MS)
        # a big, obvious button on the first screen, for this table's súmula
        assert page.text_content("#sign-link") == "Assinar a súmula"
        assert page.get_attribute("#sign-link", "href") == "/assinar?table=sim-T1"
        box = page.locator("#sign-link").bounding_box()
        bar = page.locator(".sheet-bar").bounding_box()
        assert box and bar and box["height"] >= 60 and box["y"] + box["height"] <= bar["y"]
        assert box["width"] >= 300
        assert not page.is_visible("#closed-card")
        page.screenshot(path=str(output_dir / "console-sign-offer.png"))

        # the signing page of this table's match, in a tab of its own: the console stays where
        # it was, for "Nova partida" once signed (walk49a L4: Back was the way to it)
        with ctx.expect_page(timeout=WAIT_MS) as opened:
            page.click("#sign-link")
        signing = opened.value
        signing.wait_for_url("**/assinar?table=sim-T1", timeout=WAIT_MS)
        signing.wait_for_function(
            "document.getElementById('result').textContent.includes('1')", timeout=WAIT_MS)
        assert "/console" in page.url
        assert page.is_visible("#sign-link")
        signing.close()

        # a captain signs: the match is not closed yet, and the signature is not correctable
        assert table.sign("captain_A", "Capitão Alvorada").json()["ok"]
        page.click("[data-sheet=sheet-log]")
        page.wait_for_function("[...document.querySelectorAll('#log li .what')]"
                               ".some(w => w.textContent.startsWith('Súmula assinada'))",
                               timeout=WAIT_MS)
        signed = page.locator("#log li", has_text="Súmula assinada")
        assert signed.locator("button[data-fix]").count() == 0
        # …while an ordinary entry still is (the match is not closed)
        assert page.locator("#log li button[data-fix=void]").count() > 0
        page.click("#sheet-log [data-close]")
        assert [e for e in _log(table)["entries"]
                if e["kind"] == "signature" and e["correctable"]] == []

        # the referee signs: closed; no input offered, a pointer to the signing page
        assert table.sign("referee", "Árbitro Silva").json()["ok"]
        page.wait_for_selector("#closed-card", state="visible", timeout=WAIT_MS)
        assert "Súmula assinada — reabrir na página de assinaturas" in page.text_content(
            "#closed-card")
        assert page.get_attribute("#closed-link", "href") == "/assinar?table=sim-T1"
        assert page.get_attribute("#closed-link", "target") == "_blank"  # its own tab too
        for hidden in (".lance", "#sign-card", "[data-sheet=sheet-foul]",
                       "[data-sheet=sheet-discipline]", "[data-sheet=sheet-clock]"):
            assert not page.is_visible(hidden), hidden
        page.screenshot(path=str(output_dir / "console-signed-closed.png"))
        entries = len(_log(table)["entries"])
        page.keyboard.press("f")  # a shortcut on a laptop: not sent either
        page.wait_for_function("document.getElementById('result').textContent"
                               ".startsWith('súmula assinada')", timeout=WAIT_MS)
        assert len(_log(table)["entries"]) == entries
        page.click("[data-sheet=sheet-log]")
        page.wait_for_function("[...document.querySelectorAll('#log li .what')]"
                               ".filter(w => w.textContent.startsWith('Súmula assinada'))"
                               ".length === 2", timeout=WAIT_MS)
        assert page.locator("#log li button[data-fix]").evaluate_all(
            "bs => bs.filter(b => b.offsetParent).length") == 0
        page.screenshot(path=str(output_dir / "console-signed-log.png"))
        page.click("#sheet-log [data-close]")
        assert _log(table)["closed"] is True
        # what the console no longer offers, the daemon refuses
        refused = table.referee("foul", {"side": "A"})
        assert refused.status_code == 409 and "Súmula assinada" in refused.json()["error"]

        # reopened (on the signing page, with a reason): the console offers the signing again
        r = httpx.post(table.live.url + "/api/reabrir",
                       json={"reason": "gol a conferir", "table": "sim-T1"}, headers=AUTH,
                       timeout=20)
        assert r.status_code == 200, r.text
        page.wait_for_selector("#closed-card", state="hidden", timeout=WAIT_MS)
        page.wait_for_selector("#sign-link", state="visible", timeout=WAIT_MS)
        # the refusal gone with the state it was said in, the empty result line takes no room
        # (walk50b L4: an empty white strip under «Súmula assinada»)
        page.wait_for_function("document.getElementById('result').textContent === ''",
                               timeout=WAIT_MS)
        assert page.evaluate("document.getElementById('result').getBoundingClientRect()"
                             ".height") == 0
        assert page.is_visible("[data-sheet=sheet-foul]")
        reopen = [e for e in _log(table)["entries"] if e["kind"] == "reopen"]
        assert len(reopen) == 1 and not reopen[0]["correctable"]
    finally:
        ctx.close()
    assert errors == []


def test_once_everyone_has_signed_the_page_says_so(
        table: SignedTable, browser: Any, output_dir: Path) -> None:
    """Issue 31 §13: /assinar after everyone had signed still showed an empty "Quem assina"
    and the pad."""
    for role, name in (("captain_A", "Ana"), ("referee", "Rui"), ("captain_B", "Beto")):
        assert table.sign(role, name).json()["ok"]
    ctx, page = open_phone(browser, table.live.url + f"/console?table=sim-T1&token={TOKEN}")
    try:
        page.wait_for_selector("#closed-card", state="visible", timeout=WAIT_MS)
        page.goto(table.live.url + "/assinar?table=sim-T1")
        page.wait_for_selector("#all-signed", state="visible", timeout=WAIT_MS)
        assert "Todos assinaram" in page.text_content("#all-signed")
        assert not page.is_visible("#sign-card") and not page.is_visible("#pad")
        page.screenshot(path=str(output_dir / "sign-phone-all-signed.png"))
    finally:
        ctx.close()
