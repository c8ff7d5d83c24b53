"""The season ranking across the competitions of one desk file (issue 33 §6): points by
placement (champion, runner-up, the semi-final losers level in 3rd…) and an OpenSkill rating
with uncertainty; each team's history."""

from __future__ import annotations

from pathlib import Path

import pytest

from futmesa.competition.db import CompetitionDB, CompetitionError
from futmesa.competition.ranking import PLACEMENT_POINTS, places, ranking
from futmesa.competition.settings import parse_settings
from futmesa.competition.teams import read_teams_csv
from futmesa.store import EventLog

CSV = "name\n" + "".join(f"Time {c}\n" for c in "ABCDEFGH")


def result(sa: int, sb: int) -> dict:
    return {"score_a": sa, "score_b": sb, "winner": None if sa == sb else ("A" if sa > sb else "B"),
            "reason": "time", "rule": ""}


def _play(db: CompetitionDB, cid: int, strength: list[str]) -> None:
    """The team earlier in `strength` always wins."""
    for _round in range(6):
        for m in db.matches(cid):
            if m["status"] == "scheduled" and m["team_a"] and m["team_b"]:
                a_first = strength.index(m["team_a"]) < strength.index(m["team_b"])
                db.record_result(m["id"], f"t:{m['id']}", result(1, 0) if a_first
                                 else result(0, 1))
        db.advance(cid)


def test_a_season_of_two_competitions(tmp_path: Path) -> None:
    path = tmp_path / "desk.sqlite"
    EventLog(path).close()
    db = CompetitionDB(path)
    db.import_teams(read_teams_csv(CSV))
    keys = [t.key for t in db.teams()]
    first = db.create(parse_settings({"groups": 2, "advance": 2, "tables": 4,
                                      "name": "Etapa 1"}))
    _play(db, first, keys)  # A the strongest … H the weakest
    p = places(db, db.competition(first))
    assert p[keys[0]] == 1 and sorted(p.values()).count(3) == 2, p  # two semi losers, 3rd
    second = db.create(parse_settings({"format": "league", "tables": 4, "name": "Etapa 2"}))
    _play(db, second, list(reversed(keys)))  # now H the strongest
    rows = ranking(db, "placement")
    assert len(rows) == 8
    top = {r.team: r for r in rows}
    assert top[keys[0]].points == PLACEMENT_POINTS[0] + PLACEMENT_POINTS[7]
    assert [h["competition"] for h in top[keys[0]].history] == ["Etapa 1", "Etapa 2"]
    assert [r.points for r in rows] == sorted((r.points for r in rows), reverse=True)
    rated = ranking(db, "openskill")
    assert len(rated) == 8 and all(r.played > 0 and r.sigma > 0 for r in rated)
    scores = [r.mu - 3 * r.sigma for r in rated]
    assert scores == sorted(scores, reverse=True)
    with pytest.raises(CompetitionError):
        ranking(db, "elo")
