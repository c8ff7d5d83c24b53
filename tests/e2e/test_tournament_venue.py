"""A tournament day made of real parts: mosquitto, `futmesa desk`, two `futmesa serve` processes
with three simulated tables, a scripted referee at each table — and the faults a venue has.

The broker is killed mid-round and started again, one table's network cable is pulled
during its match and plugged back after it, the desk is killed and restarted. At the end
the desk's results and standings must equal what the tables' own súmulas say: every match
once, none lost, none counted twice.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from futmesa.competition.settings import parse_settings
from futmesa.competition.standings import standings
from futmesa.matchbook import MatchLibrary
from futmesa.store import EventLog
from futmesa.venue import mqtt as vm
from futmesa_testkit.venue import FAST_MATCH, Venue, wait_for

# a failure limit for a busy machine, not a wait (the waits inside are on conditions)
pytestmark = [pytest.mark.slow, pytest.mark.timeout(1200)]

TEAMS = """name,short,color
Estrela do Norte,EST,#c8102e
Botafogo da Mesa,BOT,#1d1d1b
Grêmio Botão,GRE,#0d80bf
União Operária,UNI,#2e7d32
Atlético Pastilha,ATL,#6a1b9a
Palmeirinhas,PAL,#006437
Ferroviário,FER,#b71c1c
Náutico da Palheta,NAU,#ef6c00
"""
SETTINGS = {"name": "Copa de teste", "format": "groups_knockout", "groups": 2, "advance": 1,
            "tables": 3, "match_settings": FAST_MATCH}


def table_results(venue: Venue, only: int | None = None) -> dict[int, tuple[int, int, str | None]]:
    """Every finished competition match, as the tables' own súmulas (event logs) say."""
    out: dict[int, tuple[int, int, str | None]] = {}
    for i, d in enumerate(venue.daemons):
        if only is not None and i != only:
            continue
        store = EventLog(d.db)
        try:
            history = MatchLibrary(store)
            for m in history.list_matches():
                cm = (m.get("settings") or {}).get("competition_match")
                if cm is None or not m.get("finished"):
                    continue
                record = history.match_record(m["id"])
                winner = (record["state"]["match"].get("result") or {}).get("winner")
                assert cm not in out, f"competition match {cm} was played twice at the tables"
                out[cm] = (m["score"]["A"], m["score"]["B"], winner)
        finally:
            store.close()
    return out


def desk_results(comp: dict[str, Any]) -> dict[int, tuple[int, int, str | None]]:
    out = {}
    for m in comp["matches"]:
        if m["status"] == "finished":
            a, b = (int(x) for x in m["score"].split(" × "))
            out[m["id"]] = (a, b, m["winner"])
    return out


def assigned_and_running(venue: Venue, n: int) -> bool:
    running = 0
    for t in venue.table_ids:
        st = venue.table_state(t)
        if st.get("status") == "running" and (st.get("clock") or {}).get("running"):
            running += 1
    return running >= n


def early_in_a_match(venue: Venue) -> bool:
    """A table is in the first half of a match, before its middle."""
    for t in venue.table_ids:
        st = venue.table_state(t)
        clock = st.get("clock") or {}
        if (st.get("status") == "running" and clock.get("running") and st.get("period") == 1
                and clock.get("ms", 0) < clock.get("length_ms", 0) / 2):
            return True
    return False


def test_a_tournament_survives_broker_cable_and_desk_faults(tmp_path: Path) -> None:
    venue = Venue(tmp_path / "venue", TEAMS, SETTINGS, layout=[2, 1], cabled={1})
    with venue:
        try:
            _play_with_faults(venue)
        except AssertionError as exc:
            raise AssertionError(f"{exc}\n{venue.logs()}") from None


