"""From a table's súmula to the desk's standings, without a network: the outbox turns a
finished match of the event log into a result, the desk stores it once (only from the table
it assigned the match to), and a disqualification the referee recorded at the table
(003 Art. 85) becomes a report the organiser confirms into the competition sanction."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from futmesa.competition.db import CompetitionDB
from futmesa.competition.settings import parse_settings
from futmesa.competition.teams import read_teams_csv
from futmesa.store import EventLog
from futmesa.venue.checks import Refused
from futmesa.venue.desk import Desk
from futmesa.venue.mqtt import Broker
from futmesa.venue.outbox import Outbox

TEAMS = "name,color\nAlfa,#ff0000\nBeta,#00ff00\nGama,#0000ff\nDelta,#ffff00\n"


def play(log: EventLog, table: str, cm: int, entries: list[tuple[str, dict]]) -> int:
    mid = log.new_match(table, "pastilha-8x2", {"competition_match": cm})
    for i, (kind, data) in enumerate(entries):
        log.append_entry(mid, "referee", kind, data, 1, 1000 * i, "árbitro")
    log.end_match(mid)
    return mid


def league(desk_db: Path) -> tuple[CompetitionDB, int, dict[str, Any]]:
    """The four TEAMS' pastilha-8x2 league in the desk's `desk_db`, its first match given to
    mesa-1: the database, the league and that match."""
    comp = CompetitionDB(desk_db)
    comp.import_teams(read_teams_csv(TEAMS))
    cid = comp.create(parse_settings({"format": "league", "ruleset": "pastilha-8x2"}))
    first = comp.matches(cid)[0]
    comp.set_assigned(first["id"], "mesa-1")
    return comp, cid, first


def test_a_result_corrected_after_the_end_is_sent_again_and_replaces_it(tmp_path: Path) -> None:
    desk_db = tmp_path / "desk.sqlite"
    comp, cid, first = league(desk_db)
    log = EventLog(tmp_path / "mesa.sqlite")
    outbox = Outbox(log)
    mid = play(log, "mesa-1", first["id"], [("discipline", {"side": "B", "type": "disqualify"})])
    outbox.scan("mesa-1")
    desk = Desk(str(desk_db), Broker("127.0.0.1", 1), "unused")
    [body] = outbox.pending("mesa-1")
    desk.receive_result("mesa-1", body)
    outbox.acknowledge("mesa-1", desk.acked("mesa-1"))
    assert outbox.recheck("mesa-1") == 0 and outbox.pending("mesa-1") == []
    # the referee disqualified the wrong side: amended at the console after the end
    target = log.entries(mid)[0].id
    log.append_entry(mid, "referee", "amend",
                     {"target": target, "data": {"side": "A", "type": "disqualify"}}, 1, 0,
                     "árbitro")
    assert outbox.recheck("mesa-1") == 1
    [fixed] = outbox.pending("mesa-1")
    assert fixed["uid"] == body["uid"] and fixed["winner"] == "B"
    assert desk.receive_result("mesa-1", fixed)
    m = comp.match(first["id"])
    assert (m["result"]["score_a"], m["result"]["score_b"], m["result"]["winner"]) == (0, 2, "B")
    rows = {r["team"]: r for r in comp.table(cid)[""]}
    assert rows[first["team_b"]]["points"] == 3 and rows[first["team_b"]]["played"] == 1
    # the wrong report is withdrawn by the correction; the right one waits for the organiser
    reports = comp.decisions.reports(cid)
    assert [(r["team"], r["decision"]) for r in reports] == [
        (first["team_b"], "withdrawn"), (first["team_a"], None)]
    assert comp.decisions.sanctions(cid) == []
    comp.decisions.decide_report(reports[1]["id"], confirm=True)
    comp.advance(cid)
    rows = {r["team"]: r for r in comp.table(cid)[""]}
    assert [(x["team"], x["rule"]) for x in comp.decisions.sanctions(cid)] == [
        (first["team_a"], "003 Art. 85")]
    assert not rows[first["team_b"]]["disqualified"] and rows[first["team_a"]]["disqualified"]
    for m in comp.matches(cid):
        if m["id"] != first["id"]:
            assert (m["status"] == "walkover") == (first["team_a"] in (m["team_a"], m["team_b"]))


def test_a_table_disqualification_reaches_the_standings_once(tmp_path: Path) -> None:
    desk_db = tmp_path / "desk.sqlite"
    comp, cid, first = league(desk_db)

    log = EventLog(tmp_path / "mesa.sqlite")
    outbox = Outbox(log)
    play(log, "mesa-1", first["id"], [("discipline", {"side": "B", "type": "disqualify"})])
    unfinished = log.new_match("mesa-1", "pastilha-8x2", {"competition_match": 99})
    log.end_match(unfinished)  # ended by a new match before its end: no result
    assert outbox.scan("mesa-1") == 1 and outbox.scan("mesa-1") == 0  # behind the cursor
    [body] = outbox.pending("mesa-1")
    assert (body["score_a"], body["score_b"], body["winner"]) == (2, 0, "A")  # Art. 83 §3
    assert body["reason"] == "forfeit" and body["rule"] == "003 Art. 85"
    assert body["uid"] == f"mesa-1:{body['match_id']}"

    desk = Desk(str(desk_db), Broker("127.0.0.1", 1), "unused")  # not started: no network
    assert desk.receive_result("mesa-1", body)
    assert not desk.receive_result("mesa-1", body)  # heard again: nothing changes
    other = {**body, "uid": f"mesa-2:{body['match_id']}"}
    with pytest.raises(Refused, match="foi dada à mesa mesa-1"):
        desk.receive_result("mesa-2", other)  # mesa-2 was not given this match
    loser = first["team_b"]
    [report] = comp.decisions.reports(cid, open_only=True)
    assert report["team"] == loser and comp.decisions.sanctions(cid) == []  # nothing applied yet
    comp.decisions.decide_report(report["id"], confirm=True)
    comp.advance(cid)
    sanctions = comp.decisions.sanctions(cid)
    assert [(s["team"], s["kind"], s["rule"]) for s in sanctions] == [
        (loser, "competition_points", "003 Art. 85")]
    rows = comp.table(cid)[""]
    assert rows[-1]["team"] == loser and rows[-1]["disqualified"]
    # the rest of the disqualified team's matches are walk-overs for its opponents
    rest = [m for m in comp.matches(cid) if loser in (m["team_a"], m["team_b"])
            and m["id"] != first["id"]]
    assert rest and all(m["status"] == "walkover" for m in rest)
    # the table learns from the desk's ack that its result is stored
    assert outbox.acknowledge("mesa-1", desk.acked("mesa-1")) == 1
    assert outbox.pending("mesa-1") == []
