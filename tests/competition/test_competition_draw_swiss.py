"""A championship day's formats in a real SQLite file (issue 33): the draw by pots with
club-mates apart and the same seed the same draw; a Swiss phase (a bye counted 3–0, no
rematches) into a knockout of the Swiss table's first places."""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import pytest

from futmesa.competition.db import CompetitionDB, CompetitionError
from futmesa.competition.schedule import round_robin
from futmesa.competition.settings import parse_settings
from futmesa.competition.teams import read_teams_csv, write_teams_csv
from futmesa.store import EventLog

# a Brazilian spreadsheet: ';' columns, Portuguese headers for the optional ones
CLUBS = """name;clube;pote
Estrela do Norte;Clube Botão RS;1
Botafogo da Mesa;Mesa Carioca;1
Grêmio F.C.;Clube Botão RS;1
União Operária;Liga Sul;1
Atlético Pastilha;Mesa Carioca;2
Palmeirinhas;Liga Sul;2
Ferroviário;Clube Botão RS;2
Náutico Botão;Mesa Carioca;2
"""


def result(sa: int, sb: int) -> dict:
    return {"score_a": sa, "score_b": sb, "winner": None if sa == sb else ("A" if sa > sb else "B"),
            "reason": "time", "rule": ""}


def _db(tmp_path: Path, csv: str) -> CompetitionDB:
    path = tmp_path / "desk.sqlite"
    EventLog(path).close()
    d = CompetitionDB(path)
    d.import_teams(read_teams_csv(csv))
    return d


def test_the_teams_file_carries_clubs_and_pots(tmp_path: Path) -> None:
    teams = read_teams_csv(CLUBS)
    assert (teams[0].club, teams[0].pot) == ("Clube Botão RS", 1)
    assert read_teams_csv(write_teams_csv(teams)) == teams
    db = _db(tmp_path, CLUBS)
    assert [(t.club, t.pot) for t in db.teams()] == [(t.club, t.pot) for t in teams]
    with pytest.raises(ValueError, match="pote|pot"):
        read_teams_csv("name;pote\nA;primeiro\nB;2\n")


def test_the_draw_by_pots_keeps_club_mates_apart_and_reruns(tmp_path: Path) -> None:
    db = _db(tmp_path, CLUBS)
    cid = db.create(parse_settings({"groups": 4, "advance": 1, "tables": 4, "seed": 7}))
    comp = db.competition(cid)
    assert comp["settings"].seed == 7
    teams = {t.key: t for t in db.teams()}
    for g, keys in comp["groups"].items():
        assert sorted(teams[k].pot for k in keys) == [1, 2], (g, keys)  # one of each pot
    shared = [(g, a, b) for g, ks in comp["groups"].items()
              for a, b in itertools.combinations(ks, 2) if teams[a].club == teams[b].club]
    # three clubs of three, two and three over four groups of two: at most one forced pair
    assert len(shared) <= 1
    again = db.create(parse_settings({"groups": 4, "advance": 1, "tables": 4, "seed": 7}))
    assert db.competition(again)["groups"] == comp["groups"], "the same seed, the same draw"
    other = {tuple(map(tuple, db.competition(db.create(parse_settings(
        {"groups": 4, "advance": 1, "tables": 4, "seed": s})))["groups"].values()))
        for s in range(8)}
    assert len(other) > 1, "another seed, another draw"


def test_club_mates_in_one_group_meet_first(tmp_path: Path) -> None:
    db = _db(tmp_path, CLUBS)
    cid = db.create(parse_settings({"groups": 2, "advance": 1, "tables": 4, "seed": 3}))
    comp = db.competition(cid)
    teams = {t.key: t for t in db.teams()}
    for g, keys in comp["groups"].items():
        first = {frozenset(p) for p in round_robin(keys)[0]}
        mates = [frozenset(p) for p in itertools.combinations(keys, 2)
                 if teams[p[0]].club == teams[p[1]].club]
        if mates:
            assert first & set(mates), (g, keys, first)
        ms = [m for m in db.matches(cid) if m["group"] == g and m["round"] == 1]
        assert {frozenset((m["team_a"], m["team_b"])) for m in ms} == first


def _swiss_csv(n: int) -> str:
    return "name;clube\n" + "".join(f"Time {i:02d};Clube {i % 4}\n" for i in range(1, n + 1))


