"""A camera that stalls or dies never delays a goal: the real server (link, SQLite, rules,
hub, web) with a light table on a pty and the simulated camera in its own process; the
capture process is stopped (SIGSTOP: a stalled camera) and then killed (SIGKILL: a camera
unplugged mid-match), and each goal the table makes meanwhile is in the log at once. The
fault is on the table's health, in the club's words; the camera comes back by itself and
the next goal gets its clip in the log, served to the kiosk at its URL."""

from __future__ import annotations

import asyncio
import os
import signal
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from futmesa import server
from futmesa.camera.faults import CAMERA_LOST
from futmesa_testkit.lighttable import LightFleet
from futmesa_testkit.liveserver import free_port

from .helpers import small

pytestmark = pytest.mark.slow
ON_TIME_S = 1.5  # a goal from the table to the log, on a loaded 2-core machine


async def until(cond: Any, timeout: float, what: str) -> Any:
    deadline = time.monotonic() + timeout
    while not (got := cond()):
        assert time.monotonic() < deadline, f"waited {timeout} s for {what}"
        await asyncio.sleep(0.02)
    return got


def goal_entries(running: server.Running) -> list[Any]:
    d = running.daemon
    if d.match is None:
        return []
    return [e for e in running.store.entries(d.match["id"]) if e.kind == "goal_line"]


async def goal_lands(running: server.Running, fleet: LightFleet) -> float:
    before = len(goal_entries(running))
    sent = time.monotonic()
    fleet.tables[0].goal(1)
    await until(lambda: len(goal_entries(running)) > before, 10, "the goal in the log")
    return time.monotonic() - sent


def camera_faults(running: server.Running) -> set[str]:
    return {f.code for f in running.daemon.health.faults()}


def test_a_stalled_or_killed_camera_never_delays_a_goal(tmp_path: Path) -> None:
    db = tmp_path / "futmesa.sqlite"
    port = free_port()
    fleet = LightFleet(1, prefix="CAM", speed=1)
    seen: dict[str, Any] = {}

    async def scenario(running: server.Running) -> None:
        try:
            cam = running.camera
            await until(lambda: running.daemon.match is not None and cam.working, 60,
                        "the table's match and the camera's frames")
            seen["baseline"] = await goal_lands(running, fleet)
            pid = cam.stats()["pid"]
            os.kill(pid, signal.SIGSTOP)  # a camera that stalls
            await until(lambda: CAMERA_LOST in camera_faults(running), 10, "the stall seen")
            seen["stalled"] = await goal_lands(running, fleet)
            await until(lambda: cam.stats()["pid"] != pid, 20, "the stalled capture replaced")
            await until(lambda: cam.working, 30, "frames again")
            pid = cam.stats()["pid"]
            os.kill(pid, signal.SIGKILL)  # a camera unplugged
            seen["killed"] = await goal_lands(running, fleet)
            seen["said"] = await until(lambda: [
                f["pt"] for f in running.hub.snapshot(running.daemon.table_id)["health"]
                ["faults"] if f["code"] == CAMERA_LOST], 10, "the fault on the screens")
            await until(lambda: cam.working and CAMERA_LOST not in camera_faults(running), 30,
                        "the camera back")
            await until(lambda: cam.stats()["ring_frames"] >= 20, 30, "2 s in the ring")
            await goal_lands(running, fleet)
            clip = await until(lambda: [c for c in cam.written if "file" in c], 30, "a clip")
            # the replay with a file: the goal's while the camera was down has none (absent)
            replay = await until(lambda: (lambda r: r if r and r.get("url") else None)(
                running.hub.snapshot(running.daemon.table_id).get("replay")), 10,
                "the filmed goal's replay in the table's state")
            async with httpx.AsyncClient() as client:
                got = await client.get(f"http://127.0.0.1:{port}{replay['url']}")
            seen["clip"], seen["served"] = clip[0], (got.status_code,
                                                    got.headers.get("content-type"))
        finally:
            running.stop()

    async def run() -> None:
        fleet.start()
        try:
            await server.run(fleet.paths, db, "cbfm-1toque", None, http_port=port,
                             on_ready=scenario, quiet=True, camera=small())
        finally:
            await fleet.stop()

    asyncio.run(run())
    assert seen["baseline"] < ON_TIME_S, seen
    assert seen["stalled"] < ON_TIME_S, seen
    assert seen["killed"] < ON_TIME_S, seen
    assert any("câmera desconectada" in said for said in seen["said"]), seen
    assert seen["served"] == (200, "video/mp4"), seen
    assert seen["clip"]["sha256"]
