"""From device events and stored rows to the rules' entries: the one mapping.

A raw device event (:class:`futmesa.link.events.RawEvent`) becomes an event-log row
and a match entry (kind + data); a stored entry row becomes a rules
:class:`~futmesa.rules.Entry`. Nothing else in the host does either.
"""

from __future__ import annotations

from typing import Any

import futmesa_wire as W
from futmesa.link.events import RawEvent, raw_event
from futmesa.rules import Entry
from futmesa.store import DeviceEvent, StoredEntry

_PALHETA = {0: "A", 1: "C", 2: "B"}
_BUTTON = {0: "turnA", 1: "turnB", 2: "referee"}
_SIDE = {0: "A", 1: "B", 2: None}
_FAULT = {W.FAULT_STUCK: "stuck", W.FAULT_NO_ANSWER: "no_answer",
          W.FAULT_OUT_OF_RANGE: "out_of_range", W.FAULT_DRIFT: "drift",
          W.FAULT_STORAGE: "storage"}
CLOCK_STARTED_REASONS = {0: "start", 1: "resume", 2: "play_on"}
CLOCK_STOPPED_REASONS = {0: "pause", 1: "dead_ball", 2: "period_over"}
BEEP_PATTERNS = {W.BEEP_WARNING: "warning", W.BEEP_ALARM: "alarm", W.BEEP_GOAL: "goal",
                 W.BEEP_PREWARN: "prewarn"}


def entry_for(kind: int, a: int, b: int, value: int,
              clock_ms: int = 0) -> tuple[str, dict[str, Any]]:
    """The entry kind and data the rules see for one device event."""
    name = W.EVENT_NAMES.get(kind, f"unknown_{kind}")
    data: dict[str, Any]
    if kind == W.EV_GOAL_LINE:
        data = {"goal": a, "held_ms": value}
    elif kind == W.EV_BALL_OUT:
        data = {"zone": a, "line": "end" if b else "side", "end": value}
    elif kind == W.EV_PALHETA:
        data = {"pos": _PALHETA.get(a, "C")}
    elif kind == W.EV_CLOCK_STARTED:
        data = {"reason": a}
    elif kind == W.EV_CLOCK_STOPPED:
        data = {"reason": a}
    elif kind == W.EV_ALARM:
        data = {"pattern": a}
    elif kind == W.EV_LANCE_EXPIRED:
        data = {"side": _SIDE.get(a), "warning": bool(b), "count": value}
    elif kind == W.EV_LANCE_STARTED:
        data = {"side": _SIDE.get(a)}
    elif kind == W.EV_BUTTON:
        data = {"button": _BUTTON.get(a, str(a))}
    elif kind == W.EV_SENSOR_FAULT:
        data = {"sensor": a, "fault": _FAULT.get(b, str(b))}
    elif kind == W.EV_SENSOR_OK:
        data = {"sensor": a}
    elif kind == W.EV_CLOCK_ADJUSTED:
        # the clock it was set to, too: moved from 00:00 to it is a restore (wording.py)
        data = {"delta_ms": value, "to_ms": clock_ms}
    elif kind == W.EV_TIME_ADDED:
        data = {"ms": value}
    elif kind == W.EV_PROFILE_SET:
        data = {"period_ms": value}
    elif kind == W.EV_BOOT:
        data = {"ring": value}
    elif kind == W.EV_LOST:
        # a reset boot's events no host acknowledged (the device's flash record): per kind
        # (a = kind, value = count), then the summary (a = 0, value = last seq)
        # (a = 0, value = last seq), and the seq reservation (b = LOST_RESERVED: it made event
        # clock_ms and numbered at most up to value)
        data = ({"kind": W.EVENT_NAMES.get(a, f"unknown_{a}"), "count": value,
                 "first_seq": clock_ms} if a else
                {"made_seq": clock_ms, "reserved_seq": value} if b == W.LOST_RESERVED else
                {"first_seq": clock_ms, "last_seq": value})
    else:
        data = {}
    return name, data


def device_row(raw: RawEvent) -> tuple[DeviceEvent, str, dict[str, Any]]:
    """The event-log row for one received device event, with its match entry's kind and data."""
    kind, data = entry_for(raw.code, raw.a, raw.b, raw.value, raw.clock_ms)
    row = DeviceEvent(raw.uid, raw.boot_id, raw.seq, raw.ticks, kind, raw.a, raw.b, raw.period,
                      raw.clock_ms, raw.value)
    return row, kind, data


def stored_event(uid: str, boot_id: int, seq: int, ticks: int,
                 payload: tuple[int, int, int, int, int, int]
                 ) -> tuple[DeviceEvent, str, dict[str, Any]]:
    """:func:`device_row` straight from what a link sink receives."""
    return device_row(raw_event(uid, boot_id, seq, ticks, payload))


def to_entry(stored: StoredEntry) -> Entry:
    """A stored match-log row as the rules engine's entry."""
    return Entry(id=stored.id, kind=stored.kind, data=stored.data, source=stored.source,
                 period=stored.period, clock_ms=stored.clock_ms, ticks=stored.ticks,
                 author=stored.author, at=int(stored.occurred_at))


def from_entry(entry: Entry, match_id: int) -> StoredEntry:
    """A rules entry just stored, as a stored row (its store times taken from its own)."""
    return StoredEntry(id=entry.id, match_id=match_id, source=entry.source, kind=entry.kind,
                       data=entry.data, period=entry.period, clock_ms=entry.clock_ms,
                       ticks=entry.ticks, author=entry.author, created_at=entry.at / 1000,
                       occurred_at=float(entry.at))
