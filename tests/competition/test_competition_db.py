"""A competition in a real SQLite file: teams CSV, the draw, results, W.O., replays, sanctions."""

from __future__ import annotations

from pathlib import Path

import pytest

from futmesa.competition.db import CompetitionDB, CompetitionError
from futmesa.competition.settings import parse_settings
from futmesa.competition.teams import TeamFileError, read_teams_csv, write_teams_csv
from futmesa.store import EventLog

CSV = """name,short,color,logo,players
Estrela do Norte,EST,#c8102e,,Ana;Bia
Botafogo da Mesa,BOT,#1d1d1b,,Caio
Grêmio F.C.,GRE,#0d80bf,gremio.png,
União Operária,UNI,#2e7d32,,
Atlético Pastilha,ATL,#000000,,
Palmeirinhas,PAL,#006437,,
Ferroviário,FER,#b71c1c,,
Náutico Botão,NAU,#d32f2f,,
"""


def result(sa: int, sb: int, **kw: object) -> dict:
    return {"score_a": sa, "score_b": sb, "winner": None if sa == sb else ("A" if sa > sb else "B"),
            "reason": "time", "rule": "", **kw}


@pytest.fixture
def db(tmp_path: Path) -> CompetitionDB:
    path = tmp_path / "desk.sqlite"
    EventLog(path).close()  # the same file as the event log, with its own tables beside
    d = CompetitionDB(path)
    d.import_teams(read_teams_csv(CSV))
    return d


def test_teams_csv_round_trip_and_errors(db: CompetitionDB) -> None:
    teams = db.teams()
    assert [t.short for t in teams][:3] == ["EST", "BOT", "GRE"]
    assert teams[0].players == ["Ana", "Bia"] and teams[2].key == "grêmio f.c."
    assert read_teams_csv(write_teams_csv(teams)) == teams
    with pytest.raises(TeamFileError, match="linha 3, coluna color: .*#rrggbb"):
        read_teams_csv("name,color\nA,#ffffff\nB,red\n")
    with pytest.raises(TeamFileError, match="linha 3: a equipe 'A' já está na linha 2"):
        read_teams_csv("name\nA\nA\n")


def play_groups(db: CompetitionDB, cid: int) -> None:
    for m in db.matches(cid):
        if m["stage"] == "group":
            # the team earlier in the seeding list always wins 1-0
            order = [t.key for t in db.teams()]
            a_first = order.index(m["team_a"]) < order.index(m["team_b"])
            assert db.record_result(m["id"], f"t1:{m['id']}", result(1, 0) if a_first
                                    else result(0, 1))


def test_groups_then_knockout_to_the_final(db: CompetitionDB) -> None:
    cid = db.create(parse_settings({"groups": 2, "advance": 2, "tables": 4}))
    comp = db.competition(cid)
    assert comp["groups"]["A"] == ["estrela do norte", "união operária", "atlético pastilha",
                                   "náutico botão"]
    ms = db.matches(cid)
    assert len([m for m in ms if m["stage"] == "group"]) == 12
    assert db.advance(cid) == []  # nothing decided yet
    play_groups(db, cid)
    changed = db.advance(cid)
    semis = [m for m in db.matches(cid) if m["group"] == "Semifinal"]
    assert {m["id"] for m in semis} == set(changed)
    assert [(m["team_a"], m["team_b"]) for m in semis] == [
        ("estrela do norte", "grêmio f.c."), ("botafogo da mesa", "união operária")]
    db.record_result(semis[0]["id"], "t2:1", result(2, 2, winner="B", reason="shootout"))
    db.record_result(semis[1]["id"], "t2:2", result(0, 3))
    db.advance(cid)
    final = next(m for m in db.matches(cid) if m["group"] == "Final")
    assert (final["team_a"], final["team_b"]) == ("grêmio f.c.", "união operária")


