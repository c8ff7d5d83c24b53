"""The súmula as an A4 PDF with ReportLab, printed as a federation files it.

Header (title, result, match data), then the tables of the model, then the signature lines;
every page carries the match and "página N de M" at its foot.
"""

from __future__ import annotations

import html
import io
from typing import Any

from futmesa.matchbook.sumula import Sumula

WIDTH_MM = 174.0  # A4 less 18 mm margins
# column widths (mm) per table key; the widest column takes what is left
WIDTHS: dict[str, list[float]] = {
    "goals": [28, 20, 80, 20, 26],
    "shootout": [60, 90, 24],
    "discipline": [28, 18, 40, 88],
    "substitutions": [28, 18, 80, 24, 24],
    "corrections": [10, 20, 42, 34, 22, 26, 20],
    "log": [14, 17, 23, 15, 73, 17, 15],
}


def _fonts() -> tuple[str, str]:
    """Vera ships inside ReportLab, so accents render the same on every machine."""
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    try:
        pdfmetrics.getFont("FutmesaSans")
    except KeyError:
        pdfmetrics.registerFont(TTFont("FutmesaSans", "Vera.ttf"))
        pdfmetrics.registerFont(TTFont("FutmesaSans-Bold", "VeraBd.ttf"))
    return "FutmesaSans", "FutmesaSans-Bold"


def pdf_bytes(s: Sumula, *, head_only: bool = False) -> bytes:
    """The PDF; ``head_only`` stops after the title and result line."""
    from reportlab.lib import colors
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.lib.units import mm
    from reportlab.platypus import KeepTogether, Paragraph, Spacer, Table, TableStyle

    regular, bold = _fonts()
    base = ParagraphStyle("base", fontName=regular, fontSize=8.5, leading=10.5)
    th = ParagraphStyle("th", parent=base, fontName=bold)
    h1 = ParagraphStyle("h1", parent=base, fontName=bold, fontSize=18, leading=22)
    h2 = ParagraphStyle("h2", parent=base, fontName=bold, fontSize=11.5, leading=14,
                        spaceBefore=9, spaceAfter=3)
    big = ParagraphStyle("big", parent=base, fontName=bold, fontSize=16, leading=20)
    strike = ParagraphStyle("strike", parent=base, textColor=colors.HexColor("#777777"))

    def p(text: Any, style: ParagraphStyle = base, struck: bool = False) -> Paragraph:
        body = html.escape(str(text))  # user text is never markup
        return Paragraph(f"<strike>{body}</strike>" if struck and body else body,
                         strike if struck else style)

    def table(head: list[str], rows: list[list[str]], widths: list[float],
              struck: list[bool] | None = None) -> Table:
        scale = WIDTH_MM / sum(widths)
        data = [[p(h, th) for h in head]]
        data += [[p(c, struck=bool(struck and struck[i])) for c in row]
                 for i, row in enumerate(rows)]
        if not rows:
            data.append([p("—")] + [""] * (len(head) - 1))
        t = Table(data, colWidths=[w * scale * mm for w in widths], repeatRows=1)
        style: list[Any] = [
            ("GRID", (0, 0), (-1, -1), 0.4, colors.grey),
            ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#e8e8e8")),
            ("VALIGN", (0, 0), (-1, -1), "TOP"),
            ("TOPPADDING", (0, 0), (-1, -1), 2), ("BOTTOMPADDING", (0, 0), (-1, -1), 2),
        ]
        if not rows:
            style.append(("SPAN", (0, 1), (-1, 1)))
        t.setStyle(TableStyle(style))
        return t

    story: list[Any] = [p(s.title, h1), p(s.result, big), Spacer(1, 3 * mm)]
    if head_only:
        return _build(story, s)
    pt = s.lang == "pt"
    story.append(table(["Dados da partida" if pt else "Match", ""],
                       [[k, v] for k, v in s.meta], [45, 129]))
    for t in s.tables:
        widths = WIDTHS.get(t.key) or [WIDTH_MM / len(t.columns)] * len(t.columns)
        story.append(KeepTogether([p(t.title, h2),
                                   table(t.head, t.cells()[:1], widths, t.struck[:1])])
                     if len(t.rows) <= 1 else p(t.title, h2))
        if len(t.rows) > 1:
            story.append(table(t.head, t.cells(), widths, t.struck))
    names = ([f"Árbitro: {s.referee}", f"Técnico — {s.teams['A']}", f"Técnico — {s.teams['B']}"]
             if pt else
             [f"Referee: {s.referee}", f"Coach — {s.teams['A']}", f"Coach — {s.teams['B']}"])
    sign = Table([[p(n) for n in names]], colWidths=[WIDTH_MM / 3 * mm] * 3)
    sign.setStyle(TableStyle([("LINEABOVE", (0, 0), (-1, 0), 0.6, colors.black),
                              ("LEFTPADDING", (0, 0), (-1, -1), 4),
                              ("RIGHTPADDING", (0, 0), (-1, -1), 10)]))
    story.append(KeepTogether([Spacer(1, 16 * mm), sign]))
    return _build(story, s)


def _build(story: list[Any], s: Sumula) -> bytes:
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.units import mm
    from reportlab.pdfgen.canvas import Canvas
    from reportlab.platypus import SimpleDocTemplate

    regular, _ = _fonts()
    pt = s.lang == "pt"
    foot = f"{s.title} — {s.teams['A']} × {s.teams['B']}"

    class NumberedCanvas(Canvas):
        """Writes "página N de M" once the number of pages is known."""

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self._pages: list[dict[str, Any]] = []

        def showPage(self) -> None:  # noqa: N802 - ReportLab's name
            self._pages.append(dict(self.__dict__))
            self._startPage()

        def save(self) -> None:
            total = len(self._pages)
            for n, page in enumerate(self._pages, 1):
                self.__dict__.update(page)
                self.setFont(regular, 7.5)
                self.drawString(18 * mm, 9 * mm, foot)
                self.drawRightString(A4[0] - 18 * mm, 9 * mm,
                                     f"página {n} de {total}" if pt else f"page {n} of {total}")
                super().showPage()
            super().save()

    out = io.BytesIO()
    doc = SimpleDocTemplate(out, pagesize=A4, leftMargin=18 * mm, rightMargin=18 * mm,
                            topMargin=15 * mm, bottomMargin=16 * mm,
                            title=s.title, author=s.referee or "futmesa")
    doc.build(story, canvasmaker=NumberedCanvas)
    return out.getvalue()
