# Run by tests/link/test_vectors.py under `micropython`: checks futmesa_wire (firmware/)
# against vectors.json exactly as the CPython suite does, then fuzzes the decoder.
# Prints "OK ..." and exits 0, or raises.
import json
import random
import sys
from binascii import crc32

import futmesa_wire as W

with open(sys.argv[1]) as f:
    V = json.load(f)


def unhex(s):
    return bytes(int(s[i:i + 2], 16) for i in range(0, len(s), 2))


def check(cond, what):
    if not cond:
        raise AssertionError(what)


check(V["proto_version"] == W.PROTO_VERSION, "protocol version")
check(V["schema_id"] == W.SCHEMA_ID, "schema id")
check(crc32(unhex(V["crc32_check"]["input"])) == V["crc32_check"]["crc"], "binascii.crc32")
n = 0
for c in V["cobs"]:
    raw, enc = unhex(c["raw"]), unhex(c["encoded"])
    check(W.cobs_encode(raw) == enc, "cobs encode " + c["raw"][:16])
    check(W.cobs_decode(enc[:-1]) == raw, "cobs decode " + c["raw"][:16])
    n += 1
for c in V["frames"]:
    payload, raw, enc = unhex(c["payload"]), unhex(c["raw"]), unhex(c["encoded"])
    check(bytes(W.build_frame(c["msg_type"], c["boot_id"], c["seq"], c["ticks"], payload)) == raw,
          "build " + c["name"])
    check(W.encode_frame(c["msg_type"], c["boot_id"], c["seq"], c["ticks"], payload) == enc,
          "encode " + c["name"])
    f = W.decode_frame(enc[:-1])
    check((f.msg_type, f.boot_id, f.seq, f.ticks, bytes(f.payload)) ==
          (c["msg_type"], c["boot_id"], c["seq"], c["ticks"], payload), "decode " + c["name"])
    n += 1
for c in V["invalid"]:
    try:
        W.decode_frame(unhex(c["encoded"]))
    except W.FrameError:
        n += 1
        continue
    raise AssertionError("accepted invalid frame: " + c["name"])
# the device's allocation-free packers give the same bytes
diag_checked = False
ev = V["frames"][0]
body = bytearray(W.HEADER_SIZE + W.EVENT_SIZE)
dst = bytearray(W.EVENT_FRAME_SIZE)
W.pack_event_frame(body, dst, 0, ev["boot_id"], ev["seq"], ev["ticks"], *ev["fields"])
check(bytes(dst) == unhex(ev["raw"]), "pack_event_frame")
for c in V["frames"]:
    if c["msg_type"] == W.MSG_STATUS:
        dst = bytearray(W.STATUS_FRAME_SIZE)
        W.pack_status_frame(bytearray(W.HEADER_SIZE + 32), dst, c["boot_id"], c["seq"],
                            c["ticks"], *c["fields"])
        check(bytes(dst) == unhex(c["raw"]), "pack_status_frame")
    if c["msg_type"] == W.MSG_PONG:
        dst = bytearray(W.SMALL_FRAME_SIZE)
        W.pack_small_frame(bytearray(16), dst, W.MSG_PONG, c["boot_id"], c["seq"], c["ticks"],
                           c["fields"][0])
        check(bytes(dst) == unhex(c["raw"]), "pack_small_frame")
    if c["msg_type"] == W.MSG_DIAG:
        dst = bytearray(W.DIAG_FRAME_SIZE)
        W.pack_diag_frame(bytearray(W.HEADER_SIZE + 8), dst, c["boot_id"], c["ticks"],
                          *c["fields"])
        check(bytes(dst) == unhex(c["raw"]), "pack_diag_frame")
        diag_checked = True
check(diag_checked, "a DIAG vector")
# seeded fuzz of the device's decoder: random blocks and mutated valid frames
random.seed(1234)
good = [unhex(c["encoded"])[:-1] for c in V["frames"]]
dec = bytearray(128)
accepted = 0
for i in range(4000):
    if i % 2:
        blk = bytearray(random.getrandbits(8) for _ in range(random.getrandbits(7)))
    else:
        blk = bytearray(good[i % len(good)])
        for _ in range(1 + random.getrandbits(2)):
            blk[random.getrandbits(16) % len(blk)] ^= 1 + random.getrandbits(8) % 255
        if blk == good[i % len(good)]:
            continue  # the same byte flipped back: not a corrupted block
    if len(blk) > 128:
        continue
    try:
        m = W.cobs_decode_into(blk, len(blk), dec)
        W.check_raw(dec, m)
        accepted += 1
    except W.FrameError:
        pass
check(accepted == 0, "fuzz: a corrupted block passed the CRC")
print("OK", n, "vectors; fuzz 4000 blocks, 0 accepted")
