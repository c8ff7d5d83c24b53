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

import json
import logging
import queue
import sqlite3
import threading
import time
from collections.abc import Callable
from typing import Any

import paho.mqtt.client as mqtt

from futmesa.competition.db import CompetitionDB, CompetitionError, playable
from futmesa.health import DESK_FAILED, DESK_FULL, Health, is_write_failure, venue_fault
from futmesa.i18n import _, language, ngettext
from futmesa.matchbook.wording import table_name
from futmesa.sqltx import write_transaction
from futmesa.venue import mqtt as vm
from futmesa.venue.checks import (
    Refused,
    check_assignment,
    check_update,
    disqualified_side,
    parse_result,
)

log = logging.getLogger("futmesa.venue.desk")

SCHEMA = """
CREATE TABLE IF NOT EXISTS venue_received (
    uid TEXT PRIMARY KEY,
    table_id TEXT NOT NULL,
    digest TEXT NOT NULL,
    competition_match INTEGER,
    payload TEXT NOT NULL,
    received_at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS venue_refusals (
    id INTEGER PRIMARY KEY,
    table_id TEXT NOT NULL,
    what TEXT NOT NULL,
    reason TEXT NOT NULL,
    excerpt TEXT NOT NULL,
    first_at REAL NOT NULL,
    last_at REAL NOT NULL,
    times INTEGER NOT NULL DEFAULT 1,
    UNIQUE (table_id, what, reason)
);
"""
MAX_STATE_BYTES = 64 * 1024
REFUSALS_KEPT = 500


