"""Device events as they come off the wire: unpacked and named, nothing more.

The link knows the wire protocol only. What an event means for a match (its log
entry, what the rules see) is the matchbook's job (:mod:`futmesa.matchbook.entries`).
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

import futmesa_wire as W


def unpack_event(payload: bytes) -> tuple[int, int, int, int, int, int]:
    """(kind, a, b, period, clock_ms, value) from an EVENT payload."""
    return struct.unpack(W.EVENT_FMT, payload)


@dataclass(frozen=True)
class RawEvent:
    """One numbered device event: who sent it, its place in the stream, and its 12 bytes."""

    uid: str
    boot_id: int
    seq: int
    ticks: int
    code: int
    a: int
    b: int
    period: int
    clock_ms: int
    value: int

    @property
    def name(self) -> str:
        """The wire name of the event (``futmesa_wire.EVENT_NAMES``)."""
        return W.EVENT_NAMES.get(self.code, f"unknown_{self.code}")


def raw_event(uid: str, boot_id: int, seq: int, ticks: int,
              payload: tuple[int, int, int, int, int, int]) -> RawEvent:
    """A received EVENT with the device and stream position it came with."""
    code, a, b, period, clock_ms, value = payload
    return RawEvent(uid, boot_id, seq, ticks, code, a, b, period, clock_ms, value)
