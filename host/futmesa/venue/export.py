"""After the day (issue 33): standings, schedule, scorers and discipline as spreadsheets.

One set of sheets (rows of cells, a header first, in the organiser's language), written as
one XLSX workbook (:mod:`openpyxl`) or as one CSV per sheet for a Brazilian Excel (``;``
between columns, UTF-8 with its mark so accents open right). Everything is read from the
competition tables as they stand — the results the tables sent (their goals and discipline
in the result's detail) and the desk's sanctions; nothing is counted twice.
"""

from __future__ import annotations

import csv
import time
from pathlib import Path
from typing import Any

from futmesa.competition.db import CompetitionDB
from futmesa.competition.files import cell, file_part
from futmesa.i18n import _

Sheet = list[list[Any]]


def sheets(db: CompetitionDB, cid: int | None = None) -> dict[str, Sheet]:
    """The day's sheets by name, in the process language."""
    from futmesa.venue.views import competition_view, match_view

    comp = db.competition(cid)
    cid = comp["id"]
    teams = db.team_map()
    view = competition_view(db, cid=cid)
    name = {k: t.name for k, t in teams.items()}
    standings: Sheet = [[_("Group"), _("Place"), _("Team"), _("Club"), _("Points"),
                         _("Played"), _("Won"), _("Drawn"), _("Lost"), _("Goals for"),
                         _("Goals against"), _("Goal difference"), _("Notes")]]
    for group, rows in view["standings"].items():
        for i, r in enumerate(rows, start=1):
            club = teams[r["team"]].club if r["team"] in teams else ""
            standings.append([group or "—", i, r["name"], club, r["points"], r["played"],
                              r["wins"], r["draws"], r["losses"], r["goals_for"],
                              r["goals_against"], r["goal_difference"], "; ".join(r["notes"])])
    # when each match ended (its result stored), or is estimated to start; never the
    # schedule's internal slot number
    schedule: Sheet = [[_("Match"), _("Date and time"), _("Table"), _("Stage"), _("Team A"),
                        _("Goals A"), _("Goals B"), _("Team B"), _("Status"), _("Decided by"),
                        _("Proof")]]
    matches = db.matches(cid)
    etas = {v["id"]: v["eta"] for v in view["matches"]}
    for m in matches:
        v = match_view(m, teams)
        r = m.get("result") or {}
        when = (time.strftime("%d/%m/%Y %H:%M", time.localtime(r["received_at"]))
                if r.get("received_at") else etas.get(m["id"], ""))
        decided = (r.get("decided") or {}).get("winner")
        by = v["reason"] or (_("decided at the desk") if decided else "")
        schedule.append([v["id"], when, v["table"], v["label"], v["a"],
                         r.get("score_a", ""), r.get("score_b", ""), v["b"], v["status_pt"],
                         by, v["proof"]["text"]])
    return {_("Standings"): standings, _("Final placings"): _placings(db, comp, teams),
            _("Schedule"): schedule, _("Scorers"): _scorers(matches, name),
            _("Discipline"): _discipline(db, cid, matches, name)}


def _placings(db: CompetitionDB, comp: dict[str, Any], teams: dict[str, Any]) -> Sheet:
    """Where each team finished (the champion first; each division's knockout, then the
    places below it), once the competition is over; before, one line saying so."""
    from futmesa.competition.ranking import over, places

    out: Sheet = [[_("Place"), _("Team"), _("Club")]]
    if not over(db, comp):
        return [*out, ["", _("the competition is not over yet"), ""]]
    for team, place in sorted(places(db, comp).items(), key=lambda kv: (kv[1], kv[0])):
        t = teams.get(team)
        out.append([place, t.name if t else team, t.club if t else ""])
    return out


def day_sheets(db: CompetitionDB) -> dict[str, Sheet]:
    """Every category of the day in one book: one category's sheets as :func:`sheets`; with
    several, each sheet's name starts with its category ("Máster · Standings")."""
    day = db.active()
    if len(day) <= 1:
        return sheets(db)
    book: dict[str, Sheet] = {}
    for comp in day:
        label = comp["settings"].category or comp["name"]
        for title, rows in sheets(db, comp["id"]).items():
            book[f"{label} · {title}"] = rows  # whole: the workbook shortens by words
    return book


SHEET_MOST = 31  # Excel's longest sheet name
SEP = " · "


def short_label(label: str, most: int) -> str:
    """A category's name in at most ``most`` characters, never a cut word: its longer words
    shortened from the first ("Individual Adulto Masculino" → "Ind. Adu. Mas."), then
    without their dots ("Ind Adu Mas"), then its last words left out, whole."""
    words = label.split()
    for i, w in enumerate(words):
        if len(" ".join(words)) <= most:
            break
        if len(w) > 4:
            words[i] = w[:3] + "."
    if len(" ".join(words)) > most:
        words = [w.rstrip(".") for w in words]
    while len(" ".join(words)) > most and len(words) > 1:
        words.pop()
    return " ".join(words) if len(" ".join(words)) <= most else ""


