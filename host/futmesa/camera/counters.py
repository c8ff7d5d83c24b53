"""What the capture process shares with its keeper without a message: a multiprocessing
Array of doubles, read at any time (frames read, kept and dropped, the newest frame's stamp,
the ring's size, a frozen picture, clips written)."""

from __future__ import annotations

READ, KEPT, DROPPED, LAST_MONO, RING_BYTES, RING_FRAMES, FROZEN, CLIPS = range(8)
COUNTERS = 8
NAMES = ("read", "kept", "dropped", "last_mono_ms", "ring_bytes", "ring_frames", "frozen",
         "clips")


def as_dict(shared: object) -> dict[str, float]:
    values = list(shared[:])  # type: ignore[index]
    return dict(zip(NAMES, values, strict=True))
