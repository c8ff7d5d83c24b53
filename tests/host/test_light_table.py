"""The light simulated table (futmesa_testkit.lighttable) against the real daemon and web server.

Two light tables on real ptys, one ``serve`` (server.run: links, SQLite, rules, hub, web), the
demo's scripted match played on both at once with the referee over HTTP (each table's own
token). Then: every event each table numbered is in the log, in order, no gaps; the match ended
with the script's score (3 × 2). And a host restart mid-match: the table replays from the
host's cursor and nothing is lost or stored twice.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx

import futmesa_wire as W
from futmesa import server
from futmesa.store import EventLog
from futmesa_testkit.lighttable import LightFleet, LightTable, http_referee, play_script
from futmesa_testkit.liveserver import free_port

SPEED = 8  # device ms per real ms: a 1-minute half lasts 7.5 s (time for a busy host)
SETTINGS = {"period_ms": 60_000, "interval_ms": 0}


async def _serve(fleet: LightFleet, db: Path, port: int) -> tuple[asyncio.Task[None],
                                                                    asyncio.Future[Any]]:
    ready: asyncio.Future[Any] = asyncio.get_running_loop().create_future()

    async def on_ready(running: server.Running) -> None:
        ready.set_result(running)
        await asyncio.Event().wait()

    task = asyncio.create_task(server.run(fleet.paths, db, "cbfm-1toque", SETTINGS,
                                          http_port=port, on_ready=on_ready, quiet=True))
    await asyncio.wait({task, ready}, timeout=60, return_when=asyncio.FIRST_COMPLETED)
    if task.done():
        task.result()  # raises what stopped the server
    assert ready.done(), "the daemon did not start"
    return task, ready


def test_light_tables_play_the_scripted_match_into_the_log_with_no_gaps(tmp_path: Path) -> None:
    db = tmp_path / "m.sqlite"
    port = free_port()
    base = f"http://127.0.0.1:{port}"

    fleet = LightFleet(2, prefix="LTT", speed=SPEED)

    async def run() -> list[dict[str, Any]]:
        fleet.start()
        task, ready = await _serve(fleet, db, port)
        running = ready.result()
        try:
            async with httpx.AsyncClient(timeout=60) as client:
                plays = []
                for table in fleet.tables:
                    # each table's own token, asked as a bench does (/console/recover)
                    referee, state = http_referee(client, base, table.table_id)
                    plays.append(play_script(table, referee, state, period_ms=60_000))
                await asyncio.wait_for(asyncio.gather(*plays), 240)
                finals = [(await client.get(f"{base}/api/state",
                                            params={"table": t.table_id})).json()
                          for t in fleet.tables]
                # the host has committed everything the tables made (acks caught up)
                for t in fleet.tables:
                    for _ in range(2000):
                        if t.acked == t.newest:
                            break
                        await asyncio.sleep(0.01)
            return finals
        finally:
            running.stop()
            await asyncio.wait_for(task, 30)
            await fleet.stop()

    finals = asyncio.run(run())
    for final in finals:
        assert final["finished"] is True
        assert final["score"] == {"A": 3, "B": 2}
    store = EventLog(db)
    try:
        assert store.gaps() == []
        for table in fleet.tables:
            stored = [(e.boot_id, e.seq, e.kind) for e in store.device_events()
                      if table.uid.decode() in e.device_uid]
            # every event the table numbered, in order, once each
            assert table.acked == table.newest > 30
            assert stored == [(1, seq, W.EVENT_NAMES[kind])
                              for seq, kind in enumerate(table.kinds, 1)]
    finally:
        store.close()


def test_a_host_restart_mid_match_loses_and_duplicates_nothing(tmp_path: Path) -> None:
    db = tmp_path / "m.sqlite"

    async def run() -> LightTable:
        fleet = LightFleet(1, prefix="LTR", speed=SPEED)
        fleet.start()
        table = fleet.tables[0]
        try:
            task, ready = await _serve(fleet, db, free_port())
            running = ready.result()
            daemon = running.daemon
            for _ in range(6000):
                if daemon.connected and daemon.match is not None:
                    break
                await asyncio.sleep(0.01)
            await asyncio.to_thread(daemon.referee, "set_up", {"kickoff": "A"}, "test")
            await asyncio.to_thread(daemon.referee, "start_period", {}, "test")
            for _ in range(3000):
                if table.clock.running:
                    break
                await asyncio.sleep(0.01)
            assert table.clock.running
            running.stop()
            await asyncio.wait_for(task, 30)
            # events made while no host is there wait in the table
            for zone in (0, 3, 1):
                table.ball_out(zone)
            table.palheta("B")
            made = table.newest
            assert table.acked < made
            task, ready = await _serve(fleet, db, free_port())
            running = ready.result()
            for _ in range(3000):
                if table.acked == made and table.connected:
                    break
                await asyncio.sleep(0.01)
            running.stop()
            await asyncio.wait_for(task, 30)
            return table
        finally:
            await fleet.stop()

    table = asyncio.run(run())
    store = EventLog(db)
    try:
        stored = [(e.seq, e.kind) for e in store.device_events() if "LTR" in e.device_uid]
        assert store.gaps() == []
    finally:
        store.close()
    # exactly the events the table made, in order, each once (the ack covers them all)
    assert table.acked == table.newest
    assert stored == [(seq, W.EVENT_NAMES[kind]) for seq, kind in enumerate(table.kinds, 1)]
