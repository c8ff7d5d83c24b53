"""The súmula's proof block, as the renderers print it: the signatures drawn on the phone, the
chain's final hash and a QR code that opens the host's verification page (segno).

The model is :class:`futmesa.matchbook.proof.Proof`; :func:`pdf_flowables` gives the
ReportLab part, :func:`qr_svg` the HTML's QR code.
"""

from __future__ import annotations

import base64
import html
import io
from typing import Any

import segno

from futmesa.i18n import translator
from futmesa.matchbook.proof import Proof
from futmesa.matchbook.signing import PNG_PREFIX

QR_MM = 30.0  # the QR code's side in the PDF
SIGN_W_MM, SIGN_H_MM = 56.0, 20.0  # the box a drawn signature is fitted into


def qr_svg(url: str) -> str:
    """The QR code of ``url`` as inline SVG markup (dark modules only, no quiet zone)."""
    return segno.make(url, error="m").svg_inline(scale=4, border=0, omitsize=False)


def qr_drawing(url: str, size_mm: float = QR_MM) -> Any:
    """The QR code of ``url`` as a ReportLab drawing of squares, ``size_mm`` wide, no border."""
    from reportlab.graphics.shapes import Drawing, Rect
    from reportlab.lib import colors
    from reportlab.lib.units import mm

    matrix = segno.make(url, error="m").matrix
    n = len(matrix)
    side = size_mm * mm
    cell = side / n
    drawing = Drawing(side, side)
    for r, row in enumerate(matrix):
        for c, dark in enumerate(row):
            if dark:
                drawing.add(Rect(c * cell, side - (r + 1) * cell, cell, cell,
                                 fillColor=colors.black, strokeColor=None, strokeWidth=0))
    return drawing


def _signature_image(data_url: str) -> Any:
    """A drawn signature fitted into its box, or None when it cannot be read."""
    from reportlab.lib.units import mm
    from reportlab.lib.utils import ImageReader
    from reportlab.platypus import Image

    if not data_url.startswith(PNG_PREFIX):
        return None
    try:
        raw = base64.b64decode(data_url[len(PNG_PREFIX):], validate=True)
        w, h = ImageReader(io.BytesIO(raw)).getSize()
    except Exception:  # noqa: BLE001 - an unreadable drawing prints as its name only
        return None
    scale = min(SIGN_W_MM * mm / w, SIGN_H_MM * mm / h)
    return Image(io.BytesIO(raw), width=w * scale, height=h * scale)


def pdf_flowables(proof: Proof, fonts: tuple[str, str], width_mm: float,
                  lang: str = "pt") -> list[Any]:
    """The block for the PDF story: a title, the signatures, then the QR code and the hash."""
    from reportlab.lib import colors
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.lib.units import mm
    from reportlab.platypus import KeepTogether, Paragraph, Spacer, Table, TableStyle

    regular, bold = fonts
    base = ParagraphStyle("proof", fontName=regular, fontSize=8.5, leading=10.5)
    strong = ParagraphStyle("proof_b", parent=base, fontName=bold)
    small = ParagraphStyle("proof_s", parent=base, fontSize=7, leading=8.5)
    bad = ParagraphStyle("proof_bad", parent=base, fontName=bold,
                         textColor=colors.HexColor("#b00020"))
    h2 = ParagraphStyle("proof_h2", parent=base, fontName=bold, fontSize=11.5, leading=14,
                        spaceBefore=9, spaceAfter=3)
    _ = translator(lang).gettext

    def p(text: Any, style: ParagraphStyle = base) -> Paragraph:
        return Paragraph(html.escape(str(text)), style)

    rows: list[list[Any]] = []
    for s in proof.signatures:
        image = _signature_image(s.image)
        words = [p(s.label, strong), p(s.name), p(s.when, small)]
        if s.signed:
            words.append(p(s.signed, small))
        if s.differs:
            words.append(p(s.differs, bad))
        if not s.valid:
            words.append(p(s.note, bad))
        rows.append([image or p("—"), words])
    if not rows:
        rows.append([p("—"), [p(_("No digital signature."))]])
    signed = Table(rows, colWidths=[(SIGN_W_MM + 4) * mm, (width_mm - SIGN_W_MM - 4) * mm])
    style: list[Any] = [("GRID", (0, 0), (-1, -1), 0.4, colors.grey),
                        ("VALIGN", (0, 0), (-1, -1), "MIDDLE")]
    for i, s in enumerate(proof.signatures):
        if not s.valid:
            style.append(("BACKGROUND", (0, i), (-1, i), colors.HexColor("#f6e3e6")))
    signed.setStyle(TableStyle(style))

    words = [p(proof.hash_label, strong),
             p(proof.short_hash or "—", ParagraphStyle("proof_hash", parent=strong, fontSize=14,
                                                       leading=18)),
             p(proof.final_hash, small),
             p(proof.chain_text, base if proof.chain_ok else bad)]
    if proof.verify_url:
        words.append(p(f"{proof.verify_label}: {proof.verify_url}", base))
    elif proof.verify_hint:
        words.append(p(proof.verify_hint, base))
    qr = qr_drawing(proof.verify_url) if proof.verify_url else p("")
    check = Table([[qr, words]], colWidths=[(QR_MM + 6) * mm, (width_mm - QR_MM - 6) * mm])
    check.setStyle(TableStyle([("VALIGN", (0, 0), (-1, -1), "TOP"),
                               ("LEFTPADDING", (0, 0), (0, 0), 0),
                               ("TOPPADDING", (0, 0), (-1, -1), 0)]))
    return [KeepTogether([p(proof.title, h2), signed, Spacer(1, 4 * mm), check])]