def _play_with_faults(venue: Venue) -> None:
    assert venue.broker is not None
    cut_table = venue.table_ids[2]  # served by its own `futmesa serve`, behind a cable

    # round 1 on three tables; kill the broker while the matches are being played
    wait_for(lambda: assigned_and_running(venue, 3), 90, "three matches to be running")
    venue.broker.kill()
    finished_offline = wait_for(
        lambda: [t for t in venue.table_ids if venue.table_state(t).get("finished")], 60,
        "a table to finish its match while the broker is down")
    assert finished_offline
    assert venue.venue()["connected"] is False  # the desk knows it lost the broker
    venue.broker.start()
    wait_for(lambda: venue.competition()["played"] >= 3, 60,
             "the desk to get round 1's results after the broker came back")

    # pull one table's cable during its next match; it finishes offline, then catches up
    wait_for(lambda: venue.table_state(cut_table).get("status") == "running"
             and not venue.table_state(cut_table).get("finished"), 90,
             f"table {cut_table} to play its next match")
    venue.cables[1].pull()
    wait_for(lambda: next((t for t in venue.venue()["tables"]
                           if t["table_id"] == cut_table), {}).get("online") is False, 30,
             "the desk to show the cut table as disconnected")
    wait_for(lambda: venue.table_state(cut_table).get("finished"), 90,
             "the cut-off table to finish its match")
    missing = set(table_results(venue, only=1)) - set(desk_results(venue.competition()))
    assert missing, "the cut-off table's result reached the desk without a cable"

    # plug the cable back in: the table catches up
    venue.cables[1].plug()
    wait_for(lambda: missing <= set(desk_results(venue.competition())), 60,
             "the cut-off table's result to arrive after the cable came back")

    # kill the desk; a table finishes a match and publishes its result while the desk is
    # down (a listener on the broker sees it go by); the restarted desk still gets it.
    # The desk goes down while a match is early in its first half, so a result is still to
    # come (with every table between matches, nothing would be published until the desk
    # is back to assign the next ones).
    wait_for(lambda: early_in_a_match(venue), 90, "a match early in its first half")
    known = set(table_results(venue))
    venue.kill_desk()
    heard: list[dict[str, Any]] = []
    listener = vm.client("test-listener", vm.DESK_USER, venue.broker.credentials["desk"])
    listener.on_message = lambda c, u, msg: heard.append(json.loads(msg.payload))
    listener.on_connect = lambda c, u, f, rc, p=None: c.subscribe(f"{vm.PREFIX}/table/+/result",
                                                                  1)
    listener.connect(venue.broker.url.split("//")[1].split(":")[0], venue.broker.port)
    listener.loop_start()
    try:
        wait_for(lambda: any(h["competition_match"] not in known for h in heard), 90,
                 "a table to publish a result while the desk is down")
    finally:
        listener.loop_stop()
        listener.disconnect()
    venue.start_desk()
    missed = {h["competition_match"] for h in heard} - known
    wait_for(lambda: missed <= set(desk_results(venue.competition())), 60,
             "the restarted desk to get the result published while it was down")

    # play to the final
    comp = wait_for(lambda: (c := venue.competition()).get("champion") and c, 240,
                    "the final to be decided")

    # the desk equals the tables' súmulas: every match once, nothing lost or doubled
    tables = table_results(venue)
    desk = desk_results(comp)
    assert desk == tables
    assert comp["played"] == comp["total"] == 13
    assert all(m["status"] == "finished" for m in comp["matches"])
    # standings recomputed from the tables' súmulas equal the desk's
    s = parse_settings(SETTINGS)
    key_of = {m["id"]: m for m in comp["matches"]}
    names = {r["name"]: r["team"] for rows in comp["standings"].values() for r in rows}
    from_tables = standings(
        [{"id": cm, "stage": "group", "group": key_of[cm]["group"],
          "team_a": names[key_of[cm]["a"]], "team_b": names[key_of[cm]["b"]],
          "status": "finished",
          "result": {"score_a": a, "score_b": b, "winner": w}}
         for cm, (a, b, w) in tables.items() if key_of[cm]["stage"] == "group"], [], s)
    for group, rows in comp["standings"].items():
        assert [(r["team"], r["points"], r["goals_for"], r["goals_against"]) for r in rows] == [
            (r["team"], r["points"], r["goals_for"], r["goals_against"])
            for r in from_tables[group]]
    # each result was stored once per table match, though tables sent some more than once
    received = venue.cli("competition", "schedule", "--db", str(venue.desk_db))
    assert received.count("encerrada") == 13
