"""The súmula as pictures: the PDF rendered to an image, and the HTML page in Chromium."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import httpx
import pypdfium2 as pdfium
import pytest
from PIL import Image, ImageChops

from futmesa import report
from futmesa.hub import StateHub
from futmesa.web.app import create_app
from futmesa_testkit.liveserver import TOKEN, LiveServer, sample_record

pytestmark = pytest.mark.browser
SCALE = 2.0  # 144 dpi


def first_page_image(pdf: bytes) -> Image.Image:
    doc = pdfium.PdfDocument(pdf)
    try:
        return doc[0].render(scale=SCALE).to_pil().convert("L")
    finally:
        doc.close()


def band(img: Image.Image) -> Image.Image:
    """The top of page 1, down to just below the result line."""
    return img.crop((0, 0, img.width, int(90 * SCALE)))  # 15 mm margin + title + result


def inked(img: Image.Image) -> bool:
    return img.point(lambda v: 255 if v < 128 else 0).getbbox() is not None


def test_sumula_pdf_image_shows_the_final_score(output_dir: Path) -> None:
    record = sample_record(name_b="Grêmio")
    full = first_page_image(report.pdf_bytes(record))
    full.save(output_dir / "sumula-page1.png")
    top = band(full)
    assert inked(top)
    # The result line drawn alone ("Alvorada 2 × 1 Grêmio") must be pixel-identical to the
    # same place in the full súmula; the same line with any other score must not be.
    expected = band(first_page_image(report.pdf_bytes(record, head_only=True)))
    assert ImageChops.difference(top, expected).getbbox() is None
    for wrong in ({"A": 2, "B": 2}, {"A": 1, "B": 2}, {"A": 3, "B": 1}):
        other = sample_record(name_b="Grêmio")
        other["state"]["score"] = wrong
        image = band(first_page_image(report.pdf_bytes(other, head_only=True)))
        assert ImageChops.difference(top, image).getbbox() is not None, wrong
    # and the text layer of that picture says it too
    doc = pdfium.PdfDocument(report.pdf_bytes(record))
    try:
        assert "Alvorada 2 × 1 Grêmio" in doc[0].get_textpage().get_text_range()
    finally:
        doc.close()


class OneMatch:
    def __init__(self, record: dict[str, Any]) -> None:
        self.record = record

    def list_matches(self, limit: int | None = None,
                     before: int | None = None) -> list[dict[str, Any]]:
        m = self.record["match"]
        return [{**m, "score": self.record["state"]["score"]}]

    def match_record(self, match_id: int) -> dict[str, Any]:
        if match_id != self.record["match"]["id"]:
            raise KeyError(match_id)
        return self.record


def test_history_and_sumula_pages_in_the_browser(page: Any, output_dir: Path) -> None:
    record = sample_record(name_a="<i>Alvorada</i>")
    hub = StateHub()
    live = LiveServer(hub, create_app(hub, console_token=TOKEN, history=OneMatch(record)))
    live.start()
    try:
        phone = page.context.browser.new_context(viewport={"width": 412, "height": 915},
                                                 is_mobile=True)
        try:
            small = phone.new_page()
            small.goto(live.url + "/history")
            assert small.get_attribute("meta[name=viewport]", "content") == \
                "width=device-width, initial-scale=1"
            small.screenshot(path=str(output_dir / "history-phone.png"), full_page=True)
            # the list fits a phone: no sideways scrolling
            assert small.evaluate("document.documentElement.scrollWidth") <= 412
        finally:
            phone.close()
        page.goto(live.url + "/history")
        page.click("a[href='/report/42']")
        page.wait_for_selector("#result")
        assert page.text_content("#result") == "<i>Alvorada</i> 2 × 1 Botafogo"
        assert page.query_selector("#result i") is None
        page.screenshot(path=str(output_dir / "sumula-html.png"), full_page=True)
        start = time.perf_counter()
        pdf = httpx.get(live.url + "/report/42.pdf")
        assert pdf.headers["content-type"] == "application/pdf"
        assert pdf.content.startswith(b"%PDF")
        print(f"súmula PDF over HTTP: {1000 * (time.perf_counter() - start):.0f} ms")
        csv_text = httpx.get(live.url + "/report/42.csv").text
        # ';' between fields and a BOM: a Brazilian Excel opens it in columns, accents right
        assert csv_text.startswith("\ufeff")
        assert csv_text.lstrip("\ufeff").splitlines()[0] == "súmula;42"
        assert "# Gols" in csv_text and "# Correções" in csv_text
        assert httpx.get(live.url + "/report/42.json").json()["summary"]["score"] == {
            "A": 2, "B": 1}
        assert httpx.get(live.url + "/report/7").status_code == 404
    finally:
        live.stop()
