"""A table on the venue broker: its state and results out, its next match in.

One MQTT connection per table, as the table's own user (its table id). The
state goes out retained at QoS 0 on every change that matters (score, period,
status, teams, link) and at least every ``STATE_EVERY_S`` while the clock
runs; displays count the clock locally from it. Results go out at QoS 1 from
the outbox until the desk acknowledges them. The desk's assignment becomes
``"next"`` in the table's state, which the kiosk shows ("próxima: A × B") and
the console starts with one press.

The client runs under :class:`~futmesa.venue.mqtt.Supervised` and every handler is
guarded: a malformed assignment or ack is logged and dropped, the loop goes on, and
``VenueTables`` restarts an agent whose loop is gone.
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
import time
from dataclasses import dataclass
from typing import Any

import paho.mqtt.client as mqtt

from futmesa.health import (
    CREDENTIALS_TAKEN,
    OUTBOX_FAILED,
    OUTBOX_FULL,
    VENUE_FAULTS,
    Fault,
    is_write_failure,
    venue_fault,
)
from futmesa.hub import StateHub
from futmesa.i18n import N_, _, translator
from futmesa.matchbook.wording import fault_word
from futmesa.venue import mqtt as vm
from futmesa.venue.outbox import Outbox

log = logging.getLogger("futmesa.venue.table")

STATE_EVERY_S = 2.0
RESEND_EVERY_S = 3.0


def slim_state(state: dict[str, Any], competition_match: Any, sent_ms: int) -> dict[str, Any]:
    """What the venue board needs of a table's state (no announcements, no log)."""
    m = state.get("match") or {}
    shootout = m.get("shootout") or {}
    return {
        "table_id": state.get("table_id"),
        "match_id": state.get("match_id"),
        "competition_match": competition_match,
        "ruleset": state.get("ruleset"),
        "teams": {s: {k: v for k, v in ((state.get("teams") or {}).get(s) or {}).items()
                      if k in ("name", "color")} for s in "AB"},
        "score": state.get("score"),
        "period": state.get("period"),
        "periods": state.get("periods"),
        "status": state.get("status"),
        "finished": state.get("finished"),
        "phase": m.get("phase"),
        "shootout": {s: shootout.get("totals", {}).get(s) for s in "AB"} if shootout else None,
        "clock": state.get("clock"),
        "device": bool((state.get("link") or {}).get("connected")),
        # every fault the table knows (log or outbox not writable, credentials taken, a
        # sensor...): the venue board shows them on this table's card, in its language
        "faults": table_faults(state),
        "next": _next_text(state.get("next")),
        "now": sent_ms,
    }


SENSOR_FAULT = N_("a sensor of this table is faulty ({fault}) — the referee watches the plays "
                  "and enters goals at the console")
SENSOR_ACTION = N_("after the match, check the sensor with `futmesa doctor` at this table")


def table_faults(state: dict[str, Any]) -> list[dict[str, Any]]:
    """The table's faults as the venue board shows them: its health (the event log, the
    outbox, its credentials) and its sensors, each in both languages with what to do."""
    out = [{k: f.get(k) for k in ("code", "pt", "en", "do_pt", "do_en")}
           for f in ((state.get("health") or {}).get("faults") or []) if isinstance(f, dict)]
    sensors = state.get("sensor_faults") or {}
    for fault in sorted({str(f) for f in sensors.values()} if isinstance(sensors, dict) else []):
        said = {lang: translator(lang).gettext(SENSOR_FAULT).format(fault=fault_word(fault, lang))
                for lang in ("pt_BR", "en")}
        out.append({"code": f"sensor_{fault}", "pt": said["pt_BR"], "en": said["en"],
                    "do_pt": translator("pt_BR").gettext(SENSOR_ACTION),
                    "do_en": translator("en").gettext(SENSOR_ACTION)})
    return out


