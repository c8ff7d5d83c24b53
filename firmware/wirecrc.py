"""CRC-32 (zlib's) written straight into a buffer, allocating nothing on any port (device only).

`binascii.crc32` returns its result as a Python int; on a 32-bit port (rp2,
esp32) a CRC of 2**30 or more does not fit a small int and is boxed on the
heap: 16 bytes for three frames in four. Here the CRC stays a machine word
(viper) and goes into `dst` as 4 little-endian bytes, so sealing a frame
(futmesa_wire._seal) allocates nothing. The seed is passed in two 16-bit
halves for the same reason. The bytes are zlib's / binascii's
(tests/firmware/mpy_test_wirecrc.py). Table-driven: 1 KB of RAM, built at
import; on the unix port as fast as binascii.crc32 (0.65 µs for a 44-byte frame).

MicroPython only (the native emitter compiles it: mpy-cross needs -march; the
image build passes it, `futmesa flash` copies this file as source); the host
(CPython) uses zlib.crc32 in futmesa_wire.
"""

import micropython

_TABLE = bytearray(1024)  # 256 little-endian u32


@micropython.viper
def _fill(table):
    t = ptr32(table)  # noqa: F821 - viper builtins
    poly = (uint(0xEDB8) << 16) | uint(0x8320)  # noqa: F821 - no literal above 2**30
    i = 0
    while i < 256:
        c = uint(i)  # noqa: F821
        k = 0
        while k < 8:
            if c & 1:
                c = (c >> 1) ^ poly
            else:
                c = c >> 1
            k += 1
        t[i] = c
        i += 1


_fill(_TABLE)


@micropython.viper
def crc32_into(data, n: int, seed_lo: int, seed_hi: int, dst, off: int):
    """dst[off:off+4] = CRC-32 of data[0:n] continued from seed (seed_hi << 16 | seed_lo), LE."""
    src = ptr8(data)  # noqa: F821
    out = ptr8(dst)  # noqa: F821
    t = ptr32(_TABLE)  # noqa: F821
    ones = (uint(0xFFFF) << 16) | uint(0xFFFF)  # noqa: F821
    c = ((uint(seed_hi) << 16) | uint(seed_lo)) ^ ones  # noqa: F821
    i = 0
    while i < n:
        c = uint(t[int((c ^ uint(src[i])) & 0xFF)]) ^ (c >> 8)  # noqa: F821
        i += 1
    c = c ^ ones
    out[off] = int(c & 0xFF)
    out[off + 1] = int((c >> 8) & 0xFF)
    out[off + 2] = int((c >> 16) & 0xFF)
    out[off + 3] = int((c >> 24) & 0xFF)
