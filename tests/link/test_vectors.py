"""The checked-in test vectors (vectors.json) against futmesa_wire on CPython and on MicroPython."""

from __future__ import annotations

import json
import struct
import subprocess
import zlib
from pathlib import Path

import pytest

import futmesa_wire as W
from futmesa.sim.table import find_micropython

from .harness import FIRMWARE_DIR

HERE = Path(__file__).resolve().parent
VECTORS = json.loads((HERE / "vectors.json").read_text())


def test_schema_and_crc_parameters():
    assert VECTORS["proto_version"] == W.PROTO_VERSION
    assert VECTORS["schema_text"] == W._SCHEMA_TEXT
    assert VECTORS["schema_id"] == W.SCHEMA_ID == zlib.crc32(W._SCHEMA_TEXT.encode())
    assert VECTORS["handshake_schema"] == W.HANDSHAKE_SCHEMA
    check = VECTORS["crc32_check"]
    assert zlib.crc32(bytes.fromhex(check["input"])) == check["crc"] == 0xCBF43926


@pytest.mark.parametrize("case", VECTORS["cobs"], ids=lambda c: c["raw"][:16] or "empty")
def test_cobs(case):
    raw, enc = bytes.fromhex(case["raw"]), bytes.fromhex(case["encoded"])
    assert W.cobs_encode(raw) == enc
    assert W.cobs_decode(enc[:-1]) == raw


@pytest.mark.parametrize("case", VECTORS["frames"], ids=lambda c: c["name"])
def test_frame(case):
    payload = bytes.fromhex(case["payload"])
    raw = bytes.fromhex(case["raw"])
    # the payload is the documented struct layout of the documented fields
    if case["payload_fmt"]:
        fields = [f.encode() if isinstance(f, str) else f for f in case["fields"]]
        size = struct.calcsize(case["payload_fmt"])
        assert struct.pack(case["payload_fmt"], *fields) == payload[:size]
    built = W.build_frame(case["msg_type"], case["boot_id"], case["seq"], case["ticks"], payload)
    assert bytes(built) == raw
    # the CRC, computed independently: CRC-32 of the schema id (u32 LE) then the frame body
    schema = (W.HANDSHAKE_SCHEMA if case["msg_type"] in (W.MSG_HELLO, W.MSG_HELLO_ACK,
                                                          W.MSG_REFUSE) else W.SCHEMA_ID)
    assert zlib.crc32(struct.pack("<I", schema) + raw[:-4]) == case["crc"]
    assert struct.unpack_from("<I", raw, len(raw) - 4)[0] == case["crc"]
    enc = bytes.fromhex(case["encoded"])
    assert W.encode_frame(case["msg_type"], case["boot_id"], case["seq"], case["ticks"],
                          payload) == enc
    f = W.decode_frame(enc[:-1])
    assert (f.version, f.msg_type, f.boot_id, f.seq, f.ticks, f.payload) == (
        W.PROTO_VERSION, case["msg_type"], case["boot_id"], case["seq"], case["ticks"], payload)


def test_allocation_free_packers_match_build_frame():
    ev = VECTORS["frames"][0]
    body = bytearray(W.HEADER_SIZE + W.EVENT_SIZE)
    dst = bytearray(W.EVENT_FRAME_SIZE + 5)
    W.pack_event_frame(body, dst, 5, ev["boot_id"], ev["seq"], ev["ticks"], *ev["fields"])
    assert bytes(dst[5:]) == bytes.fromhex(ev["raw"])
    st = next(c for c in VECTORS["frames"] if c["msg_type"] == W.MSG_STATUS)
    dst = bytearray(W.STATUS_FRAME_SIZE)
    W.pack_status_frame(bytearray(W.HEADER_SIZE + 32), dst, st["boot_id"], st["seq"],
                        st["ticks"], *st["fields"])
    assert bytes(dst) == bytes.fromhex(st["raw"])
    dg = next(c for c in VECTORS["frames"] if c["msg_type"] == W.MSG_DIAG)
    dst = bytearray(W.DIAG_FRAME_SIZE)
    W.pack_diag_frame(bytearray(W.HEADER_SIZE + 8), dst, dg["boot_id"], dg["ticks"],
                      *dg["fields"])
    assert bytes(dst) == bytes.fromhex(dg["raw"])
    pong = next(c for c in VECTORS["frames"] if c["msg_type"] == W.MSG_PONG)
    dst = bytearray(W.SMALL_FRAME_SIZE)
    W.pack_small_frame(bytearray(16), dst, W.MSG_PONG, pong["boot_id"], pong["seq"],
                       pong["ticks"], pong["fields"][0])
    assert bytes(dst) == bytes.fromhex(pong["raw"])
    ack = next(c for c in VECTORS["frames"] if c["msg_type"] == W.MSG_CMD_ACK)
    result, code, _ = ack["fields"]
    W.pack_small_frame(bytearray(16), dst, W.MSG_CMD_ACK, ack["boot_id"], ack["seq"],
                       ack["ticks"], result | code << 8)
    assert bytes(dst) == bytes.fromhex(ack["raw"])


@pytest.mark.parametrize("case", VECTORS["invalid"], ids=lambda c: c["name"])
def test_invalid(case):
    with pytest.raises(W.FrameError):
        W.decode_frame(bytes.fromhex(case["encoded"]))


def test_deframer_splits_and_bounds_memory():
    frames = [bytes.fromhex(c["encoded"]) for c in VECTORS["frames"]]
    stream = b"\x00\x00" + b"".join(frames) + b"\x07" * 500 + b"\x00" + frames[0]
    d = W.Deframer()
    blocks = []
    for i in range(0, len(stream), 7):  # arbitrary chunking
        blocks += d.feed(stream[i:i + 7])
    assert blocks == [f[:-1] for f in frames] + [frames[0][:-1]]
    assert d.overruns == 1 and len(d.buf) == 0


def test_vectors_on_micropython():
    """The same vectors, the device-side packers and a seeded fuzz, under `micropython`."""
    proc = subprocess.run(
        [find_micropython(), str(HERE / "mp_wire_check.py"), str(HERE / "vectors.json")],
        capture_output=True, text=True, timeout=120,
        env={"MICROPYPATH": f"{FIRMWARE_DIR}:.frozen"},
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "OK" in proc.stdout, proc.stdout
    print(proc.stdout)
