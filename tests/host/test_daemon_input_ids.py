"""A referee input sent again with the id its phone gave it is applied once, even after the
host restarted between the two (its answer was lost with the host)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from test_daemon_referee import _daemon

from futmesa.store import EventLog


def _set_ups(daemon: object) -> int:
    rows = daemon.store.entries(daemon.match["id"])  # type: ignore[attr-defined]
    return sum(e.kind == "set_up" for e in rows)


def test_the_same_input_id_is_applied_once_across_a_restart(tmp_path: Path) -> None:
    daemon = _daemon(tmp_path)
    first = daemon.referee("set_up", {"teams": {"A": {"name": "Casa"}}}, "ref",
                           input_id="4f7c9a2e-1111-4a4a-9b9b-123456789abc")
    again = daemon.referee("set_up", {"teams": {"A": {"name": "Casa"}}}, "ref",
                           input_id="4f7c9a2e-1111-4a4a-9b9b-123456789abc")
    assert again["already"] is True and again["entry_id"] == first["entry_id"]
    assert _set_ups(daemon) == 1
    daemon.store.close()
    restarted = _daemon(tmp_path)  # the host came back; the phone sends it a third time
    third = restarted.referee("set_up", {"teams": {"A": {"name": "Casa"}}}, "ref",
                              input_id="4f7c9a2e-1111-4a4a-9b9b-123456789abc")
    assert third["entry_id"] == first["entry_id"]
    assert _set_ups(restarted) == 1
    # another press (another id) is another input
    restarted.referee("set_up", {"teams": {"A": {"name": "Casa"}}}, "ref",
                      input_id="4f7c9a2e-2222-4a4a-9b9b-123456789abc")
    assert _set_ups(restarted) == 2


def test_a_log_from_before_input_ids_opens_and_takes_them(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite"
    EventLog(path).close()
    with sqlite3.connect(path) as db:  # as written by a futmesa without input ids
        db.execute("DROP TABLE referee_inputs")
        db.execute("DROP TABLE futmesa_schema")  # nor the count of schema steps
    store = EventLog(path)
    match_id = store.new_match("t", "cbfm-1toque", {})
    entry = store.append_entry(match_id, "referee", "pause", {}, 1, 0, "ref",
                               input_id="old-file-input-0001")
    assert store.input_entry("old-file-input-0001") == (match_id, entry)
    assert store.input_entry("never-sent-000001") is None
