"""The order the rules apply a match log in: the order things happened at the table.

The device's events keep their own order (the table numbers them), and so do the
referee's inputs; the two streams are merged by when each entry happened (`Entry.at`,
host ms: a device event's tick is mapped onto it by the link's time sync, a referee
input carries the moment it was pressed). So a shot the referee asked one second
before the alarm counts even when his input reached the log after the alarm
(003 Art. 29). Entries without a time (`at` 0) and ties keep the order they arrived
in. It is the one ordering in the host: the store reads a match's log in it
(`EventLog.entries`), so a stored log is already in this order and the rules leave it as it
is; when each entry happened is decided in one place, `futmesa.matchbook.timeline`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Protocol, TypeVar

DEVICE_SOURCES = ("device", "system")


class Timed(Protocol):
    """A log entry as the order sees it: who made it and when it happened (host ms)."""

    @property
    def source(self) -> str: ...

    @property
    def at(self) -> float: ...


T = TypeVar("T", bound=Timed)


def is_device(entry: Timed) -> bool:
    return entry.source in DEVICE_SOURCES


def happened_before(entry: Timed, earlier: Timed) -> bool:
    """Whether `entry` happened before `earlier` (both must carry a time)."""
    return bool(entry.at and earlier.at and entry.at < earlier.at)


def in_time_order(entries: Iterable[T]) -> list[T]:
    """`entries` (in arrival order) in the order they happened (see the module docstring):
    the device's stream and the referee's, each in its own order, merged by time; an entry
    goes first when it happened before the other, and on a tie or where either has no time
    the one that arrived first goes first."""
    items = list(entries)
    device = [(n, e) for n, e in enumerate(items) if is_device(e)]
    referee = [(n, e) for n, e in enumerate(items) if not is_device(e)]
    out: list[T] = []
    i = j = 0
    while i < len(device) and j < len(referee):
        (nd, d), (nr, r) = device[i], referee[j]
        if happened_before(r, d) or (not happened_before(d, r) and nr < nd):
            out.append(r)
            j += 1
        else:
            out.append(d)
            i += 1
    return out + [e for _n, e in device[i:]] + [e for _n, e in referee[j:]]


def insert_position(log: Sequence[Timed], entry: Timed) -> int:
    """Where `entry` goes in `log` (already in time order): at the end, unless it is a referee
    input that happened before the device events logged after the last referee input — where
    :func:`in_time_order` puts it, found from the end (a device stream is stored in time
    order: matchbook/timeline.py). A device entry goes at the end: one that happened before
    a referee input already applied is not stepped, the match is replayed."""
    i = len(log)
    if not is_device(entry):
        while i > 0 and is_device(log[i - 1]) and happened_before(entry, log[i - 1]):
            i -= 1
    return i
