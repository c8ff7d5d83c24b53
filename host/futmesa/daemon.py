"""The table daemon: link → event log → rules → state hub, and rule effects back to the device.

Every device event is committed to the event log first, then applied by the
ruleset; the resulting state is published to the hub that the views read.
Referee inputs take the same path (log first, then rules). What a log row
means, the engine, replay and the state JSON belong to the matchbook
(:mod:`futmesa.matchbook`); the daemon moves events between the link, the
store, the matchbook and the hub, and carries rule effects back to the device.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import threading
import time
from collections.abc import Callable
from typing import Any

import futmesa_wire as W
from futmesa.config import SettingsError, validate_settings
from futmesa.health import Health, is_write_failure
from futmesa.hub import RefusedError, StateHub
from futmesa.i18n import N_, _, language, short, translator
from futmesa.link import DeviceInfo, HostLink, Status
from futmesa.link.events import raw_event
from futmesa.link.messages import Profile
from futmesa.matchbook import LinkView, MatchBook, UnloadableMatch, device_row, state_json
from futmesa.matchbook.citations import plain
from futmesa.matchbook.live import names_of
from futmesa.matchbook.signing import refusal as closing_refusal
from futmesa.matchbook.signing import signable_hashes
from futmesa.matchbook.wording import ruleset_title
from futmesa.portcheck import port_problem
from futmesa.rules import Effect, Entry, load_ruleset
from futmesa.store import EventLog

log = logging.getLogger("futmesa.daemon")

# device commands the rules (or the console) may ask for, by effect name
DEVICE_COMMANDS: dict[str, int] = {
    "start": W.CMD_START,
    "pause": W.CMD_PAUSE,
    "resume": W.CMD_RESUME,
    "adjust": W.CMD_ADJUST,
    "add_time": W.CMD_ADD_TIME,
    "beep": W.CMD_BEEP,
    "lance_restart": W.CMD_LANCE,
    "lance_stop": W.CMD_LANCE,
    "play_on": W.CMD_PLAY_ON,
    "new_period": W.CMD_NEW_PERIOD,
    "set_clock": W.CMD_SET_CLOCK,
    "new_match": W.CMD_NEW_MATCH,
    "dead_ball": W.CMD_DEAD_BALL,
}
_BEEPS = {"warning": W.BEEP_WARNING, "alarm": W.BEEP_ALARM, "goal": W.BEEP_GOAL,
          "prewarn": W.BEEP_PREWARN}
_SIDES = {"A": 0, "B": 1}
# a table's reboot: from its last status to its new boot's HELLO. A status heard that close
# before the reset, with nothing the log lacks, closes the window the seq reservation covers
RESET_WINDOW_S = 5.0


def checked_new_match(data: dict[str, Any]) -> tuple[str | None, dict[str, Any] | None]:
    """The ruleset and engine settings of a "Nova partida", or RefusedError saying what is wrong."""
    ruleset = data.get("ruleset") or None
    if ruleset is not None:
        try:
            load_ruleset(str(ruleset))
        except KeyError as exc:
            raise RefusedError(str(exc.args[0] if exc.args else exc)) from None
    settings = data.get("settings")
    if settings is None:
        return ruleset, None
    try:
        return ruleset, validate_settings(settings)
    except SettingsError as exc:
        raise RefusedError.words(N_("invalid settings: {why}"), why=exc) from None


class TableDaemon:
    """Serves one table: owns its link, its current match and its published state."""

    def __init__(self, store: EventLog, hub: StateHub, port: str, ruleset: str,
                 settings: dict[str, Any] | None = None,
                 loop: asyncio.AbstractEventLoop | None = None,
                 on_new_match: Callable[[int], None] | None = None,
                 on_table: Callable[[str], None] | None = None) -> None:
        self.store = store
        self.hub = hub
        self.ruleset_name = ruleset
        load_ruleset(ruleset)  # fail early on a typo, with the known names
        self.settings = dict(settings or {})
        self.loop = loop
        self.on_new_match = on_new_match  # e.g. a new console token for the new match
        self.on_table = on_table  # a table is first seen on this port (its id is known)
        self.link = HostLink(port, self, explain=port_problem)
        self._lock = threading.RLock()
        self.info: DeviceInfo | None = None
        self.match: dict[str, Any] | None = None
        self.book: MatchBook | None = None
        self.status: Status | None = None
        self.status_wall_ms = 0.0
        self.connected = False
        self.link_reason = _("waiting for the table")
        self.last_event_wall_ms = 0.0
        self.sensor_faults: dict[int, str] = {}
        # per (device, boot): the time stored for its newest event (on_event)
        self._device_floor: dict[tuple[str, int], float] = {}
        self.ended_match_ids: set[int] = set()
        # faults around the match (the event log not writable...), published through the hub
        self.health = Health(on_change=self._publish_health)
        # the table's last reset seen while serving it: {"at", "boot", "lost_ms"} (the match
        # time its clock did not count, offered to the referee as added time), or None
        self.reset: dict[str, Any] | None = None
        self._reset_clock: tuple[int, int, float] | None = None  # (period, ms, at) had it run
        self._reset_if_running = False  # _reset_clock is from the log: only if it restored running
        self._status_heard = 0.0  # time.monotonic() of the last STATUS
        # the reset boot's last STATUS: (its newest seq, heard at, reset seen at), when the
        # new boot is the very next one (see _closed_window)
        self._old_status: tuple[int, float, float] | None = None
        # (boot id, newest seq) the table held when a new match opened at its connection:
        # events up to it belong to no match here (an earlier one, another database's)
        self._before_match: tuple[int, int] | None = None
        self._told_before = False
        self._fresh_device = False  # a new match opened at connection awaits the table's status
        self._boots_since: set[int] = set()  # the table's boots seen since that match opened

    # -- lifecycle -----------------------------------------------------------------
    def start(self) -> None:
        self.link.start()

    def stop(self) -> None:
        self.link.stop()

    @property
    def table_id(self) -> str | None:
        return self.info.table_id if self.info else None

    # -- match -----------------------------------------------------------------------
    def _open_match(self, table_id: str) -> bool:
        """Resume the table's open match, or start a new one (True)."""
        match = self.store.open_match(table_id)
        if match is not None:
            try:
                self.book = MatchBook.opened(self.store, match)
            except UnloadableMatch as exc:  # never let a broken stored match block the table
                self.store.end_match(match["id"])
                log.warning(_("match %d on table %s cannot be loaded (%s): ended it as "
                              "\"cannot be loaded\" and starting a new one; its log is kept — "
                              "read it with the futmesa version that wrote it, or send the "
                              "database file with a report"), match["id"], table_id, exc.said())
                match = None
        created = match is None
        if match is None:
            match_id = self.store.new_match(table_id, self.ruleset_name, self.settings,
                                            self.settings.get("referee", ""))
            match = self.store.match(match_id)
            assert match is not None
            log.info(_("new match %d on %s, %s"), match_id, names_of(table_id, None),
                     ruleset_title(self.ruleset_name))
            self.book = MatchBook.opened(self.store, match)
        else:
            log.info(_("resuming match %d on %s"), match["id"], names_of(table_id, None))
        self.match = match
        return created

    @property
    def state(self) -> Any:
        """The rules' match state (``MatchState``) of the current match, or None."""
        return self.book.state if self.book else None

    def new_match(self, ruleset: str | None = None, settings: dict[str, Any] | None = None) -> int:
        """End the current match (if any) and start a new one on this table."""
        with self._lock:
            if self.match is not None:
                self.store.end_match(self.match["id"])
            if ruleset:
                load_ruleset(ruleset)
                self.ruleset_name = ruleset
            if settings is not None:
                self.settings = dict(settings)
            table_id = self.table_id or "unknown"
            self.match = None
            self._open_match(table_id)
            self._send_profile(force=True)
            self.link.command(W.CMD_NEW_MATCH)
            self._publish()
            assert self.match is not None
            match_id = int(self.match["id"])
        if self.on_new_match is not None:
            self.on_new_match(match_id)
        return match_id

    def _profile(self) -> Profile:
        assert self.book is not None
        return Profile.from_dict(self.book.engine.ruleset.clock_profile(self.match["settings"]
                                                                   if self.match else None))

    def _send_profile(self, force: bool = False) -> None:
        if self.info is None or self.book is None:
            return
        wanted = self._profile()
        if force or wanted != self.info.profile:
            log.info(_("sending the %s clock profile to the table"),
                     ruleset_title(self.ruleset_name))
            self.link.send_profile(wanted)

    # -- LinkSink (link thread) ---------------------------------------------------------
    def on_device(self, info: DeviceInfo) -> tuple[int, int]:
        with self._lock:
            first = self.info is None or self.info.uid != info.uid
            if not first and self.info is not None and self.info.boot_id != info.boot_id:
                self._device_reset(info)
                self._boots_since.add(info.boot_id)  # a boot of this match, not before it
            self.info = info
            if first and self.loop is not None:
                self.hub.set_referee_handler(info.table_id, self.referee_async)
            if first and self.on_table is not None:
                self.on_table(info.table_id)
            try:
                self.store.seen_device(info.uid, info.board, info.usb_serial)
                if (first or self.match is None) and self._open_match(info.table_id):
                    # a new match: what the table made before it (an earlier match, perhaps
                    # under another database) is kept in the device log, not played in it
                    self._before_match = (info.boot_id, info.newest)
                    self._boots_since = set()
                    self._fresh_device = True  # its clock follows once its status is known
                elif first:
                    self._reset_while_down(info)
            except Exception as exc:
                if not is_write_failure(exc):
                    raise
                # the log cannot be written: connect anyway and show it; the device keeps
                # every event until one can be committed (on_event opens the match then)
                self.health.log_failed(exc)
                self._publish()
            stopped = not (self.status and self.status.running)
            if stopped:
                self._send_profile()
            return self.store.last_committed(info.uid)

    def on_event(self, info: DeviceInfo, boot_id: int, seq: int, ticks: int,
                 payload: tuple[int, int, int, int, int, int]) -> None:
        ev, kind, data = device_row(raw_event(info.uid, boot_id, seq, ticks, payload))
        # when it happened: device time mapped to host time (a round trip is made
        # before any replay), so late-arriving events still sort where they belong
        occurred = self.link.timesync.wall_ms(ticks)
        with self._lock:
            if self.match is None:
                self._open_match(info.table_id)  # it could not be opened at connection
            match_id = self.match["id"] if self.match else None
            if match_id is not None and self._made_before_match(boot_id, seq):
                match_id = None
                if not self._told_before:
                    self._told_before = True
                    log.info(_("%s kept events from before this match (an earlier match): "
                               "stored in the table's log, not played in this match"),
                             names_of(info.table_id, None))
            if kind == "lost" and "reserved_seq" in data \
                    and self._closed_window(data["made_seq"]) is not None:
                # the last STATUS closed the window: kept as the device's event, but no
                # "may be lost" entry in the match (a false alarm referees learn to ignore)
                match_id = None
                log.info(_("table %s was reset right after its last status: no event of "
                           "the previous boot can be missing beyond it"), info.table_id)
            # it cannot have happened after it reached us: a mapping error the other way
            # (a busy host) would sort it after a referee input made just after it arrived,
            # e.g. "period started" after the "shot asked" that followed it, and a replay
            # would then undo the shot
            occurred = min(occurred, time.time() * 1000)
            # nor before an event the device made before it (its sequence order is the
            # order things happened at the table)
            occurred = max(occurred, self._device_floor.get((info.uid, boot_id), 0.0))
            after = self.book.last_referee_at if self.book is not None else 0.0
            if after - self.link.timesync.uncertainty_ms() <= occurred <= after:
                # it reached us after the referee's last input and the time sync cannot tell
                # it happened before it: arrival order holds (a shot asked, then the goal
                # a few ms later, must not be turned round by a mapping error), and the
                # stored time says so, so a replay keeps the same order
                occurred = after + 1
            stored = self.store.append_device_event(ev, match_id, kind, data, occurred)
            self.health.log_ok()
            self._device_floor[(info.uid, boot_id)] = occurred
            if self.book is not None and stored is not None and stored[1] is not None:
                self.book.note_device_at(occurred)
            self.last_event_wall_ms = time.time() * 1000
            if kind == "sensor_fault":
                self.sensor_faults[ev.a] = data["fault"]
                log.warning(_("sensor %d fault: %s — check its wiring and alignment"), ev.a,
                            data["fault"])
            elif kind == "sensor_ok":
                self.sensor_faults.pop(ev.a, None)
            if stored is None or stored[1] is None:
                self._publish()
                return
            assert self.book is not None
            if occurred < self.book.last_referee_at:
                # it happened before referee input already applied (it arrived late, after
                # an outage): rebuild the match in the order things happened at the table
                late_s = (self.book.last_referee_at - occurred) / 1000
                if late_s >= 1:
                    log.info(_("event %s happened %.1f s before the last referee input but "
                               "arrived after it; replaying the match in time order"),
                             kind, late_s)
                else:
                    log.debug("event %s happened %.1f s before the last referee input but "
                              "arrived after it; replaying the match in time order", kind, late_s)
                self._rebuild()
                return
            entry = Entry(id=stored[1], kind=kind, data=data, source="device", period=ev.period,
                          clock_ms=ev.clock_ms, ticks=ticks, author=info.uid, at=int(occurred))
            self._apply(entry)

    def _made_before_match(self, boot_id: int, seq: int) -> bool:
        """Whether the table made this event before the match opened at its connection: an
        earlier boot's, or this boot's up to the newest it held then."""
        before = self._before_match
        if before is None or boot_id in self._boots_since:
            return False
        return boot_id != before[0] or seq <= before[1]

    def on_gap(self, info: DeviceInfo, boot_id: int, first_seq: int, last_seq: int) -> None:
        with self._lock:
            match_id = self.match["id"] if self.match else None
            if self._made_before_match(boot_id, last_seq):
                match_id = None  # a hole in what the table made before this match
            entry_id = self.store.record_gap(info.uid, boot_id, first_seq, last_seq, match_id)
            self.health.log_ok()
            if entry_id is not None:
                if self.book is not None:
                    self.book.note_device_at(time.time() * 1000)  # not before its stored time
                self._apply(Entry(id=entry_id, kind="gap", source="system", data={
                    "boot_id": boot_id, "first_seq": first_seq, "last_seq": last_seq},
                    author="link", at=int(time.time() * 1000)))

    def _device_reset(self, info: DeviceInfo) -> None:
        """The table was reset: stop showing the old boot's clock at once, and remember what
        it would read, to tell the referee how much match time the reset cost."""
        now = time.time() * 1000
        s = self.status
        self._reset_clock = None
        if s is not None and s.running:
            self._reset_clock = (s.period, self._clock_now_ms(), now)
        if s is not None:
            self.status = dataclasses.replace(s, flags=s.flags & ~(W.ST_RUNNING
                                                                   | W.ST_LANCE_RUNNING))
        self.reset = {"at": round(now), "boot": info.boot_id, "lost_ms": 0, "restored": False}
        old = self.info
        # boot ids are 1..65535, wrapping to 1 (docs/protocol.md)
        consecutive = old is not None and info.boot_id == old.boot_id % 0xFFFF + 1
        self._old_status = ((s.newest, self._status_heard, time.monotonic())
                            if s is not None and self._status_heard and consecutive else None)
        log.warning(_("table %s was reset (boot %d); its clock restores from flash"),
                    info.table_id, info.boot_id)
        self._publish()

    def _reset_while_down(self, info: DeviceInfo) -> None:
        """futmesa starts again on a match the table has rebooted since the log last heard it
        (a Raspberry Pi table: the daemon and the table's loop on one machine, both stopped):
        a reset, as the referee sees one. Its clock restores from its state folder; the match
        time it did not count is offered, reckoned from the log's newest device entry (the
        clock ran from there on, or an entry would say it stopped)."""
        boot, _seq = self.store.last_committed(info.uid)
        state = self.state
        if boot in (0, info.boot_id) or state is None:
            return
        last = next((e for e in reversed(state.log)
                     if e.source == "device" and e.period > 0), None)
        if last is None:
            return
        self._reset_clock = (last.period, last.clock_ms, float(last.at))
        self._reset_if_running = True
        self.reset = {"at": round(time.time() * 1000), "boot": info.boot_id, "lost_ms": 0,
                      "restored": False}
        log.warning(_("table %s restarted mid-match while futmesa was stopped (boot %d); its "
                      "clock restores from its state folder"), info.table_id, info.boot_id)

    def _restored(self, status: Status) -> None:
        """The reset board's first status: the match time its clock did not count."""
        assert self.reset is not None
        self.reset["restored"] = True
        if self._reset_if_running and not status.running:
            self._reset_clock = None  # it had stopped before the restart: nothing lost
        self._reset_if_running = False
        if self._reset_clock is not None:
            period, ms, at = self._reset_clock
            rate = self.info.tick_rate / 1000 if self.info else 1.0
            would_be = ms + (time.time() * 1000 - at) * rate
            if status.period == period:
                cap = status.period_ms + status.added_ms
                self.reset["lost_ms"] = max(0, int(min(would_be, cap) - status.clock_ms))
            self._reset_clock = None

    def on_lost(self, info: DeviceInfo, boot_id: int, first_seq: int, last_seq: int,
                kinds: dict[str, int]) -> None:
        """The reset boot's events the device had kept as unacknowledged: gaps in the log
        (the device's own EV_LOST entries name the kinds for the referee)."""
        with self._lock:
            self.store.record_lost(info.uid, boot_id, first_seq, last_seq)
            self.health.log_ok()

    def _closed_window(self, made_seq: int) -> int | None:
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

    def on_reservation(self, info: DeviceInfo, boot_id: int, made_seq: int,
                       reserved_seq: int) -> tuple[tuple[int, int] | None,
                                                   tuple[int, int] | None]:
        """The reset boot's seq reservation: what the log lacks becomes a gap (made) or a
        possible loss (reserved, unless the last STATUS closed that window); the device's
        own `lost` entry tells the referee."""
        with self._lock:
            newest = self._closed_window(made_seq)
            if newest is not None:
                made_seq = reserved_seq = min(max(made_seq, newest), reserved_seq)
            result = self.store.record_reservation(info.uid, boot_id, made_seq, reserved_seq)
            self.health.log_ok()
            return result

    def on_status(self, info: DeviceInfo, status: Status, wall_ms: float) -> None:
        with self._lock:
            if self.reset is not None and not self.reset["restored"]:
                self._restored(status)
            self.status = status
            self.status_wall_ms = wall_ms
            self._status_heard = time.monotonic()
            if self._fresh_device:
                self._fresh_device = False
                self._clear_earlier_match(info, status)
            self._publish()

    def _clear_earlier_match(self, info: DeviceInfo, status: Status) -> None:
        """A new match opened at the table's connection: a clock left from an earlier match
        (over, or in its interval) is cleared so this one can start; a period still running
        is left alone — it is the official time of a match this log does not hold (a wrong
        --db?) — and the operator is told."""
        if status.period == 0 and not status.running:
            return
        if status.flags & W.ST_RUNNING:
            log.warning(_("%s is in period %d of a match this event log does not hold: finish "
                          "it on the host that started it (the right --db), or start a new "
                          "match from the console"), names_of(info.table_id, None), status.period)
            return
        self.link.command(W.CMD_NEW_MATCH)

    def on_sink_error(self, exc: Exception) -> None:
        """Committing a frame failed (the link will have it resent): show why, log it once."""
        if is_write_failure(exc):
            self.health.log_failed(exc)
        else:
            log.error(_("storing a device frame failed: %r; the table will resend it"), exc,
                      exc_info=exc)

    def on_connection(self, connected: bool, reason: str) -> None:
        with self._lock:
            self.connected = connected
            self.link_reason = reason
            self._publish()

    # -- rules -------------------------------------------------------------------------
    def _apply(self, entry: Entry) -> list[Effect]:
        assert self.book is not None
        effects = self.book.apply(entry)
        for effect in effects:
            self._carry_out(effect)
        self._after_change()
        return effects

    def _rebuild(self) -> None:
        """Recompute the match from the whole log (effects of a replay were carried out before)."""
        assert self.book is not None
        self.book.replay()
        self._after_change()

    def _after_change(self) -> None:
        m = self.state.to_dict()
        if m.get("finished") and self.match and self.match["id"] not in self.ended_match_ids:
            self.ended_match_ids.add(self.match["id"])
            self.store.end_match(self.match["id"])
        self._publish()

    def _carry_out(self, effect: Effect) -> None:
        if effect.kind != "device":
            return
        cmd = str(effect.data.get("cmd", ""))
        if cmd == "end_period":
            return  # the device ends a period itself, on the pass its time runs out
        code = DEVICE_COMMANDS.get(cmd)
        if code is None:
            log.warning(_("the ruleset asked for an unknown device command %r"), cmd)
            return
        d = effect.data
        if cmd == "beep":
            self.link.command(code, a=_BEEPS.get(str(d.get("pattern", "warning")),
                                                 W.BEEP_WARNING))
        elif cmd in ("lance_restart", "lance_stop"):
            self.link.command(code, a=_SIDES.get(str(d.get("side")), 2),
                              b=1 if cmd == "lance_stop" else 0)
        elif cmd in ("adjust", "add_time"):
            self.link.command(code, x=int(d.get("ms", d.get("delta_ms", 0))))
        elif cmd == "play_on":
            # give_back: the dead ball the clock stopped on was voided (rules/resync.py)
            self.link.command(code, a=1 if d.get("give_back") else 0)
        elif cmd == "set_clock":
            self.link.command(code, a=int(d.get("period", 1)), x=int(d.get("ms", 0)))
        else:
            self.link.command(code)

    # -- referee input --------------------------------------------------------------------
    def referee(self, kind: str, data: dict[str, Any], author: str,
                pressed_at: float | None = None, input_id: str | None = None) -> dict[str, Any]:
        """Log a referee input, apply it, and return the new state (RefusedError if refused).

        ``pressed_at`` (host Unix ms): when the referee pressed it; an input that arrives late
        is stored at that time (``MatchBook.referee_stamp``), and when that goes before device
        events already applied the match is rebuilt in time order, like a late device event.
        ``input_id``: the id the phone gave it; an input already stored with that id (sent
        again after its answer was lost, even across a restart) is not applied again.
        """
        with self._lock:
            self._refuse_without_match()
            done = self.store.input_entry(input_id) if input_id else None
            if done is not None:
                return {"ok": True, "entry_id": done[1], "already": True, "effects": [],
                        "state": self.state_json()}
            if kind == "new_match":
                ruleset, settings = checked_new_match(data)  # before anything is written
                match_id = self.new_match(ruleset, settings)
                return {"ok": True, "match_id": match_id, "state": self.state_json()}
            self._refuse_if_closed(kind, data)
            period = self.status.period if self.status else 0
            now = time.time() * 1000
            at = self.book.referee_stamp(now, pressed_at, kind)
            clock_ms = self._clock_at_ms(at, now)
            probe = Entry(id=0, kind=kind, data=data, source="referee", period=period,
                          clock_ms=clock_ms, author=author, at=at)
            self._probe(probe)
            entry_id = self._store_input(probe, input_id)
            self.health.log_ok()
            if kind == "added_time" and self.reset is not None:
                self.reset["lost_ms"] = 0  # the referee has decided: the offer is over
            entry = Entry(id=entry_id, kind=kind, data=data, source="referee", period=period,
                          clock_ms=clock_ms, author=author, at=probe.at)
            if self.book.placed_before_device(probe.at):
                # pressed before events the table sent since (it reached us late): the match
                # is rebuilt in the order things happened; what the device did meanwhile
                # stands, so no device command is sent for it
                log.info(_("referee input %s was pressed %.1f s before it arrived, before "
                           "the last table event; replaying the match in time order"), kind,
                         (now - probe.at) / 1000)
                self._rebuild()
                effects = []
            else:
                effects = self._apply(entry)
            return {"ok": True, "entry_id": entry_id,
                    "effects": [{"kind": e.kind, **e.data} for e in effects],
                    "state": self.state_json()}

    def _refuse_without_match(self) -> None:
        """No match open (no table yet, or the log could not be opened): refused, saying why."""
        if self.match is not None and self.book is not None:
            return
        faults = self.health.faults()
        if faults:  # the match could not be opened: the log cannot be written
            raise RefusedError(faults[0].said(), {lang: faults[0].said(lang)
                                                  for lang in ("pt", "en")})
        raise RefusedError.words(N_("no table has connected yet: check the USB cable"))

    def _refuse_if_closed(self, kind: str, data: dict[str, Any]) -> None:
        """A closed match (the referee signed) takes no input but "reabrir"."""
        assert self.match is not None and self.book is not None
        match_id = self.match["id"]
        book = self.book

        def closing(lang: str | None = None) -> str | None:
            return closing_refusal(
                kind, data, list(book.state.log),
                finished=lambda: bool(self.state.to_dict().get("finished")),
                signable=lambda: signable_hashes(list(self.store.chain_rows(match_id).values())),
                lang=lang)

        refusal = closing()
        if refusal:
            raise RefusedError(refusal, {lang: closing(lang) or refusal for lang in ("pt", "en")})

    def _probe(self, probe: Entry) -> None:
        """The rules try the input first: one they refuse changes nothing and is not logged;
        the console shows why — the article in words, never the document's file number."""
        assert self.book is not None
        try:
            effects = self.book.probe(probe)
        except (ValueError, KeyError, TypeError) as exc:
            raise RefusedError(str(exc)) from exc
        refused = [e.data for e in effects
                   if e.kind == "announce" and e.data.get("code") == "refused"]
        if refused:
            texts = {lang: plain(str(refused[0].get(lang) or refused[0].get("pt", "")))
                     for lang in ("pt", "en")}
            raise RefusedError(texts[short(language())], texts)

    def _store_input(self, probe: Entry, input_id: str | None) -> int:
        """The input into the log; a disk that cannot take it refuses it, saying to retry."""
        assert self.match is not None
        try:
            return self.store.append_entry(self.match["id"], "referee", probe.kind, probe.data,
                                           probe.period, probe.clock_ms, probe.author,
                                           occurred_at=probe.at, input_id=input_id)
        except Exception as exc:
            if not is_write_failure(exc):
                raise
            fault = self.health.log_failed(exc)
            again = N_("{fault}: try again once the warning is gone")
            raise RefusedError(_(again).format(fault=fault.said()), {
                lang: translator(lang).gettext(again).format(fault=fault.said(lang))
                for lang in ("pt", "en")}) from exc

    async def referee_async(self, kind: str, data: dict[str, Any], author: str,
                            pressed_at: float | None = None,
                            input_id: str | None = None) -> dict[str, Any]:
        return await asyncio.to_thread(self.referee, kind, data, author, pressed_at, input_id)

    # -- state -----------------------------------------------------------------------------
    def clock_rate(self) -> float:
        """Device ms per real ms: measured by the link's time sync (an emulated board runs
        far from the rate it declares), else the declared one."""
        if self.info is None:
            return 1.0
        ts = self.link.timesync
        return ts.rate if ts.measured else self.info.tick_rate / 1000.0

    def _clock_now_ms(self) -> int:
        s = self.status
        if s is None:
            return 0
        if not s.running or self.info is None:
            return s.clock_ms
        elapsed = (time.time() * 1000 - self.status_wall_ms) * self.clock_rate()
        return int(min(s.clock_ms + max(0.0, elapsed), s.period_ms + s.added_ms))

    def _clock_at_ms(self, at: float, now: float) -> int:
        """The match clock at host time ``at`` (an input pressed before now): the running
        clock counted back; a stopped one reads what it reads now."""
        clock = self._clock_now_ms()
        s = self.status
        if s is None or not s.running or at >= now:
            return clock
        return max(0, int(clock - (now - at) * self.clock_rate()))

    def state_json(self) -> dict[str, Any]:
        """The state every view reads (built by :func:`futmesa.matchbook.state_json`)."""
        info = self.info
        return state_json(
            table_id=self.table_id,
            match_id=self.match["id"] if self.match else None,
            ruleset=self.match["ruleset"] if self.match else self.ruleset_name,
            match=self.state.to_dict() if self.state is not None else {},
            status=self.status, status_wall_ms=self.status_wall_ms,
            profile=self._profile() if self.book else None,
            table_name=names_of(self.table_id, self.settings),
            link=LinkView(connected=self.connected, reason=self.link_reason,
                          last_event_at=self.last_event_wall_ms,
                          bad_frames=self.link.stats.bad_frames,
                          device=info.uid if info else None,
                          firmware=info.firmware if info else None,
                          board=info.board if info else None,
                          tick_rate=info.tick_rate if info else None,
                          clock_rate=self.clock_rate() if info else None,
                          reset=dict(self.reset) if self.reset else None,
                          sensor_faults=self.sensor_faults))

    def _publish_health(self, health: dict[str, Any]) -> None:
        if self.table_id is None:
            return
        if self.loop is not None and self.loop.is_running():
            self.loop.call_soon_threadsafe(self.hub.publish_health, self.table_id, health)
        else:
            self.hub.publish_health(self.table_id, health)

    def _publish(self) -> None:
        if self.table_id is None:
            return
        state = self.state_json()
        if self.loop is not None and self.loop.is_running():
            self.loop.call_soon_threadsafe(self.hub.publish, self.table_id, state)
        else:
            self.hub.publish(self.table_id, state)
