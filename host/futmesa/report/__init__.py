"""Renderers of the súmula model (:mod:`futmesa.matchbook.sumula`): HTML, PDF, CSV and JSON.

Each takes a match record (``MatchLibrary.match_record``), builds the súmula model once and
prints it; the model decides what is shown, a renderer only how.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from futmesa.matchbook.sumula import (
    build,
    clock_text,
    minute,
    public_record,
    redact_secrets,
    shootout_marks,
)
from futmesa.report import html as _html
from futmesa.report import pdf as _pdf
from futmesa.report import tabular as _tabular

Record = dict[str, Any]
shootout_rows = shootout_marks

__all__ = ["build", "clock_text", "export", "minute", "pdf_bytes", "public_record",
           "redact_secrets", "render_csv", "render_html", "render_json", "render_pdf",
           "shootout_rows"]


def render_html(record: Record, lang: str = "pt", *, links: bool = True,
                timekeeping: bool = False) -> str:
    return _html.render(build(record, lang, timekeeping=timekeeping), links=links)


def render_csv(record: Record, lang: str = "pt", *, timekeeping: bool = False) -> str:
    return _tabular.to_csv(build(record, lang, timekeeping=timekeeping))


def render_json(record: Record, lang: str = "pt", *, timekeeping: bool = False) -> str:
    return _tabular.to_json(build(record, lang, timekeeping=timekeeping), record)


def pdf_bytes(record: Record, *, head_only: bool = False, lang: str = "pt",
              timekeeping: bool = False) -> bytes:
    """The súmula PDF; ``timekeeping``: the lance timer's rows too (folded away by default)."""
    return _pdf.pdf_bytes(build(record, lang, timekeeping=timekeeping), head_only=head_only)


def render_pdf(record: Record, path: str | Path, lang: str = "pt", *,
               timekeeping: bool = False) -> Path:
    """Write the súmula PDF to ``path``; returns the path."""
    target = Path(path)
    target.write_bytes(pdf_bytes(record, lang=lang, timekeeping=timekeeping))
    return target


def export(record: Record, *, pdf: str | Path | None = None, html_path: str | Path | None = None,
           csv_path: str | Path | None = None, json_path: str | Path | None = None,
           lang: str = "pt", timekeeping: bool = False) -> list[Path]:
    """Write whichever formats were asked for (the ``futmesa report`` command); ``timekeeping``:
    the lance timer's rows in the event log too."""
    written = []
    if pdf is not None:
        written.append(render_pdf(record, pdf, lang, timekeeping=timekeeping))
    for path, text in ((html_path, render_html), (csv_path, render_csv), (json_path, render_json)):
        if path is not None:
            target = Path(path)
            # the CSV with a BOM: Excel then reads its accents as UTF-8
            target.write_text(text(record, lang, timekeeping=timekeeping),
                              encoding="utf-8-sig" if path is csv_path else "utf-8")
            written.append(target)
    return written
