"""End to end: a goal-line trip on the simulated board reaches SQLite, /api/state and /ws.

Real parts only: the firmware under `micropython`, a socat pseudo-terminal
opened with pyserial, a SQLite file, the Starlette app under uvicorn.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import threading
import time

import httpx
import websockets

from futmesa_testkit.livetable import LiveTable


def _goal_events(db: str) -> list[tuple[int, int, int]]:
    with sqlite3.connect(db) as conn:
        return conn.execute(
            "SELECT a, boot_id, seq FROM device_events WHERE kind='goal_line' ORDER BY id"
        ).fetchall()


async def _next_state_with(url: str, pred, timeout: float) -> dict:
    async with websockets.connect(url) as ws:
        async def loop() -> dict:
            while True:
                msg = json.loads(await ws.recv())
                if msg.get("type") == "state" and pred(msg["state"]):
                    return msg["state"]
        return await asyncio.wait_for(loop(), timeout)


def test_goal_line_trip_reaches_log_api_and_stream() -> None:
    with LiveTable(speed=30) as live:
        live.start_match(teams={"A": {"name": "Casa"}, "B": {"name": "Visitante"}})
        before = httpx.get(live.base_url + "/api/state").json()
        assert before["score"] == {"A": 0, "B": 0}
        assert before["link"]["connected"] is True
        assert before["ruleset"] == "cbfm-1toque"
        assert before["table_id"] == live.daemon.table_id

        # the stream must deliver the change: subscribe before the goal happens
        ws_url = live.base_url.replace("http", "ws") + "/ws"
        streamed: dict = {}
        subscribed = threading.Event()

        async def listen() -> None:
            subscribed.set()
            streamed.update(await _next_state_with(ws_url, lambda s: s["score"]["A"] == 1, 20))

        listener = threading.Thread(target=lambda: asyncio.run(listen()))
        listener.start()
        subscribed.wait(5)
        time.sleep(0.3)
        live.give_lance("A")  # the kick-off first: no shot from it (000 Art. 12 §5)
        live.referee("shot_asked", {"side": "A", "disc": 9})  # 000 Art. 12 §1
        ends = live.match()["ends"]
        live.sim.goal(ends["B"])  # the ball crosses the line of the goal B defends
        listener.join(25)

        assert streamed["score"] == {"A": 1, "B": 0}
        goals = _goal_events(live.db)
        assert [g[0] for g in goals] == [ends["B"]]
        state = httpx.get(live.base_url + "/api/state").json()
        assert state["score"] == {"A": 1, "B": 0}
        assert state["clock"]["running"] is True
        assert state["period"] == 1


def test_goal_without_sensor_trip_changes_nothing() -> None:
    """The same match with no trip: the score stays 0 x 0 (the test above can fail)."""
    with LiveTable(speed=30) as live:
        live.start_match()
        live.give_lance("A")  # the kick-off first: no shot from it (000 Art. 12 §5)
        live.referee("shot_asked", {"side": "A", "disc": 9})
        live.sim.ball_out(0)
        live.wait(lambda: any(e.kind == "ball_out" for e in live.daemon.store.device_events()),
                  10, "the ball-out event")
        assert httpx.get(live.base_url + "/api/state").json()["score"] == {"A": 0, "B": 0}
        assert _goal_events(live.db) == []
