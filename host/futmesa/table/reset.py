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
from futmesa.link.protocol import extend_boot
from futmesa.rules.model import MatchState
from futmesa.table.behind import Restored

log = logging.getLogger("futmesa.table")

# a table's reboot: from its last status to its new boot's HELLO. A status heard that close
# before the reset, with nothing the log lacks, closes the window the seq reservation covers
RESET_WINDOW_S = 5.0


def new_boot(old: DeviceInfo, info: DeviceInfo, status: Status | None) -> bool:
    """The table the daemon serves says it is on another boot: a new boot id, or the same id
    with fewer events than that boot has reported (a board with no state of its own starts
    again at boot 1, its seqs from 1). Its own boot again (a USB cable replugged) is not."""
    newest = max(old.newest, status.newest if status is not None else 0)
    return info.boot_id != old.boot_id or info.newest < newest


class ResetWatch:
    """The table's last reset: ``view`` is ``{"at", "boot", "lost_ms", "restored", "clock_ms"}``
    or None — ``clock_ms`` where its clock came back (None until it is heard), the point the
    question names beside the time not counted, as the Resumo does (walk50b M1)."""

    def __init__(self) -> None:
        self.view: dict[str, Any] | None = None
        self._clock: tuple[int, int, float] | None = None  # (period, ms, at) had it run
        self._if_running = False  # _clock is from the log: only if it restored running
        # the reset boot's last STATUS: (its newest seq, heard at, reset seen at), when the
        # new boot is the very next one (see closed_window)
        self._old_status: tuple[int, float, float] | None = None

    def _seen(self, boot_id: int) -> None:
        self.view = {"at": round(time.time() * 1000), "boot": boot_id, "lost_ms": 0,
                     "restored": False, "clock_ms": None}

    def device_reset(self, old: DeviceInfo | None, info: DeviceInfo, status: Status | None,
                     known: tuple[int, float], heard: float) -> Status | None:
        """The table came back with a new boot: its clock as the host last knew it (``known``:
        clock ms and host Unix ms, TableClock.last_known) is kept — what it would read had
        it run is counted on from there —, and the status to show now (the old one, stopped)."""
        self._clock = ((status.period, known[0], known[1]) if status and status.running
                       else None)
        self._if_running = False
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

    def known_clock(self) -> tuple[int, int, float] | None:
        """(period, clock ms, host Unix ms): the running clock of the reset table as the host
        last heard it while serving it (device_reset), the newest it knows; None when the
        host did not hear it run (started again itself: the log is all it has)."""
        return None if self._if_running else self._clock

    def while_down(self, info: DeviceInfo, cursor: tuple[int, int],
                   state: MatchState | None) -> None:
        """futmesa starts again on a match the table has rebooted since the log last heard it
        (a Raspberry Pi table: the daemon and the table's loop on one machine, both stopped):
        a reset, as the referee sees one. The match time it did not count is reckoned from
        the log's newest device entry (the clock ran from there on, or an entry would say it
        stopped).

        `cursor` is the log's (extended boot, seq) for the table: the boot it says now is the
        log's own unless its id moved on, or it has fewer events than the log (a board with
        no state of its own says boot 1 again) — extend_boot, as the link numbers it. The
        log's boot past 65535 with the table on the same boot is futmesa's own restart."""
        stored_boot, stored_seq = cursor
        if stored_boot == 0 or state is None or extend_boot(
                info.boot_id, stored_boot, stored_seq, info.newest) == stored_boot:
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
        self.view["clock_ms"] = status.clock_ms
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

    def restored_from_log(self, boot_id: int, restored: Restored, tick_rate: int) -> None:
        """The table's clock was behind the log and is restored from it (behind.py): a reset,
        as the referee sees one; a clock the log says ran did not count the match time from
        the log's newest device entry of that period to now."""
        if self.view is None or self.view["boot"] != boot_id:
            self._seen(boot_id)
        assert self.view is not None
        self.view["restored"] = True
        self.view["clock_ms"] = restored.clock_ms
        self._clock = None
        self._if_running = False
        if restored.running and restored.since > 0:
            would_be = restored.clock_ms + (time.time() * 1000 - restored.since) * tick_rate / 1000
            self.view["lost_ms"] = max(0, int(min(would_be, restored.cap_ms) - restored.clock_ms))
        log.warning(_("the table's clock was behind the event log: restored it to period %d "
                      "at %d ms"), restored.period, restored.clock_ms)

    def asking(self) -> bool:
        """The referee is asked about the time the reset did not count (the console rounds it
        to the second: from half a second on), and has not answered."""
        return self.view is not None and self.view["restored"] and self.view["lost_ms"] >= 500

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
