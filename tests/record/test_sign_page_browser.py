"""Issue 25: the signing page in real headless Chromium at a phone's size: a captain and the
referee sign with the pointer on the canvas, the drawing reaches the log as a PNG, then
"Reabrir" with a reason makes both signatures invalid on the page."""

from __future__ import annotations

import base64
import io
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PIL import Image
from signed_table import SignedTable

from futmesa_testkit.liveserver import CHROMIUM, TOKEN, launch_chromium

OUT = Path(__file__).resolve().parents[2] / "test-output"


@pytest.fixture
def phone() -> Iterator[Any]:
    if not os.path.exists(CHROMIUM):
        pytest.fail(f"{CHROMIUM} is missing: run `make system-deps`")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = launch_chromium(p)
        context = browser.new_context(viewport={"width": 390, "height": 844},
                                      device_scale_factor=2, has_touch=True)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        try:
            yield page
        finally:
            context.close()
            browser.close()
        assert not errors, f"JavaScript errors on the page: {errors}"


def draw(page: Any, wave: int) -> None:
    page.locator("#pad").scroll_into_view_if_needed()  # the finger draws where it can see
    box = page.locator("#pad").bounding_box()
    x, y, w, h = box["x"], box["y"], box["width"], box["height"]
    page.mouse.move(x + 20, y + h / 2)
    page.mouse.down()
    for i in range(1, 13):
        page.mouse.move(x + 20 + i * (w - 40) / 12,
                        y + h / 2 + (-1) ** (i + wave) * h / 4, steps=4)
    page.mouse.up()


def ink_width(data_url: str) -> int:
    raw = base64.b64decode(data_url.split(",", 1)[1])
    img = Image.open(io.BytesIO(raw)).convert("L")
    box = img.point(lambda v: 255 if v < 128 else 0).getbbox()
    return 0 if box is None else box[2] - box[0]


def sign_on_page(page: Any, role: str, name: str, wave: int) -> None:
    page.select_option("#role", role)
    page.fill("#name", name)
    draw(page, wave)
    page.click("#send")
    page.wait_for_function(
        "n => document.getElementById('msg').textContent.includes(n)", arg=name)


def test_captain_and_referee_sign_with_a_finger_then_reopen(table: SignedTable,
                                                            phone: Any) -> None:
    OUT.mkdir(exist_ok=True)
    phone.goto(f"{table.live.url}/assinar?table=sim-T1&token={TOKEN}")
    phone.wait_for_function(
        "() => document.getElementById('result').textContent.includes('Alvorada 1 × 0')")
    assert "token" not in phone.url  # kept out of the address bar
    head = table.store.chain_head(table.match_id)
    assert phone.text_content("#hash") == head[:12]
    # what the hash is, in words: never a bare code nor English (issue #45, low)
    assert phone.text_content("#hash-label") == (
        "Impressão digital (SHA-256) do registro que você assina:")
    assert "Gol de Alvorada (1 × 0" in phone.text_content("#summary")
    # an empty pad is not a signature
    phone.select_option("#role", "captain_A")
    phone.fill("#name", "Ana Capitã")
    phone.click("#send")
    phone.wait_for_function("() => document.getElementById('msg').textContent.includes('quadro')")
    phone.fill("#name", "")
    sign_on_page(phone, "captain_A", "Ana Capitã", 0)
    phone.screenshot(path=str(OUT / "sign-page-captain.png"), full_page=True)
    sign_on_page(phone, "referee", "Rui Árbitro", 1)
    phone.wait_for_function(
        "() => document.getElementById('signed').textContent.includes('Rui Árbitro')")
    phone.screenshot(path=str(OUT / "sign-page-signed.png"), full_page=True)
    signed = table.view()["signatures"]
    assert [(s["role"], s["name"], s["valid"]) for s in signed] == [
        ("captain_A", "Ana Capitã", True), ("referee", "Rui Árbitro", True)]
    assert signed[0]["signs"] == head
    for s in signed:  # the drawing itself reached the log: strokes across most of the pad
        assert s["image"].startswith("data:image/png;base64,")
        assert ink_width(s["image"]) > 200, "the stroke drawn on the canvas is not in the PNG"
    assert phone.locator("#role option[value=referee]").is_disabled()
    # which hash is which (walk 49b L6: the same label read 675dfab37a87 before signing and
    # d7ecd282b206 after): each signature says the one it signed, the head is the log now,
    # signatures included, which the next one signs
    assert phone.text_content("#hash-label") == (
        "Impressão digital (SHA-256) do registro agora, com as assinaturas — o próximo a "
        "assinar assina esta:")
    assert phone.text_content("#hash") == table.store.chain_head(table.match_id)[:12]
    said = phone.locator("#signed li").all_text_contents()
    assert said[0].endswith("Ana Capitã — assinou sobre " + head[:12]), said
    assert f"assinou sobre {signed[1]['signs'][:12]}" in said[1], said
    assert not phone.locator("#reopen-card").is_hidden()  # closed: "Reabrir" is offered
    # the HTML súmula's proof block: both drawings loaded, the QR code, the final hash
    report = phone.context.new_page()
    report.goto(f"{table.live.url}/report/{table.match_id}")
    report.locator("#proof").scroll_into_view_if_needed()
    assert report.locator("#proof figure.signature img").evaluate_all(
        "imgs => imgs.map(i => i.complete && i.naturalWidth > 0)") == [True, True]
    qr = report.locator("#proof-qr svg").bounding_box()
    assert qr is not None and qr["width"] > 100 and abs(qr["width"] - qr["height"]) < 2
    assert report.text_content("#final-hash") == table.store.chain_head(table.match_id)[:12]
    report.locator("#proof").screenshot(path=str(OUT / "sumula-html-proof.png"))
    report.close()
    phone.fill("#reason", "gol revisto no vídeo")
    phone.click("#reopen")
    phone.wait_for_function(
        "() => document.querySelectorAll('#signed li.invalid').length === 2")
    phone.screenshot(path=str(OUT / "sign-page-reopened.png"), full_page=True)
    assert "gol revisto no vídeo" in phone.text_content("#signed")
    assert [s["valid"] for s in table.view()["signatures"]] == [False, False]


