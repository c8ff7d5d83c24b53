"""Referee input through the daemon: logged before it is applied, refused inputs say why."""

from __future__ import annotations

from pathlib import Path

import pytest

from futmesa.daemon import TableDaemon
from futmesa.hub import RefusedError, StateHub
from futmesa.link.messages import DeviceInfo, Profile
from futmesa.store import EventLog


def _daemon(tmp_path: Path) -> TableDaemon:
    store = EventLog(tmp_path / "m.sqlite")
    daemon = TableDaemon(store, StateHub(), str(tmp_path / "no-port"), "cbfm-1toque")
    info = DeviceInfo(proto=1, firmware="0.1.0", board="sim", uid="T1", boot_id=1, oldest=1,
                      newest=0, tick_rate=1000, tick_bits=32,
                      profile=Profile(2, 0, 0, 0, 1_500_000, 300_000, 0, 15_000, 0),
                      last_cmd_seq=0)
    daemon.on_device(info)
    return daemon


def test_refused_input_is_not_logged_and_says_why(tmp_path: Path) -> None:
    daemon = _daemon(tmp_path)
    before = len(daemon.store.entries(daemon.match["id"]))
    # 000 Art. 12 §1: a shot can only be asked with the ball in play; the match has not started
    with pytest.raises(RefusedError) as refused:
        daemon.referee("shot_asked", {"side": "A", "disc": 9}, "ref")
    assert "/" in str(refused.value) and str(refused.value).strip(" /")
    assert len(daemon.store.entries(daemon.match["id"])) == before


def test_accepted_input_is_logged_with_author_then_applied(tmp_path: Path) -> None:
    daemon = _daemon(tmp_path)
    result = daemon.referee("set_up", {"teams": {"A": {"name": "<b>Casa</b>"}}}, "árbitro 1")
    entries = daemon.store.entries(daemon.match["id"])
    assert entries[-1].kind == "set_up" and entries[-1].author == "árbitro 1"
    assert result["state"]["teams"]["A"]["name"] == "<b>Casa</b>"


def test_state_survives_a_restart_by_replay(tmp_path: Path) -> None:
    daemon = _daemon(tmp_path)
    daemon.referee("set_up", {"teams": {"A": {"name": "Casa"}, "B": {"name": "Fora"}}}, "ref")
    first = daemon.state.to_dict()
    daemon.store.close()
    again = _daemon(tmp_path)  # same file: the open match is resumed and replayed
    assert again.match["id"] == daemon.match["id"]
    assert again.state.to_dict()["teams"] == first["teams"]
