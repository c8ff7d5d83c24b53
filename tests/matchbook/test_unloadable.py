"""A stored match this version cannot load is reported as such and never blocks the table.

The bad rows are written straight into the SQLite file (as an older or newer futmesa, or a
damaged disk, could have left them): the history, ``futmesa matches`` / ``report`` and the
daemon's restart must cope with them (issue 13, item 1).
"""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner

import futmesa_wire as W
from futmesa.cli import cli
from futmesa.hub import StateHub
from futmesa.link.messages import DeviceInfo, Profile
from futmesa.matchbook import MatchLibrary
from futmesa.store import EventLog
from futmesa.table import TableDaemon
from futmesa_testkit.liveserver import serving

TABLE = "sim-T1"
BAD = {
    "bad JSON": ("cbfm-1toque", '{"period_ms": 9'),
    "not an object": ("cbfm-1toque", "[1, 2]"),
    "unknown ruleset": ("typo", "{}"),
    # a value written by another version of futmesa that this one does not accept
    "other version": ("cbfm-1toque", '{"competition": "copa", "period_ms": "25:00"}'),
}


def _info() -> DeviceInfo:
    return DeviceInfo(proto=1, firmware="0.1.0", board="sim", uid="T1", boot_id=1, oldest=1,
                      newest=0, tick_rate=1000, tick_bits=32,
                      profile=Profile(2, 0, 0, 0, 1_500_000, 300_000, 0, 15_000, 0),
                      last_cmd_seq=0)


def _daemon(db: Path) -> TableDaemon:
    daemon = TableDaemon(EventLog(db), StateHub(), str(db.parent / "no-port"), "cbfm-1toque")
    daemon.on_device(_info())
    return daemon


def _insert_bad(db: Path, ruleset: str, settings: str, ended: bool = False) -> int:
    con = sqlite3.connect(db)
    with con:
        cur = con.execute(
            "INSERT INTO matches(table_id, ruleset, settings, referee, created_at, ended_at)"
            " VALUES (?,?,?,?,?,?)",
            (TABLE, ruleset, settings, "", time.time(), time.time() if ended else None))
        mid = int(cur.lastrowid or 0)
        con.execute(
            "INSERT INTO entries(match_id, source, kind, data, period, clock_ms, ticks,"
            " author, created_at, occurred_at) VALUES (?,?,?,?,?,?,?,?,?,?)",
            (mid, "referee", "set_up", '{"kickoff": "A"}', 0, 0, 0, "ref", time.time(),
             time.time() * 1000))
    con.close()
    return mid


def _good_match(db: Path) -> int:
    daemon = _daemon(db)
    daemon.referee("set_up", {"teams": {"A": {"name": "Casa"}, "B": {"name": "Fora"}}}, "ref")
    mid = int(daemon.match["id"])
    daemon.store.end_match(mid)
    daemon.store.close()
    return mid


@pytest.mark.parametrize("case", list(BAD))
def test_restart_on_an_unloadable_current_match_starts_fresh(tmp_path: Path, case: str,
                                                             caplog: pytest.LogCaptureFixture
                                                             ) -> None:
    db = tmp_path / "m.sqlite"
    _good_match(db)
    bad = _insert_bad(db, *BAD[case])
    daemon = _daemon(db)  # `serve` restarted: the table connects
    assert daemon.match is not None and daemon.match["id"] > bad
    assert daemon.store.match(bad)["ended_at"] is not None
    assert "não carregável" in caplog.text and f"partida {bad}" in caplog.text
    # device events are stored and applied in the new match; the referee can act
    daemon.referee("set_up", {"kickoff": "A"}, "ref")
    daemon.referee("start_period", {}, "ref")
    daemon.on_event(daemon.info, 1, 1, 100, (W.EV_PERIOD_STARTED, 0, 0, 1, 0, 0))
    assert [e.kind for e in daemon.store.entries(daemon.match["id"])][-1] == "period_started"
    assert len(daemon.store.device_events("T1")) == 1
    result = daemon.referee("new_match", {}, "ref")
    assert result["ok"] and result["match_id"] > daemon.store.match(bad)["id"]
    # the bad match's own log is untouched
    assert [e.kind for e in daemon.store.entries(bad)] == ["set_up"]


@pytest.mark.parametrize("case", list(BAD))
def test_history_matches_and_report_say_it_cannot_be_loaded(tmp_path: Path, case: str) -> None:
    db = tmp_path / "m.sqlite"
    good = _good_match(db)
    bad = _insert_bad(db, *BAD[case], ended=True)
    rows = {m["id"]: m for m in MatchLibrary(EventLog(db)).list_matches()}
    assert rows[bad]["ending"]["code"] == "unloadable"
    assert rows[bad]["ending"]["pt"].startswith("não carregável: ")
    assert rows[good]["teams"]["A"]["name"] == "Casa"

    with serving(history=MatchLibrary(EventLog(db))) as live, \
            httpx.Client(base_url=live.url, timeout=30) as client:
        page = client.get("/history")
        assert page.status_code == 200
        assert "não carregável" in page.text and "Casa" in page.text
        assert f'href="/report/{good}"' in page.text
        assert f'href="/report/{bad}' not in page.text  # no súmula to open
        assert client.get("/history?lang=en").text.count("cannot be loaded") == 1
        assert client.get("/api/matches").status_code == 200
        r = client.get(f"/report/{bad}")
        assert r.status_code == 422 and "não carregável" in r.json()["error"]
        assert client.get(f"/report/{good}").status_code == 200

    runner = CliRunner()
    out = runner.invoke(cli, ["matches", "--db", str(db)])
    assert out.exit_code == 0, out.output
    line = [x for x in out.output.splitlines() if x.strip().startswith(str(bad))]
    assert len(line) == 1 and "não carregável" in line[0]
    rep = runner.invoke(cli, ["report", str(bad), "--db", str(db),
                              "--pdf", str(tmp_path / "s.pdf")])
    assert rep.exit_code == 1 and "Traceback" not in rep.output
    assert len(rep.output.strip().splitlines()) == 1 and "não carregável" in rep.output


def test_an_unreadable_entry_is_reported_and_never_blocks_the_table(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    db = tmp_path / "m.sqlite"
    _good_match(db)
    bad = _insert_bad(db, "cbfm-1toque", "{}")  # the table's current match …
    con = sqlite3.connect(db)
    with con:  # … with an entry whose data is not JSON
        con.execute("UPDATE entries SET data='{\"side\": ' WHERE match_id=?", (bad,))
    con.close()
    row = {m["id"]: m for m in MatchLibrary(EventLog(db)).list_matches()}[bad]
    assert row["ending"]["code"] == "unloadable" and row["loadable"] is False
    daemon = _daemon(db)
    assert daemon.match["id"] > bad and "não carregável" in caplog.text
    daemon.on_event(daemon.info, 1, 1, 100, (W.EV_PERIOD_STARTED, 0, 0, 1, 0, 0))
    assert daemon.store.entries(daemon.match["id"])[-1].kind == "period_started"