def _next_text(nxt: dict[str, Any] | None) -> str | None:
    if not nxt:
        return None
    return f"{nxt.get('title', '')} ({nxt['label']})" if nxt.get("label") else nxt.get("title")


class TakeoverWatch:
    """Tells a table's credentials in use elsewhere from an ordinary lost broker.

    The broker names each client by its user (``use_username_as_clientid``): a second
    connection with this table's credentials throws the table off, the table comes back and
    throws the other off, every few seconds. A lost broker or a pulled cable does not
    reconnect at once; so connections lost within ``SHORT_S`` of being made, ``TIMES``
    times within ``WINDOW_S``, mean the credentials are in use twice.
    """

    SHORT_S = 15.0
    WINDOW_S = 60.0
    TIMES = 3

    def __init__(self) -> None:
        self._since = 0.0
        self._short: list[float] = []

    def connected(self, now: float) -> None:
        self._since = now

    def lost(self, now: float) -> None:
        if now - self._since < self.SHORT_S:
            self._short.append(now)
        self._short = [t for t in self._short if now - t < self.WINDOW_S]

    def suspected(self, now: float) -> bool:
        return len([t for t in self._short if now - t < self.WINDOW_S]) >= self.TIMES


@dataclass(frozen=True)
class VenueOptions:
    broker: vm.Broker
    credentials: dict[str, Any]


