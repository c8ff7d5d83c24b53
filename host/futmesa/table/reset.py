"""A table's reset seen while serving it: the clock it stops showing, the match time it did not
count (offered to the referee as added time), and the window its last STATUS closes."""

from __future__ import annotations

import dataclasses
import logging
import time
from typing import Any

import futmesa_wire as W
from futmesa.i18n import _
from futmesa.link import DeviceInfo, Status
from futmesa.rules.model import MatchState

log = logging.getLogger("futmesa.table")

# a table's reboot: from its last status to its new boot's HELLO. A status heard that close
# before the reset, with nothing the log lacks, closes the window the seq reservation covers
RESET_WINDOW_S = 5.0


class ResetWatch:
    """The table's last reset: ``view`` is ``{"at", "boot", "lost_ms", "restored"}`` or None."""

    def __init__(self) -> None:
        self.view: dict[str, Any] | None = None
        self._clock: tuple[int, int, float] | None = None  # (period, ms, at) had it run
        self._if_running = False  # _clock is from the log: only if it restored running
        # the reset boot's last STATUS: (its newest seq, heard at, reset seen at), when the
        # new boot is the very next one (see closed_window)
        self._old_status: tuple[int, float, float] | None = None

    def _seen(self, boot_id: int) -> None:
        self.view = {"at": round(time.time() * 1000), "boot": boot_id, "lost_ms": 0,
                     "restored": False}

    def device_reset(self, old: DeviceInfo | None, info: DeviceInfo, status: Status | None,
                     clock_ms: int, heard: float) -> Status | None:
        """The table came back with a new boot: what it would read had it run is kept, and
        the status to show now (the old one, stopped)."""
        now = time.time() * 1000
        self._clock = (status.period, clock_ms, now) if status and status.running else None
        self._seen(info.boot_id)
        # boot ids are 1..65535, wrapping to 1 (docs/protocol.md)
        consecutive = old is not None and info.boot_id == old.boot_id % 0xFFFF + 1
        self._old_status = ((status.newest, heard, time.monotonic())
                            if status is not None and heard and consecutive else None)
        log.warning(_("table %s was reset (boot %d); its clock restores from flash"),
                    info.table_id, info.boot_id)
        if status is None:
            return None
        return dataclasses.replace(status, flags=status.flags & ~(W.ST_RUNNING
                                                                   | W.ST_LANCE_RUNNING))

    def while_down(self, info: DeviceInfo, stored_boot: int, state: MatchState | None) -> None:
        """futmesa starts again on a match the table has rebooted since the log last heard it
        (a Raspberry Pi table: the daemon and the table's loop on one machine, both stopped):
        a reset, as the referee sees one. The match time it did not count is reckoned from
        the log's newest device entry (the clock ran from there on, or an entry would say it
        stopped)."""
        if stored_boot in (0, info.boot_id) or state is None:
            return
        last = next((e for e in reversed(state.log)
                     if e.source == "device" and e.period > 0), None)
        if last is None:
            return
        self._clock = (last.period, last.clock_ms, float(last.at))
        self._if_running = True
        self._seen(info.boot_id)
        log.warning(_("table %s restarted mid-match while futmesa was stopped (boot %d); its "
                      "clock restores from its state folder"), info.table_id, info.boot_id)

    def heard_status(self, status: Status, tick_rate: int) -> None:
        """The reset board's first status: the match time its clock did not count."""
        if self.view is None or self.view["restored"]:
            return
        self.view["restored"] = True
        if self._if_running and not status.running:
            self._clock = None  # it had stopped before the restart: nothing lost
        self._if_running = False
        if self._clock is not None:
            period, ms, at = self._clock
            would_be = ms + (time.time() * 1000 - at) * tick_rate / 1000
            if status.period == period:
                cap = status.period_ms + status.added_ms
                self.view["lost_ms"] = max(0, int(min(would_be, cap) - status.clock_ms))
            self._clock = None

    def decided(self) -> None:
        """The referee gave added time: the offer is over."""
        if self.view is not None:
            self.view["lost_ms"] = 0

    def closed_window(self, made_seq: int) -> int | None:
        """The reset boot's newest seq when its last STATUS closes the reservation's window.

        The table sends a STATUS right after every event and at least every second. Its last
        one before the reset, heard within a reboot's time of the new boot, after the
        reservation's own event (newest >= made_seq): the table had made nothing beyond
        `newest` then, and was reset right after. Events up to `newest` were made (what the
        log lacks of them is a gap); nothing beyond is reported as possibly lost. None: the
        window stays open (no such status, too old, or boots in between)."""
        if self._old_status is None:
            return None
        newest, heard, reset_at = self._old_status
        if newest < made_seq or reset_at - heard > RESET_WINDOW_S:
            return None
        return newest