def sheet_titles(titles: list[str]) -> dict[str, str]:
    """Each title's workbook sheet name: none of \\ / ? * [ ] : (Excel's rule), at most 31
    characters, no cut word, every one different. A day's "Category · Sheet": the category
    shortened the same way in all its sheets (to fit its longest sheet's name), the sheet's
    own name kept."""
    def clean(text: str) -> str:
        return "".join("-" if ch in "\\/?*[]:" else ch for ch in text)

    kinds: dict[str, list[str]] = {}
    for t in titles:
        label, _sep, kind = clean(t).rpartition(SEP)
        kinds.setdefault(label, []).append(kind)
    out: dict[str, str] = {}
    taken: set[str] = set()
    for t in titles:
        label, _sep, kind = clean(t).rpartition(SEP)
        short = short_label(label, SHEET_MOST - len(SEP) - max(map(len, kinds[label])))
        name = f"{short}{SEP}{kind}" if short else kind[:SHEET_MOST]
        base, n = name, 2
        while name.casefold() in taken:
            tail = f" {n}"
            name, n = base[:SHEET_MOST - len(tail)].rstrip() + tail, n + 1
        taken.add(name.casefold())
        out[t] = name
    return out


def _scorers(matches: list[dict[str, Any]], name: dict[str, str]) -> Sheet:
    """Goals by team and disc, from each result's detail (own goals counted apart)."""
    goals: dict[tuple[str, str], int] = {}
    own: dict[str, int] = {}
    for m in matches:
        detail = (m.get("result") or {}).get("detail") or {}
        for g in detail.get("goals") or []:
            if not isinstance(g, dict) or g.get("side") not in ("A", "B"):
                continue
            scorer = m["team_a"] if g["side"] == "A" else m["team_b"]
            if g.get("own_goal"):
                # the point went to `side`; the own goal was the other team's
                conceder = m["team_b"] if g["side"] == "A" else m["team_a"]
                if conceder:
                    own[conceder] = own.get(conceder, 0) + 1
                continue
            disc = g.get("disc")
            key = (scorer or "", str(disc) if isinstance(disc, int) else "?")
            goals[key] = goals.get(key, 0) + 1
    out: Sheet = [[_("Team"), _("Disc"), _("Goals")]]
    for (team, disc), n in sorted(goals.items(), key=lambda kv: (-kv[1], name.get(kv[0][0],
                                                                                  kv[0][0]))):
        out.append([name.get(team, team), disc, n])
    for team, n in sorted(own.items()):
        out.append([name.get(team, team), _("own goal"), n])
    return out


def _discipline(db: CompetitionDB, cid: int, matches: list[dict[str, Any]],
                name: dict[str, str]) -> Sheet:
    """Per team: disciplinary fouls and discs sent off in its matches, and the desk's
    sanctions (lost points, disqualification) with their article."""
    fouls: dict[str, list[int]] = {}
    for m in matches:
        detail = (m.get("result") or {}).get("detail") or {}
        for side, team in (("A", m["team_a"]), ("B", m["team_b"])):
            d = (detail.get("discipline") or {}).get(side)
            if team and isinstance(d, dict):
                row = fouls.setdefault(team, [0, 0])
                row[0] += int(d.get("disciplinary", 0) or 0)
                row[1] += int(d.get("expelled", 0) or 0)
    out: Sheet = [[_("Team"), _("Disciplinary fouls"), _("Discs sent off"), _("Sanction"),
                   _("Article"), _("Note")]]
    for team, (disciplinary, expelled) in sorted(fouls.items(),
                                                 key=lambda kv: name.get(kv[0], kv[0])):
        if disciplinary or expelled:
            out.append([name.get(team, team), disciplinary, expelled, "", "", ""])
    kinds = {"match_points": _("points of a match lost"),
             "competition_points": _("disqualified from the competition")}
    for s in db.decisions.sanctions(cid):
        if s.get("revoked_at"):
            continue
        out.append([name.get(s["team"], s["team"]), "", "", kinds.get(s["kind"], s["kind"]),
                    s["rule"], s.get("note", "")])
    return out


def write_xlsx(path: str | Path, book: dict[str, Sheet]) -> Path:
    """One workbook, a sheet each; the header bold and frozen, columns wide enough."""
    from openpyxl import Workbook
    from openpyxl.styles import Font

    wb = Workbook()
    wb.remove(wb.active)
    names = sheet_titles(list(book))
    for title, rows in book.items():
        ws = wb.create_sheet(title=names[title])
        for row in rows:
            ws.append([cell(v) for v in row])
        for c in ws[1]:
            c.font = Font(bold=True)
        ws.freeze_panes = "A2"
        for col in ws.columns:
            width = max(len(str(c.value or "")) for c in col)
            ws.column_dimensions[col[0].column_letter].width = min(60, max(8, width + 2))
    out = Path(path)
    out.parent.mkdir(parents=True, exist_ok=True)
    wb.save(out)
    return out


def write_csv(folder: str | Path, book: dict[str, Sheet]) -> list[Path]:
    """One CSV per sheet for a Brazilian Excel: ';' between columns, UTF-8 with its mark; a
    text a spreadsheet would run as a formula is written inert."""
    out_dir = Path(folder)
    out_dir.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    for title, rows in book.items():
        stem, n = file_part(title, empty="sheet", most=120).lower(), 2
        path = out_dir / f"{stem}.csv"
        while path in written:  # two titles the same in ASCII: never one over the other
            path, n = out_dir / f"{stem}-{n}.csv", n + 1
        with path.open("w", encoding="utf-8-sig", newline="") as f:
            writer = csv.writer(f, delimiter=";", lineterminator="\r\n")
            for row in rows:
                writer.writerow([cell(v) for v in row])
        written.append(path)
    return written
