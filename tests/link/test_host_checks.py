"""The host never trusts a device: impossible fields are refused and counted, never applied.

Issue 13, item 3: a well-formed GAP(oldest=0xFFFFFFF0) used to move the
cursor to 4294967279, after which every event of that boot was dropped as
a duplicate. Item 6: a reconnection to a known table takes one round trip,
retried quickly. Frames are built with futmesa_wire; the protocol is driven
through its recording transport and fake clock (test_host_link.Rig).
"""

from __future__ import annotations

import logging
import struct

import pytest

import futmesa_wire as W
from futmesa.link import protocol

from .harness import stored
from .test_host_link import event, hello_ack, status


def frame(msg_type: int, boot: int, seq: int, payload: bytes, ticks: int = 0) -> bytes:
    return W.encode_frame(msg_type, boot, seq, ticks, payload)[:-1]


def gap(boot: int, asked: int, oldest: int, newest: int, header_boot: int = 5) -> bytes:
    return frame(W.MSG_GAP, header_boot, 0, struct.pack(W.GAP_FMT, boot, asked, oldest, newest))


def raw_event(boot: int, seq: int, kind: int, a: int = 0, b: int = 0, clock_ms: int = 0,
              value: int = 0) -> bytes:
    return frame(W.MSG_EVENT, boot, seq, struct.pack(W.EVENT_FMT, kind, a, b, 1, clock_ms, value))


def test_a_gap_beyond_the_newest_event_is_refused_and_the_boot_goes_on(rig):
    rig.connect(5, 18)
    rig.feed(*(event(5, s) for s in range(1, 19)))
    rig.feed(gap(5, 19, 0xFFFFFFF0, 20))  # the device claims events up to 4294967279 gone
    assert rig.store.gaps() == [] and rig.link.stats.bad_frames == 1
    assert rig.store.last_committed("UID00001") == (5, 18)
    rig.feed(event(5, 19), event(5, 20))  # later events of the boot are stored and acked
    assert stored(rig.store)[-2:] == [(5, 19, 9), (5, 20, 9)]
    assert rig.acks()[-1] == (5, 20)


@pytest.mark.parametrize("boot,asked,oldest,newest", [
    (6, 1, 5, 9),  # another boot's gap
    (5, 1, 5, 0x40000000),  # newest beyond SEQ_MAX
    (5, 1, 12, 9),  # oldest beyond newest + 1
    (5, 7, 9, 9),  # asked from a seq the host never acknowledged up to
])
def test_impossible_gaps_are_bad_frames(rig, boot, asked, oldest, newest):
    rig.connect(5, 9)
    rig.feed(gap(boot, asked, oldest, newest))
    assert rig.store.gaps() == [] and rig.link.stats.bad_frames == 1
    rig.feed(event(5, 1))
    assert stored(rig.store) == [(5, 1, 9)]


def test_a_genuine_gap_is_still_recorded(rig):
    rig.connect(5, 40)
    rig.feed(gap(5, 1, 17, 40), event(5, 17))
    assert rig.store.gaps() == [(5, 1, 16)] and rig.link.stats.bad_frames == 0
    assert stored(rig.store) == [(5, 17, 9)]


@pytest.mark.parametrize("msg_type", [0x00, 0x0A, 0x7F, W.MSG_ACK, W.MSG_HELLO, W.MSG_CMD])
def test_valid_crc_frames_of_unknown_or_host_types_are_bad(rig, msg_type):
    rig.connect(5, 0)
    rig.feed(frame(msg_type, 5, 0, b"\x00" * 8))
    assert rig.link.stats.bad_frames == 1


@pytest.mark.parametrize("payload", [b"", b"\x01" * 11, b"\x01" * 13])
def test_an_event_of_the_wrong_size_is_bad(rig, payload):
    rig.connect(5, 0)
    rig.feed(frame(W.MSG_EVENT, 5, 1, payload))
    assert rig.link.stats.bad_frames == 1 and stored(rig.store) == []


