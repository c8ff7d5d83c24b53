"""Exports that keep every category (issue 47 §7): two categories whose names share their
first 16 characters give ten sheets, each name whole words within Excel's 31 characters
and different from the others, and ten CSVs, none written over another."""

from __future__ import annotations

from pathlib import Path

from openpyxl import load_workbook

from futmesa.competition.db import CompetitionDB
from futmesa.competition.settings import parse_settings
from futmesa.competition.teams import read_teams_csv
from futmesa.i18n import set_language
from futmesa.store import EventLog
from futmesa.venue.export import SHEET_MOST, day_sheets, write_csv, write_xlsx


def test_two_long_categories_keep_their_sheets(tmp_path: Path) -> None:
    set_language("pt_BR")
    path = tmp_path / "dia.sqlite"
    EventLog(path).close()
    db = CompetitionDB(path)
    men = read_teams_csv("name\nAlfa\nBeta\nGama\n")
    women = read_teams_csv("name\nDelta\nÉpsilon\nZeta\n")
    db.import_teams(men + women)
    for category, teams in (("Individual Adulto Masculino", men),
                            ("Individual Adulto Feminino", women)):
        db.create(parse_settings({"name": "Estadual", "format": "league",
                                  "category": category}), [t.key for t in teams])
    book = day_sheets(db)
    assert len(book) == 10
    xlsx = load_workbook(write_xlsx(tmp_path / "dia.xlsx", book))
    names = xlsx.sheetnames
    assert len(names) == 10 and len({n.casefold() for n in names}) == 10, names
    assert all(len(n) <= SHEET_MOST for n in names), names
    # the sheet's own name whole (never "Classificaçã"), each category told apart
    assert sum(n.endswith(" · Classificação") for n in names) == 2, names
    assert any("Mas" in n for n in names) and any("Fem" in n for n in names), names
    csvs = write_csv(tmp_path / "csv", book)
    assert len(csvs) == 10 and len({p.name for p in csvs}) == 10
    assert all(p.exists() for p in csvs)
    assert any("masculino-classificacao" in p.name for p in csvs), [p.name for p in csvs]
    db.close()
