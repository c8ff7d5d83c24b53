"""After the day (issue 33 §6): every súmula of the day in one archive, for the federation.

For every result the tables sent (every category of the day), the match is found in the
tables' own files, checked against them as `competition verify` does (the hash chain, the
final hash the desk received, the score, the referee's signature: :func:`check_result`) and
its súmula written as the same PDF as `futmesa report`. One ZIP: a folder per category, a PDF
per match named by the competition's match number, the table and the teams, and an index
(CSV for a Brazilian Excel) with each match's category, stage, teams, score, table, the
check's verdict and why, the file and its SHA-256 — what was signed, and that nothing changed
after. A match the desk decided (a walk-over) has its index line and no súmula; a table whose
file was not brought is said so.
"""

from __future__ import annotations

import csv
import hashlib
import io
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from futmesa.competition.db import CompetitionDB
from futmesa.competition.files import cell, file_part
from futmesa.i18n import _, pgettext
from futmesa.venue.result_check import (
    MISSING,
    VERDICT_WORDS,
    TableFiles,
    check_result,
    require_desk_file,
)


@dataclass
class Archive:
    """What was written: the file, the súmulas in it, and the verdicts counted."""

    path: Path
    sumulas: int = 0
    counts: dict[str, int] = field(default_factory=dict)
    decided_at_desk: int = 0


def write_archive(desk_db: str, tables: list[str], out: str | Path,
                  lang: str = "pt") -> Archive:
    """Write the ZIP at ``out``; SystemExit (one line) for a file that is not the desk's."""
    from futmesa import report
    from futmesa.venue.views import match_view

    if not Path(desk_db).is_file():
        raise SystemExit(_("error: there is no file {path}: pass the desk's file in --db"
                           ).format(path=desk_db))
    require_desk_file(desk_db)
    comp = CompetitionDB(desk_db)
    files = TableFiles(tables)
    archive = Archive(Path(out))
    part = archive.path.with_name(archive.path.name + ".part")
    index = io.StringIO()
    writer = csv.writer(index, delimiter=";", lineterminator="\r\n")
    writer.writerow([_("Match"), _("Category"), _("Stage"), _("Team A"), _("Goals A"),
                     _("Goals B"), _("Team B"), _("Table"), _("Check"), _("Why"), _("File"),
                     "SHA-256"])
    try:
        teams = comp.team_map()
        day = comp.active()
        archive.path.parent.mkdir(parents=True, exist_ok=True)
        # written beside it and renamed when whole: a full disk leaves no broken archive
        with zipfile.ZipFile(part, "w", zipfile.ZIP_DEFLATED) as zf:
            for c in day:
                category = c["settings"].category or c["name"]
                for m in comp.matches(c["id"]):
                    r = m.get("result")
                    if not r:
                        continue
                    v = match_view(m, teams)  # the names, the stage and the table as shown
                    names = [v["a"], v["b"]]
                    row = [m["id"], category, v["label"], names[0], r["score_a"], r["score_b"],
                           names[1], v["table"] if m["table_id"] else ""]
                    if r.get("source") == "desk":
                        archive.decided_at_desk += 1
                        # why in words: "W.O. — não compareceu", never the stored "walkover"
                        why = [v["reason"], m.get("note") or r.get("rule") or ""]
                        writer.writerow([*map(cell, row), _("decided at the desk"),
                                         cell(" — ".join(x for x in why if x)), "", ""])
                        continue
                    check = check_result(files, m["id"], r)
                    archive.counts[check.verdict] = archive.counts.get(check.verdict, 0) + 1
                    name = sha = ""
                    if check.verdict != MISSING:
                        pdf = _sumula_pdf(files, r["uid"], lang, report)
                        if pdf is not None:
                            name = (f"{file_part(category)}/{m['id']:04d}-{file_part(row[7])}"
                                    f"-{file_part(names[0])}-x-{file_part(names[1])}.pdf")
                            zf.writestr(name, pdf)
                            sha = hashlib.sha256(pdf).hexdigest()
                            archive.sumulas += 1
                    writer.writerow([*map(cell, row), pgettext(*VERDICT_WORDS[check.verdict]),
                                     cell(check.why), name, sha])
            index_name = file_part(_("index"))  # índice.csv: a federation's own word
            zf.writestr(f"{index_name}.csv", "\ufeff" + index.getvalue())
        part.replace(archive.path)
    finally:
        part.unlink(missing_ok=True)
        files.close()
        comp.close()
    return archive


def _sumula_pdf(files: TableFiles, uid: str, lang: str, report: Any) -> bytes | None:
    """The súmula PDF of the table match ``uid`` ("table:match") from its table's file."""
    table, _sep, raw = str(uid).rpartition(":")
    try:
        found = files.find(table, int(raw))
    except ValueError:
        return None
    if found is None:
        return None
    path, db = found
    try:
        record = files.library(path, db).match_record(int(raw))
    except Exception:  # noqa: BLE001 - the index says why (check_result read it too)
        return None
    return bytes(report.pdf_bytes(record, lang=lang))
