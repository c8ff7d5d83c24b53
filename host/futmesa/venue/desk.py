"""The desk: hears every table over MQTT, stores results, assigns the next matches.

Results are stored under their uid (``<table>:<match>``) in the desk's SQLite
file and, for a competition match, into the competition's results: a result
heard twice (the table resends until acknowledged) is stored once. The desk
acknowledges on a retained topic per table, so a table that was away, or a
desk that restarted, converge with no result lost or counted twice.

A result carries its proof (the table match's final chain hash and the referee's signature
entry): checked for shape, stored with the result, and a signature made after the first
result arrives as a later version of the same result (:func:`~futmesa.venue.checks.check_update`).
A table is trusted only for the match the desk gave it (:mod:`futmesa.venue.checks`):
anything else it sends is refused, logged with why, kept in ``venue_refusals`` and shown
on the venue board. A disqualification a result reports becomes a referee's report the
organiser confirms. The MQTT client is :class:`~futmesa.venue.mqtt.Supervised`: no
message can stop it, and a lost broker shows "no connection" on the board within seconds.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

import paho.mqtt.client as mqtt

from futmesa.competition.actions import undecided
from futmesa.competition.db import CompetitionDB
from futmesa.health import DESK_FAILED, DESK_FULL, Health, is_write_failure, venue_fault
from futmesa.i18n import N_, _
from futmesa.matchbook.wording import table_name
from futmesa.store.db import connect
from futmesa.venue import mqtt as vm
from futmesa.venue.assigner import Assigner
from futmesa.venue.board_state import BoardState, notices_of
from futmesa.venue.checks import (
    Refused,
    parse_result,
)
from futmesa.venue.inorder import InOrder
from futmesa.venue.received import ReceivedLog, take_result
from futmesa.venue.refusals import RefusalLog

log = logging.getLogger("futmesa.venue.desk")
# what a table sent, as the log names it ("recusado o resultado da mesa …", never "result")
WHAT = {"result": N_("the result"), "state": N_("the state"), "status": N_("the status")}




class Desk:
    """The desk's venue side; ``snapshot()`` is what the venue board shows, ``since(seq)``
    what changed after a board's last update (the tables that changed, the notices if they
    did): every change has a number, one sequence for the whole desk."""

    def __init__(self, db_path: str, broker: vm.Broker, password: str,
                 assign: bool = True) -> None:
        self.comp = CompetitionDB(db_path)
        self._db = connect(db_path)
        self.broker = broker
        self.assign_enabled = assign
        self.lock = threading.RLock()  # the competition: results, assignments
        # the live board (tables, their states, the notices), under its own lock (taken
        # after this one, never before)
        self.board = BoardState()
        self.refusal_log = RefusalLog(self._db, self.lock)
        self.results = ReceivedLog(self._db, self.lock)
        self.connected = False
        self.listeners: list[Callable[[], None]] = []
        self.assigner = Assigner(self.comp, self._publish_assign)
        self.client = vm.client("futmesa-desk", vm.DESK_USER, password, broker=broker)
        self.client.on_connect = vm.guarded("desk: connecting", self._on_connect)
        self.client.on_disconnect = vm.guarded("desk: disconnecting", self._on_disconnect)
        self.client.on_message = self._on_message
        self.loop = vm.Supervised(self.client, "desk-mqtt", self._down)
        self._stop = threading.Event()
        self._ticker = threading.Thread(target=self._tick_loop, name="desk-tick", daemon=True)
        # results are stored on their own thread: paho's thread goes on with the states
        self._results = InOrder("desk-results", self._dispatch)
        self.health = Health(on_change=self._health_changed)  # the desk's own faults
        self._fault_where = ""  # the write that failed: only it working again clears it
        self._unstored: set[tuple[str, str, str]] = set()  # refusals the disk did not take
        self._refresh_notices()

    # -- lifecycle -----------------------------------------------------------------------
    def start(self) -> None:
        self._results.start()
        self.loop.start(self.broker)
        self._ticker.start()

    def stop(self) -> None:
        self._stop.set()
        self.connected = False
        self.loop.stop()
        if self._ticker.is_alive():
            self._ticker.join(timeout=5)
        self._results.stop()  # the results received are stored first

    @property
    def tables(self) -> dict[str, dict[str, Any]]:
        """Every table the desk has heard: its card on the boards (online, last state)."""
        return self.board.tables

    def _down(self) -> None:
        if self.connected:
            log.warning(_("desk: no connection to the venue broker; reconnecting"))
        self.connected = False
        self._changed()

    def _changed(self) -> None:
        for fn in list(self.listeners):
            fn()

    # -- MQTT ------------------------------------------------------------------------------
    def _on_connect(self, client: mqtt.Client, userdata: Any, flags: Any, rc: Any,
                    props: Any = None) -> None:
        if rc.is_failure:
            log.error(_("the venue broker refused the desk (%s): check the desk's credentials"),
                      rc)
            return
        self.connected = True
        log.info(_("desk connected to the venue broker"))
        client.subscribe([(f"{vm.PREFIX}/table/+/status", 1), (f"{vm.PREFIX}/table/+/state", 0),
                          (f"{vm.PREFIX}/table/+/result", 1)])
        with self.lock:
            for table in self._known_tables():
                self._publish_ack(table)
            for table, payload in self.assigned.items():
                client.publish(vm.t_assign(table), vm.dumps(payload), qos=1, retain=True)
        self._changed()

    def _on_disconnect(self, client: mqtt.Client, userdata: Any, flags: Any, rc: Any,
                       props: Any = None) -> None:
        if self.connected:
            log.warning(_("desk lost the venue broker (%s); reconnecting"), rc)
        self.connected = False
        self._changed()

    def _on_message(self, client: mqtt.Client, userdata: Any, msg: mqtt.MQTTMessage) -> None:
        """(paho's thread) One message from a table; whatever it holds, the loop goes on. A
        result goes to the results' thread (storing it and assigning the next matches takes
        a disk write); a state or status is handled here, at once."""
        table, kind = vm.table_of(msg.topic)
        if not table:
            return
        if kind == "result" and self._results.put(table, kind, msg.payload, msg.retain):
            return
        self._dispatch(table, kind, msg.payload, msg.retain)

    def _dispatch(self, table: str, kind: str, payload: bytes, retained: bool) -> None:
        """Handle one message; a refusal is kept, an error logged: never raised."""
        try:
            self._handle(table, kind, payload, retained)
        except Refused as exc:
            self.refuse(table, kind, str(exc), payload)
        except Exception as exc:  # noqa: BLE001 - no message may stop the desk
            if is_write_failure(exc):
                # the desk's own disk: not the table's fault, and not acknowledged, so the
                # table keeps the result and sends it again (one log line, on the board)
                self._storage_failed(exc, "results")
            else:
                log.exception(_("desk: a message from table %s on %s could not be handled"),
                              table, kind)
                self.refuse(table, kind, _("the message could not be handled ({error})")
                            .format(error=type(exc).__name__), payload)
        self._changed()

    # -- the desk's own faults (its disk) ----------------------------------------------------
    def _storage_failed(self, exc: BaseException, where: str) -> None:
        """A write of the desk's database failed: shown on the board, logged once."""
        self._fault_where = where
        self.health.set(venue_fault(exc, DESK_FULL, DESK_FAILED), str(exc))

    def _storage_ok(self, where: str) -> None:
        """A write ``where`` failed before worked now: the fault is over."""
        if self._fault_where == where:
            self.health.clear(DESK_FULL, DESK_FAILED)
            self._fault_where = ""

    def _health_changed(self, _health: dict[str, Any]) -> None:
        self.board.notices_changed()
        self._changed()

    def _handle(self, table: str, kind: str, payload: bytes, retained: bool) -> None:
        recv_ms = time.time() * 1000
        if kind == "result":
            self.receive_result(table, parse_result(table, payload))
            return
        self.board.table_message(table, kind, payload, retained, recv_ms)

    # -- refusals ------------------------------------------------------------------------------
    def refuse(self, table: str, what: str, reason: str, payload: bytes = b"") -> None:
        """Keep and log a refused message (the same refusal again only counts up)."""
        try:
            times = self.refusal_log.keep(table, what, reason, payload)
        except Exception as exc:
            if not is_write_failure(exc):
                raise
            self._storage_failed(exc, "refusals")  # the refusal is in the log line below
            times = 1 if (table, what, reason) not in self._unstored else 2
            self._unstored.add((table, what, reason))
        else:
            self._storage_ok("refusals")
        if times == 1:
            log.warning(_("desk: refused %s from table %s: %s"), _(WHAT.get(what, what)),
                        table_name(table), reason)
        self._refresh_notices()

    def refusals(self, limit: int = 20) -> list[dict[str, Any]]:
        """The newest refusals, newest first (the board shows them)."""
        return self.refusal_log.newest(limit)

    # -- results -----------------------------------------------------------------------------
    def _known_tables(self) -> list[str]:
        return sorted(self.results.tables() | self.board.known())

    def acked(self, table: str) -> dict[str, str]:
        return self.results.acked(table)

    def _publish_ack(self, table: str) -> None:
        self.client.publish(vm.t_ack(table), vm.dumps({"acked": self.acked(table)}), qos=1,
                            retain=True)

    def receive_result(self, table: str, body: dict[str, Any]) -> bool:
        """Store one result message (idempotent); True when it was new or changed.

        Raises :class:`Refused` for a result this table may not give (nothing is stored)."""
        with self.lock:
            fresh = take_result(self.comp, self.results, table, body)
            if fresh:
                self._storage_ok("results")
            self._publish_ack(table)
            if fresh:
                self.progress()
        return fresh

    # -- assignments ----------------------------------------------------------------------------
    def progress(self) -> None:
        """Fill decided knockout places, then give every free online table its next match."""
        with self.lock:
            comps = self.comp.active()  # the day's categories share the tables
            if not comps:
                return
            self.assigner.fill_knockouts(comps)
            if self.assign_enabled and self.connected:
                self.assigner.assign(comps, self.board.online())

    @property
    def assigned(self) -> dict[str, dict[str, Any]]:
        """Table -> what it was last told to play (``{}``: nothing)."""
        return self.assigner.assigned

    def _publish_assign(self, table: str, payload: dict[str, Any]) -> None:
        self.client.publish(vm.t_assign(table), vm.dumps(payload), qos=1, retain=True)

    def _tick_loop(self) -> None:
        while not self._stop.wait(0.5):
            if self.connected and not (self.loop.alive and self.client.is_connected()):
                self._down()  # the client is gone though paho did not say so
            try:
                self.progress()
                self._storage_ok("assignments")
                self._refresh_notices()
            except Exception as exc:  # noqa: BLE001 - the desk keeps running; the log says why
                if is_write_failure(exc):
                    self._storage_failed(exc, "assignments")
                else:
                    log.exception(_("desk: could not update the assignments"))

    # -- views -------------------------------------------------------------------------------
    def snapshot(self) -> dict[str, Any]:
        return self.since(0)[1]

    def since(self, seq: int) -> tuple[int, dict[str, Any]]:
        """(the newest change's number, what changed after change ``seq``): every table
        and the notices for 0 (a board that just connected), else only the tables that
        changed and the notices if they did; the desk's connection and clock always."""
        return self.board.since(seq, {"connected": self.connected,
                                      "now": int(time.time() * 1000),
                                      # the desk's own faults (its disk), never the broker's
                                      "faults": self.health.to_json()["faults"]})

    def _refresh_notices(self) -> None:
        """What the board says beside the tables: the newest refusals and the reports to
        confirm (read here, on a refusal and every tick, not on every screen update)."""
        day = self.comp.active()
        reports = [r for c in day for r in self.comp.decisions.reports(c["id"], open_only=True)]
        level = [m for c in day for m in undecided(self.comp.matches(c["id"]))]
        if self.board.set_notices(notices_of(self.refusals(20), reports, level)):
            self._changed()

    def received(self) -> list[dict[str, Any]]:
        return self.results.all()
