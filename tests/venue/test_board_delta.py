"""The venue board's socket sends every table once, then only what changed: a goal at one
table of many travels as that table alone, the notices only when they change, and a board
that merges the deltas holds what the desk holds (futmesa.venue.desk.Desk.since, the desk's
/ws). The desk is a real Desk on a real SQLite file, fed the messages paho would hand it."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import websockets

from futmesa.store import EventLog
from futmesa.venue.desk import Desk
from futmesa.venue.mqtt import Broker
from futmesa.venue.web import create_desk_app
from futmesa_testkit.liveserver import LiveServer


def state(a: int, b: int) -> bytes:
    return json.dumps({"score": {"A": a, "B": b}, "status": "running", "period": 1,
                       "now": 0, "clock": {"ms": 0, "running": False, "at": 0}}).encode()


def desk_at(tmp_path: Path) -> Desk:
    path = tmp_path / "desk.sqlite"
    EventLog(path).close()
    return Desk(str(path), Broker("127.0.0.1", 1), "unused")  # not started: fed by hand


def test_since_names_only_the_tables_that_changed(tmp_path: Path) -> None:
    desk = desk_at(tmp_path)
    for i in range(5):
        desk._handle(f"sim-{i}", "status", b"online", False)
        desk._handle(f"sim-{i}", "state", state(0, 0), False)
    seq, full = desk.since(0)
    assert [t["table_id"] for t in full["tables"]] == [f"sim-{i}" for i in range(5)]
    assert "notice" in full and full["connected"] is False
    desk._handle("sim-3", "state", state(1, 0), False)
    seq2, delta = desk.since(seq)
    assert seq2 > seq
    assert [t["table_id"] for t in delta["tables"]] == ["sim-3"]
    assert delta["tables"][0]["state"]["score"] == {"A": 1, "B": 0}
    assert "notice" not in delta  # the notices did not change
    assert desk.since(seq2)[1]["tables"] == []
    # a refused state from a table never seen still puts its card on the boards
    try:
        desk._handle("sim-9", "state", b"{not json", False)
    except Exception:  # noqa: BLE001 - the desk's _on_message turns it into a refusal
        pass
    assert [t["table_id"] for t in desk.since(seq2)[1]["tables"]] == ["sim-9"]


def test_the_board_socket_sends_the_snapshot_then_deltas(tmp_path: Path) -> None:
    desk = desk_at(tmp_path)
    for i in range(40):
        desk._handle(f"sim-{i:02d}", "state", state(0, 0), False)
    server = LiveServer(None, create_desk_app(desk))  # type: ignore[arg-type]
    server.start()
    try:
        async def watch() -> list[dict[str, Any]]:
            got: list[dict[str, Any]] = []
            url = f"ws://127.0.0.1:{server.port}/ws"
            async with websockets.connect(url, max_size=None) as ws:
                got.append(json.loads(await ws.recv()))
                for goal in range(1, 4):
                    assert server.loop is not None
                    # a goal at one table, handled on paho's thread in the desk
                    await asyncio.to_thread(desk._handle, "sim-07", "state", state(goal, 0),
                                            False)
                    for fn in desk.listeners:
                        fn()
                    while True:
                        msg = json.loads(await asyncio.wait_for(ws.recv(), 30))
                        got.append(msg)
                        scores = [t["state"]["score"]["A"] for t in msg.get("tables", [])]
                        if goal in scores:
                            break
            return got

        got = asyncio.run(watch())
    finally:
        server.stop()
    first, rest = got[0], got[1:]
    assert first["type"] == "venue" and len(first["tables"]) == 40
    assert rest and all(m["type"] == "venue-delta" for m in rest)
    assert all([t["table_id"] for t in m["tables"]] in ([], ["sim-07"]) for m in rest), \
        "a delta carried a table that did not change"
    # the board's merge: the snapshot plus every delta is what the desk holds now
    merged = {t["table_id"]: t for t in first["tables"]}
    for m in rest:
        merged.update({t["table_id"]: t for t in m["tables"]})
    assert list(merged.values()) == desk.snapshot()["tables"]
