"""The table's own reports on their way into the match (on the table's queue): its hello (a
new table, a reset, a match opened or resumed), its events placed in time and stored before
they are applied, its gaps, its statuses."""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING, Any

import futmesa_wire as W
from futmesa.health import is_write_failure
from futmesa.i18n import _
from futmesa.link import DeviceInfo, Status
from futmesa.link.events import raw_event
from futmesa.link.protocol import extend_boot
from futmesa.matchbook import device_row
from futmesa.matchbook.live import names_of
from futmesa.matchbook.timeline import place_device
from futmesa.rules import Entry
from futmesa.table.behind import Restored, restore
from futmesa.table.reset import new_boot

if TYPE_CHECKING:
    from futmesa.table.daemon import TableDaemon

log = logging.getLogger("futmesa.table")


class DeviceInputs:
    """What the link hands the daemon, carried into the store and the match."""

    def __init__(self, table: TableDaemon) -> None:
        self.table = table
        self._device_floor: dict[tuple[str, int], float] = {}  # per (device, boot): newest time
        self.fresh = False  # a new match opened at connection awaits the table's status
        self._check_clock = False  # a connection's first status is checked against the log

    def on_device(self, info: DeviceInfo) -> tuple[int, int]:
        t = self.table
        first = t.info is None or t.info.uid != info.uid
        # its events come numbered as the link numbers the boot (past 65535: extend_boot)
        boot = extend_boot(info.boot_id, *t.store.last_committed(info.uid), info.newest)
        if not first and t.info is not None and new_boot(t.info, info, t.status):
            known = t.clock.last_known(t.lost_wall_ms, t.running_rate())
            t.clock.status = t.resets.device_reset(t.info, info, t.status, known,
                                                   t.clock.heard)
            t.earlier.new_boot(boot)
            t.publish()
        t.info = info
        self._check_clock = True
        if first and t.loop is not None:
            t.hub.set_referee_handler(info.table_id, t.referee_async)
        if first:
            t.hub.set_log_source(info.table_id, t.live_log)
        if first and t.on_table is not None:
            t.on_table(info.table_id)
        try:
            t.store.seen_device(info.uid, info.board, info.usb_serial)
            if (first or t.match is None) and t.open_match(info.table_id):
                # a new match: what the table made before it (an earlier match, perhaps
                # under another database) is kept in the device log, not played in it
                t.earlier.match_opened(info, boot)
                self.fresh = True  # its clock follows once its status is known
            elif first:
                t.resets.while_down(info, t.store.last_committed(info.uid), t.state)
        except Exception as exc:
            if not is_write_failure(exc):
                raise
            # the log cannot be written: connect anyway and show it; the device keeps
            # every event until one can be committed (on_event opens the match then)
            t.health.log_failed(exc)
            t.publish()
        if not self.fresh and not (t.status and t.status.running):
            t.send_profile()  # a new match's waits for its clock to be cleared (on_status)
        return t.store.last_committed(info.uid)

    def on_event(self, info: DeviceInfo, boot_id: int, seq: int, ticks: int,
                 payload: tuple[int, int, int, int, int, int], occurred: float) -> None:
        t = self.table
        ev, kind, data = device_row(raw_event(info.uid, boot_id, seq, ticks, payload))
        if t.match is None:
            t.open_match(info.table_id)  # it could not be opened at connection
        match_id = t.match["id"] if t.match else None
        if match_id is not None and t.earlier.made_before(boot_id, seq):
            match_id = None
            t.earlier.tell_once(info.table_id)
        if kind == "lost" and "reserved_seq" in data \
                and t.resets.closed_window(data["made_seq"]) is not None:
            # the last STATUS closed the window: kept as the device's event, but no "may be
            # lost" entry in the match (a false alarm referees learn to ignore)
            match_id = None
            log.info(_("table %s was reset right after its last status: no event of "
                       "the previous boot can be missing beyond it"), info.table_id)
        now = time.time() * 1000
        floor = self._device_floor.get((info.uid, boot_id), 0.0)
        after = t.book.timeline.last_referee_at if t.book is not None else 0.0
        occurred = place_device(occurred, now, floor, after, t.link.timesync.uncertainty_ms())
        stored = t.store.append_device_event(ev, match_id, kind, data, occurred)
        t.health.log_ok()
        self._device_floor[(info.uid, boot_id)] = occurred
        t.last_event_wall_ms = now
        self._note_sensor(kind, ev.a, data)
        if stored is None or stored[1] is None or t.book is None:
            t.publish()
            return
        t.book.timeline.note_device_at(occurred)
        if t.book.timeline.device_is_late(occurred):
            # it happened before referee input already applied (it arrived late, after an
            # outage): rebuild the match in the order things happened at the table
            late_s = (t.book.timeline.last_referee_at - occurred) / 1000
            (log.info if late_s >= 1 else log.debug)(
                _("event %s happened %.1f s before the last referee input but arrived "
                  "after it; replaying the match in time order"), kind, late_s)
            t.rebuild()
            return
        t.apply(Entry(id=stored[1], kind=kind, data=data, source="device", period=ev.period,
                      clock_ms=ev.clock_ms, ticks=ticks, author=info.uid, at=int(occurred)))

    def _note_sensor(self, kind: str, sensor: int, data: dict[str, Any]) -> None:
        t = self.table
        if kind == "sensor_fault":
            t.sensor_faults[sensor] = data["fault"]
            log.warning(_("sensor %d fault: %s — check its wiring and alignment"), sensor,
                        data["fault"])
        elif kind == "sensor_ok":
            t.sensor_faults.pop(sensor, None)

    def on_gap(self, info: DeviceInfo, boot_id: int, first_seq: int, last_seq: int) -> None:
        t = self.table
        match_id = t.match["id"] if t.match else None
        if t.earlier.made_before(boot_id, last_seq):
            match_id = None  # a hole in what the table made before this match
        entry_id = t.store.record_gap(info.uid, boot_id, first_seq, last_seq, match_id)
        t.health.log_ok()
        if entry_id is not None and t.book is not None:
            now = time.time() * 1000
            t.book.timeline.note_device_at(now)  # not before its stored time
            t.apply(Entry(id=entry_id, kind="gap", source="system", data={
                "boot_id": boot_id, "first_seq": first_seq, "last_seq": last_seq},
                author="link", at=int(now)))

    def on_status(self, info: DeviceInfo, status: Status, wall_ms: float) -> None:
        t = self.table
        view = t.resets.view
        reset_seen = view is not None and not view["restored"]
        restored = self._restore_from_log(info, status)
        t.resets.heard_status(status, info.tick_rate)
        if restored is not None:
            self._log_restored(restored.period, restored.clock_ms)
        elif reset_seen and status.period > 0:
            self._log_restored(status.period, status.clock_ms)
        t.clock.heard_status(status, wall_ms,
                             began=t.book.interval_began if t.book is not None else None)
        if self.fresh:
            self.fresh = False
            if self._clear_earlier_match(info, status):
                t.send_profile()
        t.publish()

    def _restore_from_log(self, info: DeviceInfo, status: Status) -> Restored | None:
        """A connection's first status: a clock behind the log is restored from it
        (behind.py)."""
        t = self.table
        if not self._check_clock or self.fresh or t.state is None:
            return None
        self._check_clock = False
        restored = restore(status, t.state, t.resets.known_clock())
        if restored is None:
            return None
        t.send_profile()  # the log's match's profile first: its periods and lengths
        for command in restored.commands:
            t.link.command(command.code, a=command.a, b=command.b, x=command.x)
        t.resets.restored_from_log(info.boot_id, restored, info.tick_rate)
        return restored

    def _log_restored(self, period: int, clock_ms: int) -> None:
        """A reset table's clock restored in a period of the match: the log keeps it, with the
        match time the clock did not count, so the account says it (walk 47a H1)."""
        t = self.table
        view = t.resets.view
        if t.match is None or t.book is None or view is None or t.state is None \
                or t.state.m.get("finished"):
            return
        now = time.time() * 1000
        t.book.timeline.note_device_at(now)  # not before its stored time
        data = {"lost_ms": int(view["lost_ms"])}
        entry_id = t.store.append_entry(t.match["id"], "system", "clock_restored", data,
                                        period, clock_ms, "link", occurred_at=now)
        t.health.log_ok()
        t.apply(Entry(id=entry_id, kind="clock_restored", source="system", data=data,
                      period=period, clock_ms=clock_ms, author="link", at=int(now)))

    def _clear_earlier_match(self, info: DeviceInfo, status: Status) -> bool:
        """A new match opened at the table's connection: a clock left from an earlier match
        (over, or in its interval) is cleared so this one can start; a period still running
        is left alone — it is the official time of a match this log does not hold (a wrong
        --db?) — and the operator is told. True: the table is ready for this match's profile
        (its set-up entry then dated before the 1st period, at 00:00)."""
        t = self.table
        if status.period == 0 and not status.running:
            return True
        if status.flags & W.ST_RUNNING:
            log.warning(_("%s is in period %d of a match this event log does not hold: finish "
                          "it on the host that started it (the right --db), or start a new "
                          "match from the console"), names_of(info.table_id, None), status.period)
            return False
        t.link.command(W.CMD_NEW_MATCH)
        return True

