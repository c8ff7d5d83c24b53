"""Venue scale: tables per host daemon, and a 256-table venue through one broker.

    .venv/bin/python bench/venue_bench.py [--part daemon|venue|both]
        [--tables 1,8,16,32] [--venue-tables 256] [--seconds 20]

``daemon``: one ``futmesa serve`` process serving N simulated tables (the real firmware
under `micropython`, real time, on ptys). Every table scores a goal every ~2 s (the
referee asks the shot over HTTP, then the goal-line beam is broken on the sim board);
latency = beam broken → the new score arriving on a kiosk's WebSocket (``/ws``). Printed
per N with the daemon process's CPU, and the ratio of the median and p99 to N = 1 measured
in the same run. The simulated firmware processes share the two cores with the daemon
(at a venue each runs on its own Pico), so the figures are pessimistic.

``venue``: a real mosquitto with 256 table credentials, a real ``futmesa desk`` process,
and 256 lightweight table simulators (one MQTT connection each, as the table's own user)
publishing a slim table state as a real table does: every 2 s while the clock runs, plus
an event (a score change) every ~20 s per table. Latency = an event published → the
venue board's WebSocket (the desk's ``/ws``) carrying it; baseline, in the same run, the
same event → a plain MQTT subscriber. Also the broker's and the desk's CPU.

Prints median / p99 / max in milliseconds.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import websockets

from futmesa.sim.table import SimTable
from futmesa.venue import mqtt as vm
from futmesa.venue.broker import Mosquitto, cpu_seconds, free_port
from futmesa.venue.testing import wait_for

FUTMESA = str(Path(sys.executable).with_name("futmesa"))


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def line(label: str, values: list[float], extra: str = "") -> str:
    if not values:
        return f"{label:<44} no samples"
    return (f"{label:<44} n={len(values):5d}  median={statistics.median(values):7.1f} ms  "
            f"p99={pct(values, 99):7.1f} ms  max={max(values):7.1f} ms  {extra}")


# -- part 1: tables per daemon ------------------------------------------------------------
def bench_daemon(n: int, seconds: float) -> tuple[list[float], float, int]:
    sims = [SimTable(speed=1, uid=f"BEN{i:05d}") for i in range(n)]
    port = free_port()
    tmp = tempfile.mkdtemp(prefix="futmesa-bench-")
    settings = Path(tmp) / "settings.json"
    settings.write_text(json.dumps({"period_ms": 3600000, "lance_ms": 3600000}))
    proc = None
    try:
        for s in sims:
            s.start()
        cmd = [FUTMESA, "serve", "--db", f"{tmp}/m.sqlite", "--http-host", "127.0.0.1",
               "--http-port", str(port), "--settings", str(settings)]
        for s in sims:
            cmd += ["--device", s.host_port]
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        base = f"http://127.0.0.1:{port}"
        ids = [f"sim-{s.uid}" for s in sims]
        for t in ids:
            wait_for(lambda t=t: httpx.get(f"{base}/api/state", params={"table": t}, timeout=2)
                     .json().get("link", {}).get("connected"), 120, f"{t} to connect")
        token = httpx.get(f"{base}/console/recover", params={"format": "json"}).json()["token"]
        for t in ids:
            httpx.post(f"{base}/api/referee", headers={"Authorization": f"Bearer {token}"},
                       timeout=10, json={"kind": "start_period", "data": {}, "table": t})
        return asyncio.run(_drive(base, token, ids, sims, seconds, proc.pid))
    finally:
        if proc:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
        for s in sims:
            s.stop()


async def _drive(base: str, token: str, ids: list[str], sims: list[SimTable], seconds: float,
                 pid: int) -> tuple[list[float], float, int]:
    """Every table on its own: ask the shot, break the beam, wait for the score; every 2 s."""
    scores: dict[str, int] = {}
    arrived: dict[str, asyncio.Event] = {t: asyncio.Event() for t in ids}
    lat: list[float] = []
    errors: list[str] = []
    fired = 0
    got = asyncio.Event()

    async def listen() -> None:
        async with websockets.connect(base.replace("http", "ws") + "/ws?all=1",
                                      max_size=None) as ws:
            got.set()
            async for raw in ws:
                msg = json.loads(raw)
                states = msg.get("tables") if msg.get("type") == "tables" else [
                    msg.get("state")] if msg.get("type") == "state" else []
                for st in states or []:
                    t = st.get("table_id")
                    total = sum((st.get("score") or {}).values())
                    if t in arrived and total > scores.get(t, 0):
                        scores[t] = total
                        arrived[t].set()

    async def table(http: httpx.AsyncClient, t: str, sim: SimTable, end: float) -> None:
        nonlocal fired
        await asyncio.sleep(random.random() * 2)
        while time.monotonic() < end:
            started = time.monotonic()
            before = scores.get(t, 0)
            side = "A" if before % 2 == 0 else "B"  # the side that conceded kicks off next
            try:
                await http.post(f"{base}/api/referee", json={
                    "kind": "shot_asked", "data": {"side": side, "disc": 5}, "table": t})
            except httpx.HTTPError as exc:
                errors.append(repr(exc))
                await asyncio.sleep(0.5)
                continue
            arrived[t].clear()
            t0 = time.time()
            sim.goal(1 if side == "A" else 0)  # the goal line side A attacks is line 1
            fired += 1
            try:
                await asyncio.wait_for(arrived[t].wait(), 10)
                lat.append((time.time() - t0) * 1000)
            except TimeoutError:
                pass  # not counted (e.g. the goal was asked about)
            await asyncio.sleep(max(0.0, 2.0 - (time.monotonic() - started)))

    task = asyncio.create_task(listen())
    await asyncio.wait_for(got.wait(), 10)
    cpu0, t0 = cpu_seconds(pid), time.monotonic()
    async with httpx.AsyncClient(timeout=10,
                                 headers={"Authorization": f"Bearer {token}"}) as http:
        await asyncio.gather(*(table(http, t, s, t0 + seconds)
                               for t, s in zip(ids, sims, strict=True)))
    cpu = (cpu_seconds(pid) - cpu0) / (time.monotonic() - t0) * 100
    task.cancel()
    if errors:
        print(f"  {len(errors)} console requests failed, e.g. {errors[0]}")
    return lat, cpu, fired


# -- part 2: a 256-table venue through one broker ---------------------------------------------
def bench_venue(tables: int, seconds: float) -> int:
    tmp = Path(tempfile.mkdtemp(prefix="futmesa-venue-bench-"))
    ids = [f"bench-{i:03d}" for i in range(tables)]
    t_setup = time.monotonic()
    broker = Mosquitto(tmp / "broker", ids)
    broker.start()
    desk_port = free_port()
    desk = subprocess.Popen([FUTMESA, "desk", "--db", str(tmp / "desk.sqlite"), "--broker",
                             broker.url, "--credentials",
                             str(tmp / "broker" / "credentials" / "desk.json"),
                             "--http-host", "127.0.0.1", "--http-port", str(desk_port)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    clients: list[Any] = []
    try:
        wait_for(lambda: httpx.get(f"http://127.0.0.1:{desk_port}/api/venue", timeout=2)
                 .json()["connected"], 30, "the desk")
        sent: dict[tuple[str, int], float] = {}
        base_lat: list[float] = []
        lock = threading.Lock()

        def on_base(c: Any, u: Any, msg: Any) -> None:
            now = time.time()
            body = json.loads(msg.payload)
            key = (body["table_id"], sum(body["score"].values()))
            with lock:
                if key in sent and body.get("event"):
                    base_lat.append((now - sent[key]) * 1000)

        # the read-only observer: with the desk's credentials it would replace the desk
        base = vm.client("bench-baseline", vm.OBSERVER_USER, broker.credentials["observer"])
        base.on_message = on_base
        base.on_connect = lambda c, u, f, rc, p=None: c.subscribe(f"{vm.PREFIX}/table/+/state")
        base.connect("127.0.0.1", broker.port)
        base.loop_start()
        for t in ids:
            c = vm.client(f"table-{t}", t, broker.credentials["tables"][t])
            c.will_set(vm.t_status(t), b"offline", qos=1, retain=True)
            c.connect("127.0.0.1", broker.port)
            c.loop_start()
            c.publish(vm.t_status(t), b"online", qos=1, retain=True)
            clients.append(c)
        print(f"  {tables} table connections up in {time.monotonic() - t_setup:.1f} s",
              flush=True)
        board_lat: list[float] = []
        score = dict.fromkeys(ids, 0)
        rng = random.Random(15)

        def state(t: str, event: bool) -> bytes:
            now = int(time.time() * 1000)
            return vm.dumps({"table_id": t, "match_id": 1, "competition_match": None,
                             "ruleset": "cbfm-1toque",
                             "teams": {"A": {"name": f"{t} A", "color": "#c8102e"},
                                       "B": {"name": f"{t} B", "color": "#1d1d1b"}},
                             "score": {"A": score[t], "B": 0}, "period": 1, "periods": 2,
                             "status": "running", "finished": False, "phase": "regular",
                             "shootout": None, "device": True, "next": None, "now": now,
                             "event": event,
                             "clock": {"ms": 0, "running": True, "rate": 1.0, "at": now,
                                       "length_ms": 1500000, "added_ms": 0}})

        async def run() -> tuple[float, float, float, int]:
            seen: dict[str, int] = {}

            async def board() -> None:
                async with websockets.connect(f"ws://127.0.0.1:{desk_port}/ws",
                                              max_size=None) as ws:
                    async for raw in ws:
                        now = time.time()
                        for tb in json.loads(raw).get("tables", []):
                            st = tb.get("state") or {}
                            t, total = tb["table_id"], sum((st.get("score") or {}).values())
                            if total > seen.get(t, 0):
                                seen[t] = total
                                with lock:
                                    at = sent.get((t, total))
                                if at:
                                    board_lat.append((now - at) * 1000)

            task = asyncio.create_task(board())
            await asyncio.sleep(1)
            b0, d0, w0 = cpu_seconds(broker.pid or 0), cpu_seconds(desk.pid), time.monotonic()
            n = 0
            next_beat = dict.fromkeys(ids, time.monotonic())
            end = time.monotonic() + seconds
            while time.monotonic() < end:
                now = time.monotonic()
                for i, t in enumerate(ids):
                    if rng.random() < 0.05 / 10 * 2:  # ~1 event per 20 s per table (at 10 Hz)
                        score[t] += 1
                        with lock:
                            sent[(t, score[t])] = time.time()
                        clients[i].publish(vm.t_state(t), state(t, True), qos=0, retain=True)
                        n += 1
                    elif now >= next_beat[t]:
                        next_beat[t] = now + 2.0
                        clients[i].publish(vm.t_state(t), state(t, False), qos=0, retain=True)
                        n += 1
                await asyncio.sleep(0.1)
            await asyncio.sleep(2)
            wall = time.monotonic() - w0
            bcpu = (cpu_seconds(broker.pid or 0) - b0) / wall * 100
            dcpu = (cpu_seconds(desk.pid) - d0) / wall * 100
            task.cancel()
            return bcpu, dcpu, n / wall, sum(score.values())

        bcpu, dcpu, rate, events = asyncio.run(run())
        print(f"  {rate:.0f} messages/s published; {events} events (score changes)")
        print(line("event → plain MQTT subscriber (baseline)", base_lat))
        ratio = (statistics.median(board_lat) / statistics.median(base_lat)
                 if board_lat and base_lat else float("nan"))
        print(line("event → venue board WebSocket (desk /ws)", board_lat,
                   f"median ratio to baseline {ratio:.1f}"))
        print(f"  CPU: mosquitto {bcpu:.1f} % of one core, futmesa desk {dcpu:.1f} % "
              f"of one core", flush=True)
        base.loop_stop()
        return 0
    finally:
        for c in clients:
            c.loop_stop()
        desk.terminate()
        try:
            desk.wait(timeout=20)
        except subprocess.TimeoutExpired:
            desk.kill()
        broker.stop()


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--part", choices=("daemon", "venue", "both"), default="both")
    ap.add_argument("--tables", default="1,8,16,32")
    ap.add_argument("--venue-tables", type=int, default=256)
    ap.add_argument("--seconds", type=float, default=20)
    args = ap.parse_args()
    if args.part in ("daemon", "both"):
        print("tables served by one `futmesa serve` (beam broken → kiosk WebSocket):")
        first: tuple[float, float] | None = None
        for n in [int(x) for x in args.tables.split(",")]:
            lat, cpu, fired = bench_daemon(n, args.seconds)
            if not lat:
                print(f"  N={n:3d}: no samples")
                continue
            med, p99 = statistics.median(lat), pct(lat, 99)
            first = first or (med, p99)
            print(line(f"  N={n:3d} tables", lat,
                       f"of {fired} goals; daemon CPU {cpu:5.1f} %  ratio to N=1: median "
                       f"{med / first[0]:.1f}, p99 {p99 / first[1]:.1f}"), flush=True)
    if args.part in ("venue", "both"):
        print(f"a venue of {args.venue_tables} tables through one broker:")
        bench_venue(args.venue_tables, args.seconds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
