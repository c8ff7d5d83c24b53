"""The súmula as an A4 PDF with ReportLab, printed as a federation files it.

Header (title, result, match data), then the tables of the model, then the signature lines;
every page carries the match and "página N de M" at its foot.
"""

from __future__ import annotations

import html
import io
from typing import Any

from futmesa.i18n import translator
from futmesa.matchbook.sumula import Sumula
from futmesa.matchbook.sumula import Table as SumulaTable
from futmesa.report import proof_block

WIDTH_MM = 174.0  # A4 less 18 mm margins
# column widths (mm) per table key; the widest column takes what is left
WIDTHS: dict[str, list[float]] = {
    "account": [30, 144],
    "goals": [24, 34, 15, 16, 85],
    "shootout": [60, 90, 24],
    "discipline": [24, 36, 114],
    "substitutions": [22, 34, 12, 14, 92],
    "corrections": [12, 20, 52, 24, 18, 25, 23],  # Nº: four digits on one line
    "clips": [9, 62, 22, 45, 36],
    "log": [11, 16, 15, 14, 69, 28, 21],  # Relógio: the header on one line
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


class _Styles:
    """The súmula's paragraph styles, and a paragraph and a table made with them."""

    def __init__(self) -> None:
        from reportlab.lib import colors
        from reportlab.lib.styles import ParagraphStyle

        self.fonts = _fonts()
        regular, bold = self.fonts
        self.base = ParagraphStyle("base", fontName=regular, fontSize=8.5, leading=10.5)
        self.th = ParagraphStyle("th", parent=self.base, fontName=bold)
        self.h1 = ParagraphStyle("h1", parent=self.base, fontName=bold, fontSize=18, leading=22)
        self.h2 = ParagraphStyle("h2", parent=self.base, fontName=bold, fontSize=11.5,
                                 leading=14, spaceBefore=9, spaceAfter=3)
        self.big = ParagraphStyle("big", parent=self.base, fontName=bold, fontSize=16,
                                  leading=20)
        self.strike = ParagraphStyle("strike", parent=self.base,
                                     textColor=colors.HexColor("#777777"))
        self.small = ParagraphStyle("small", parent=self.base, fontSize=7.5, leading=9)
        self.small_th = ParagraphStyle("small_th", parent=self.small, fontName=bold)
        self.small_strike = ParagraphStyle("small_strike", parent=self.small,
                                           textColor=colors.HexColor("#777777"))

    def p(self, text: Any, style: Any = None, struck: bool = False,
          struck_style: Any = None) -> Any:
        from reportlab.platypus import Paragraph

        body = html.escape(str(text))  # user text is never markup
        if struck and body:
            return Paragraph(f"<strike>{body}</strike>", struck_style or self.strike)
        return Paragraph(body, (struck_style or self.strike) if struck else (style or self.base))

    def table(self, head: list[str], rows: list[list[str]], widths: list[float],
              struck: list[bool] | None = None, dense: bool = False) -> Any:
        from reportlab.lib import colors
        from reportlab.lib.units import mm
        from reportlab.platypus import Table, TableStyle

        scale = WIDTH_MM / sum(widths)
        cell, head_style, gone = ((self.small, self.small_th, self.small_strike) if dense
                                  else (self.base, self.th, self.strike))
        data = [[self.p(h, head_style) for h in head]]
        data += [[self.p(c, cell, bool(struck and struck[i]), gone) for c in row]
                 for i, row in enumerate(rows)]
        if not rows:
            data.append([self.p("—")] + [""] * (len(head) - 1))
        t = Table(data, colWidths=[w * scale * mm for w in widths], repeatRows=1)
        style: list[Any] = [
            ("GRID", (0, 0), (-1, -1), 0.4, colors.grey),
            ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#e8e8e8")),
            ("VALIGN", (0, 0), (-1, -1), "TOP"),
            ("TOPPADDING", (0, 0), (-1, -1), 2), ("BOTTOMPADDING", (0, 0), (-1, -1), 2),
        ]
        if not rows:
            style.append(("SPAN", (0, 1), (-1, 1)))
        if dense:
            style += [("LEFTPADDING", (0, 0), (-1, -1), 3), ("RIGHTPADDING", (0, 0), (-1, -1), 3)]
        t.setStyle(TableStyle(style))
        return t


def pdf_bytes(s: Sumula, *, head_only: bool = False) -> bytes:
    """The PDF; ``head_only`` stops after the title and result line."""
    from reportlab.lib.units import mm
    from reportlab.platypus import Spacer

    st = _Styles()
    story: list[Any] = [st.p(s.title, st.h1), st.p(s.result, st.big), Spacer(1, 3 * mm)]
    if head_only:
        return _build(story, s)
    story.append(_meta_form(s, st))
    for t in s.tables:
        story += _table_flowables(t, st)
    story.append(_remarks_and_signatures(s, st))
    if s.proof is not None:  # the drawn signatures, the chain's final hash, the QR code
        story += proof_block.pdf_flowables(s.proof, st.fonts, WIDTH_MM, s.lang)
    return _build(story, s)


def _meta_form(s: Sumula, st: _Styles) -> Any:
    """The match data as a form: two label/value pairs a line."""
    from reportlab.lib import colors
    from reportlab.lib.units import mm
    from reportlab.platypus import Table, TableStyle

    pairs = list(s.meta) + ([("", "")] if len(s.meta) % 2 else [])
    form = [[st.p(k, st.th), st.p(v), st.p(k2, st.th), st.p(v2)]
            for (k, v), (k2, v2) in zip(pairs[::2], pairs[1::2], strict=True)]
    meta = Table(form, colWidths=[w * mm for w in (28, 59, 28, 59)])
    meta.setStyle(TableStyle([("GRID", (0, 0), (-1, -1), 0.4, colors.grey),
                              ("BACKGROUND", (0, 0), (0, -1), colors.HexColor("#f0f0f0")),
                              ("BACKGROUND", (2, 0), (2, -1), colors.HexColor("#f0f0f0")),
                              ("VALIGN", (0, 0), (-1, -1), "TOP")]))
    return meta


def _table_flowables(t: SumulaTable, st: _Styles) -> list[Any]:
    """One of the súmula's tables under its title (a short one never split from it)."""
    from reportlab.lib.units import mm
    from reportlab.platypus import CondPageBreak, KeepTogether

    widths = WIDTHS.get(t.key) or [WIDTH_MM / len(t.columns)] * len(t.columns)
    dense = t.key == "log"
    if dense:  # the log's period column in the short form a referee writes: "1º"
        t = SumulaTable(t.key, t.title, t.columns, [{**r, "period": r.get("period", "")
                                               .replace(" tempo", "").replace(" half", "")}
                                              for r in t.rows], t.struck, t.note)
    parts = [st.p(t.title, st.h2), st.table(t.head, t.cells(), widths, t.struck, dense)]
    if t.note:  # under the table, in none of its cells (walk45i-b, low)
        parts.append(st.p(t.note, st.small))
    if len(t.rows) <= 3:
        return [KeepTogether(parts)]
    # a long table starts where its title and a few rows fit: never a title alone at a foot
    return [CondPageBreak(40 * mm), *parts]


def _remarks_and_signatures(s: Sumula, st: _Styles) -> Any:
    """The referee's remarks box and the three signature lines, kept together."""
    from reportlab.lib import colors
    from reportlab.lib.units import mm
    from reportlab.platypus import KeepTogether, Spacer, Table, TableStyle

    _ = translator(s.lang).gettext
    box = Table([[st.p(_("Referee's remarks"), st.th)], [""]],
                colWidths=[WIDTH_MM * mm], rowHeights=[None, 24 * mm])
    box.setStyle(TableStyle([("BOX", (0, 0), (-1, -1), 0.6, colors.grey),
                             ("LINEBELOW", (0, 0), (-1, 0), 0.4, colors.grey)]))
    names = [_("Referee: {name}").format(name=s.referee) if s.referee else _("Referee"),
             _("Captain — {team}").format(team=s.teams["A"]),
             _("Captain — {team}").format(team=s.teams["B"])]
    gap = 8.0
    line = (WIDTH_MM - 2 * gap) / 3
    sign = Table([[st.p(names[0]), "", st.p(names[1]), "", st.p(names[2])]],
                 colWidths=[w * mm for w in (line, gap, line, gap, line)])
    sign.setStyle(TableStyle([("LINEABOVE", (0, 0), (0, 0), 0.6, colors.black),
                              ("LINEABOVE", (2, 0), (2, 0), 0.6, colors.black),
                              ("LINEABOVE", (4, 0), (4, 0), 0.6, colors.black),
                              ("LEFTPADDING", (0, 0), (-1, -1), 0)]))
    return KeepTogether([Spacer(1, 6 * mm), box, Spacer(1, 18 * mm), sign])


def _build(story: list[Any], s: Sumula) -> bytes:
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.units import mm
    from reportlab.pdfgen.canvas import Canvas
    from reportlab.platypus import SimpleDocTemplate

    regular, _bold = _fonts()
    page_of = translator(s.lang).gettext("page {n} of {total}")
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
                                     page_of.format(n=n, total=total))
                super().showPage()
            super().save()

    out = io.BytesIO()
    doc = SimpleDocTemplate(out, pagesize=A4, leftMargin=18 * mm, rightMargin=18 * mm,
                            topMargin=15 * mm, bottomMargin=16 * mm,
                            title=s.title, author=s.referee or "futmesa")
    doc.build(story, canvasmaker=NumberedCanvas)
    return out.getvalue()