class TableAgent:
    def __init__(self, table_id: str, password: str, broker: vm.Broker, outbox: Outbox,
                 hub: StateHub, loop: asyncio.AbstractEventLoop, daemon: Any) -> None:
        self.table_id = table_id
        self.broker = broker
        self.outbox = outbox
        self.hub = hub
        self.loop_events = loop
        self.daemon = daemon
        self.assignment: dict[str, Any] | None = None
        self.connected = False
        self.stopping = False
        self._last_sig: str = ""
        self._last_sent = 0.0
        self._latest: dict[str, Any] | None = None
        self._resent = 0.0
        self._lock = threading.Lock()
        self.client = vm.client(f"table-{table_id}", table_id, password, broker=broker)
        self.client.will_set(vm.t_status(table_id), b"offline", qos=1, retain=True)
        what = f"table {table_id}"
        self.client.on_connect = vm.guarded(what, self._on_connect)
        self.client.on_disconnect = vm.guarded(what, self._on_disconnect)
        self.client.on_message = vm.guarded(what, self._on_message)
        self.loop = vm.Supervised(self.client, f"table-{table_id}-mqtt", self._down)
        self.takeovers = TakeoverWatch()
        self._said: set[str] = set()  # faults logged without a daemon's health

    # -- lifecycle ----------------------------------------------------------------------
    def start(self) -> None:
        self.loop.start(self.broker)

    def _down(self) -> None:
        if self.connected and not self.stopping:
            log.warning(_("table %s: no connection to the venue broker; reconnecting"),
                        self.table_id)
        self.connected = False

    def check(self) -> None:
        """(the sweeper) Notice a connection paho did not report as lost."""
        if self.connected and not (self.loop.alive and self.client.is_connected()):
            self._down()
        elif self.connected and not self.takeovers.suspected(time.monotonic()):
            self._clear_fault(CREDENTIALS_TAKEN)  # connected a minute with nobody else

    def stop(self) -> None:
        self.stopping = True
        try:
            if self.connected:
                self.client.publish(vm.t_status(self.table_id), b"offline", qos=1,
                                    retain=True).wait_for_publish(2)
        except (RuntimeError, ValueError):
            pass
        self.loop.stop()

    # -- MQTT callbacks (paho's thread) ------------------------------------------------------
    def _on_connect(self, client: mqtt.Client, userdata: Any, flags: Any, rc: Any,
                    props: Any = None) -> None:
        if rc.is_failure:
            log.error(_("table %s: the venue broker refused the connection (%s): check this "
                        "table's credentials file"), self.table_id, rc)
            return
        self.connected = True
        now = time.monotonic()
        self.takeovers.connected(now)
        if not self.takeovers.suspected(now):
            self._clear_fault(CREDENTIALS_TAKEN)
        log.info(_("table %s: connected to the venue broker"), self.table_id)
        client.publish(vm.t_status(self.table_id), b"online", qos=1, retain=True)
        client.subscribe([(vm.t_assign(self.table_id), 1), (vm.t_ack(self.table_id), 1)])
        self._last_sig = ""  # send the state again: the broker may have lost it
        if self._latest is not None:
            self.loop_events.call_soon_threadsafe(self.on_state, self._latest)
        self._resent = 0.0
        threading.Thread(target=self.send_results, daemon=True).start()

    def _on_disconnect(self, client: mqtt.Client, userdata: Any, flags: Any, rc: Any,
                       props: Any = None) -> None:
        if self.connected and not self.stopping:
            self.takeovers.lost(time.monotonic())
            if self.takeovers.suspected(time.monotonic()):
                self._set_fault(VENUE_FAULTS[CREDENTIALS_TAKEN])
            else:
                log.warning(_("table %s: lost the venue broker (%s); results wait in the "
                              "outbox"), self.table_id, rc)
        self.connected = False

    def _on_message(self, client: mqtt.Client, userdata: Any, msg: mqtt.MQTTMessage) -> None:
        try:
            body = json.loads(msg.payload or b"{}")
        except (UnicodeDecodeError, ValueError, RecursionError):
            log.warning(_("table %s: unreadable message on %s"), self.table_id, msg.topic)
            return
        if not isinstance(body, dict):
            log.warning(_("table %s: a message on %s is not a JSON object: dropped"),
                        self.table_id, msg.topic)
            return
        _table, kind = vm.table_of(msg.topic)
        if kind == "assign":
            self.assignment = body or None
            self.loop_events.call_soon_threadsafe(self._show_next)
        elif kind == "ack":
            acked = body.get("acked") or {}
            if isinstance(acked, dict) and self.outbox.acknowledge(self.table_id, acked):
                log.info(_("table %s: the desk has stored our results"), self.table_id)

    # -- what goes out -----------------------------------------------------------------------
    def _current_competition_match(self) -> Any:
        match = getattr(self.daemon, "match", None) or {}
        return (match.get("settings") or {}).get("competition_match")

    def _show_next(self) -> None:
        """(event loop) Show the desk's assignment as the table's next match, unless started."""
        a = self.assignment
        cm = a.get("competition_match") if a else None
        if a and cm != self._current_competition_match():
            teams = a.get("teams") or {}
            self.hub.annotate(self.table_id, "next", {
                "competition_match": a.get("competition_match"),
                "label": a.get("label") or "",
                "teams": teams,
                "title": f"{teams.get('A', {}).get('name', 'A')} × "
                         f"{teams.get('B', {}).get('name', 'B')}",
                "start": {"ruleset": a.get("ruleset"), "settings": a.get("settings") or {}},
            }, until=lambda _state: self._current_competition_match() == cm)
        else:
            self.hub.annotate(self.table_id, "next", None)

    def on_state(self, state: dict[str, Any]) -> None:
        """(event loop) A new state of this table from the hub."""
        self._latest = state
        nxt = state.get("next")
        if nxt and nxt.get("competition_match") == self._current_competition_match():
            self._show_next()  # the referee started it: "next" goes away
            return
        if not self.connected:
            return
        now = time.monotonic()
        slim = slim_state(state, self._current_competition_match(), int(time.time() * 1000))
        sig = json.dumps({k: v for k, v in slim.items() if k not in ("clock", "now")},
                         sort_keys=True) + str((slim.get("clock") or {}).get("running"))
        running = bool((slim.get("clock") or {}).get("running"))
        if sig == self._last_sig and not (running and now - self._last_sent >= STATE_EVERY_S):
            return
        self._last_sig = sig
        self._last_sent = now
        self.client.publish(vm.t_state(self.table_id), vm.dumps(slim), qos=0, retain=True)

    # -- faults of this table's venue side (shown with the table's health) ------------------
    def _set_fault(self, fault: Fault, detail: str = "") -> None:
        health = getattr(self.daemon, "health", None)
        if health is not None:
            health.set(fault, detail)
        elif fault.code not in self._said:
            self._said.add(fault.code)
            log.error(_("table %s: %s. What to do: %s"), self.table_id, fault.said(),
                      _(fault.action))

    def _clear_fault(self, *codes: str) -> None:
        health = getattr(self.daemon, "health", None)
        if health is not None:
            health.clear(*codes)
        self._said.difference_update(codes)

    def _queue_results(self) -> None:
        """Take newly finished (or corrected) matches into the outbox; a storage fault is
        shown, logged once, and the results already queued still go out."""
        try:
            self.outbox.scan(self.table_id)
            if self.outbox.recheck(self.table_id):
                self._resent = 0.0  # a corrected result goes out now
        except Exception as exc:
            if not is_write_failure(exc):
                raise
            self._set_fault(venue_fault(exc, OUTBOX_FULL, OUTBOX_FAILED), str(exc))
            return
        self._clear_fault(OUTBOX_FULL, OUTBOX_FAILED)

    def send_results(self) -> int:
        """(any thread) Scan the log for newly finished matches; (re)send what is not acked."""
        with self._lock:
            self._queue_results()
            if not self.connected:
                return 0
            now = time.monotonic()
            if now - self._resent < RESEND_EVERY_S:
                return 0
            self._resent = now
            pending = self.outbox.pending(self.table_id)
            for body in pending:
                self.client.publish(vm.t_result(self.table_id), vm.dumps(body), qos=1)
            return len(pending)


