"""The súmula for a federation's system: CSV and JSON with the same tables the PDF prints."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

from futmesa.i18n import translator
from futmesa.matchbook.sumula import Sumula


class _InertWriter:
    """A csv writer whose texts starting like a spreadsheet formula (=, +, -, @, tab, CR)
    get a leading apostrophe: a team or referee name is shown, never run (numbers as is)."""

    def __init__(self, out: io.StringIO) -> None:
        self._w = csv.writer(out, delimiter=";", lineterminator="\n")

    def writerow(self, row: Any) -> None:
        self._w.writerow(["'" + v if isinstance(v, str) and v.startswith(
            ("=", "+", "-", "@", "\t", "\r")) else v for v in row])


def to_csv(s: Sumula) -> str:
    """One CSV: the header block, then each table (its title, its heading row, its rows), each
    row ending in whether it is in force: what the PDF says by striking it (walk 45f M4)."""
    out = io.StringIO()
    w = _InertWriter(out)
    _ = translator(s.lang).gettext
    w.writerow([_("report"), s.id])
    w.writerow([_("result"), s.result])
    for key, value in s.meta:
        w.writerow([key, value])
    in_force, struck_out = _("yes"), _("no — struck out")
    for t in s.tables:
        w.writerow([])
        w.writerow([f"# {t.title}"])
        w.writerow([*t.head, _("In force")])
        for row, struck in zip(t.cells(), t.struck, strict=True):
            w.writerow([*row, struck_out if struck else in_force])
        if t.note:  # said under the table: one cell, no row of it
            w.writerow([t.note])
    return out.getvalue()


def to_dict(s: Sumula, record: dict[str, Any]) -> dict[str, Any]:
    tables = {t.key: {"title": t.title, "columns": [k for k, _ in t.columns],
                      "headings": t.head, "rows": t.rows,
                      "struck": [i for i, v in enumerate(t.struck) if v],
                      **({"note": t.note} if t.note else {})}
              for t in s.tables}
    summary = {"id": s.id, "result": s.result, "score": s.score, "teams": s.teams,
               "finished": s.finished, "ending": s.ending, "referee": s.referee,
               "meta": dict(s.meta)}
    return {"summary": summary, "tables": tables, "match": record.get("match"),
            "entries": record.get("entries", []), "state": record.get("state"),
            # the proof: each entry above carries its hash; `futmesa verify --sumula` checks
            "chain": record.get("chain"), "signatures": record.get("signatures")}


def to_json(s: Sumula, record: dict[str, Any]) -> str:
    return json.dumps(to_dict(s, record), ensure_ascii=False, indent=2, default=str)
