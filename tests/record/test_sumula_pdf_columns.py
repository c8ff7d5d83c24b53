"""The súmula PDF's narrow columns hold their headers and numbers on one line (walk #45 lows:
the Correções "Nº" broke "220" into "22 / 0", the log's "Relógio" header into "Relógi / o").
Measured with ReportLab's own font metrics, in both languages, at the widths pdf.py gives."""

from __future__ import annotations

import pytest
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth

from futmesa.i18n import translator
from futmesa.report import pdf

# table -> (column index, its header (bold), the widest values (regular)) that must each fit
MUST_FIT: dict[str, list[tuple[int, str, list[str]]]] = {
    "log": [(0, "Nº", ["99999"]), (2, "Period", ["Interval"]), (3, "Clock", ["88:88.8"]),
            (5, "Origin", []), (6, "Status", [])],
    # a venue's log numbers entries across matches: four digits within a few matches
    "corrections": [(0, "Nº", ["9999"]), (1, "Kind", []), (4, "By", []), (5, "Reason", []),
                    (6, "Status", [])],
}


@pytest.mark.parametrize("lang", ["pt", "en"])
@pytest.mark.parametrize("key", sorted(MUST_FIT))
def test_a_narrow_column_holds_its_header_and_numbers(key: str, lang: str) -> None:
    regular, bold = pdf._fonts()
    st = pdf._Styles()
    dense = key == "log"  # the log is set small with narrow padding (pdf._Styles.table)
    size = (st.small if dense else st.base).fontSize
    pad = 3 if dense else 6
    widths = pdf.WIDTHS[key]
    scale = pdf.WIDTH_MM / sum(widths)
    t = translator(lang).gettext
    for col, head, values in MUST_FIT[key]:
        room = widths[col] * scale * mm - 2 * pad
        for text, font in [(t(head), bold)] + [(t(v), regular) for v in values]:
            for word in text.split():
                need = stringWidth(word, font, size)
                assert need <= room, f"{key} column {col}: {word!r} needs {need:.1f} pt, " \
                    f"has {room:.1f}"
