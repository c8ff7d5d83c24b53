"""Fuzzing the frame decoder with hypothesis: over 100,000 generated inputs in all.

Properties: decode_frame raises nothing but FrameError, and never accepts a
frame whose CRC (checked here independently with zlib) is wrong. Hypothesis
draws the frames, blocks and a Random seed per example; each example then
feeds BATCH inputs derived from that Random (hypothesis' own per-example
overhead is ~1 ms, the decoder's ~30 µs), so 1,000 examples per test make
3 x 1,000 x 40 = 120,000 inputs in well under a minute.
"""

from __future__ import annotations

import random
import struct
import zlib

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import futmesa_wire as W

HANDSHAKE = (W.MSG_HELLO, W.MSG_HELLO_ACK, W.MSG_REFUSE)
BATCH = 40
FUZZ = settings(max_examples=1_000, deadline=None, database=None,
                suppress_health_check=list(HealthCheck))


def crc_ok(raw: bytes) -> bool:
    """The CRC rule of docs/protocol.md, written independently of futmesa_wire."""
    schema = W.HANDSHAKE_SCHEMA if raw[1] in HANDSHAKE else W.SCHEMA_ID
    return zlib.crc32(struct.pack("<I", schema) + raw[:-4]) == struct.unpack("<I", raw[-4:])[0]


def decode_checked(block: bytes) -> W.Frame | None:
    try:
        frame = W.decode_frame(block)
    except W.FrameError:
        return None
    raw = bytes(W.build_frame(frame.msg_type, frame.boot_id, frame.seq, frame.ticks,
                              frame.payload))
    raw = bytes([frame.version]) + raw[1:-4]
    raw += struct.pack("<I", zlib.crc32(struct.pack("<I", W.HANDSHAKE_SCHEMA
                                                    if raw[1] in HANDSHAKE else W.SCHEMA_ID)
                                        + raw))
    assert W.cobs_decode(block) == raw, "the accepted frame is not what the bytes said"
    assert crc_ok(raw), "accepted a frame with a wrong CRC"
    return frame


@FUZZ
@given(st.binary(max_size=140), st.integers(0, 2**32))
def test_random_blocks(block: bytes, seed: int) -> None:
    rnd = random.Random(seed)
    decode_checked(block)
    for _ in range(BATCH - 1):
        decode_checked(rnd.randbytes(rnd.randrange(141)))


frames = st.builds(
    lambda t, boot, seq, ticks, payload: W.build_frame(t, boot, seq, ticks, payload),
    st.sampled_from([W.MSG_EVENT, W.MSG_STATUS, W.MSG_ACK, W.MSG_CMD, W.MSG_HELLO,
                     W.MSG_HELLO_ACK, W.MSG_PING, W.MSG_GAP, 0x00, 0xFF]),
    st.integers(0, 0xFFFF), st.integers(0, 0xFFFFFFFF), st.integers(0, 0xFFFFFFFF),
    st.binary(max_size=W.MAX_PAYLOAD),
)


@FUZZ
@given(frames, st.integers(0, 2**32))
def test_corrupted_valid_frames_are_rejected(raw: bytearray, seed: int) -> None:
    rnd = random.Random(seed)
    for _ in range(BATCH // 2):
        flips = [(rnd.randrange(200), rnd.randrange(1, 256)) for _ in range(rnd.randrange(1, 5))]
        _corrupt(raw, flips)


def _corrupt(raw: bytearray, flips: list[tuple[int, int]]) -> None:
    corrupted = bytearray(raw)
    for pos, mask in flips:
        corrupted[pos % len(corrupted)] ^= mask
    if corrupted == raw:
        return
    block = W.cobs_encode(bytes(corrupted))[:-1]
    assert decode_checked(block) is None, "a corrupted frame passed the CRC"
    # and the same corruption applied after COBS encoding (as on the wire)
    enc = bytearray(W.cobs_encode(bytes(raw))[:-1])
    for pos, mask in flips:
        enc[pos % len(enc)] ^= mask
    if bytes(enc) != W.cobs_encode(bytes(raw))[:-1]:
        assert decode_checked(bytes(enc)) is None


@FUZZ
@given(frames, st.integers(0, 2**32))
def test_valid_frames_round_trip_and_truncations_fail(raw: bytearray, seed: int) -> None:
    rnd = random.Random(seed)
    block = W.cobs_encode(bytes(raw))[:-1]
    frame = decode_checked(block)
    assert frame is not None and frame.msg_type == raw[1]
    for _ in range(BATCH - 1):
        cut = rnd.randrange(len(block))
        assert decode_checked(block[:cut]) is None or cut == 0
