"""Honest reset reports (issue 21, item 6): "events may be lost" only when some could have been.

Every board reset used to record "up to 13 events may be lost" (the seq reservation is
always ahead of what was made), so referees learned to ignore it. The table sends a STATUS
right after every event: its last one before the reset, with nothing the log lacks, closes
the window. The daemon is the sink of the real link protocol over a real SQLite file.
"""

from __future__ import annotations

import struct

import futmesa_wire as W

from .test_daemon_reset import running_status
from .test_health import Table
from .test_host_link import event, hello_ack


def _reset_to_boot_6(table: Table, made: int, reserved: int) -> None:
    table.feed(hello_ack(6, 0, newest=0), hello_ack(6, 1, newest=2))
    table.feed(W.encode_frame(W.MSG_EVENT, 6, 1, 0, struct.pack(
        W.EVENT_FMT, W.EV_BOOT, 0, 0, 0, 0, 512))[:-1])
    table.feed(W.encode_frame(W.MSG_EVENT, 6, 2, 0, struct.pack(
        W.EVENT_FMT, W.EV_LOST, 0, W.LOST_RESERVED, 1, made, reserved))[:-1])
    assert table.link.stats.bad_frames == 0


def _may_be_lost_entries(table: Table) -> list[dict]:
    return [e.data for e in table.store.entries(table.daemon.match["id"])
            if e.kind == "lost" and "reserved_seq" in e.data]


def test_a_reset_right_after_a_complete_status_reports_no_loss(tmp_path) -> None:
    table = Table(tmp_path)
    try:
        table.connect(5, 0)
        table.feed(event(5, 1), event(5, 2), running_status(5, 600_000, newest=2))
        _reset_to_boot_6(table, made=1, reserved=16)
        assert table.store.possible_losses() == []
        assert table.store.gaps() == []
        assert _may_be_lost_entries(table) == []
        assert table.link.stats.possible_losses == 0
        # the device's own report is kept in the log all the same
        kept = [e for e in table.store.device_events("UID00001") if e.kind == "lost"]
        assert [(e.clock_ms, e.value) for e in kept] == [(1, 16)]
    finally:
        table.store.close()


def test_events_the_last_status_counted_but_never_arrived_are_a_gap(tmp_path) -> None:
    table = Table(tmp_path)
    try:
        table.connect(5, 0)
        # the status says 4 events were made; 3 and 4 never reached the host
        table.feed(event(5, 1), event(5, 2), running_status(5, 600_000, newest=4))
        _reset_to_boot_6(table, made=1, reserved=16)
        assert table.store.gaps() == [(5, 3, 4)]  # made, so lost for certain: a gap
        assert table.store.possible_losses() == []
    finally:
        table.store.close()


def test_without_a_status_after_the_reservation_the_window_stays_open(tmp_path) -> None:
    table = Table(tmp_path)
    try:
        table.connect(5, 0)
        table.feed(running_status(5, 600_000, newest=0))  # before the events: stale
        table.feed(event(5, 1), event(5, 2))
        _reset_to_boot_6(table, made=1, reserved=16)
        assert table.store.possible_losses() == [(5, 2, 16)]
        [entry] = _may_be_lost_entries(table)
        assert entry == {"made_seq": 1, "reserved_seq": 16}
    finally:
        table.store.close()


def test_a_status_of_a_boot_before_the_previous_one_closes_nothing(tmp_path) -> None:
    """Two resets the host did not see apart: the last status is of an older boot."""
    table = Table(tmp_path)
    try:
        table.connect(4, 0)
        table.feed(event(4, 1), running_status(4, 600_000, newest=1))
        _reset_to_boot_6(table, made=1, reserved=16)  # boot 5 came and went unseen
        assert table.store.possible_losses() != []
    finally:
        table.store.close()