@pytest.mark.parametrize("fields", [
    dict(kind=0), dict(kind=99), dict(kind=W.EV_GAP), dict(kind=W.EV_GOAL_LINE, a=7),
    dict(kind=W.EV_PALHETA, a=3), dict(kind=W.EV_GOAL_LINE, clock_ms=0x7FFFFFFF),
    # values outside their physical range (issue 21)
    dict(kind=W.EV_TIME_ADDED, value=-2**31), dict(kind=W.EV_TIME_ADDED, value=0),
    dict(kind=W.EV_CLOCK_ADJUSTED, value=2**31 - 1), dict(kind=W.EV_PROFILE_SET, value=-1),
])
def test_an_impossible_event_is_kept_as_a_one_event_gap_never_stored(rig, fields):
    """Numbered events are resent until acknowledged: the link records the one seq as a
    gap (nothing made up) and acknowledges it, so the stream goes on."""
    rig.connect(5, 0)
    rig.feed(event(5, 1), raw_event(5, 2, **fields), event(5, 3))
    assert stored(rig.store) == [(5, 1, 9), (5, 3, 9)]
    assert rig.store.gaps() == [(5, 2, 2)]
    assert rig.link.stats.bad_frames == 1 and rig.link.stats.refused_events == 1
    assert rig.acks()[-1] == (5, 3)


def test_an_event_seq_beyond_seq_max_is_bad(rig):
    rig.connect(5, 0)
    rig.feed(event(5, 0x40000000))
    assert rig.link.stats.bad_frames == 1 and rig.link.stats.out_of_order == 0


def test_a_wild_seq_does_not_inflate_the_reset_gap(rig):
    rig.connect(5, 2)
    rig.feed(event(5, 1), event(5, 2), event(5, 0x3FFF0000))  # out of order, far ahead
    rig.feed(hello_ack(6, 0, newest=1))  # reset
    assert rig.store.gaps() == []  # nothing believable was lost


@pytest.mark.parametrize("fields", [
    dict(period=200), dict(flags=0xFF), dict(palheta=3), dict(acked=9, newest=4),
    dict(newest=0x40000000, acked=0), dict(clock_ms=-(10 ** 9)),
])
def test_an_impossible_status_is_bad_and_not_shown(rig, fields):
    rig.connect(5, 0)
    base = dict(period=1, flags=W.ST_RUNNING, palheta=1, side=2, clock_ms=1000,
                period_ms=1_500_000, added_ms=0, lance_ms=0, lance_len_ms=15_000, newest=4,
                acked=0)
    base.update(fields)
    rig.feed(frame(W.MSG_STATUS, 5, base["newest"], struct.pack(W.STATUS_FMT, *base.values())))
    assert rig.link.stats.bad_frames == 1 and rig.sink.statuses == []
    rig.feed(status(5, 4))
    assert len(rig.sink.statuses) == 1


@pytest.mark.parametrize("change", [
    dict(oldest=9, newest=3), dict(newest=0x40000000), dict(rate=10 ** 7), dict(bits=64),
    dict(uid=b"\x00" * 8),
])
def test_an_impossible_hello_ack_is_bad(rig, change):
    fields = dict(oldest=1, newest=0, rate=1000, bits=32, uid=b"UID00001")
    fields.update(change)
    payload = struct.pack(W.HELLO_ACK_FMT, W.PROTO_VERSION, 0, 1, 0, b"sim", fields["uid"],
                          fields["oldest"], fields["newest"], fields["rate"], fields["bits"])
    payload += struct.pack(W.PROFILE_FMT, 2, 0, 0, 0, 1000, 1000, 0, 0, 0, 0)
    payload += struct.pack("<I", 0)
    rig.feed(frame(W.MSG_HELLO_ACK, 5, 0, payload))
    assert rig.link.stats.bad_frames == 1 and rig.sink.devices == []


def test_log_text_reaches_the_terminal_without_control_characters(rig, caplog):
    caplog.set_level(logging.INFO, logger="futmesa.link")
    rig.feed(frame(W.MSG_LOG, 5, 0, b"ok\x1b[2J\x1b]0;pwned\x07\r\nfake line\x00end"))
    text = [r.getMessage() for r in caplog.records if r.getMessage().startswith("a mesa diz:")]
    assert len(text) == 1
    assert not any(ord(c) < 32 or ord(c) == 127 for c in text[0]), repr(text[0])
    assert "ok" in text[0] and "fake line" in text[0] and "end" in text[0]


def test_a_pong_for_no_ping_gives_no_time_sample(rig):
    rig.connect(5, 0)
    n = len(rig.link.timesync.samples)
    rig.feed(frame(W.MSG_PONG, 5, 0, struct.pack(W.PING_FMT, 12345), ticks=99))
    assert len(rig.link.timesync.samples) == n and rig.link.stats.bad_frames == 1


