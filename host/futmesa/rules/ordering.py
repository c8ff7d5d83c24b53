"""The order the rules apply a match log in: the order things happened at the table.

The device's events keep their own order (the table numbers them), and so do the
referee's inputs; the two streams are merged by when each entry happened (`Entry.at`,
host ms: a device event's tick is mapped onto it by the link's time sync, a referee
input carries the moment it was pressed). So a shot the referee asked one second
before the alarm counts even when his input reached the log after the alarm
(003 Art. 29). Entries without a time (`at` 0) and ties keep the order they arrived
in. This mirrors store.merge_in_time_order, so a stored log (already in this order)
is left as it is.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .model import Entry

DEVICE_SOURCES = ("device", "system")


def is_device(entry: Entry) -> bool:
    return entry.source in DEVICE_SOURCES


def happened_before(entry: Entry, earlier: Entry) -> bool:
    """Whether referee input `entry` happened before device entry `earlier` that is already
    in the log ahead of it (both must carry a time)."""
    return bool(entry.at and earlier.at and entry.at < earlier.at)


def in_time_order(entries: Iterable[Entry]) -> list[Entry]:
    """`entries` (in arrival order) in the order they happened (see the module docstring)."""
    out: list[Entry] = []
    for entry in entries:
        # a referee input moves ahead of the device events that happened after it, never
        # ahead of an earlier referee input (its own stream keeps its order)
        out.insert(insert_position(out, entry), entry)
    return out


def insert_position(log: Sequence[Entry], entry: Entry) -> int:
    """Where `entry` goes in `log` (already in time order): at the end, unless it is a referee
    input that happened before the device events logged after the last referee input."""
    i = len(log)
    if not is_device(entry):
        while i > 0 and is_device(log[i - 1]) and happened_before(entry, log[i - 1]):
            i -= 1
    return i
