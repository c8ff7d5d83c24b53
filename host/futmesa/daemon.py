"""The table daemon: link → event log → rules → state hub, and rule effects back to the device.

Every device event is committed to the event log first, then applied by the
ruleset; the resulting state is published to the hub that the views read.
Referee inputs take the same path (log first, then rules). At start the
match state is rebuilt by replaying the log, and the replay is checked
against an incremental application of the same entries.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import Callable
from typing import Any

import futmesa_wire as W
from futmesa.hub import RefusedError, StateHub
from futmesa.link import DeviceInfo, HostLink, Status
from futmesa.link.events import stored_event
from futmesa.link.messages import Profile
from futmesa.rules import Effect, Engine, Entry, load_ruleset
from futmesa.store import EventLog, StoredEntry

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


def to_entry(stored: StoredEntry) -> Entry:
    return Entry(id=stored.id, kind=stored.kind, data=stored.data, source=stored.source,
                 period=stored.period, clock_ms=stored.clock_ms, ticks=stored.ticks,
                 author=stored.author, at=int(stored.occurred_at))


class TableDaemon:
    """Serves one table: owns its link, its current match and its published state."""

    def __init__(self, store: EventLog, hub: StateHub, port: str, ruleset: str,
                 settings: dict[str, Any] | None = None,
                 loop: asyncio.AbstractEventLoop | None = None,
                 on_new_match: Callable[[int], None] | None = None) -> None:
        self.store = store
        self.hub = hub
        self.ruleset_name = ruleset
        load_ruleset(ruleset)  # fail early on a typo, with the known names
        self.settings = dict(settings or {})
        self.loop = loop
        self.on_new_match = on_new_match  # e.g. a new console token for the new match
        self.link = HostLink(port, self)
        self._lock = threading.RLock()
        self.info: DeviceInfo | None = None
        self.match: dict[str, Any] | None = None
        self.engine: Engine | None = None
        self.state: Any = None
        self.status: Status | None = None
        self.status_wall_ms = 0.0
        self.connected = False
        self.link_reason = "waiting for the table"
        self.last_event_wall_ms = 0.0
        self.sensor_faults: dict[int, str] = {}
        self.ended_match_ids: set[int] = set()
        self._last_referee_at = 0.0  # Unix ms of the newest referee input of this match

    # -- lifecycle -----------------------------------------------------------------
    def start(self) -> None:
        self.link.start()

    def stop(self) -> None:
        self.link.stop()

    @property
    def table_id(self) -> str | None:
        return self.info.table_id if self.info else None

    # -- match -----------------------------------------------------------------------
    def _open_match(self, table_id: str) -> None:
        match = self.store.open_match(table_id)
        if match is None:
            match_id = self.store.new_match(table_id, self.ruleset_name, self.settings,
                                            self.settings.get("referee", ""))
            match = self.store.match(match_id)
            assert match is not None
            log.info("new match %d on table %s under %s", match_id, table_id, self.ruleset_name)
        else:
            log.info("resuming match %d on table %s", match["id"], table_id)
        self.match = match
        self.engine = Engine(load_ruleset(match["ruleset"]), match["settings"])
        self.state = self._replay_checked()

    def _replay_checked(self) -> Any:
        """Rebuild the state from the log, and check replay equals step-by-step application."""
        assert self.engine is not None and self.match is not None
        stored = self.store.entries(self.match["id"])
        self._last_referee_at = max((e.occurred_at for e in stored if e.source == "referee"),
                                    default=0.0)
        entries = [to_entry(e) for e in stored]
        state, _ = self.engine.replay(entries)
        stepped = self.engine.initial_state()
        for entry in entries:
            stepped, _ = self.engine.apply(stepped, entry)
        if stepped.to_dict() != state.to_dict():
            log.error("match %d: replaying the log and applying it step by step disagree; "
                      "showing the replay. Please report this with the database file.",
                      self.match["id"])
        return state

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
        assert self.engine is not None
        return Profile.from_dict(self.engine.ruleset.clock_profile(self.match["settings"]
                                                                   if self.match else None))

    def _send_profile(self, force: bool = False) -> None:
        if self.info is None or self.engine is None:
            return
        wanted = self._profile()
        if force or wanted != self.info.profile:
            log.info("sending the %s clock profile to the table", self.ruleset_name)
            self.link.send_profile(wanted)

    # -- LinkSink (link thread) ---------------------------------------------------------
    def on_device(self, info: DeviceInfo) -> tuple[int, int]:
        with self._lock:
            self.store.seen_device(info.uid, info.board, info.usb_serial)
            first = self.info is None or self.info.uid != info.uid
            self.info = info
            if first or self.match is None:
                self._open_match(info.table_id)
                if self.loop is not None:
                    self.hub.set_referee_handler(info.table_id, self.referee_async)
            stopped = not (self.status and self.status.running)
            if stopped:
                self._send_profile()
            return self.store.last_committed(info.uid)

    def on_event(self, info: DeviceInfo, boot_id: int, seq: int, ticks: int,
                 payload: tuple[int, int, int, int, int, int]) -> None:
        ev, kind, data = stored_event(info.uid, boot_id, seq, ticks, payload)
        # when it happened: device time mapped to host time (a round trip is made
        # before any replay), so late-arriving events still sort where they belong
        occurred = self.link.timesync.wall_ms(ticks)
        with self._lock:
            match_id = self.match["id"] if self.match else None
            stored = self.store.append_device_event(ev, match_id, kind, data, occurred)
            self.last_event_wall_ms = time.time() * 1000
            if kind == "sensor_fault":
                self.sensor_faults[ev.a] = data["fault"]
                log.warning("sensor %d fault: %s — check its wiring and alignment", ev.a,
                            data["fault"])
            elif kind == "sensor_ok":
                self.sensor_faults.pop(ev.a, None)
            if stored is None or stored[1] is None:
                self._publish()
                return
            if occurred < self._last_referee_at:
                # it happened before referee input already applied (it arrived late, after
                # an outage): rebuild the match in the order things happened at the table
                late_s = (self._last_referee_at - occurred) / 1000
                (log.info if late_s >= 1 else log.debug)(
                    "event %s happened %.1f s before the last referee input but arrived after "
                    "it; replaying the match in time order", kind, late_s)
                self._rebuild()
                return
            entry = Entry(id=stored[1], kind=kind, data=data, source="device", period=ev.period,
                          clock_ms=ev.clock_ms, ticks=ticks, author=info.uid, at=int(occurred))
            self._apply(entry)

    def on_gap(self, info: DeviceInfo, boot_id: int, first_seq: int, last_seq: int) -> None:
        with self._lock:
            match_id = self.match["id"] if self.match else None
            entry_id = self.store.record_gap(info.uid, boot_id, first_seq, last_seq, match_id)
            if entry_id is not None:
                self._apply(Entry(id=entry_id, kind="gap", source="system", data={
                    "boot_id": boot_id, "first_seq": first_seq, "last_seq": last_seq},
                    author="link", at=int(time.time() * 1000)))

    def on_status(self, info: DeviceInfo, status: Status, wall_ms: float) -> None:
        with self._lock:
            self.status = status
            self.status_wall_ms = wall_ms
            self._publish()

    def on_connection(self, connected: bool, reason: str) -> None:
        with self._lock:
            self.connected = connected
            self.link_reason = reason
            self._publish()

    # -- rules -------------------------------------------------------------------------
    def _apply(self, entry: Entry) -> list[Effect]:
        assert self.engine is not None
        if entry.kind in ("void", "amend"):
            self._rebuild()
            return []
        else:
            self.state, effects = self.engine.apply(self.state, entry)
        for effect in effects:
            self._carry_out(effect)
        self._after_change()
        return effects

    def _rebuild(self) -> None:
        """Recompute the match from the whole log (effects of a replay were carried out before)."""
        assert self.engine is not None and self.match is not None
        entries = [to_entry(e) for e in self.store.entries(self.match["id"])]
        self.state, _ = self.engine.replay(entries)
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
            log.warning("the ruleset asked for an unknown device command %r", cmd)
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
        elif cmd == "set_clock":
            self.link.command(code, a=int(d.get("period", 1)), x=int(d.get("ms", 0)))
        else:
            self.link.command(code)

    # -- referee input --------------------------------------------------------------------
    def referee(self, kind: str, data: dict[str, Any], author: str) -> dict[str, Any]:
        """Log a referee input, apply it, and return the new state (RefusedError if refused)."""
        with self._lock:
            if self.match is None or self.engine is None:
                raise RefusedError("no table has connected yet: check the USB cable")
            if kind == "new_match":
                match_id = self.new_match(data.get("ruleset"), data.get("settings"))
                return {"ok": True, "match_id": match_id, "state": self.state_json()}
            period = self.status.period if self.status else 0
            clock_ms = self._clock_now_ms()
            probe = Entry(id=0, kind=kind, data=data, source="referee", period=period,
                          clock_ms=clock_ms, author=author, at=int(time.time() * 1000))
            try:
                _, effects = self.engine.apply(self.state, probe)
            except (ValueError, KeyError, TypeError) as exc:
                raise RefusedError(str(exc)) from exc
            refused = [e.data for e in effects
                       if e.kind == "announce" and e.data.get("code") == "refused"]
            if refused:
                # a refused input changes nothing, so it is not logged; the console shows why
                raise RefusedError(f"{refused[0].get('pt', '')} / {refused[0].get('en', '')}")
            entry_id = self.store.append_entry(self.match["id"], "referee", kind, data, period,
                                               clock_ms, author, occurred_at=probe.at)
            self._last_referee_at = max(self._last_referee_at, probe.at)
            entry = Entry(id=entry_id, kind=kind, data=data, source="referee", period=period,
                          clock_ms=clock_ms, author=author, at=probe.at)
            effects = self._apply(entry)
            return {"ok": True, "entry_id": entry_id,
                    "effects": [{"kind": e.kind, **e.data} for e in effects],
                    "state": self.state_json()}

    async def referee_async(self, kind: str, data: dict[str, Any], author: str) -> dict[str, Any]:
        return await asyncio.to_thread(self.referee, kind, data, author)

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

    def state_json(self) -> dict[str, Any]:
        m = self.state.to_dict() if self.state is not None else {}
        s = self.status
        rate = self.clock_rate()
        profile = self._profile() if self.engine else None
        clock = {
            "ms": s.clock_ms if s else 0,
            "running": bool(s and s.running),
            "rate": rate,
            "at": round(self.status_wall_ms),
            "length_ms": s.period_ms if s else (profile.period_ms if profile else 0),
            "added_ms": s.added_ms if s else 0,
            "interval": bool(s and s.flags & W.ST_INTERVAL),
            "time_up": bool(s and s.flags & W.ST_TIME_UP),
        }
        lance = {
            "ms": s.lance_ms if s else 0,
            "running": bool(s and s.lance_running),
            "rate": rate,
            "at": round(self.status_wall_ms),
            "length_ms": s.lance_len_ms if s else 0,
            "side": {0: "A", 1: "B"}.get(s.lance_side) if s else None,
        }
        return {
            "table_id": self.table_id,
            "match_id": self.match["id"] if self.match else None,
            "ruleset": self.match["ruleset"] if self.match else self.ruleset_name,
            "teams": m.get("teams", {}),
            "score": m.get("score", {"A": 0, "B": 0}),
            "period": m.get("period", s.period if s else 0),
            "periods": m.get("periods", profile.periods if profile else 2),
            "status": m.get("status", "not_started"),
            "finished": bool(m.get("finished", False)),
            "clock": clock,
            "lance": lance,
            "link": {
                "connected": self.connected,
                "reason": self.link_reason,
                "last_event_at": round(self.last_event_wall_ms),
                "bad_frames": self.link.stats.bad_frames,
                "device": self.info.uid if self.info else None,
                "firmware": self.info.firmware if self.info else None,
            },
            "sensor_faults": dict(self.sensor_faults),
            "match": m,
        }

    def _publish(self) -> None:
        if self.table_id is None:
            return
        state = self.state_json()
        if self.loop is not None and self.loop.is_running():
            self.loop.call_soon_threadsafe(self.hub.publish, self.table_id, state)
        else:
            self.hub.publish(self.table_id, state)
