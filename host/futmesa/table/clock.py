"""The match clock between two STATUS frames: the last one read forward at the table's rate."""

from __future__ import annotations

import math
import time
from collections.abc import Callable

from futmesa.link import DeviceInfo, Status
from futmesa.link.timesync import TimeSync


class TableClock:
    """What the table's clock reads now (or at a moment just past), from its last STATUS."""

    def __init__(self) -> None:
        self.status: Status | None = None
        self.status_wall_ms = 0.0  # host Unix ms the status was received
        self.heard = 0.0  # time.monotonic() of the last STATUS
        # host Unix ms the clock was first heard in its interval (the screens count it down)
        self.interval_at: float | None = None

    def heard_status(self, status: Status, wall_ms: float,
                     began: Callable[[], float | None] | None = None) -> None:
        """Note ``status``, heard at host Unix ms ``wall_ms``. Entering the interval, ``began``
        (when the log says the period ended) dates it, so a host restarted in the interval
        counts on from where it was, not from the full length again."""
        self.status = status
        self.status_wall_ms = wall_ms
        self.heard = time.monotonic()
        if not status.in_interval:
            self.interval_at = None
        elif self.interval_at is None:
            ended = began() if began else None
            self.interval_at = ended if ended is not None and ended <= wall_ms else wall_ms

    def interval_start(self, began: float | None) -> float | None:
        """When the interval the screens count down began: the log's end of the period
        (``began``, the entry that ended it) once the log has one, else when the clock was
        first heard in it. The table's clock goes into its interval at the alarm, but a last
        lance played after it (001 Art. XXI §1 "terá ainda o direito de efetuar este lance que
        será o último"; 000 Art. 12 §6) is still the period: the interval is "entre o término
        da primeira fase e o início da segunda" (000 Art. 8 §9), from the lance's end."""
        if self.interval_at is None or began is None or began > time.time() * 1000:
            return self.interval_at
        return began

    @staticmethod
    def rate(info: DeviceInfo | None, timesync: TimeSync) -> float:
        """Device ms per real ms: measured by the link's time sync (an emulated board runs
        far from the rate it declares), else the declared one."""
        if info is None:
            return 1.0
        return timesync.rate if timesync.measured else info.tick_rate / 1000.0

    def now_ms(self, rate: float) -> int:
        """The clock now: a running clock counted on from its status, capped at its period's
        end — or at what the table said, when it counts on past that end (a half played to
        the ball out after time up, 004 A partida: never read back below it, walk 49a L5)."""
        return self.read_at(time.time() * 1000, rate)

    def read_at(self, wall_ms: float, rate: float) -> int:
        """The clock at host Unix ms ``wall_ms`` (not before its status): a running clock
        counted on from its status, capped at its period's end, or at the table's own
        reading past it (:meth:`now_ms`)."""
        s = self.status
        if s is None:
            return 0
        if not s.running or rate <= 0:  # rate 0: no table known, nothing counts on
            return s.clock_ms
        elapsed = (wall_ms - self.status_wall_ms) * rate
        end = max(s.period_ms + s.added_ms, s.clock_ms)
        return int(min(s.clock_ms + max(0.0, elapsed), end))

    def last_known(self, lost_wall_ms: float, rate: float) -> tuple[int, float]:
        """(clock ms, host Unix ms): the table's clock as the host last knew it — its last
        status, counted on to when the link went down if it went down after it (where every
        screen's clock stands while the table is not heard: matchbook/live.py)."""
        at = max(self.status_wall_ms, lost_wall_ms)
        return self.read_at(at, rate), at

    def at_ms(self, at: float, now: float, rate: float, stands_at: float | None = None) -> int:
        """The clock at host time ``at`` (an input pressed before now): the running clock
        counted back; a stopped one reads what it reads now. An input stored at its arrival
        (a whole ms, ``int(now)``) is not counted back by the fraction of a ms under ``now``
        (walk 49a L5: 02:00 − 0.4 ms read "01:59", after "Tempo esgotado" at 02:00).

        ``stands_at``: host Unix ms the link went down, while the table is not heard (None
        while it is). Every screen's clock then stands where it read at that moment
        (:meth:`last_known`, matchbook/live.py), and an input made meanwhile reads that clock,
        the one the referee saw — not one counted on that nobody saw, which a table coming back
        with its clock restored would then have to go back or jump to (walk50b M1)."""
        s = self.status
        if stands_at is not None:
            now = min(now, max(self.status_wall_ms, stands_at))
            clock = self.read_at(now, rate)
        else:
            clock = self.now_ms(rate)
        if s is None or not s.running or at >= math.floor(now):
            return clock
        return max(0, int(clock - (now - at) * rate))
