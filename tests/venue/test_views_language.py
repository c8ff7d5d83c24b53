"""The desk's pages speak the page's language, not only the process's: the same competition
viewed for a Portuguese and an English request (futmesa.venue.views.competition_view)."""

from __future__ import annotations

from pathlib import Path

from futmesa.competition.db import CompetitionDB
from futmesa.competition.settings import parse_settings
from futmesa.competition.teams import read_teams_csv
from futmesa.store import EventLog
from futmesa.venue.views import competition_view

CSV = """name,short,color
Estrela do Norte,EST,#c8102e
Botafogo da Mesa,BOT,#1d1d1b
Grêmio Botão,GRE,#0d80bf
União Operária,UNI,#2e7d32
"""


def test_the_same_competition_in_each_language(tmp_path: Path) -> None:
    path = tmp_path / "desk.sqlite"
    EventLog(path).close()
    db = CompetitionDB(path)
    db.import_teams(read_teams_csv(CSV))
    db.create(parse_settings({"groups": 2, "advance": 1, "tables": 2}))
    pt = competition_view(db, "pt_BR")
    en = competition_view(db, "en")
    assert pt["matches"][0]["status_pt"] == "a jogar"
    assert en["matches"][0]["status_pt"] == "to play"
    assert pt["matches"][0]["label"].startswith("Grupo ")
    assert en["matches"][0]["label"].startswith("Group ")
    assert pt["tie_breaks"] != en["tie_breaks"]
    final = next(m for m in en["matches"] if m["final"])
    assert final["a"].startswith("winner") or "group" in final["a"], final
    # without a language: the process's (the suite's is pt_BR)
    assert competition_view(db)["matches"][0]["status_pt"] == "a jogar"
