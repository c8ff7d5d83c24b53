"""Where an entry sits in time: the one place the host decides when a logged entry happened.

The order itself is one function, :func:`futmesa.rules.ordering.in_time_order` (the rules
apply a log in it, the store reads a match's log in it). This module decides the time each
entry is stored with, which is what that order reads:

- a **device event** at its device time mapped onto host time by the link's time sync, but
  never after it reached us, never before an earlier event of its boot, and never turned
  round with a referee input the time sync cannot tell it from (:func:`place_device`);
- a **referee input** at its arrival, or at its press when it arrives late
  (:meth:`Timeline.referee_stamp`);
- whether an entry goes before entries already applied, so the match is rebuilt in time order
  rather than stepped (:meth:`Timeline.device_is_late`, :meth:`Timeline.placed_before_device`).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

# a referee input that reaches the host more than this after its press (the phone's own
# stopwatch says) is stored at its press time; a prompt one at its arrival (the host's order)
LATE_INPUT_MS = 700
# inputs that command the table (its clock, a new match) act when they arrive: the table has
# gone on meanwhile, so they are never placed back at their press time
ARRIVAL_KINDS = frozenset({"start_period", "pause", "resume", "added_time", "clock_catch_up",
                           "lance_done", "new_match", "set_up", "kickoff", "draw_choice"})


def place_device(occurred: float, now_ms: float, floor: float, after: float,
                 uncertainty_ms: float) -> float:
    """The time to store for a device event the time sync maps to ``occurred``.

    It cannot have happened after it reached us: a mapping error the other way (a busy
    host) would sort it after a referee input made just after it arrived, e.g. "period
    started" after the "shot asked" that followed it, and a replay would then undo the
    shot. Nor before ``floor``, an event its device made before it (its sequence order is
    the order things happened at the table). And when it reached us after the referee's
    last input and the time sync cannot tell it happened before it, arrival order holds
    (a shot asked, then the goal a few ms later, must not be turned round by a mapping
    error): the stored time says so, so a replay keeps the same order.
    """
    at = max(min(occurred, now_ms), floor)
    if after - uncertainty_ms <= at <= after:
        at = after + 1
    return at


class Timeline:
    """The times already given in one match: its newest referee input and device entry."""

    def __init__(self, match: dict[str, Any]) -> None:
        self.opened_ms = float(match.get("created_at") or 0) * 1000
        self.last_referee_at = 0.0  # Unix ms of the newest referee input
        self.last_device_at = 0.0  # Unix ms stored for the newest device/system entry

    def read_from(self, stored: Iterable[Any]) -> None:
        """The newest times of a stored log (entries with ``source`` and ``occurred_at``)."""
        self.last_referee_at = self.last_device_at = 0.0
        for e in stored:
            if e.source == "referee":
                self.last_referee_at = max(self.last_referee_at, e.occurred_at)
            else:
                self.last_device_at = max(self.last_device_at, e.occurred_at)

    def note_device_at(self, occurred_at: float) -> None:
        """A device or system entry was stored with this time (``referee_stamp`` follows it)."""
        self.last_device_at = max(self.last_device_at, occurred_at)

    def device_is_late(self, occurred_at: float) -> bool:
        """A device entry that happened before a referee input already applied (it arrived
        late, after an outage): the match is rebuilt in the order things happened."""
        return occurred_at < self.last_referee_at

    def referee_applied(self, at: float) -> None:
        self.last_referee_at = max(self.last_referee_at, at)

    def referee_stamp(self, now_ms: float, pressed_at: float | None = None,
                      kind: str = "") -> int:
        """The time to store for a referee input that reaches the host at ``now_ms``.

        An input that arrives promptly (within :data:`LATE_INPUT_MS` of its press, or with no
        press time) is stored at its arrival, never before a device entry already applied, so
        the stored order (a tie keeps the order of arrival) is the order the host saw: the
        phone's clock cannot turn a "chute pedido" round with the "período iniciado" before it.
        An input that arrives late (a phone that lost the Wi-Fi for a moment, its queue
        delivered later) is stored at its press time, clamped: not in the future, not before
        the match was opened, not before the referee's last input (the referee's stream keeps
        the order entered). If that is before a device entry already applied,
        :meth:`placed_before_device` says so and the match is rebuilt (a shot asked a second
        before the alarm counts, 003 Art. 29). An input that commands the table
        (:data:`ARRIVAL_KINDS`) is stored at its arrival.
        """
        arrival = max(int(now_ms), math.ceil(self.last_device_at))
        if pressed_at is None or kind in ARRIVAL_KINDS or not math.isfinite(pressed_at) \
                or now_ms - pressed_at <= LATE_INPUT_MS:
            return arrival
        at = max(min(pressed_at, now_ms), self.opened_ms, self.last_referee_at)
        return math.ceil(at)

    def placed_before_device(self, at: float) -> bool:
        """Whether a referee input stored at ``at`` goes before a device entry already applied
        (then the match is rebuilt from the log rather than stepped)."""
        return at < self.last_device_at