def test_commands_waiting_for_a_table_are_capped(rig):
    futures = [rig.link.command(W.CMD_BEEP, a=1) for _ in range(protocol.MAX_UNNUMBERED + 5)]
    assert len(rig.link._unnumbered) == protocol.MAX_UNNUMBERED
    assert [f.result(timeout=0) for f in futures[:5]] == [W.ACK_REFUSED] * 5
    assert not any(f.done() for f in futures[5:])


# -- item 6: reconnecting quickly ----------------------------------------------------------

def test_an_unanswered_hello_is_retried_within_a_third_of_a_second(rig):
    times = []
    for _ in range(200):
        before = len(rig.hellos())
        rig.link.tick()
        if len(rig.hellos()) > before:
            times.append(rig.clock())
        rig.clock.advance(0.01)
    gaps = [b - a for a, b in zip(times, times[1:], strict=False)]
    assert len(gaps) >= 5 and max(gaps) <= 0.3 + 0.011, gaps


def test_after_silence_a_known_table_reconnects_in_one_round_trip(rig):
    rig.connect(5, 3)
    rig.feed(event(5, 1), event(5, 2))
    rig.clock.advance(protocol.SILENCE_S)
    rig.link.tick()
    assert not rig.link.connected
    rig.sent.clear()
    rig.clock.advance(protocol.HELLO_RETRY_S)
    rig.link.tick()
    # not "who are you?" again: the cursor HELLO at once, whose answer connects
    assert rig.hellos() == [(W.PROTO_VERSION, 5, 2)]
    rig.feed(hello_ack(5, 1, newest=3))
    assert rig.link.connected
    rig.feed(event(5, 3))
    assert stored(rig.store)[-1] == (5, 3, 9)


def test_a_known_table_that_was_reset_while_away_is_still_identified(rig):
    rig.connect(5, 2)
    rig.feed(event(5, 1), event(5, 2))
    rig.clock.advance(protocol.SILENCE_S)
    rig.link.tick()
    rig.clock.advance(protocol.HELLO_RETRY_S)
    rig.link.tick()
    rig.feed(hello_ack(6, 1, newest=1))  # boot 6 answers the cursor HELLO meant for boot 5
    # its small answer does not say enough to resume a boot we never saw: "who are you?"
    assert not rig.link.connected
    rig.link.tick()
    assert rig.hellos()[-1] == (W.PROTO_VERSION, 0, W.IDENTIFY_ONLY)
    rig.feed(hello_ack(6, 0, newest=1))
    assert rig.hellos()[-1] == (W.PROTO_VERSION, 0, 0)  # the cursor HELLO for the new boot
    rig.feed(hello_ack(6, 1, newest=1), event(6, 1))
    assert rig.link.connected and stored(rig.store)[-1] == (6, 1, 9)


def test_a_binary_unique_id_is_shown_in_hex_never_as_control_characters(rig):
    """A board's machine.unique_id() is 8 binary bytes; all below 0x80 (1 board in 256) used
    to be decoded as ASCII, escape sequences included, into logs and the kiosk."""
    payload = struct.pack(W.HELLO_ACK_FMT, W.PROTO_VERSION, 0, 1, 0, b"pi\x07co",
                          b"\x1b[2J\x01\x02", 1, 0, 1000, 32)
    payload += struct.pack(W.PROFILE_FMT, 2, 0, 0, 0, 1000, 1000, 0, 0, 0, 0)
    payload += struct.pack("<I", 0)
    rig.feed(frame(W.MSG_HELLO_ACK, 5, 0, payload))
    assert rig.link.stats.bad_frames == 0
    info = rig.sink.devices[-1]
    assert info.uid == "1b5b324a0102" and info.board == "pi?co"


# -- protocol versions: an old firmware is refused by name, never by CRC ----------------------

def test_an_old_firmware_is_refused_by_name_and_nothing_is_stored(rig, monkeypatch, caplog):
    """A protocol-1 firmware (before the small RESUME answer) announces itself: the host says in
    one line what to do, stores nothing and never says a cursor HELLO to it."""
    assert W.PROTO_VERSION == 2
    with monkeypatch.context() as m:
        m.setattr(W, "PROTO_VERSION", 1)  # the old firmware's frames, as it built them
        payload = struct.pack(W.HELLO_ACK_FMT, 1, 0, 1, 0, b"pico", b"OLDPICO1", 1, 9, 1000,
                              32) + struct.pack(W.PROFILE_FMT, 2, 0, 0, 0, 1000, 1000, 0, 0, 0,
                                                0) + struct.pack("<I", 0)
        old_ack = frame(W.MSG_HELLO_ACK, 3, 0, payload)
    caplog.set_level(logging.ERROR, logger="futmesa.link")
    rig.feed(old_ack, old_ack)  # said twice (the boot announcement repeats)
    want = ("firmware da mesa é antigo (protocolo 1; este futmesa fala 2): atualize com "
            "`futmesa flash`")
    assert rig.link.refused == want
    assert [r.getMessage() for r in caplog.records if r.name == "futmesa.link"] == [
        want]  # logged once, one line
    assert rig.sink.devices == [] and stored(rig.store) == [] and rig.store.gaps() == []
    assert not rig.link.connected
    rig.link.tick()
    assert all(h[2] == W.IDENTIFY_ONLY for h in rig.hellos())  # no cursor HELLO to it


