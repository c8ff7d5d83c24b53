"""The hub's fan-out is per table: a publish wakes that table's views and the all-tables ones.

With N tables and a kiosk each, every kiosk used to receive every table's state and filter it
in its own task (N² work). These tests fail on that: a one-table subscriber must hold nothing
after other tables publish, and ``/ws?table=ID`` must subscribe to that table only.
"""

from __future__ import annotations

import asyncio
import json

import websockets

from futmesa.hub import StateHub
from futmesa_testkit.liveserver import LiveServer, make_state


def test_a_table_subscriber_gets_only_its_table_and_all_tables_gets_every_one() -> None:
    async def run() -> None:
        hub = StateHub()
        tables = [f"t{i}" for i in range(8)]
        own = {t: hub.subscribe(t) for t in tables}
        board = hub.subscribe()
        for n, t in enumerate(tables):
            hub.publish(t, make_state(table_id=t, score={"A": n, "B": 0}))
        for t, sub in own.items():
            state = await asyncio.wait_for(sub.__anext__(), 30)
            assert state["table_id"] == t
            assert sub.waiting() == 0, f"{t}'s view received another table's state"
        seen = [(await asyncio.wait_for(board.__anext__(), 30))["table_id"] for _ in tables]
        assert seen == tables
        # many publishes of one table never touch the other tables' views
        for _ in range(200):
            hub.publish("t0", make_state(table_id="t0"))
        assert all(own[t].waiting() == 0 for t in tables[1:])
        assert own["t0"].waiting() == 64  # bounded: a stalled view keeps the newest
        assert board.waiting() == 64
        for sub in (*own.values(), board):
            await sub.aclose()
        assert not hub._subscribers

    asyncio.run(run())


def test_a_table_subscription_starts_when_made() -> None:
    async def run() -> None:
        hub = StateHub()
        updates = hub.subscribe("sim-2")
        hub.publish("sim-2", make_state(table_id="sim-2", score={"A": 0, "B": 3}))
        state = await asyncio.wait_for(updates.__anext__(), 30)
        assert state["score"] == {"A": 0, "B": 3}
        assert hub.subscriber_count("sim-2") == 1
        updates.close()
        assert hub.subscriber_count("sim-2") == 0

    asyncio.run(run())


def test_ws_of_one_table_subscribes_to_that_table_only(live: LiveServer) -> None:
    live.publish(make_state(table_id="t1"))
    live.publish(make_state(table_id="t2"))

    async def run() -> None:
        url = live.url.replace("http", "ws")
        async with websockets.connect(url + "/ws?table=t2") as ws, \
                websockets.connect(url + "/ws?all=1") as board:
            assert json.loads(await ws.recv())["state"]["table_id"] == "t2"
            assert json.loads(await board.recv())["type"] == "tables"
            assert live.call(live.hub.subscriber_count, "t2") == 1
            assert live.call(live.hub.subscriber_count, "t1") == 0
            assert live.call(live.hub.subscriber_count) == 1  # the board
            for goals in (1, 2):
                await asyncio.to_thread(live.publish, make_state(table_id="t1"))
                await asyncio.to_thread(
                    live.publish, make_state(table_id="t2", score={"A": goals, "B": 0}))
            got = []
            while len(got) < 2:
                msg = json.loads(await asyncio.wait_for(ws.recv(), 30))
                if msg["type"] == "state":
                    got.append(msg["state"])
            assert [(s["table_id"], s["score"]["A"]) for s in got] == [("t2", 1), ("t2", 2)]
            board_tables = []
            while len(board_tables) < 4:
                msg = json.loads(await asyncio.wait_for(board.recv(), 30))
                if msg["type"] == "state":
                    board_tables.append(msg["state"]["table_id"])
            assert board_tables == ["t1", "t2", "t1", "t2"]
        # closed sockets leave no subscription behind
        for _ in range(3000):  # wait for the server to see the close (30 s at most)
            if not live.call(lambda: bool(live.hub._subscribers)):
                break
            await asyncio.sleep(0.01)
        assert not live.call(lambda: bool(live.hub._subscribers))

    asyncio.run(run())


def test_a_lagging_board_keeps_every_tables_newest_state() -> None:
    """A board that stops reading while one busy table publishes hundreds of states still gets
    every other table's latest state: only states a newer one of their table replaces go (the
    backlog used to drop the oldest of any table, the only state of a quiet one included)."""

    async def run() -> None:
        hub = StateHub()
        tables = [f"t{i:02d}" for i in range(40)]
        board = hub.subscribe()
        for n, t in enumerate(tables):
            hub.publish(t, make_state(table_id=t, score={"A": n, "B": 0}))
        for goals in range(300):
            hub.publish("t00", make_state(table_id="t00", score={"A": goals, "B": 1}))
        assert board.dropped == 0 and board.superseded > 0
        assert board.waiting() <= max(64, 2 * len(tables))
        newest: dict[str, dict] = {}
        while board.waiting():
            state = await asyncio.wait_for(board.__anext__(), 30)
            newest[state["table_id"]] = state["score"]
        assert set(newest) == set(tables)
        assert newest["t00"] == {"A": 299, "B": 1}
        assert all(newest[t] == {"A": n, "B": 0} for n, t in enumerate(tables) if n)
        board.close()

    asyncio.run(run())


def test_a_view_that_keeps_up_gets_every_state_in_order() -> None:
    async def run() -> None:
        hub = StateHub()
        board = hub.subscribe()
        got = []
        for n in range(200):
            hub.publish(f"t{n % 3}", make_state(table_id=f"t{n % 3}", score={"A": n, "B": 0}))
            if n % 10 == 9:  # reads now and then, never 64 behind
                while board.waiting():
                    got.append((await board.__anext__())["score"]["A"])
        assert got == list(range(200))
        assert board.superseded == board.dropped == 0

    asyncio.run(run())
