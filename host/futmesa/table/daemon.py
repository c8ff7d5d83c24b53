"""The table daemon: link → the table's queue → event log → MatchBook → hub, and rule effects
back to the device as commands.

Every device event is committed to the event log first, then applied by the rules; the
resulting state is published to the hub the views read. Referee inputs take the same path
(referee.py). The link's frames and the referee's inputs reach the match one at a time through
the table's queue (queue.py). What a log row means, the engine and the state JSON belong to
the matchbook; when an entry happened, to matchbook/timeline.py; a table's reset, to reset.py;
the clock between two statuses, to clock.py; a clock behind the log, to behind.py; an
effect's device command, to commands.py.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import Any

import futmesa_wire as W
from futmesa.health import Health, is_write_failure
from futmesa.hub import StateHub
from futmesa.i18n import _
from futmesa.link import DeviceInfo, HostLink, Status
from futmesa.link.messages import Profile
from futmesa.matchbook import MatchBook
from futmesa.matchbook.live_log import LiveLog
from futmesa.matchbook.wording import ruleset_title
from futmesa.portcheck import port_problem
from futmesa.rules import Effect, Entry, load_ruleset
from futmesa.store import EventLog
from futmesa.table.clock import TableClock
from futmesa.table.commands import device_command
from futmesa.table.device import DeviceInputs
from futmesa.table.earlier import EarlierEvents
from futmesa.table.opening import open_match
from futmesa.table.queue import TableQueue
from futmesa.table.referee import RefereeInputs, over_organisers
from futmesa.table.reset import ResetWatch
from futmesa.table.view import table_state

log = logging.getLogger("futmesa.table")


class TableDaemon:
    """Serves one table: owns its link, its current match and its published state."""

    def __init__(self, store: EventLog, hub: StateHub, port: str, ruleset: str,
                 settings: dict[str, Any] | None = None,
                 loop: asyncio.AbstractEventLoop | None = None,
                 on_table: Callable[[str], None] | None = None) -> None:
        self.store = store
        self.hub = hub
        self.ruleset_name = ruleset
        load_ruleset(ruleset)  # fail early on a typo, with the known names
        # the organiser's settings (futmesa serve --settings): every new match starts from them
        self.organiser = dict(settings or {})
        self.settings = dict(self.organiser)
        self.loop = loop
        self.on_table = on_table  # a table is first seen on this port (its id is known)
        self.queue = TableQueue(port)
        self.link = HostLink(port, self, explain=port_problem)
        self.info: DeviceInfo | None = None
        self.match: dict[str, Any] | None = None
        self.book: MatchBook | None = None
        self.clock = TableClock()
        self.connected = False
        self.lost_wall_ms = 0.0  # host Unix ms the link went down (the screens' clock stands)
        self.link_reason = _("waiting for the table")
        self.last_event_wall_ms = 0.0
        self.sensor_faults: dict[int, str] = {}
        self.ended_match_ids: set[int] = set()
        # faults around the match (the event log not writable...), published through the hub
        self.health = Health(on_change=self._publish_health)
        self.resets = ResetWatch()
        self.earlier = EarlierEvents()
        self.inputs = RefereeInputs(self)
        self.device = DeviceInputs(self)

    # -- lifecycle -----------------------------------------------------------------
    def start(self) -> None:
        self.link.start()

    def stop(self) -> None:
        self.link.stop()
        self.queue.close()

    @property
    def table_id(self) -> str | None:
        return self.info.table_id if self.info else None

    @property
    def status(self) -> Status | None:
        return self.clock.status

    @property
    def status_wall_ms(self) -> float:
        return self.clock.status_wall_ms

    def live_log(self) -> LiveLog | None:
        """The console's log of the match being played (read by the web side, its own lock)."""
        return self.book.live_log if self.book else None

    @property
    def state(self) -> Any:
        """The rules' match state (``MatchState``) of the current match, or None."""
        return self.book.state if self.book else None

    # -- match -----------------------------------------------------------------------
    def open_match(self, table_id: str) -> bool:
        """Resume the table's open match, or start a new one (True)."""
        self.match, self.book, created = open_match(self.store, table_id, self.ruleset_name,
                                                    self.settings)
        return created

    def new_match(self, ruleset: str | None = None, settings: dict[str, Any] | None = None) -> int:
        """End the current match (if any) and start a new one on this table."""
        return self.queue.run(self._new_match, ruleset, settings)

    def _new_match(self, ruleset: str | None, settings: dict[str, Any] | None) -> int:
        if settings is not None:  # checked before the current match is ended
            settings = over_organisers(self.organiser, settings)
        if self.match is not None:
            self.store.end_match(self.match["id"])
        if ruleset:
            load_ruleset(ruleset)
            self.ruleset_name = ruleset
        if settings is not None:
            self.settings = dict(settings)
        self.match = None
        self.open_match(self.table_id or "unknown")
        # the clock cleared first: the table's set-up entry is this match's, before its 1st
        # period at 00:00, not dated with the clock the match before left on the table
        self.link.command(W.CMD_NEW_MATCH)
        self.send_profile(force=True)
        self.publish()
        assert self.match is not None
        return int(self.match["id"])

    def profile(self) -> Profile:
        assert self.book is not None
        return Profile.from_dict(self.book.engine.ruleset.clock_profile(self.match["settings"]
                                                                   if self.match else None))

    def send_profile(self, force: bool = False) -> None:
        if self.info is None or self.book is None:
            return
        wanted = self.profile()
        if force or wanted != self.info.profile:
            log.info(_("sending the %s clock profile to the table"),
                     ruleset_title(self.ruleset_name))
            self.link.send_profile(wanted)

    # -- LinkSink (the link's thread hands each call to the table's queue) ------------------
    def on_device(self, info: DeviceInfo) -> tuple[int, int]:
        return self.queue.run(self.device.on_device, info)

    def on_event(self, info: DeviceInfo, boot_id: int, seq: int, ticks: int,
                 payload: tuple[int, int, int, int, int, int]) -> None:
        # when it happened: device time mapped to host time (a round trip is made before any
        # replay), so late-arriving events still sort where they belong (matchbook/timeline)
        occurred = self.link.timesync.wall_ms(ticks)
        self.queue.run(self.device.on_event, info, boot_id, seq, ticks, payload, occurred)

    def on_gap(self, info: DeviceInfo, boot_id: int, first_seq: int, last_seq: int) -> None:
        self.queue.run(self.device.on_gap, info, boot_id, first_seq, last_seq)

    def on_lost(self, info: DeviceInfo, boot_id: int, first_seq: int, last_seq: int,
                kinds: dict[str, int]) -> None:
        """The reset boot's events the device had kept as unacknowledged: gaps in the log
        (the device's own EV_LOST entries name the kinds for the referee)."""
        self.queue.run(self.store.record_lost, info.uid, boot_id, first_seq, last_seq)
        self.health.log_ok()

    def on_reservation(self, info: DeviceInfo, boot_id: int, made_seq: int,
                       reserved_seq: int) -> tuple[tuple[int, int] | None,
                                                   tuple[int, int] | None]:
        """The reset boot's seq reservation: what the log lacks becomes a gap (made) or a
        possible loss (reserved, unless the last STATUS closed that window); the device's
        own `lost` entry tells the referee."""
        return self.queue.run(self._on_reservation, info.uid, boot_id, made_seq, reserved_seq)

    def _on_reservation(self, uid: str, boot_id: int, made_seq: int, reserved_seq: int
                        ) -> tuple[tuple[int, int] | None, tuple[int, int] | None]:
        newest = self.resets.closed_window(made_seq)
        if newest is not None:
            made_seq = reserved_seq = min(max(made_seq, newest), reserved_seq)
        result = self.store.record_reservation(uid, boot_id, made_seq, reserved_seq)
        self.health.log_ok()
        return result

    def on_status(self, info: DeviceInfo, status: Status, wall_ms: float) -> None:
        self.queue.run(self.device.on_status, info, status, wall_ms)

    def on_sink_error(self, exc: Exception) -> None:
        """Committing a frame failed (the link will have it resent): show why, log it once."""
        if is_write_failure(exc):
            self.health.log_failed(exc)
        else:
            log.error(_("storing a device frame failed: %r; the table will resend it"), exc,
                      exc_info=exc)

    def on_connection(self, connected: bool, reason: str) -> None:
        self.queue.run(self._on_connection, connected, reason)

    def _on_connection(self, connected: bool, reason: str) -> None:
        if not connected and self.connected:
            self.lost_wall_ms = time.time() * 1000
        self.connected = connected
        self.link_reason = reason
        self.publish()

    # -- rules (on the table's queue) ----------------------------------------------------------
    def apply(self, entry: Entry) -> list[Effect]:
        assert self.book is not None
        effects = self.book.apply(entry)
        for effect in effects:
            command = device_command(effect)
            if command is None:
                continue
            if self.device.fresh:
                # the referee commands the clock before the table's first status was heard
                # (a quick start): this match's profile goes first, and that status, when it
                # comes, is this match's running period, not one this log does not hold
                self.device.fresh = False
                self.send_profile(force=True)
            self.link.command(command.code, a=command.a, b=command.b, x=command.x)
        self._after_change()
        return effects

    def rebuild(self) -> None:
        """Recompute the match from the whole log (effects of a replay were carried out before)."""
        assert self.book is not None
        self.book.replay()
        self._after_change()

    def _after_change(self) -> None:
        finished = self.book is not None and self.book.state.m.get("finished")
        if finished and self.match and self.match["id"] not in self.ended_match_ids:
            self.ended_match_ids.add(self.match["id"])
            self.store.end_match(self.match["id"])
        self.publish()

    # -- referee input ----------------------------------------------------------------------
    def referee(self, kind: str, data: dict[str, Any], author: str,
                pressed_at: float | None = None, input_id: str | None = None) -> dict[str, Any]:
        """Log a referee input, apply it, and return the new state (RefusedError if refused).

        ``pressed_at`` (host Unix ms): when the referee pressed it (matchbook/timeline.py);
        ``input_id``: the id the phone gave it — an input already stored with that id (sent
        again after its answer was lost, even across a restart) is not applied again.
        """
        return self.queue.run(self.inputs.take, kind, data, author, pressed_at, input_id)

    async def referee_async(self, kind: str, data: dict[str, Any], author: str,
                            pressed_at: float | None = None,
                            input_id: str | None = None) -> dict[str, Any]:
        return await asyncio.to_thread(self.referee, kind, data, author, pressed_at, input_id)

    # -- state -----------------------------------------------------------------------------
    def clock_rate(self) -> float:
        """Device ms per real ms (the link's time sync's, else the table's declared rate)."""
        return TableClock.rate(self.info, self.link.timesync)

    def running_rate(self) -> float:
        """The rate a running clock counts on at: 0 while no table is known."""
        return self.clock_rate() if self.info is not None else 0.0

    def clock_now_ms(self) -> int:
        return self.clock.now_ms(self.running_rate())

    def state_json(self) -> dict[str, Any]:
        """The state every view reads (table/view.py, built by the matchbook's state_json)."""
        return table_state(self)

    def _publish_health(self, health: dict[str, Any]) -> None:
        if self.table_id is not None:
            self._to_hub(self.hub.publish_health, health)

    def publish(self) -> None:
        if self.table_id is not None:
            self._to_hub(self.hub.publish, self.state_json())

    def _to_hub(self, publish: Callable[[str, dict[str, Any]], None],
                what: dict[str, Any]) -> None:
        assert self.table_id is not None
        if self.loop is not None and self.loop.is_running():
            self.loop.call_soon_threadsafe(publish, self.table_id, what)
        else:
            publish(self.table_id, what)
