"""A table reset as the daemon shows it (issue 13, item 2): at once, and with the lost time.

The daemon is the sink of the real link protocol over a real SQLite file
(test_health.Table). Before: the kiosk kept counting the old boot's clock for
about 3 s (until silence), still "connected", then jumped back by the downtime.
"""

from __future__ import annotations

import struct
import time

import futmesa_wire as W

from .test_health import Table
from .test_host_link import event, hello_ack


def running_status(boot: int, clock_ms: int, newest: int = 0) -> bytes:
    return W.encode_frame(W.MSG_STATUS, boot, newest, 5000, struct.pack(
        W.STATUS_FMT, 1, W.ST_RUNNING, 1, 2, clock_ms, 1_500_000, 0, 0, 15_000, newest,
        newest))[:-1]


def test_a_reset_shows_at_once_and_offers_the_lost_time(tmp_path):
    table = Table(tmp_path)
    try:
        table.connect(5, 0)
        table.feed(running_status(5, 600_000))
        state = table.daemon.state_json()
        assert state["clock"]["running"] and state["link"]["reset"] is None
        time.sleep(0.3)  # the board is reset 0.3 s later: its clock restores from flash
        table.feed(hello_ack(6, 0, newest=2))  # its announcement at boot
        state = table.hub.snapshot()
        assert state["clock"]["running"] is False, "the old clock stops counting at once"
        assert state["link"]["reset"]["boot"] == 6 and not state["link"]["reset"]["restored"]
        table.feed(hello_ack(6, 1, newest=2), event(6, 1), event(6, 2))
        table.feed(running_status(6, 599_500, newest=2))  # the checkpoint it restored
        reset = table.hub.snapshot()["link"]["reset"]
        assert reset["restored"]
        # what the clock would read had it never stopped, minus what it reads: ≥ 0.8 s
        assert 800 <= reset["lost_ms"] <= 5_000, reset
        assert table.hub.snapshot()["clock"]["running"] is True
    finally:
        table.store.close()


def test_lost_events_of_the_previous_boot_become_gaps_and_entries(tmp_path):
    table = Table(tmp_path)
    try:
        table.connect(5, 3)
        table.feed(event(5, 1))  # 2..4 never arrive (host saw up to 3): unplugged, reset
        table.feed(hello_ack(6, 0, newest=0))
        table.feed(hello_ack(6, 1, newest=4))

        def lost(seq: int, a: int, first: int, value: int) -> bytes:
            return W.encode_frame(W.MSG_EVENT, 6, seq, 0, struct.pack(
                W.EVENT_FMT, W.EV_LOST, a, 0, 1, first, value))[:-1]

        table.feed(W.encode_frame(W.MSG_EVENT, 6, 1, 0, struct.pack(
            W.EVENT_FMT, W.EV_BOOT, 0, 0, 0, 0, 512))[:-1])
        table.feed(lost(2, W.EV_GOAL_LINE, 2, 1), lost(3, W.EV_BUTTON, 2, 2), lost(4, 0, 2, 4))
        # 2..3 from what the host had seen (the reset gap), 4 from the device's own record
        assert table.store.gaps() == [(5, 2, 3), (5, 4, 4)]
        assert table.link.stats.bad_frames == 0
        entries = table.store.entries(table.daemon.match["id"])
        named = [(e.data.get("kind"), e.data.get("count")) for e in entries if e.kind == "lost"]
        assert named == [("goal_line", 1), ("button", 2), (None, None)]
        announced = [a.get("code") for a in table.daemon.state.to_dict()["announcements"]]
        assert announced.count("lost") == 2
        assert table.store.last_committed("UID00001") == (6, 4)  # the cursor stays on boot 6
    finally:
        table.store.close()


def test_a_reset_in_the_last_moments_leaves_a_possible_loss_and_an_entry(tmp_path):
    """Events made after the flash record's last write and before the reset used to vanish
    (the soak lost 1 of 876 so). The next boot reports the previous boot's seq reservation:
    the daemon records "up to N events may be lost after seq S" and the match log says so."""
    from futmesa.matchbook.wording import sentence

    table = Table(tmp_path)
    try:
        table.connect(5, 3)
        table.feed(event(5, 1), event(5, 2))  # the table made more, then was reset
        table.feed(hello_ack(6, 0, newest=0))
        table.feed(hello_ack(6, 1, newest=2))
        table.feed(W.encode_frame(W.MSG_EVENT, 6, 1, 0, struct.pack(
            W.EVENT_FMT, W.EV_BOOT, 0, 0, 0, 0, 512))[:-1])
        table.feed(W.encode_frame(W.MSG_EVENT, 6, 2, 0, struct.pack(
            W.EVENT_FMT, W.EV_LOST, 0, W.LOST_RESERVED, 1, 1, 16))[:-1])
        assert table.link.stats.bad_frames == 0
        assert table.store.gaps() == [(5, 3, 3)]  # seen in HELLO_ACK, never stored
        assert table.store.possible_losses() == [(5, 3, 16)]
        entry = [e for e in table.store.entries(table.daemon.match["id"]) if e.kind == "lost"][-1]
        assert entry.data == {"made_seq": 1, "reserved_seq": 16}
        assert sentence("lost", entry.data, {}) == (
            "Mesa reiniciada: eventos feitos nos últimos instantes da inicialização anterior, "
            "depois do nº 1, podem ter se perdido (no máximo até o nº 16)")
        assert "may be lost" in sentence("lost", entry.data, {}, "en")
    finally:
        table.store.close()
