"""Line noise for fault relays: each byte flipped, dropped or preceded by a stray one.

Shared by the link's fault tests (tests/link/harness.py) and the soak benchmark
(bench/soak.py), so both put the same kind of noise on a simulated cable.
"""

from __future__ import annotations

import random


def corrupt(data: bytes, rate: float, rng: random.Random, stats: dict[str, int]) -> bytes:
    """`data` with each byte, at probability `rate`, bit-flipped, dropped or preceded by a
    random byte (a third each); counts bytes, flipped, dropped and inserted in `stats`."""
    out = bytearray()
    for byte in data:
        stats["bytes"] += 1
        r = rng.random()
        if r >= rate:
            out.append(byte)
        elif r < rate / 3:
            out.append(byte ^ (1 << rng.randrange(8)))
            stats["flipped"] += 1
        elif r < 2 * rate / 3:
            stats["dropped"] += 1
        else:
            out.append(rng.randrange(256))
            out.append(byte)
            stats["inserted"] += 1
    return bytes(out)