class Desk:
    """The desk's venue side; ``snapshot()`` is what the venue board shows, ``since(seq)``
    what changed after a board's last update (the tables that changed, the notices if they
    did): every change has a number, one sequence for the whole desk."""

    def __init__(self, db_path: str, broker: vm.Broker, password: str,
                 assign: bool = True) -> None:
        self.comp = CompetitionDB(db_path)
        self._db = sqlite3.connect(db_path, check_same_thread=False, isolation_level=None,
                                   timeout=30)
        self._db.executescript(SCHEMA)
        self.broker = broker
        self.assign_enabled = assign
        self.lock = threading.RLock()  # the competition: results, assignments
        # the live board (tables, their states, the notices): its own lock, so a state on
        # its way to the boards never waits behind a result being stored and the matches
        # assigned (never taken while holding it: lock first, then board_lock)
        self.board_lock = threading.RLock()
        self.tables: dict[str, dict[str, Any]] = {}
        self._seq = 0  # the number of the desk's newest change
        self._table_seq: dict[str, int] = {}  # table -> the number of its newest change
        self._notices_seq = 0
        self.connected = False
        self.listeners: list[Callable[[], None]] = []
        self.assigned: dict[str, dict[str, Any]] = {}  # table -> the payload last published
        self._advanced: tuple[Any, ...] = ()  # the file's revision the knockouts were filled at
        self.client = vm.client("futmesa-desk", vm.DESK_USER, password, broker=broker)
        self.client.on_connect = vm.guarded("desk: connecting", self._on_connect)
        self.client.on_disconnect = vm.guarded("desk: disconnecting", self._on_disconnect)
        self.client.on_message = self._on_message
        self.loop = vm.Supervised(self.client, "desk-mqtt", self._down)
        self._stop = threading.Event()
        self._ticker = threading.Thread(target=self._tick_loop, name="desk-tick", daemon=True)
        # results are stored on their own thread: paho's thread goes on with the states
        self._inbox: queue.Queue[tuple[str, str, bytes, bool] | None] = queue.Queue()
        self._results = threading.Thread(target=self._results_loop, name="desk-results",
                                         daemon=True)
        self._notices: dict[str, Any] = {"refused": [], "reports": [], "notice": ""}
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
        self._inbox.put(None)
        if self._ticker.is_alive():
            self._ticker.join(timeout=5)
        if self._results.is_alive():
            self._results.join(timeout=30)  # the results received are stored first

    def _results_loop(self) -> None:
        """(its own thread) The results paho received, stored one at a time, in order."""
        while True:
            item = self._inbox.get()
            if item is None:
                return
            self._dispatch(*item)

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
        if kind == "result" and self._results.is_alive():
            self._inbox.put((table, kind, msg.payload, msg.retain))
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
        with self.board_lock:
            self._seq += 1
            self._notices_seq = self._seq
        self._changed()

    def _handle(self, table: str, kind: str, payload: bytes, retained: bool) -> None:
        recv_ms = time.time() * 1000
        if kind == "result":
            self.receive_result(table, parse_result(table, payload))
            return
        with self.board_lock:
            t = self.tables.setdefault(table, {"table_id": table, "online": False,
                                               "state": None})
            self._seq += 1  # (a refused state too: the table's card appears on the boards)
            self._table_seq[table] = self._seq
            if kind == "status":
                t["online"] = payload == b"online"
            elif kind == "state":
                if len(payload) > MAX_STATE_BYTES:
                    raise Refused(_("a state of {size} bytes: too big").format(size=len(payload)))
                try:
                    state = json.loads(payload)
                except (UnicodeDecodeError, ValueError, RecursionError):
                    raise Refused(_("unreadable state (not JSON)")) from None
                if not isinstance(state, dict):
                    raise Refused(_("unreadable state (not a JSON object)"))
                clock = state.get("clock")
                now = state.get("now")
                if isinstance(clock, dict) and isinstance(now, int | float) \
                        and isinstance(clock.get("at", 0), int | float):
                    # the table's clock.at is on the table's wall clock: move it onto ours
                    # (a retained state is old: its clock still runs from when it was sent)
                    clock["at"] = clock.get("at", 0) + (recv_ms - now if not retained else 0)
                t["state"] = state

    # -- refusals ------------------------------------------------------------------------------
    def refuse(self, table: str, what: str, reason: str, payload: bytes = b"") -> None:
        """Keep and log a refused message (the same refusal again only counts up)."""
        excerpt = payload[:160].decode("utf-8", errors="replace")
        now = time.time()
        try:
            with write_transaction(self._db, self.lock) as db:
                cur = db.execute(
                    "INSERT INTO venue_refusals(table_id, what, reason, excerpt, first_at,"
                    " last_at) VALUES (?,?,?,?,?,?) ON CONFLICT(table_id, what, reason) DO"
                    " UPDATE SET times=times+1, last_at=excluded.last_at,"
                    " excerpt=excluded.excerpt RETURNING times",
                    (table, what, reason, excerpt, now, now))
                times = cur.fetchone()[0]
                db.execute("DELETE FROM venue_refusals WHERE id NOT IN (SELECT id FROM"
                           " venue_refusals ORDER BY last_at DESC LIMIT ?)", (REFUSALS_KEPT,))
        except Exception as exc:
            if not is_write_failure(exc):
                raise
            self._storage_failed(exc, "refusals")  # the refusal is in the log line below
            times = 1 if (table, what, reason) not in self._unstored else 2
            self._unstored.add((table, what, reason))
        else:
            self._storage_ok("refusals")
        if times == 1:
            log.warning(_("desk: refused %s from table %s: %s"), what, table, reason)
        self._refresh_notices()

    def refusals(self, limit: int = 20) -> list[dict[str, Any]]:
        """The newest refusals, newest first (the board shows them)."""
        with self.lock:
            cur = self._db.execute(
                "SELECT table_id, what, reason, excerpt, first_at, last_at, times FROM"
                " venue_refusals ORDER BY last_at DESC, id DESC LIMIT ?", (limit,))
            names = [d[0] for d in cur.description]
            return [dict(zip(names, r, strict=True)) for r in cur.fetchall()]

    # -- results -----------------------------------------------------------------------------
    def _known_tables(self) -> list[str]:
        rows = self._db.execute("SELECT DISTINCT table_id FROM venue_received").fetchall()
        with self.board_lock:
            seen = set(self.tables)
        return sorted({r[0] for r in rows} | seen)

    def acked(self, table: str) -> dict[str, str]:
        rows = self._db.execute("SELECT uid, digest FROM venue_received WHERE table_id=?",
                                (table,)).fetchall()
        return {r[0]: r[1] for r in rows}

    def _publish_ack(self, table: str) -> None:
        self.client.publish(vm.t_ack(table), vm.dumps({"acked": self.acked(table)}), qos=1,
                            retain=True)

    def receive_result(self, table: str, body: dict[str, Any]) -> bool:
        """Store one result message (idempotent); True when it was new or changed.

        Raises :class:`Refused` for a result this table may not give (nothing is stored)."""
        uid, digest = body["uid"], body["digest"]
        with self.lock:
            row = self._db.execute("SELECT digest, payload FROM venue_received WHERE uid=?",
                                   (uid,)).fetchone()
            fresh = row is None or row[0] != digest
            cm = body.get("competition_match")
            if fresh and row is not None:
                check_update(json.loads(row[1]), body)  # a later version of the same result
            if fresh and isinstance(cm, int):
                try:
                    m = self.comp.match(cm)
                except CompetitionError:
                    raise Refused(_("the competition has no match {match}").format(
                        match=cm)) from None
                check_assignment(table, body, m)
                self._to_competition(m, uid, body)
            if fresh:
                self._db.execute(
                    "INSERT INTO venue_received(uid, table_id, digest, competition_match, payload,"
                    " received_at) VALUES (?,?,?,?,?,?) ON CONFLICT(uid) DO UPDATE SET"
                    " digest=excluded.digest, payload=excluded.payload,"
                    " received_at=excluded.received_at",
                    (uid, table, digest, cm if isinstance(cm, int) else None,
                     json.dumps(body), time.time()))
                log.info(_("result %s: %s %d × %d %s"), uid, body.get("teams", {}).get("A"),
                         body.get("score_a", 0), body.get("score_b", 0),
                         body.get("teams", {}).get("B"))
                self._storage_ok("results")
            self._publish_ack(table)
            if fresh:
                self.progress()
        return fresh

    def _to_competition(self, m: dict[str, Any], uid: str, body: dict[str, Any]) -> None:
        """The match's result; a reported disqualification waits for the organiser."""
        cm = m["id"]
        self.comp.record_result(cm, uid, body)
        side = disqualified_side(body)
        team = (m["team_a"] if side == "A" else m["team_b"]) if side else None
        withdrawn = self.comp.withdraw_reports(cm, uid, keep=team)
        if withdrawn:
            log.info(ngettext("result %s corrected: %d disqualification report withdrawn",
                              "result %s corrected: %d disqualification reports withdrawn",
                              withdrawn), uid, withdrawn)
        if team and self.comp.add_report(cm, team, str(body.get("rule", "")), uid):
            log.warning(_("table report: %s disqualified in match %d (%s); the organiser "
                          "confirms it with `futmesa competition reports`"), team, cm,
                        body.get("rule"))

    # -- assignments ----------------------------------------------------------------------------
    def progress(self) -> None:
        """Fill decided knockout places, then give every free online table its next match."""
        with self.lock:
            comps = self.comp.active()  # the day's categories share the tables
            if not comps:
                return
            stamp = self.comp.revision()
            if stamp != self._advanced:  # nothing changed since: nothing to fill in
                for comp in comps:
                    self.comp.advance(comp["id"])
                self._advanced = self.comp.revision()
            if not self.assign_enabled or not self.connected:
                return
            by_id = {c["id"]: c for c in comps}
            per_comp = {c["id"]: self.comp.matches(c["id"]) for c in comps}
            matches = [m for c in comps for m in per_comp[c["id"]]]
            teams = self.comp.team_map()
            on_table = {m["table_id"]: m for m in matches if m["status"] == "assigned"}
            # a player entered in two categories plays one match at a time
            busy_teams = {t for m in matches if m["status"] == "assigned"
                          for t in (m["team_a"], m["team_b"])}
            # every category's playable matches, the earliest in its own schedule first,
            # then the category created first; each free table takes the first whose teams
            # are still free
            options = sorted((m for c in comps for m in playable(per_comp[c["id"]],
                                                                  busy_teams)),
                             key=lambda m: (m["slot"], m["competition_id"], m["seq"]))
            with self.board_lock:
                online = sorted(t for t, info in self.tables.items() if info["online"])
            for table in online:
                current = on_table.get(table)
                if current is not None:
                    comp = by_id[current["competition_id"]]
                    self._publish_assign(table, self._assignment(current, teams,
                                                                 comp["settings"], comp))
                    continue
                m = next((o for o in options if o["team_a"] not in busy_teams
                          and o["team_b"] not in busy_teams), None)
                if m is None:
                    self._publish_assign(table, {})
                    continue
                comp = by_id[m["competition_id"]]
                s = comp["settings"]
                self.comp.set_assigned(m["id"], table)
                busy_teams |= {m["team_a"], m["team_b"]}
                # the teams by their names, the table by its name (the log is read by a person)
                log.info(_("match %d (%s × %s) to %s"), m["id"],
                         teams[m["team_a"]].name if m["team_a"] in teams else m["team_a"],
                         teams[m["team_b"]].name if m["team_b"] in teams else m["team_b"],
                         table_name(table))
                self._publish_assign(table, self._assignment(m, teams, s, comp))

    def _assignment(self, m: dict[str, Any], teams: dict[str, Any], s: Any,
                    comp: dict[str, Any]) -> dict[str, Any]:
        sides = {"A": teams[m["team_a"]].as_side(), "B": teams[m["team_b"]].as_side()}
        label = m["label"] or (_("Group {group} · round {round}").format(
            group=m["group"], round=m["round"]) if m["group"]
            else _("Round {round}").format(round=m["round"]))
        settings = {**s.match_settings, "teams": sides, "event": comp["name"],
                    "competition": "knockout" if m["stage"] == "ko" else "league",
                    "competition_match": m["id"]}
        return {"competition_match": m["id"], "label": label, "teams": sides,
                "ruleset": s.ruleset, "settings": settings}

    def _publish_assign(self, table: str, payload: dict[str, Any]) -> None:
        if self.assigned.get(table) == payload:
            return
        self.assigned[table] = payload
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
        with self.board_lock:
            tables = [dict(self.tables[k]) for k in sorted(self.tables)
                      if self._table_seq.get(k, 0) > seq or seq == 0]
            out: dict[str, Any] = {"connected": self.connected,
                                   "now": int(time.time() * 1000), "tables": tables,
                                   # the desk's own faults (its disk), never the broker's
                                   "faults": self.health.to_json()["faults"]}
            if seq == 0 or self._notices_seq > seq:
                out.update(self._notices)
            return self._seq, out

    def _refresh_notices(self) -> None:
        """What the board says beside the tables: the newest refusals and the reports to
        confirm (read here, on a refusal and every tick, not on every screen update)."""
        refused = self.refusals(20)
        reports = [r for c in self.comp.active()
                   for r in self.comp.reports(c["id"], open_only=True)]
        notice = []
        if reports:
            notice.append(ngettext(
                "{count} disqualification report to confirm (futmesa competition reports)",
                "{count} disqualification reports to confirm (futmesa competition reports)",
                len(reports)).format(count=len(reports)))
        if refused:
            r = refused[0]
            notice.append(_("refused from {table}: {reason}").format(
                table=table_name(r["table_id"], lang=language()), reason=r["reason"]))
        fresh = {"refused": refused, "reports": reports, "notice": " · ".join(notice)}
        if fresh != self._notices:
            with self.board_lock:
                self._notices = fresh
                self._seq += 1
                self._notices_seq = self._seq
            self._changed()

    def received(self) -> list[dict[str, Any]]:
        rows = self._db.execute("SELECT payload FROM venue_received ORDER BY received_at")
        return [json.loads(r[0]) for r in rows.fetchall()]
