"""wirecrc.crc32_into: zlib's CRC-32, written into a buffer without allocating (no boxed int on a
32-bit port), and the device frames sealed with it allocate nothing."""

import binascii
import struct

import micropython

import futmesa_wire as W
from fwtest import eq
from wirecrc import crc32_into


def test_same_bytes_as_binascii():
    data = bytearray(200)
    x = 12345
    for i in range(len(data)):
        x = (x * 1103515245 + 12345) & 0x7FFFFFFF
        data[i] = x >> 16 & 0xFF
    dst = bytearray(6)
    n_checked = 0
    for seed in (0, 1, 0x3FFFFFFF, 0x40000000, 0xDEADBEEF, 0xFFFFFFFF, W._SCHEMA_SEED):
        for n in (0, 1, 2, 3, 7, 16, 28, 44, 111, 200):
            crc32_into(data, n, seed & 0xFFFF, seed >> 16, dst, 1)
            want = binascii.crc32(memoryview(data)[:n], seed)
            eq(struct.unpack_from("<I", dst, 1)[0], want, "seed %x n %d" % (seed, n))
            eq((dst[0], dst[5]), (0, 0), "only dst[off:off+4] written")
            n_checked += 1
    eq(n_checked, 70, "cases")


def test_sealing_frames_allocates_nothing():
    body = bytearray(W.EVENT_FRAME_SIZE - W.CRC_SIZE)
    ring = bytearray(4 * W.EVENT_FRAME_SIZE)
    status_body = bytearray(W.STATUS_FRAME_SIZE - W.CRC_SIZE)
    status = bytearray(W.STATUS_FRAME_SIZE)
    crcs_high = 0
    micropython.heap_lock()
    try:
        for seq in range(1, 201):
            off = (seq % 4) * W.EVENT_FRAME_SIZE
            W.pack_event_frame(body, ring, off, 7, seq, seq * 13, W.EV_GOAL_LINE, seq & 1, 0, 1,
                               seq * 1000, 20)
            if ring[off + W.EVENT_FRAME_SIZE - 1] >= 0x40:  # CRC >= 2**30: boxed by binascii
                crcs_high += 1
            W.pack_status_frame(status_body, status, 7, seq, seq * 13, 1, 1, 1, 0, seq * 1000,
                                1500000, 0, 0, 15000, seq, seq - 1)
    finally:
        micropython.heap_unlock()
    if crcs_high < 100:
        raise AssertionError("only %d of 200 CRCs above 2**30: not the case that boxes" % crcs_high)
    # and what was sealed is a frame the host accepts
    raw = bytes(ring[W.EVENT_FRAME_SIZE:2 * W.EVENT_FRAME_SIZE])
    eq(W.check_raw(raw, len(raw)), W.MSG_EVENT, "a valid EVENT frame")
    eq(W.check_raw(status, len(status)), W.MSG_STATUS, "a valid STATUS frame")