def test_a_newer_firmware_asks_for_a_newer_futmesa(rig):
    payload = struct.pack(W.REFUSE_FMT, W.PROTO_VERSION + 1, W.PROTO_VERSION)
    rig.feed(frame(W.MSG_REFUSE, 3, 0, payload))
    assert rig.link.refused == ("este futmesa é mais antigo que o firmware da mesa (protocolo 3;"
                                " este futmesa fala 2): atualize o futmesa")


# -- a reset's last moments: the seq reservation leaves a trace --------------------------------

def lost_event(boot: int, seq: int, a: int, b: int, clock_ms: int, value: int) -> bytes:
    return frame(W.MSG_EVENT, boot, seq, struct.pack(W.EVENT_FMT, W.EV_LOST, a, b, 1, clock_ms,
                                                     value), ticks=seq)


def test_events_made_in_the_last_moments_before_a_reset_are_recorded_as_a_possible_loss(rig):
    """Boot 5 made events 1..5; the host committed 1..3, then the table was reset before its
    flash record of unacknowledged events was written. Its seq reservation (made 1, numbered
    at most up to 16) is reported by boot 6: the host records "up to 13 events may be lost
    after seq 3" (the soak lost such an event without a trace before)."""
    rig.connect(5, 0)
    rig.feed(event(5, 1), event(5, 2), event(5, 3))
    rig.feed(hello_ack(6, 0, newest=2))  # the reset boot announces itself
    rig.feed(hello_ack(6, 1, newest=2), event(6, 1),
             lost_event(6, 2, 0, W.LOST_RESERVED, 1, 16))
    assert rig.link.stats.bad_frames == 0 and rig.link.stats.refused_events == 0
    assert rig.store.possible_losses() == [(5, 3, 16)]
    assert rig.store.gaps() == []  # nothing certain is missing: 1 was made, and is held
    assert rig.link.stats.possible_losses == 1
    # the same report again (a resend after a host restart) adds nothing
    rig.feed(lost_event(6, 2, 0, W.LOST_RESERVED, 1, 16))
    assert rig.store.possible_losses() == [(5, 3, 16)]


def test_a_reservation_beyond_what_the_host_holds_records_the_made_part_as_a_gap(rig):
    rig.connect(5, 0)
    rig.feed(event(5, 1))
    rig.feed(hello_ack(6, 0, newest=2))
    rig.feed(hello_ack(6, 1, newest=2), event(6, 1),
             lost_event(6, 2, 0, W.LOST_RESERVED, 17, 32))
    assert rig.store.gaps() == [(5, 2, 17)]  # seq 17 was made (it crossed the reservation)
    assert rig.store.possible_losses() == [(5, 17, 32)]


def test_ping_tokens_stay_small_and_a_slow_pong_is_no_bad_frame(rig):
    """A PING's token fits 30 bits (a small int on a 32-bit board: an RP2040 boxed a
    larger one on the heap at every PONG). A PONG slower than SILENCE_S (an emulated
    board on a busy host) answers a real PING: not a bad frame, but no time sample."""
    rig.clock.t = 1.5e6  # host ms past 2**30
    rig.connect(5, 0)
    pings = [f for f in rig.sent if f.msg_type == W.MSG_PING]
    token = struct.unpack(W.PING_FMT, pings[-1].payload)[0]
    assert token < 1 << 30
    samples, bad = len(rig.link.timesync.samples), rig.link.stats.bad_frames
    rig.clock.advance(protocol.SILENCE_S + 2)
    rig.feed(frame(W.MSG_PONG, 5, 0, struct.pack(W.PING_FMT, token), ticks=99))
    assert rig.link.stats.bad_frames == bad
    assert len(rig.link.timesync.samples) == samples  # 5 s of round trip: not a sample
