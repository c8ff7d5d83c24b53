"""Writes tests/link/vectors.json: the protocol's test vectors (run by hand when the protocol
changes ON PURPOSE; both test suites then check the module against the checked-in file).

    .venv/bin/python tests/link/make_vectors.py
"""

from __future__ import annotations

import json
import struct
import zlib
from pathlib import Path

import futmesa_wire as W

OUT = Path(__file__).with_name("vectors.json")


def frame(name: str, msg_type: int, boot: int, seq: int, ticks: int, fmt: str,
          fields: list, extra: bytes = b"") -> dict:
    payload = (struct.pack(fmt, *[f.encode() if isinstance(f, str) else f for f in fields])
               if fmt else b"") + extra
    raw = bytes(W.build_frame(msg_type, boot, seq, ticks, payload))
    return {"name": name, "msg_type": msg_type, "boot_id": boot, "seq": seq, "ticks": ticks,
            "payload_fmt": fmt, "fields": fields, "payload": payload.hex(), "raw": raw.hex(),
            "crc": struct.unpack_from("<I", raw, len(raw) - 4)[0],
            "encoded": W.cobs_encode(raw).hex()}


def main() -> None:
    profile = [2, 0, 0, 0, 1_500_000, 300_000, 0, 15_000, 0, 0]
    frames = [
        frame("EVENT goal on line 1", W.MSG_EVENT, 7, 42, 123_456, W.EVENT_FMT,
              [W.EV_GOAL_LINE, 1, 0, 1, 754_321, 38]),
        frame("EVENT clock adjusted -1500 ms, ticks near the wrap", W.MSG_EVENT, 65535,
              0x3FFFFFFF, 0xFFFFFFF0, W.EVENT_FMT, [W.EV_CLOCK_ADJUSTED, 0, 0, 2, 0, -1500]),
        frame("EVENT with zero bytes everywhere", W.MSG_EVENT, 1, 1, 0, W.EVENT_FMT,
              [W.EV_BOOT, 0, 0, 0, 0, 512]),
        frame("STATUS running, lance on side B", W.MSG_STATUS, 7, 42, 123_500, W.STATUS_FMT,
              [1, W.ST_RUNNING | W.ST_LANCE_RUNNING | W.ST_CONFIGURED, 1, 1, 754_365,
               1_500_000, 60_000, 9_000, 15_000, 42, 40]),
        frame("HELLO identify only", W.MSG_HELLO, 0, 0, 0, W.HELLO_FMT,
              [W.PROTO_VERSION, 0, W.IDENTIFY_ONLY]),
        frame("HELLO with cursor boot 7 seq 40", W.MSG_HELLO, 7, 0, 0, W.HELLO_FMT,
              [W.PROTO_VERSION, 7, 40]),
        frame("HELLO_ACK identifying (answer to an identify-only HELLO, boot announcement)",
              W.MSG_HELLO_ACK, 7, 0, 123_400, W.HELLO_ACK_FMT,
              [W.PROTO_VERSION, 0, 1, 0, "sim", "SIM00001", 1, 42, 1000, 32],
              struct.pack(W.PROFILE_FMT, *profile) + struct.pack("<I", 17)),
        frame("HELLO_ACK resuming (answer to a cursor HELLO): replay follows", W.MSG_HELLO_ACK,
              7, 1, 123_400, W.RESUME_ACK_FMT, [W.PROTO_VERSION, "SIM00001", 1, 42, 17]),
        frame("ACK boot 7 up to seq 42", W.MSG_ACK, 7, 0, 0, W.ACK_FMT, [7, 42]),
        frame("CMD 18: adjust +2000 ms", W.MSG_CMD, 7, 18, 0, W.CMD_FMT,
              [W.CMD_ADJUST, 0, 0, 0, 2000, 0]),
        frame("CMD_ACK 18 ok (adjust)", W.MSG_CMD_ACK, 7, 18, 123_600, W.CMD_ACK_FMT,
              [W.ACK_OK, W.CMD_ADJUST, 0]),
        frame("PROFILE as command 19", W.MSG_PROFILE, 7, 19, 0, W.PROFILE_FMT, profile),
        frame("PING", W.MSG_PING, 7, 0, 0, W.PING_FMT, [0xDEADBEEF]),
        frame("PONG", W.MSG_PONG, 7, 0, 123_700, W.PING_FMT, [0xDEADBEEF]),
        frame("GAP: asked 5, ring holds 497..1008", W.MSG_GAP, 7, 0, 123_800, W.GAP_FMT,
              [7, 5, 497, 1008]),
        frame("REFUSE: device 2, host 1", W.MSG_REFUSE, 7, 0, 0, W.REFUSE_FMT,
              [W.PROTO_VERSION, 1]),
        frame("LOG text", W.MSG_LOG, 7, 0, 5, "", [], b"sensor 0 stuck"),
        frame("DIAG: tof0 121 mm, tof1 no answer, beam 0, net zone 3, palheta centre",
              W.MSG_DIAG, 7, 0, 123_900, W.DIAG_FMT,
              [121, W.DIAG_NO_ANSWER, 0, 0b1000, 1, 0]),
        frame("CMD 20: set threshold goal 1 to 70 mm, hysteresis 25 mm", W.MSG_CMD, 7, 20, 0,
              W.CMD_FMT, [W.CMD_SET_THRESHOLD, 1, 0, 0, 70, 25]),
    ]
    good = bytes.fromhex(frames[0]["encoded"])[:-1]
    raw0 = bytearray.fromhex(frames[0]["raw"])
    bad_crc = bytearray(raw0)
    bad_crc[-1] ^= 0x01
    other_schema = bytearray(raw0)
    struct.pack_into("<I", other_schema, len(raw0) - 4,
                     zlib.crc32(bytes(raw0[:-4]), zlib.crc32(struct.pack("<I", 0x12345678))))
    v_other_event = bytearray(raw0)  # another version, with the CRC right for its bytes
    v_other_event[0] = W.PROTO_VERSION + 1
    struct.pack_into("<I", v_other_event, len(raw0) - 4,
                     W.frame_crc(v_other_event, len(raw0) - 4))
    invalid = [
        {"name": "CRC off by one bit", "encoded": W.cobs_encode(bytes(bad_crc))[:-1].hex()},
        {"name": "CRC computed without the schema id / with another schema id",
         "encoded": W.cobs_encode(bytes(other_schema))[:-1].hex()},
        {"name": f"event frame of protocol version {W.PROTO_VERSION + 1}", "encoded":
         W.cobs_encode(bytes(v_other_event))[:-1].hex()},
        {"name": "truncated by one byte", "encoded": good[:-1].hex()},
        {"name": "COBS code runs past the end", "encoded": (bytes([0x30]) + good[1:]).hex()},
        {"name": "zero byte inside", "encoded": (good[:5] + b"\x00" + good[6:]).hex()},
        {"name": "too short", "encoded": W.cobs_encode(bytes(15))[:-1].hex()},
        {"name": "too long", "encoded": W.cobs_encode(bytes(W.MAX_FRAME + 1))[:-1].hex()},
        {"name": "empty", "encoded": ""},
    ]
    cobs = [{"raw": r.hex(), "encoded": W.cobs_encode(r).hex()} for r in (
        b"", b"\x00", b"\x00\x00", b"\x11\x22\x00\x33", b"\x11\x22\x33\x44",
        b"\x11\x00\x00\x00", bytes(range(1, 255)), bytes(range(1, 256)),
        bytes(range(0, 256)))]
    doc = {
        "about": "futmesa wire protocol test vectors; see docs/protocol.md. Hex strings; "
                 "'encoded' includes the trailing 0x00 delimiter, invalid[].encoded does not.",
        "proto_version": W.PROTO_VERSION,
        "schema_text": W._SCHEMA_TEXT,
        "schema_id": W.SCHEMA_ID,
        "handshake_schema": W.HANDSHAKE_SCHEMA,
        "crc32_check": {"input": b"123456789".hex(), "crc": zlib.crc32(b"123456789")},
        "cobs": cobs,
        "frames": frames,
        "invalid": invalid,
    }
    OUT.write_text(json.dumps(doc, indent=1) + "\n")
    print(f"wrote {OUT} ({len(frames)} frames, {len(invalid)} invalid, {len(cobs)} COBS)")


if __name__ == "__main__":
    main()
