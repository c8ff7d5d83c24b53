"""The season ranking (issue 47 §15): each category ranked apart, and by placement only the
competitions that are over — a semi-final loser is never "2nd" nor a provisional leader
given 100 points while the final is to play."""

from __future__ import annotations

from pathlib import Path

from futmesa.competition.db import CompetitionDB
from futmesa.competition.ranking import ranking
from futmesa.competition.settings import parse_settings
from futmesa.competition.teams import read_teams_csv
from futmesa.store import EventLog


def result(sa: int, sb: int) -> dict:
    return {"score_a": sa, "score_b": sb, "reason": "time", "rule": "",
            "winner": None if sa == sb else ("A" if sa > sb else "B")}


def _play(db: CompetitionDB, cid: int, strength: list[str]) -> None:
    """The team earlier in `strength` always wins."""
    for m in db.matches(cid):
        a_first = strength.index(m["team_a"]) < strength.index(m["team_b"])
        db.record_result(m["id"], f"t:{m['id']}", result(1, 0) if a_first else result(0, 1))


def test_categories_apart_and_only_competitions_over(tmp_path: Path) -> None:
    path = tmp_path / "desk.sqlite"
    EventLog(path).close()
    db = CompetitionDB(path)
    adulto = read_teams_csv("name\nAlfa\nBeta\nGama\nDelta\n")
    master = read_teams_csv("name\nVeterano\nDecano\nSenior\nAnciao\n")
    db.import_teams(adulto + master)
    a = db.create(parse_settings({"format": "league", "category": "Adulto", "name": "Etapa"}),
                  [t.key for t in adulto])
    m = db.create(parse_settings({"groups": 2, "advance": 1, "category": "Máster",
                                  "name": "Etapa"}), [t.key for t in master])
    _play(db, a, [t.key for t in adulto])
    # Máster: the groups played, the final not yet
    for x in db.matches(m):
        if x["stage"] == "group":
            db.record_result(x["id"], f"t:{x['id']}", result(1, 0))
    db.advance(m)
    assert not ranking(db, "placement", category="Máster"), "an unfinished competition ranked"
    rows = ranking(db, "placement", category="Adulto")
    assert [r.name for r in rows][:1] == ["Alfa"] and len(rows) == 4
    assert all(h["competition"] == "Etapa" for r in rows for h in r.history)
    assert not {r.team for r in rows} & {t.key for t in master}, "categories mixed"
    final = next(x for x in db.matches(m) if x["stage"] == "ko")
    db.record_result(final["id"], "t:final", result(0, 1))
    rows = ranking(db, "placement", category="Máster")
    assert rows[0].team == final["team_b"] and rows[0].points == 100 and len(rows) == 4
    db.close()
