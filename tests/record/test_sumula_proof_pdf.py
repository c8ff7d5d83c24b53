"""Issue 25: the súmula PDF, turned into a picture, shows the drawn signatures and a QR code
that carries the host's verification page; read back module by module against segno."""

from __future__ import annotations

from pathlib import Path

import httpx
import pypdfium2 as pdfium
import segno
from PIL import Image
from signed_table import SignedTable

from futmesa import chain

OUT = Path(__file__).resolve().parents[2] / "test-output"
SCALE = 3.0  # pixels per PDF point (216 dpi)


def box_of(page: pdfium.PdfPage, text: str,
           below: float = -1.0) -> tuple[float, float, float, float]:
    """(left, top, right, bottom) in pixels of the first occurrence of ``text`` whose top is
    below ``below`` pixels (the page may also show it in the event log, above)."""
    tp = page.get_textpage()
    search = tp.search(text)
    height = page.get_height()
    while True:
        found = search.get_next()
        assert found, f"{text!r} is not on the page (below {below} px)"
        index, count = found
        boxes = [tp.get_charbox(i) for i in range(index, index + count)]
        left = min(b[0] for b in boxes)
        right = max(b[2] for b in boxes)
        top = max(b[3] for b in boxes)
        bottom = min(b[1] for b in boxes)
        if (height - top) * SCALE > below:
            return left * SCALE, (height - top) * SCALE, right * SCALE, (height - bottom) * SCALE


def dark_extent(img: Image.Image, box: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
    """The bounding box (in the page) of the dark pixels inside ``box``."""
    crop = img.crop(box).point(lambda v: 255 if v < 100 else 0)  # not the grey grid
    bbox = crop.getbbox()
    assert bbox is not None, "nothing drawn there"
    return box[0] + bbox[0], box[1] + bbox[1], box[0] + bbox[2], box[1] + bbox[3]


def test_the_pdf_shows_the_signatures_and_a_qr_of_the_verification_page(
        table: SignedTable) -> None:
    shown = table.view()["chain"]["short"]  # the hash /assinar shows before she signs
    assert table.sign("captain_A", "Ana Capitã").status_code == 200
    assert table.sign("referee", "Rui Árbitro").status_code == 200
    head = table.store.chain_head(table.match_id)
    r = httpx.get(f"{table.live.url}/report/{table.match_id}.pdf", timeout=30)
    assert r.status_code == 200
    OUT.mkdir(exist_ok=True)
    pdf_path = OUT / "sumula-proof.pdf"
    pdf_path.write_bytes(r.content)
    doc = pdfium.PdfDocument(str(pdf_path))
    try:
        text = "\n".join(doc[i].get_textpage().get_text_range() for i in range(len(doc)))
        assert "Assinaturas e verificação" in text
        assert chain.short(head) in text and head in text
        # one hash on /assinar and in the PDF: the one each signature signed, printed beside
        # it; the final hash is named as covering the signatures (issue 45 blind walk, low 8)
        assert f"assinou o registro até o hash {shown}" in text, text[-800:]
        assert "Hash final da cadeia, com as assinaturas" in text
        url = f"{table.live.url}/verificar/{table.match_id}"
        assert url in text
        last = next(i for i in range(len(doc))
                    if "Hash final da cadeia" in doc[i].get_textpage().get_text_range())
        page = doc[last]
        img = page.render(scale=SCALE).to_pil().convert("L")
        img.save(OUT / "sumula-proof.png")
        # the QR code: left of the hash, its top level with the "Hash final" label
        left, top, _, _ = box_of(page, "Hash final da cadeia")
        qr_box = dark_extent(img, (0, int(top - 15), int(left - 2), int(top + 40 * SCALE * 2.83)))
        matrix = segno.make(url, error="m").matrix
        n = len(matrix)
        x0, y0, x1, y1 = qr_box
        assert abs((x1 - x0) - (y1 - y0)) <= 3, "the QR code is not square"
        cell = (x1 - x0) / n
        assert cell >= 4, "QR modules too small to read"
        read = [[img.getpixel((int(x0 + (c + 0.5) * cell), int(y0 + (r + 0.5) * cell))) < 128
                 for c in range(n)] for r in range(n)]
        wrong = sum(read[r][c] != bool(matrix[r][c]) for r in range(n) for c in range(n))
        assert wrong == 0, f"{wrong} of {n * n} QR modules differ from the verification URL's"
        # each drawn signature: ink in the box left of the signer's name
        heading_bottom = box_of(page, "Assinaturas e verificação")[3]
        for name in ("Ana Capitã", "Rui Árbitro"):
            nl, nt, _, nb = box_of(page, name, heading_bottom)
            ink = dark_extent(img, (int(nl - 62 * SCALE * 2.83),
                                    int(max(nt - 20 * SCALE, heading_bottom + 4)),
                                    int(nl - 10), int(nb + 20 * SCALE)))
            width = ink[2] - ink[0]
            assert width > 40 * 2.83 * SCALE, f"the signature of {name} is not drawn ({width} px)"
    finally:
        doc.close()
