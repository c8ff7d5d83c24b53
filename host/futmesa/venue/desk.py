"""The desk: hears every table over MQTT, stores results, assigns the next matches.

Results are stored under their uid (``<table>:<match>``) in the desk's SQLite
file and, for a competition match, into the competition's results: a result
heard twice (the table resends until acknowledged) is stored once. The desk
acknowledges on a retained topic per table, so a table that was away, or a
desk that restarted, converge with no result lost or counted twice.
"""

from __future__ import annotations

import json
import logging
import sqlite3
import threading
import time
from collections.abc import Callable
from typing import Any

import paho.mqtt.client as mqtt

from futmesa.competition.db import CompetitionDB, CompetitionError
from futmesa.venue import mqtt as vm

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
"""


class Desk:
    """The desk's venue side; ``snapshot()`` is what the venue board shows."""

    def __init__(self, db_path: str, broker: vm.Broker, password: str,
                 assign: bool = True) -> None:
        self.comp = CompetitionDB(db_path)
        self._db = sqlite3.connect(db_path, check_same_thread=False, isolation_level=None,
                                   timeout=30)
        self._db.executescript(SCHEMA)
        self.broker = broker
        self.assign_enabled = assign
        self.lock = threading.RLock()
        self.tables: dict[str, dict[str, Any]] = {}
        self.connected = False
        self.listeners: list[Callable[[], None]] = []
        self.assigned: dict[str, dict[str, Any]] = {}  # table -> the payload last published
        self.client = vm.client("futmesa-desk", vm.DESK_USER, password)
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_message = self._on_message
        self._stop = threading.Event()
        self._ticker = threading.Thread(target=self._tick_loop, name="desk-tick", daemon=True)

    # -- lifecycle -----------------------------------------------------------------------
    def start(self) -> None:
        self.client.connect_async(self.broker.host, self.broker.port, keepalive=5)
        self.client.loop_start()
        self._ticker.start()

    def stop(self) -> None:
        self._stop.set()
        self.connected = False
        self.client.disconnect()
        self.client.loop_stop()
        self._ticker.join(timeout=5)

    def _changed(self) -> None:
        for fn in list(self.listeners):
            fn()

    # -- MQTT ------------------------------------------------------------------------------
    def _on_connect(self, client: mqtt.Client, userdata: Any, flags: Any, rc: Any,
                    props: Any = None) -> None:
        if rc.is_failure:
            log.error("the venue broker refused the desk (%s): check the desk's credentials",
                      rc)
            return
        self.connected = True
        log.info("desk connected to the venue broker")
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
            log.warning("desk lost the venue broker (%s); reconnecting", rc)
        self.connected = False
        self._changed()

    def _on_message(self, client: mqtt.Client, userdata: Any, msg: mqtt.MQTTMessage) -> None:
        table, kind = vm.table_of(msg.topic)
        if not table:
            return
        recv_ms = time.time() * 1000
        with self.lock:
            t = self.tables.setdefault(table, {"table_id": table, "online": False,
                                               "state": None})
            if kind == "status":
                t["online"] = msg.payload == b"online"
            elif kind == "state":
                try:
                    state = json.loads(msg.payload)
                except json.JSONDecodeError:
                    return
                clock = state.get("clock")
                if isinstance(clock, dict) and state.get("now"):
                    # the table's clock.at is on the table's wall clock: move it onto ours
                    # (a retained state is old: its clock still runs from when it was sent)
                    clock["at"] = clock.get("at", 0) + (recv_ms - state["now"]
                                                        if not msg.retain else 0)
                t["state"] = state
            elif kind == "result":
                try:
                    body = json.loads(msg.payload)
                except json.JSONDecodeError:
                    return
                self.receive_result(table, body)
        self._changed()

    # -- results -----------------------------------------------------------------------------
    def _known_tables(self) -> list[str]:
        rows = self._db.execute("SELECT DISTINCT table_id FROM venue_received").fetchall()
        return sorted({r[0] for r in rows} | set(self.tables))

    def acked(self, table: str) -> dict[str, str]:
        rows = self._db.execute("SELECT uid, digest FROM venue_received WHERE table_id=?",
                                (table,)).fetchall()
        return {r[0]: r[1] for r in rows}

    def _publish_ack(self, table: str) -> None:
        self.client.publish(vm.t_ack(table), vm.dumps({"acked": self.acked(table)}), qos=1,
                            retain=True)

    def receive_result(self, table: str, body: dict[str, Any]) -> bool:
        """Store one result message (idempotent); True when it was new or changed."""
        uid, digest = str(body.get("uid", "")), str(body.get("digest", ""))
        if not uid.startswith(f"{table}:") or not digest:
            log.warning("table %s sent a result that is not its own (%r): ignored", table, uid)
            return False
        with self.lock:
            row = self._db.execute("SELECT digest FROM venue_received WHERE uid=?",
                                   (uid,)).fetchone()
            fresh = row is None or row[0] != digest
            cm = body.get("competition_match")
            if fresh and isinstance(cm, int):
                self._to_competition(cm, uid, body)
            if fresh:
                self._db.execute(
                    "INSERT INTO venue_received(uid, table_id, digest, competition_match, payload,"
                    " received_at) VALUES (?,?,?,?,?,?) ON CONFLICT(uid) DO UPDATE SET"
                    " digest=excluded.digest, payload=excluded.payload,"
                    " received_at=excluded.received_at",
                    (uid, table, digest, cm if isinstance(cm, int) else None,
                     json.dumps(body), time.time()))
                log.info("result %s: %s %d x %d %s", uid, body.get("teams", {}).get("A"),
                         body.get("score_a", 0), body.get("score_b", 0),
                         body.get("teams", {}).get("B"))
            self._publish_ack(table)
            if fresh:
                self.progress()
        return fresh

    def _to_competition(self, cm: int, uid: str, body: dict[str, Any]) -> None:
        try:
            m = self.comp.match(cm)
            self.comp.record_result(cm, uid, body)
        except CompetitionError as exc:
            log.warning("result %s names competition match %s: %s", uid, cm, exc)
            return
        rule = str(body.get("rule", ""))
        loser = (body.get("detail") or {}).get("loser")
        wanted = None
        if body.get("reason") == "forfeit" and "Art. 85" in rule and loser in ("A", "B"):
            wanted = m["team_a"] if loser == "A" else m["team_b"]
        for s in self.comp.sanctions(m["competition_id"]):
            # a disqualification this match's earlier result brought, now corrected away
            if s["match_id"] == cm and s["note"].startswith("auto:") and s["team"] != wanted:
                self.comp.revoke_sanction(s["id"])
        done = {(s["team"], s["kind"]) for s in self.comp.sanctions(m["competition_id"])}
        if wanted and (wanted, "competition_points") not in done:
            self.comp.add_sanction(wanted, "competition_points", cm, rule,
                                   f"auto: desclassificado na partida {cm} ({uid})")

    # -- assignments ----------------------------------------------------------------------------
    def progress(self) -> None:
        """Fill decided knockout places, then give every free online table its next match."""
        with self.lock:
            try:
                comp = self.comp.competition()
            except CompetitionError:
                return
            self.comp.advance(comp["id"])
            if not self.assign_enabled or not self.connected:
                return
            matches = self.comp.matches(comp["id"])
            teams = self.comp.team_map()
            s = comp["settings"]
            busy_tables = {m["table_id"] for m in matches if m["status"] == "assigned"}
            busy_teams = {t for m in matches if m["status"] == "assigned"
                          for t in (m["team_a"], m["team_b"])}
            for table in sorted(self.tables):
                info = self.tables[table]
                if not info["online"]:
                    continue
                if table in busy_tables:
                    current = next(m for m in matches if m["status"] == "assigned"
                                   and m["table_id"] == table)
                    self._publish_assign(table, self._assignment(current, teams, s, comp))
                    continue
                options = self.comp.playable(comp["id"], busy_teams)
                if not options:
                    self._publish_assign(table, {})
                    continue
                m = options[0]
                self.comp.set_assigned(m["id"], table)
                busy_teams |= {m["team_a"], m["team_b"]}
                log.info("match %d (%s × %s) to table %s", m["id"], m["team_a"], m["team_b"],
                         table)
                self._publish_assign(table, self._assignment(m, teams, s, comp))

    def _assignment(self, m: dict[str, Any], teams: dict[str, Any], s: Any,
                    comp: dict[str, Any]) -> dict[str, Any]:
        sides = {"A": teams[m["team_a"]].as_side(), "B": teams[m["team_b"]].as_side()}
        label = m["label"] or (f"Grupo {m['group']} · rodada {m['round']}" if m["group"]
                               else f"Rodada {m['round']}")
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
        while not self._stop.wait(1.0):
            try:
                self.progress()
            except Exception:  # noqa: BLE001 - the desk keeps running; the log says why
                log.exception("desk: could not update the assignments")

    # -- views -------------------------------------------------------------------------------
    def snapshot(self) -> dict[str, Any]:
        with self.lock:
            tables = [dict(t) for _, t in sorted(self.tables.items())]
        return {"connected": self.connected, "now": int(time.time() * 1000), "tables": tables}

    def received(self) -> list[dict[str, Any]]:
        rows = self._db.execute("SELECT payload FROM venue_received ORDER BY received_at")
        return [json.loads(r[0]) for r in rows.fetchall()]