def test_an_unsigned_match_is_signed_on_the_page_after_nova_partida(table: SignedTable,
                                                                     phone: Any) -> None:
    """Walk 45g G8: after "Nova partida" /assinar showed only the new match; the played one
    could no longer be signed. The page lists it; a tap opens it there and it is signed."""
    first = table.match_id
    assert table.referee("new_match", {}).json()["ok"]
    phone.goto(f"{table.live.url}/assinar?table=sim-T1&token={TOKEN}")
    phone.wait_for_selector("#earlier-card:not([hidden]) a", timeout=20_000)
    link = phone.locator("#earlier a")
    assert link.count() == 1
    assert link.text_content() == f"Partida nº {first}: Alvorada 1 × 0 Botafogo"
    link.tap()
    phone.wait_for_function(
        "() => document.getElementById('result').textContent.includes('Alvorada 1 × 0')")
    assert phone.is_visible("#sign-card") and phone.is_hidden("#earlier-card")
    sign_on_page(phone, "referee", "Rui Árbitro", 0)
    signed = [e for e in table.store.entries(first) if e.kind == "signature"]
    assert [e.data["name"] for e in signed] == ["Rui Árbitro"]
    assert phone.is_hidden("#reopen-card")  # an earlier match is signed, not reopened
    phone.screenshot(path=str(OUT / "sign-earlier-match-phone.png"), full_page=True)


def test_once_everyone_signed_the_hash_is_said_to_be_the_final_one(table: SignedTable,
                                                                     phone: Any) -> None:
    for role, name in (("captain_A", "Ana Capitã"), ("captain_B", "Bia Capitã"),
                       ("referee", "Rui Árbitro")):
        assert table.sign(role, name).json()["ok"]
    phone.goto(f"{table.live.url}/assinar?table=sim-T1&token={TOKEN}")
    phone.wait_for_selector("#all-signed:not([hidden])")
    assert phone.text_content("#hash-label") == (
        "Impressão digital (SHA-256) final do registro, com as assinaturas:")
    assert phone.text_content("#hash") == table.store.chain_head(table.match_id)[:12]
    OUT.mkdir(exist_ok=True)
    phone.screenshot(path=str(OUT / "sign-page-all-signed.png"), full_page=True)
