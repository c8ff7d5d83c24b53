"""Device events as match-log entries: one mapping from wire event codes to entry kinds and data."""

from __future__ import annotations

import struct
from typing import Any

import futmesa_wire as W
from futmesa.store import DeviceEvent

_PALHETA = {0: "A", 1: "C", 2: "B"}
_BUTTON = {0: "turnA", 1: "turnB", 2: "referee"}
_SIDE = {0: "A", 1: "B", 2: None}
_FAULT = {W.FAULT_STUCK: "stuck", W.FAULT_NO_ANSWER: "no_answer",
          W.FAULT_OUT_OF_RANGE: "out_of_range", W.FAULT_DRIFT: "drift",
          W.FAULT_STORAGE: "storage"}


def unpack_event(payload: bytes) -> tuple[int, int, int, int, int, int]:
    """(kind, a, b, period, clock_ms, value) from an EVENT payload."""
    return struct.unpack(W.EVENT_FMT, payload)


def entry_for(kind: int, a: int, b: int, value: int) -> tuple[str, dict[str, Any]]:
    """The entry kind and data the rules see for one device event."""
    name = W.EVENT_NAMES.get(kind, f"unknown_{kind}")
    data: dict[str, Any]
    if kind == W.EV_GOAL_LINE:
        data = {"goal": a, "held_ms": value}
    elif kind == W.EV_BALL_OUT:
        data = {"zone": a, "line": "end" if b else "side", "end": value}
    elif kind == W.EV_PALHETA:
        data = {"pos": _PALHETA.get(a, "C")}
    elif kind in (W.EV_CLOCK_STARTED, W.EV_CLOCK_STOPPED):
        data = {"reason": a}
    elif kind == W.EV_ALARM:
        data = {"pattern": a}
    elif kind == W.EV_LANCE_EXPIRED:
        data = {"side": _SIDE.get(a), "warning": bool(b)}
    elif kind == W.EV_LANCE_STARTED:
        data = {"side": _SIDE.get(a)}
    elif kind == W.EV_BUTTON:
        data = {"button": _BUTTON.get(a, str(a))}
    elif kind == W.EV_SENSOR_FAULT:
        data = {"sensor": a, "fault": _FAULT.get(b, str(b))}
    elif kind == W.EV_SENSOR_OK:
        data = {"sensor": a}
    elif kind == W.EV_CLOCK_ADJUSTED:
        data = {"delta_ms": value}
    elif kind == W.EV_TIME_ADDED:
        data = {"ms": value}
    elif kind == W.EV_PROFILE_SET:
        data = {"period_ms": value}
    elif kind == W.EV_BOOT:
        data = {"ring": value}
    else:
        data = {}
    return name, data


def stored_event(uid: str, boot_id: int, seq: int, ticks: int,
                 payload: tuple[int, int, int, int, int, int]
                 ) -> tuple[DeviceEvent, str, dict[str, Any]]:
    """The event-log row for one received EVENT, with the entry kind and data the rules see."""
    kind_code, a, b, period, clock_ms, value = payload
    kind, data = entry_for(kind_code, a, b, value)
    return DeviceEvent(uid, boot_id, seq, ticks, kind, a, b, period, clock_ms, value), kind, data