class VenueTables:
    """Every table of this `futmesa serve` process on the venue broker."""

    def __init__(self, options: VenueOptions, running: Any) -> None:
        self.options = options
        self.running = running
        self.outbox = Outbox(running.store)
        self.agents: dict[str, TableAgent] = {}
        self._warned: set[str] = set()

    def _agent_for(self, table_id: str | None) -> TableAgent | None:
        if not table_id:
            return None
        agent = self.agents.get(table_id)
        if agent is None:
            password = (self.options.credentials.get("tables") or {}).get(table_id)
            if password is None:
                if table_id not in self._warned:
                    self._warned.add(table_id)
                    log.error(_("table %s has no venue credentials: add it with `futmesa venue "
                                "broker-config --table %s` and pass its file with "
                                "--venue-credentials"), table_id, table_id)
                return None
            daemon = next((d for d in self.running.daemons if d.table_id == table_id), None)
            agent = TableAgent(table_id, password, self.options.broker, self.outbox,
                               self.running.hub, asyncio.get_running_loop(), daemon)
            self.agents[table_id] = agent
            agent.start()
        return agent

    async def run(self) -> None:
        states = self.running.hub.subscribe()
        sweeper = asyncio.create_task(self._sweep())
        try:
            for state in self.running.hub.tables():
                agent = self._agent_for(state.get("table_id"))
                if agent:
                    agent.on_state(state)
            async for state in states:
                agent = self._agent_for(state.get("table_id"))
                if agent:
                    agent.on_state(state)
        finally:
            sweeper.cancel()
            await states.aclose()

    async def _sweep(self) -> None:
        while True:
            for agent in list(self.agents.values()):
                try:
                    agent.check()
                    await asyncio.to_thread(agent.send_results)
                except Exception:  # noqa: BLE001 - one table's trouble stops no other
                    log.exception(_("table %s: sending results failed; retrying"),
                                  agent.table_id)
            await asyncio.sleep(0.5)

    def stop(self) -> None:
        for agent in self.agents.values():
            agent.stop()
        self.outbox.close()
