"""HostLink and MSG_DIAG: handed to a sink that has on_diag, ignored by one without it."""

from __future__ import annotations

import struct

import pytest

import futmesa_wire as W


def diag(boot: int, values: tuple[int, ...], ticks: int = 777) -> bytes:
    return W.encode_frame(W.MSG_DIAG, boot, 0, ticks, struct.pack(W.DIAG_FMT, *values))[:-1]


def test_diag_goes_to_on_diag(rig):
    got = []
    rig.sink.on_diag = lambda info, ticks, values: got.append((info.uid, ticks, values))
    rig.connect(5, 0)
    rig.feed(diag(5, (121, W.DIAG_NO_ANSWER, 1, 0b1000, 2, 0b100)))
    assert got == [("UID00001", 777, (121, -1, 1, 8, 2, 4))]
    # another boot's DIAG is not this device's reading
    rig.feed(diag(6, (50, 50, 0, 0, 1, 0)))
    assert len(got) == 1


def test_a_sink_without_on_diag_is_unaffected(rig):
    assert not hasattr(rig.sink, "on_diag")
    rig.connect(5, 0)
    rig.feed(diag(5, (121, 120, 0, 0, 1, 0)))
    assert rig.link.stats.bad_frames == 0 and rig.link.connected


def test_a_short_diag_payload_is_a_bad_frame(rig):
    rig.sink.on_diag = lambda *a: pytest.fail("must not be called")
    rig.connect(5, 0)
    rig.feed(W.encode_frame(W.MSG_DIAG, 5, 0, 0, b"\x01\x02")[:-1])
    assert rig.link.stats.bad_frames == 1
