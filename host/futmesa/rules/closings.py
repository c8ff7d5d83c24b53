"""A period the match had closed stays closed: a correction never reopens it.

A correction recomputes the match from the log (corrections.py), and the recomputed match may
read the period's end signal otherwise than the match did when the signal came: a goal voided
in the interval leaves the asked shot it ended, or the vez, to be played as a last lance after
the alarm (001 Art. XXI §1, 000 Art. 8 §10, 003 Art. 74 §único). But that lance was never
played: when the correction was made the period was over — the table counting the interval,
the room told "Fim do 1º tempo" (walk46a H1). So each correction made after a period's end
signal remembers whether the match had that period closed then (the state of the log before
it, :func:`closed_period`), and at its place in the recomputed match a ``period_closed`` step
(no log row: made here, like a voided goal's "disallowed" form) ends a last lance of that
period still open there (timekeeping.on_period_closed). Undoing the correction undoes it too.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from .model import Entry

CLOSED_KIND = "period_closed"
# the device's signals that the period's time is over; a period started after them is a new one
_END_SIGNALS = frozenset({"alarm", "time_up", "period_over"})
_NEW_PERIOD = frozenset({"period_started", "start_period"})


def after_end_signal(log: Sequence[Entry], i: int) -> bool:
    """Whether ``log[i]`` came after a period's end signal, before the next period started:
    the only corrections that could find the period closed."""
    for e in reversed(log[:i]):
        if e.kind in _NEW_PERIOD:
            return False
        if e.kind in _END_SIGNALS and e.source == "device":
            return True
    return False


def undone_by(log: Sequence[Entry], i: int) -> int | None:
    """The index of the earlier correction ``log[i]`` undoes or replaces — the void it voids,
    or the newest earlier correction of the entry it amends —, else None. An undo finds the
    period as the correction it undoes found it: undoing gives back the match as it was
    (tests/rules/test_rules_properties: a void then the amendment back)."""
    e = log[i]
    target = e.data.get("target") if isinstance(e.data, dict) else None
    if not e.is_correction or not isinstance(target, int):
        return None
    for j in range(i - 1, -1, -1):
        f = log[j]
        if e.kind == "void" and f.id == target:
            return j if f.is_correction else None
        if e.kind == "amend" and f.is_correction and isinstance(f.data, dict) \
                and f.data.get("target") == target:
            return j
    return None


def closed_period(m: dict[str, Any]) -> int | None:
    """The period the match ``m`` has closed and not started the next of: the interval after
    it, the end of the match, its shoot-out; None while a period is being played (its last
    lance too)."""
    if m["status"] in ("interval", "finished", "shootout"):
        return int(m["period"])
    return None


def closing(correction: Entry, period: int) -> Entry:
    """The step that keeps ``period`` closed at ``correction``'s place in the match."""
    return Entry(id=-correction.id, kind=CLOSED_KIND, data={"period": period},
                 source="system", period=correction.period, clock_ms=correction.clock_ms,
                 ticks=correction.ticks, author=correction.author, at=correction.at)


def with_closings(log: Sequence[Entry], effective: list[Entry],
                  closed: Callable[[int], int | None]) -> list[Entry]:
    """``effective`` (the log's entries the rules apply, in log order) with a closing step at
    the place of each correction made after an end signal that found its period closed
    (``closed(i)``: the period closed before ``log[i]``, else None)."""
    closings: list[tuple[int, Entry]] = []
    for i, e in enumerate(log):
        if e.is_correction and after_end_signal(log, i):
            period = closed(i)
            if period is not None:
                closings.append((i, closing(e, period)))
    if not closings:
        return effective
    where = {e.id: i for i, e in enumerate(log)}
    out: list[Entry] = []
    k = 0
    for e in effective:
        at = where.get(e.id, -1)
        while k < len(closings) and closings[k][0] < at:
            out.append(closings[k][1])
            k += 1
        out.append(e)
    out.extend(step for _, step in closings[k:])
    return out
