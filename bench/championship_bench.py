"""A championship day at scale (issue 33 §7): 66 tables, 240 entrants, three categories.

    .venv/bin/python bench/championship_bench.py [--quick] [--tables 66] [--hosts 3]
        [--adulto 96] [--master 64] [--swiss 80] [--speed 20] [--half-s 60] [--limit 1800]

The day as an organiser runs it: three `futmesa competition new` on one desk file — Adulto
(groups of six into Ouro and Prata knockouts, cbfm-1toque), Máster (groups of four into a
knockout, 12 toques of the gaúcha rules) and an open Swiss category (five rounds into a
knockout of eight) — entrants with clubs and seeding pots, drawn with a seed. A real
mosquitto with a password per table; a real `futmesa desk` assigning matches as tables free
up; ``--hosts`` `futmesa serve --venue-broker` processes sharing the light simulated tables
(futmesa_testkit.lighttable, the real wire protocol on real ptys, their clocks ``--speed``
times real time), each table with its scripted referee over HTTP (futmesa.venue.simref: starts
the match the desk sent, scores its planned goals by breaking the beam, answers the rules'
questions, kicks the shoot-outs). Two venue board screens on the desk's /ws, a plain MQTT
subscriber as the baseline, spectators opening team pages (/time/<team>) all day.

Printed: the day's length and matches per minute; beam broken → the new score on the board
screens and on the plain subscriber (median / p99 / max, and their ratio); a team page's and
the competition view's response times; the CPU of mosquitto, the desk, the serves and the
tables' worker. The venue targets (docs/performance.md, "Venue scale": event → board median
≤ 15 ms, p99 ≤ 100 ms) are printed beside the figures, not asserted.

It fails (exit 1) unless it measured the day it says: every category has its champion; every
match of the day was played or is a Swiss bye; every result is stored once (one row per match
at the desk, one received message per match, no match played twice, every table's outbox
acknowledged); every one of the N tables played; every goal reached both board screens; every
team page asked answered 200 with the team's name.

``--quick`` (what ``make test`` runs, tests/bench): 6 tables, 22 entrants (Adulto 8 in two
groups into a final four, Máster 6 in two groups into a final, Swiss 8 in two rounds into a
final), one serve, the clock 30 times real time.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sqlite3
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx
import websockets

sys.path.insert(0, str(Path(__file__).resolve().parent))
from venue_bench import (  # noqa: E402 - the venue bench's serve, fleet and figures
    FUTMESA,
    BenchError,
    Daemon,
    end_fleet,
    leave_nothing_behind,
    line_of,
    pct,
)

from futmesa import children  # noqa: E402
from futmesa.venue import mqtt as vm  # noqa: E402
from futmesa.venue.broker import Mosquitto, cpu_seconds, free_port  # noqa: E402
from futmesa_testkit.venue import wait_for  # noqa: E402

FIRST = ("Ana", "Bruno", "Carla", "Diego", "Eduardo", "Fernanda", "Gustavo", "Helena", "Igor",
         "Juliana", "Kleber", "Larissa", "Marcos", "Natália", "Otávio", "Paula", "Rafael",
         "Sônia", "Tiago", "Vera")
LAST = ("Almeida", "Barbosa", "Cardoso", "Dias", "Esteves", "Ferreira", "Gomes", "Hoffmann",
        "Lima", "Machado", "Nunes", "Oliveira", "Pereira", "Queiroz", "Ribeiro", "Santos",
        "Teixeira", "Vieira", "Xavier", "Zanella")
CLUBS = ("Clube Botão RS", "Mesa Carioca", "Liga Sul", "Palheta Norte", "AABB Botão",
         "Grêmio Pastilha", "Clube do Dadinho", "Associação Paulista", "Botão Mineiro",
         "Clube Náutico de Mesa", "Liga Capixaba", "Federação Gaúcha")
TEAM_COLORS = ("#c8102e", "#1d1d1b", "#0d80bf", "#2e7d32", "#6a1b9a", "#ef6c00")
FAST = {"interval_ms": 3000, "lance_ms": 300000}  # no per-move timeouts in a scripted match
DONE = ("finished", "bye")


def entrants(count: int, rng: random.Random) -> list[str]:
    """``count`` distinct player names (the 12-toques championship is played one a side)."""
    names = [f"{f} {s}" for f in FIRST for s in LAST]
    rng.shuffle(names)
    if count > len(names):
        raise BenchError(f"at most {len(names)} entrants")
    return names[:count]


def teams_csv(names: list[str], pots: int) -> str:
    """The organiser's teams file: clubs and seeding pots, `;` as a Brazilian Excel saves."""
    per_pot = -(-len(names) // pots)
    rows = ["nome;cor;clube;pote"]
    for i, n in enumerate(names):
        rows.append(f"{n};{TEAM_COLORS[i % len(TEAM_COLORS)]};{CLUBS[i % len(CLUBS)]};"
                    f"{i // per_pot + 1}")
    return "\n".join(rows) + "\n"


def categories(args: argparse.Namespace, half_ms: int) -> list[dict[str, Any]]:
    """The day's three competitions (settings as the organiser writes them)."""
    match = {**FAST, "period_ms": half_ms}
    a_groups = max(2, args.adulto // 6) if not args.quick else 2
    m_groups = max(2, args.master // 4) if not args.quick else 2
    return [
        {"category": "Adulto", "count": args.adulto, "pots": 4, "settings": {
            "name": "Brasileiro 12 toques — Adulto", "category": "Adulto",
            "ruleset": "cbfm-1toque", "format": "grupos e mata-mata", "groups": a_groups,
            "advance": 1 if args.quick else 2, "divisions": [] if args.quick else ["Ouro", "Prata"],
            "tables": args.tables, "seed": 2025, "changeover_minutes": 1,
            "match_settings": match}},
        {"category": "Máster", "count": args.master, "pots": 2, "settings": {
            "name": "Brasileiro 12 toques — Máster", "category": "Máster",
            "ruleset": "cbfm-1toque", "format": "grupos e mata-mata", "groups": m_groups,
            "advance": 1 if args.quick else 2, "tables": args.tables, "seed": 2025,
            "changeover_minutes": 1, "match_settings": match}},
        {"category": "Aberto", "count": args.swiss, "pots": 1, "settings": {
            "name": "Aberto suíço", "category": "Aberto", "ruleset": "cbfm-1toque",
            "format": "suíço e mata-mata", "swiss_rounds": 2 if args.quick else 5,
            "advance": 2 if args.quick else 8, "bye_score": 3, "tables": args.tables,
            "seed": 2025, "changeover_minutes": 1, "match_settings": match}},
    ]


def organise(tmp: Path, args: argparse.Namespace, half_ms: int) -> list[dict[str, Any]]:
    """The desk's file made with the organiser's own command, one category at a time."""
    rng = random.Random(2025)
    names = entrants(args.adulto + args.master + args.swiss, rng)
    cats = categories(args, half_ms)
    start = 0
    for c in cats:
        mine = names[start:start + c["count"]]
        start += c["count"]
        c["teams"] = mine
        csv = tmp / f"{c['category']}.csv"
        csv.write_text(teams_csv(mine, c["pots"]), encoding="utf-8")
        js = tmp / f"{c['category']}.json"
        js.write_text(json.dumps(c["settings"], ensure_ascii=False), encoding="utf-8")
        done = subprocess.run([FUTMESA, "competition", "new", "--db", str(tmp / "desk.sqlite"),
                               "--teams", str(csv), "--settings", str(js),
                               "--category", c["category"]], capture_output=True, text=True)
        if done.returncode != 0:
            raise BenchError(f"competition new ({c['category']}): {done.stdout}{done.stderr}")
    return cats


# -- the tables' worker: light tables and their scripted referees ----------------------------
def worker(count: int, speed: float) -> int:
    """A subprocess: ``count`` light tables; after "go URL…" (one serve URL per table) a
    scripted referee works each; at "stop" prints the goals (table, match, score total after
    it, wall time the beam broke), the matches each referee started and finished, and the
    refused inputs."""
    from futmesa.venue.simref import SimReferee
    from futmesa_testkit.lighttable import LightFleet

    class TimedReferee(SimReferee):
        """Remembers the state it last read, so a goal is known by its match and total."""

        last: dict[str, Any] = {}
        refused: list[str] = []

        async def state(self) -> dict[str, Any]:
            st = await super().state()
            self.last = st
            return st

        async def press(self, kind: str, data: dict[str, Any] | None = None) -> dict[str, Any]:
            body = await super().press(kind, data)
            if body.get("ok") is False and kind != "new_match":
                self.refused.append(f"{self.table_id} {kind}: {body.get('error')}")
            return body

    async def run() -> None:
        fleet = LightFleet(count, prefix="CAM", speed=speed)
        fleet.start()
        print(json.dumps({"paths": fleet.paths, "tables": [t.table_id for t in fleet.tables]}),
              flush=True)
        loop = asyncio.get_running_loop()
        urls = (await loop.run_in_executor(None, sys.stdin.readline)).split()[1:]
        goals: list[tuple[str, int, int, float]] = []
        refs: list[TimedReferee] = []
        for table, url in zip(fleet.tables, urls, strict=True):
            def goal(line: int, table: Any = table) -> None:
                ref = next(r for r in refs if r.table_id == table.table_id)
                st = ref.last
                total = sum((st.get("score") or {}).values()) + 1
                goals.append((table.table_id, int(st.get("match_id") or 0), total, time.time()))
                table.goal(line)
            ref = TimedReferee(url, table.table_id, goal, say=lambda _text: None)
            ref.refused = []
            refs.append(ref)
        stop = asyncio.Event()
        tasks = [asyncio.create_task(r.run(stop, poll_s=0.1)) for r in refs]
        await loop.run_in_executor(None, sys.stdin.readline)
        stop.set()
        await asyncio.gather(*tasks, return_exceptions=True)
        for r in refs:
            await r.close()
        await fleet.stop()
        print(json.dumps({
            "goals": goals, "bad_frames": sum(t.bad_frames for t in fleet.tables),
            "started": {r.table_id: len(r.started) for r in refs},
            "finished": {r.table_id: len(r.finished) for r in refs},
            "refused": [x for r in refs for x in r.refused]}), flush=True)

    asyncio.run(run())
    return 0


# -- the day --------------------------------------------------------------------------------
class Watchers:
    """Two board screens on the desk's /ws and a plain MQTT subscriber (the baseline): when
    each (table, match, score total) first reached them."""

    def __init__(self) -> None:
        self.boards: dict[str, dict[tuple[str, int, int], float]] = {"board-1": {},
                                                                    "board-2": {}}
        self.base: dict[tuple[str, int, int], float] = {}
        self.opened = 0
        self.messages = 0

    @staticmethod
    def key(state: dict[str, Any], table: str) -> tuple[str, int, int] | None:
        try:
            return (table, int(state.get("match_id") or 0),
                    sum(int(v) for v in (state.get("score") or {}).values()))
        except (TypeError, ValueError, AttributeError):
            return None

    async def board(self, name: str, url: str) -> None:
        seen = self.boards[name]
        async with websockets.connect(url, max_size=None) as ws:
            self.opened += 1
            async for raw in ws:
                now = time.time()
                self.messages += 1
                for tb in json.loads(raw).get("tables", []):
                    k = self.key(tb.get("state") or {}, tb.get("table_id", ""))
                    if k is not None:
                        seen.setdefault(k, now)

    def on_base(self, _c: Any, _u: Any, msg: Any) -> None:
        now = time.time()
        try:
            body = json.loads(msg.payload)
            k = self.key(body, body["table_id"])
        except (ValueError, TypeError, KeyError, AttributeError):
            return
        if k is not None:
            self.base.setdefault(k, now)


def first_at(seen: dict[tuple[str, int, int], float], goal: tuple[str, int, int]
             ) -> float | None:
    """When a screen first showed this goal's score or a later one of the same match."""
    t, m, total = goal
    ats = [at for (tt, mm, tot), at in seen.items() if tt == t and mm == m and tot >= total]
    return min(ats) if ats else None


async def spectators(desk: str, keys: list[str], names: dict[str, str], cids: list[int],
                     stop: asyncio.Event, figures: dict[str, list[float]],
                     problems: list[str]) -> dict[int, str]:
    """Team pages opened all day (one every 0.25 s) and every category's view (to see the
    champions); returns each competition's champion."""
    champions: dict[int, str] = {}
    rng = random.Random(7)
    async with httpx.AsyncClient(base_url=desk, timeout=30) as http:
        last_view = 0.0
        while not stop.is_set():
            key = rng.choice(keys)
            t0 = time.perf_counter()
            r = await http.get(f"/time/{quote(key, safe='')}")
            figures["team page"].append((time.perf_counter() - t0) * 1000)
            if r.status_code != 200 or names[key] not in r.text:
                problems.append(f"team page of {names[key]}: {r.status_code}")
            if time.monotonic() - last_view > 1:
                last_view = time.monotonic()
                for cid in cids:
                    t0 = time.perf_counter()
                    view = (await http.get("/api/competition", params={"c": cid})).json()
                    figures["competition view"].append((time.perf_counter() - t0) * 1000)
                    # over when every match is (each division's knockout too)
                    if view.get("champion") and all(
                            m["status"] in ("finished", "walkover", "bye", "abandoned")
                            for m in view.get("matches", [])):
                        champions[cid] = view["champion"]
                if len(champions) == len(cids):
                    stop.set()
            await asyncio.sleep(0.25)
    return champions


def check_store(tmp: Path, serves: int, tables: list[str], cats: list[dict[str, Any]]
                ) -> tuple[dict[str, int], list[str]]:
    """Every result stored once; every table played."""
    problems: list[str] = []
    desk = sqlite3.connect(tmp / "desk.sqlite")
    counts: dict[str, int] = {}
    played_at: set[str] = set()
    finished_ids: set[int] = set()
    for c in cats:
        cid = c["cid"]
        rows = desk.execute("SELECT id, status, table_id FROM comp_matches WHERE "
                            "competition_id=?", (cid,)).fetchall()
        open_ = [r for r in rows if r[1] not in DONE]
        if open_:
            problems.append(f"{c['category']}: {len(open_)} matches not played "
                            f"({open_[0][1]})")
        fin = [r for r in rows if r[1] == "finished"]
        finished_ids |= {r[0] for r in fin}
        played_at |= {r[2] for r in fin if r[2]}
        counts[c["category"]] = len(fin)
        results = desk.execute("SELECT COUNT(*) FROM comp_results r JOIN comp_matches m ON "
                               "m.id = r.match_id WHERE m.competition_id=? AND m.status="
                               "'finished'", (cid,)).fetchone()[0]
        if results != len(fin):
            problems.append(f"{c['category']}: {results} results for {len(fin)} matches")
    got = desk.execute("SELECT competition_match, COUNT(*) FROM venue_received WHERE "
                       "competition_match IS NOT NULL GROUP BY competition_match").fetchall()
    twice = [m for m, n in got if n > 1]
    if twice:
        problems.append(f"{len(twice)} matches received as two results (match {twice[0]})")
    if {m for m, _n in got} != finished_ids:
        problems.append(f"{len(got)} results received for {len(finished_ids)} matches played")
    desk.close()
    unacked = sent = 0
    for i in range(serves):
        db = sqlite3.connect(tmp / f"host-{i}" / "m.sqlite")
        sent += db.execute("SELECT COUNT(*) FROM venue_outbox").fetchone()[0]
        unacked += db.execute("SELECT COUNT(*) FROM venue_outbox WHERE acked_at IS NULL"
                              ).fetchone()[0]
        db.close()
    if unacked:
        problems.append(f"{unacked} results never acknowledged by the desk")
    if sent != len(finished_ids):
        problems.append(f"the tables sent {sent} results for {len(finished_ids)} matches")
    idle = sorted(set(tables) - played_at)
    if idle:
        problems.append(f"{len(idle)} of {len(tables)} tables played no match ({idle[0]})")
    return counts, problems


def start_worker(n: int, speed: float) -> tuple[Any, dict[str, Any]]:
    proc = children.start([sys.executable, __file__, "--worker", str(n), str(speed)],
                          stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert proc.stdin is not None and proc.stdout is not None
    hello = json.loads(proc.stdout.readline() or "{}")
    if "paths" not in hello:
        proc.kill()
        raise BenchError("the light tables did not start")
    return proc, hello


def day(args: argparse.Namespace) -> list[str]:
    half_ms = int(args.half_s * 1000)
    tmp = children.temp_dir("futmesa-championship-bench-")
    cats = organise(tmp, args, half_ms)
    desk_db = sqlite3.connect(tmp / "desk.sqlite")
    for c in cats:
        c["cid"] = desk_db.execute("SELECT id FROM competitions WHERE settings LIKE ? ORDER "
                                   "BY id DESC", (f'%"category":"{c["category"]}"%',)
                                   ).fetchone()[0]
    names = dict(desk_db.execute("SELECT key, name FROM comp_teams").fetchall())
    planned = desk_db.execute("SELECT COUNT(*) FROM comp_matches").fetchone()[0]
    desk_db.close()
    entrants_n = sum(c["count"] for c in cats)
    print(f"  {entrants_n} entrants in {len(cats)} categories ("
          + ", ".join(f"{c['category']} {c['count']}" for c in cats)
          + f"), {planned} matches drawn so far, {args.tables} tables on {args.hosts} "
            f"serve(s), clock ×{args.speed:g}, halves of {args.half_s:g} s", flush=True)
    proc, hello = start_worker(args.tables, args.speed)
    tables: list[str] = list(hello["tables"])
    broker = Mosquitto(tmp / "broker", tables)
    broker.start()
    serves: list[Daemon] = []
    desk = None
    base = None
    try:
        owner: dict[str, Daemon] = {}
        for h in range(args.hosts):
            mine = list(range(h, args.tables, args.hosts))
            folder = tmp / f"host-{h}"
            folder.mkdir()
            creds = folder / "tables.json"
            creds.write_text(json.dumps({"tables": {tables[i]: broker.credentials["tables"][
                tables[i]] for i in mine}}))
            d = Daemon([hello["paths"][i] for i in mine], half_ms, folder,
                       ("--venue-broker", broker.url, "--venue-credentials", str(creds)))
            serves.append(d)
            owner.update({tables[i]: d for i in mine})
        for h, d in enumerate(serves):
            d.ready(tables[h::args.hosts], 60 + args.tables)
        desk_port = free_port()
        desk_url = f"http://127.0.0.1:{desk_port}"
        desk = children.start([FUTMESA, "desk", "--db", str(tmp / "desk.sqlite"), "--broker",
                               broker.url, "--credentials",
                               str(tmp / "broker" / "credentials" / "desk.json"),
                               "--http-host", "127.0.0.1", "--http-port", str(desk_port)],
                              stdout=subprocess.DEVNULL, stderr=(tmp / "desk.log").open("wb"))
        wait_for(lambda: httpx.get(f"{desk_url}/api/venue", timeout=5).json()["connected"],
                 60, "the desk")
        watch = Watchers()
        base = vm.client("bench-baseline", vm.OBSERVER_USER, broker.credentials["observer"])
        base.on_message = watch.on_base
        base.on_connect = lambda c, u, f, rc, p=None: c.subscribe(f"{vm.PREFIX}/table/+/state")
        base.connect("127.0.0.1", broker.port)
        base.loop_start()
        figures: dict[str, list[float]] = {"team page": [], "competition view": []}
        problems: list[str] = []
        pids = {"mosquitto": broker.pid or 0, "desk": desk.pid,
                **{f"serve {i + 1}": d.proc.pid for i, d in enumerate(serves)},
                "tables' worker": proc.pid}

        async def run() -> tuple[dict[int, str], float, dict[str, float]]:
            boards = [asyncio.create_task(watch.board(b, desk_url.replace("http", "ws") + "/ws"))
                      for b in watch.boards]
            t_open = time.monotonic()
            while watch.opened < len(boards):
                if time.monotonic() - t_open > 30:
                    raise BenchError("the board screens did not open")
                await asyncio.sleep(0.05)
            cpu0 = {k: cpu_seconds(p) for k, p in pids.items()}
            t0 = time.monotonic()
            proc.stdin.write("go " + " ".join(owner[t].base for t in tables) + "\n")
            proc.stdin.flush()
            stop = asyncio.Event()
            keys = list(names)
            spect = asyncio.create_task(spectators(desk_url, keys, names,
                                                   [c["cid"] for c in cats], stop, figures,
                                                   problems))
            try:
                await asyncio.wait_for(stop.wait(), args.limit)
            except TimeoutError:
                problems.append(f"the day did not end within {args.limit:g} s")
                stop.set()
            champions = await spect
            wall = time.monotonic() - t0
            cpu = {k: (cpu_seconds(p) - cpu0[k]) / wall * 100 for k, p in pids.items()}
            await asyncio.sleep(1)  # the last states reach the screens
            for task in boards:
                if task.done() and task.exception():
                    raise task.exception()  # type: ignore[misc]
                task.cancel()
            return champions, wall, cpu

        champions, wall, cpu = asyncio.run(run())
        proc.stdin.write("stop\n")
        proc.stdin.flush()
        result = json.loads(proc.stdout.readline() or "{}")
        if "goals" not in result:
            raise BenchError("the tables' worker gave no result")
        base.loop_stop()
        counts, stored = check_store(tmp, args.hosts, tables, cats)
        problems += stored
        played = sum(counts.values())
        print(f"  the day: {played} matches ({', '.join(f'{k} {v}' for k, v in counts.items())})"
              f" in {wall:.0f} s, {played / wall * 60:.0f} matches a minute; "
              f"{len(result['goals'])} beams broken; {len(result['refused'])} referee inputs "
              f"refused; "
              f"{result['bad_frames']} bad frames", flush=True)
        for c in cats:
            print(f"    {c['category']}: champion {champions.get(c['cid'], '(none)')}")
            if c["cid"] not in champions:
                problems.append(f"{c['category']} has no champion")
        # a beam the referee broke after the time ran out (the clock ×20 is faster than its
        # HTTP) scored nothing: a goal is one the table published (the plain subscriber
        # saw its score), and every such goal must reach both boards
        tried = [tuple(g[:3]) for g in result["goals"]]
        at = {tuple(g[:3]): g[3] for g in result["goals"]}
        goals = [g for g in tried if first_at(watch.base, g) is not None]
        base_lat = [(first_at(watch.base, g) - at[g]) * 1000 for g in goals]  # type: ignore[operator]
        board_lat: list[float] = []
        for seen in watch.boards.values():
            for g in goals:
                x = first_at(seen, g)
                if x is None:
                    problems.append(f"goal {g} never reached a board screen")
                else:
                    board_lat.append((x - at[g]) * 1000)
        if not goals:
            problems.append("no goal was scored")
        ratio = (statistics.median(board_lat) / statistics.median(base_lat)
                 if board_lat and base_lat else float("nan"))
        print(f"  {len(goals)} goals the tables published ({len(tried) - len(goals)} beams "
              f"after the whistle scored nothing)")
        print(line_of("  beam → plain MQTT subscriber (baseline)", base_lat))
        print(line_of("  beam → 2 venue board screens", board_lat,
                      f"median ratio to baseline {ratio:.1f} (target median ≤ 15 ms, "
                      f"p99 ≤ 100 ms)"))
        for label, values in figures.items():
            print(line_of(f"  {label} (desk HTTP)", values))
        print(f"  board screens got {watch.messages / wall:.0f} messages/s; CPU over the day: "
              + ", ".join(f"{k} {v:.1f} %" for k, v in cpu.items()) + " of one core",
              flush=True)
        if result["refused"]:
            print("  refused inputs (first 3): " + "; ".join(result["refused"][:3]))
        if problems and not board_lat:
            print(f"  (median team page {statistics.median(figures['team page'] or [0]):.1f} "
                  f"ms, p99 {pct(figures['team page'] or [0], 99):.1f} ms)")
        return problems
    finally:
        if base is not None:
            base.loop_stop()
        if desk is not None:
            desk.terminate()
            try:
                desk.wait(timeout=20)
            except subprocess.TimeoutExpired:
                desk.kill()
        for d in serves:
            d.stop()
        end_fleet(proc)
        broker.stop()
        children.remove_temp_dir(tmp)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--tables", type=int, default=66)
    ap.add_argument("--hosts", type=int, default=3, help="futmesa serve processes")
    ap.add_argument("--adulto", type=int, default=96)
    ap.add_argument("--master", type=int, default=64)
    ap.add_argument("--swiss", type=int, default=80)
    ap.add_argument("--speed", type=float, default=20.0,
                    help="the light tables' clocks run this much faster than real time")
    ap.add_argument("--half-s", type=float, default=60, help="half length, match seconds")
    ap.add_argument("--limit", type=float, default=1800, help="real seconds for the day")
    ap.add_argument("--quick", action="store_true",
                    help="a small day (make test): 6 tables, 22 entrants, one serve")
    ap.add_argument("--worker", nargs=2, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        return worker(int(args.worker[0]), float(args.worker[1]))
    leave_nothing_behind()
    if args.quick:
        args.tables, args.hosts, args.adulto, args.master, args.swiss = 6, 1, 8, 6, 8
        args.speed, args.limit = 30.0, 600
    print("a championship day through the venue (real mosquitto, desk, serves, board "
          "screens, team pages):", flush=True)
    try:
        problems = day(args)
    except BenchError as exc:
        print(f"championship_bench: {exc}", file=sys.stderr)
        return 1
    if problems:
        print("NOT A MEASUREMENT: " + "; ".join(problems[:10]), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