def test_the_same_result_twice_counts_once(db: CompetitionDB) -> None:
    cid = db.create(parse_settings({"format": "league", "tables": 2}))
    m = db.matches(cid)[0]
    assert db.record_result(m["id"], "mesa1:7", result(2, 1))
    assert not db.record_result(m["id"], "mesa1:7", result(2, 1))
    rows = {r["team"]: r for r in db.table(cid)[""]}
    assert rows[m["team_a"]]["played"] == 1 and rows[m["team_a"]]["points"] == 3
    # a corrected súmula of the same table match replaces the result, still one match
    assert db.record_result(m["id"], "mesa1:7", result(2, 2))
    rows = {r["team"]: r for r in db.table(cid)[""]}
    assert rows[m["team_a"]]["played"] == 1 and rows[m["team_a"]]["points"] == 1


def test_walkover_abandon_and_replay(db: CompetitionDB) -> None:
    cid = db.create(parse_settings({"format": "league", "walkover_score": 2}))
    first, second = db.matches(cid)[:2]
    db.decisions.walkover(first["id"], "B")
    got = db.match(first["id"])
    assert got["status"] == "walkover" and (got["result"]["score_a"], got["result"]["score_b"]) \
        == (2, 0)
    assert not db.record_result(first["id"], "mesa1:3", result(0, 5))  # W.O. stands
    with pytest.raises(CompetitionError, match="já tem resultado"):
        db.decisions.walkover(first["id"], "A")
    replay = db.decisions.abandon(second["id"], "power cut")
    assert db.match(second["id"])["status"] == "abandoned"
    assert not db.record_result(second["id"], "mesa2:1", result(1, 0))  # late: not counted
    r = db.match(replay)
    assert r["replay_of"] == second["id"] and (r["team_a"], r["team_b"]) == (
        second["team_a"], second["team_b"]) and r["status"] == "scheduled"
    db.record_result(replay, "mesa2:2", result(0, 1))
    rows = {x["team"]: x for x in db.table(cid)[""]}
    assert rows[second["team_b"]]["points"] == 3 and rows[second["team_a"]]["played"] == 1


def test_art_85_disqualification_turns_remaining_matches_into_walkovers(db: CompetitionDB) -> None:
    cid = db.create(parse_settings({"format": "league"}))
    bad = "botafogo da mesa"
    played = next(m for m in db.matches(cid) if bad in (m["team_a"], m["team_b"]))
    side = "A" if played["team_a"] == bad else "B"
    db.record_result(played["id"], "x:1", result(1, 0) if side == "A" else result(0, 1))
    db.decisions.add_sanction(bad, "competition_points")
    db.advance(cid)
    rest = [m for m in db.matches(cid) if bad in (m["team_a"], m["team_b"])
            and m["id"] != played["id"]]
    assert rest and all(m["status"] == "walkover" for m in rest)
    rows = db.table(cid)[""]
    assert rows[-1]["team"] == bad and rows[-1]["points"] == 0 and rows[-1]["disqualified"]
    with pytest.raises(CompetitionError, match="precisa do número da partida"):
        db.decisions.add_sanction("grêmio f.c.", "match_points")


def test_playable_respects_busy_teams_and_schedule_order(db: CompetitionDB) -> None:
    cid = db.create(parse_settings({"format": "league", "tables": 4}))
    first = db.playable(cid, set())
    assert first[0]["slot"] == 0
    busy = {first[0]["team_a"]}
    assert all(busy.isdisjoint({m["team_a"], m["team_b"]}) for m in db.playable(cid, busy))
    # a team whose slot-0 match is still to play is not offered a slot-1 match
    later = [m for m in db.playable(cid, set()) if m["slot"] > 0]
    slot0 = {t for m in db.matches(cid) if m["slot"] == 0 for t in (m["team_a"], m["team_b"])}
    assert all(slot0.isdisjoint({m["team_a"], m["team_b"]}) for m in later)