def test_a_swiss_phase_into_a_knockout(tmp_path: Path) -> None:
    db = _db(tmp_path, _swiss_csv(11))
    cid = db.create(parse_settings({"format": "suíço e mata-mata", "swiss_rounds": 4,
                                    "advance": 4, "tables": 4, "bye_score": 3}))
    rng = random.Random(5)
    met: set[frozenset[str]] = set()
    byes: list[str] = []
    for round_no in range(1, 5):
        ms = [m for m in db.matches(cid) if m["stage"] == "swiss" and m["round"] == round_no]
        assert len(ms) == 6, "five matches and a bye (11 teams)"
        bye = [m for m in ms if m["status"] == "bye"]
        assert len(bye) == 1 and bye[0]["team_b"] is None
        assert bye[0]["team_a"] not in byes, "a bye once"
        byes.append(bye[0]["team_a"])
        for m in ms:
            if m["status"] == "bye":
                continue
            pair = frozenset((m["team_a"], m["team_b"]))
            assert pair not in met, f"a rematch in round {round_no}"
            met.add(pair)
            assert 1 <= m["planned_table"] <= 4
            db.record_result(m["id"], f"t:{m['id']}", result(rng.randint(0, 3),
                                                             rng.randint(0, 3)))
        if round_no < 4:
            assert db.advance(cid), "the next round is drawn once this one is decided"
            assert db.advance(cid) == [], "and only once"
    table = db.table(cid)[""]
    assert len(table) == 11 and all(r["played"] == 4 for r in table)
    bye_row = next(r for r in table if r["team"] == byes[0])
    assert bye_row["goals_for"] >= 3, "the bye counted 3–0"
    changed = db.advance(cid)
    semis = [m for m in db.matches(cid) if m["stage"] == "ko" and m["round"] == 1]
    assert {m["id"] for m in semis} <= set(changed)
    top = [r["team"] for r in table[:4]]
    assert [(m["team_a"], m["team_b"]) for m in semis] == [(top[0], top[3]), (top[1], top[2])]
    for m in semis:
        db.record_result(m["id"], f"t:{m['id']}", result(1, 0))
    db.advance(cid)
    final = next(m for m in db.matches(cid) if m["stage"] == "ko" and m["round"] == 2)
    assert (final["team_a"], final["team_b"]) == (top[0], top[1])
    swiss_slots = max(m["slot"] for m in db.matches(cid) if m["stage"] == "swiss")
    assert all(m["slot"] > swiss_slots for m in semis), "the knockout after the Swiss phase"


def test_a_swiss_phase_that_cannot_be(tmp_path: Path) -> None:
    db = _db(tmp_path, _swiss_csv(4))
    with pytest.raises(CompetitionError, match="4"):
        db.create(parse_settings({"format": "swiss_knockout", "swiss_rounds": 4,
                                  "advance": 2}))
    with pytest.raises(CompetitionError):
        db.create(parse_settings({"format": "swiss_knockout", "swiss_rounds": 2,
                                  "advance": 8}))


def test_lots_decide_a_tie_the_same_way_every_time(tmp_path: Path) -> None:
    """Issue 33: the organiser's last tie-break, a draw of lots, recorded: the same seed and
    the same tie give the same order (and the standings say the lots decided it)."""
    csv = "name\nAlfa\nBeta\nGama\nDelta\n"
    orders = set()
    for attempt in range(2):
        db = _db(tmp_path / str(attempt), csv)
        cid = db.create(parse_settings({"format": "league", "tables": 2, "seed": 11,
                                        "tie_breaks": ["goal_difference", "lots"]}))
        for m in db.matches(cid):
            db.record_result(m["id"], f"t:{m['id']}", result(1, 1))  # everyone level
        rows = db.table(cid)[""]
        orders.add(tuple(r["team"] for r in rows))
        assert all("sorteio (semente 11)" in " ".join(r["notes"]) for r in rows), rows
    assert len(orders) == 1, "recorded: the same draw again"
    other = set()
    for seed in range(6):
        db = _db(tmp_path / f"s{seed}", csv)
        cid = db.create(parse_settings({"format": "league", "tables": 2, "seed": seed,
                                        "tie_breaks": ["lots"]}))
        for m in db.matches(cid):
            db.record_result(m["id"], f"t:{m['id']}", result(0, 0))
        other.add(tuple(r["team"] for r in db.table(cid)[""]))
    assert len(other) > 1, "another seed, another draw"
    with pytest.raises(ValueError, match="lots"):
        parse_settings({"tie_breaks": ["sorte"]})


def test_ouro_prata_bronze_after_the_groups(tmp_path: Path) -> None:
    """Issue 33: after the groups, the players split into Ouro, Prata and Bronze knockouts
    by their group places (1st–2nd Ouro, 3rd–4th Prata, 5th–6th Bronze of each group)."""
    csv = "name\n" + "".join(f"Time {i:02d}\n" for i in range(1, 13))
    db = _db(tmp_path, csv)
    cid = db.create(parse_settings({"groups": 2, "advance": 2, "tables": 6,
                                    "divisions": ["Ouro", "Prata", "Bronze"]}))
    order = [t.key for t in db.teams()]
    for m in db.matches(cid):
        if m["stage"] == "group":  # the team higher in the list always wins
            a_first = order.index(m["team_a"]) < order.index(m["team_b"])
            db.record_result(m["id"], f"t:{m['id']}", result(1, 0) if a_first else result(0, 1))
    db.advance(cid)
    table = db.table(cid)
    ko = [m for m in db.matches(cid) if m["stage"] == "ko"]
    assert len(ko) == 9, "three brackets of four: two semi-finals and a final each"
    for i, division in enumerate(("Ouro", "Prata", "Bronze")):
        semis = [m for m in ko if m["group"] == f"{division}: Semifinal"]
        places = {r["team"] for g in table.values() for r in g[2 * i:2 * i + 2]}
        assert {t for m in semis for t in (m["team_a"], m["team_b"])} == places, division
        for m in semis:
            db.record_result(m["id"], f"t:{m['id']}", result(2, 0))
    db.advance(cid)
    for m in [m for m in db.matches(cid) if m["group"].endswith(": Final")]:
        db.record_result(m["id"], f"t:{m['id']}", result(1, 0))
    from futmesa.venue.views import competition_view

    view = competition_view(db)
    assert [c["division"] for c in view["champions"]] == ["Ouro", "Prata", "Bronze"]
    assert view["champion"] == view["champions"][0]["team"]
    finals = [v for v in view["matches"] if v["final"]]
    assert len(finals) == 3
    with pytest.raises(CompetitionError, match="divis"):  # divisions, divisões
        db.create(parse_settings({"groups": 4, "advance": 2, "divisions": ["Ouro", "Prata"]}))
