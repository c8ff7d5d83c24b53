"""A whole venue made of real parts, for tests and benchmarks.

A real mosquitto on a free 127.0.0.1 port with generated credentials; the desk
and every table daemon as real ``futmesa desk`` / ``futmesa serve``
processes; the tables are simulated (the real firmware under `micropython`
on a pty); a table's network cable to the broker can be a ``socat`` TCP
proxy, to cut it off and plug it back; a scripted referee works each table
over its HTTP API (in a thread of the test process).
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from futmesa.sim.table import SimTable, find_socat
from futmesa.venue.broker import Mosquitto, free_port
from futmesa.venue.simref import SimReferee
from futmesa_testkit.harness import Harness

FUTMESA = str(Path(sys.executable).with_name("futmesa"))

# lance longer than the half: no lance expiry in a scripted match
FAST_MATCH = {"period_ms": 60000, "interval_ms": 3000, "lance_ms": 300000}


# a deadline is where a wait gives up, not how long it waits: on a busy 2-core machine
# (CI beside other work) the simulated tables run slower, so every deadline gets this slack
DEADLINE_SLACK = 3


def wait_for(cond: Callable[[], Any], timeout: float, what: str, every: float = 0.1) -> Any:
    """Poll until cond() is truthy (returns it), or fail saying what did not happen."""
    timeout *= DEADLINE_SLACK
    deadline = time.monotonic() + timeout
    while True:
        try:
            value = cond()
        except (httpx.HTTPError, OSError, ValueError):
            value = None
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}")
        time.sleep(every)


class Cable:
    """A table's network cable to the broker: a socat TCP proxy that can be pulled out."""

    def __init__(self, broker_port: int) -> None:
        self.broker_port = broker_port
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    def plug(self) -> None:
        self.proc = subprocess.Popen(
            [find_socat(), f"TCP-LISTEN:{self.port},bind=127.0.0.1,reuseaddr,fork",
             f"TCP:127.0.0.1:{self.broker_port}"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, process_group=0)
        wait_for(lambda: _listening(self.port), 10, "the cable's proxy to listen", 0.02)

    def pull(self) -> None:
        """Cut it: the proxy and every connection through it go away at once."""
        if self.proc and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=10)
        self.proc = None


def _listening(port: int) -> bool:
    import socket

    with socket.socket() as s:
        s.settimeout(0.2)
        return s.connect_ex(("127.0.0.1", port)) == 0


@dataclass
class Daemon:
    """One ``futmesa serve`` process serving some simulated tables."""

    sims: list[SimTable]
    db: Path
    http_port: int
    broker_port: int
    credentials: Path
    proc: subprocess.Popen[str] | None = None
    log: Path | None = None

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.http_port}"

    def start(self) -> None:
        cmd = [FUTMESA, "serve", "--db", str(self.db), "--http-host", "127.0.0.1",
               "--http-port", str(self.http_port),
               "--venue-broker", f"mqtt://127.0.0.1:{self.broker_port}",
               "--venue-credentials", str(self.credentials)]
        for s in self.sims:
            cmd += ["--device", s.host_port]
        assert self.log is not None
        self.proc = subprocess.Popen(cmd, stdout=self.log.open("a"), stderr=subprocess.STDOUT,
                                     text=True, process_group=0)

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)


@dataclass
class Venue(Harness):
    """Broker + desk + table daemons + simulated tables + scripted referees."""

    folder: Path
    teams_csv: str
    settings: dict[str, Any]
    layout: list[int]  # tables per `futmesa serve` process, e.g. [2, 1]
    cabled: set[int] = field(default_factory=set)  # daemons whose broker link is a Cable
    speed: int = 20
    scripted_referees: bool = True  # False: the test is the referee
    desk_folder: Path | None = None  # where the desk's database lives (a small disk...)
    table_folders: dict[int, Path] = field(default_factory=dict)  # per `serve` process
    broker: Mosquitto | None = None
    desk_proc: subprocess.Popen[str] | None = None
    desk_port: int = 0
    daemons: list[Daemon] = field(default_factory=list)
    cables: dict[int, Cable] = field(default_factory=dict)
    referees: list[SimReferee] = field(default_factory=list)
    _loop: asyncio.AbstractEventLoop | None = None
    _thread: threading.Thread | None = None
    _stop: asyncio.Event | None = None

    @property
    def sims(self) -> list[SimTable]:
        return [s for d in self.daemons for s in d.sims]

    @property
    def table_ids(self) -> list[str]:
        return [f"sim-{s.uid}" for s in self.sims]

    @property
    def desk_url(self) -> str:
        return f"http://127.0.0.1:{self.desk_port}"

    # -- start ------------------------------------------------------------------------
    def start(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        n = 0
        sims_per: list[list[SimTable]] = []
        for count in self.layout:
            sims_per.append([SimTable(speed=self.speed, uid=f"SIMV{(n := n + 1):04d}")
                             for _ in range(count)])
        ids = [f"sim-{s.uid}" for ss in sims_per for s in ss]
        self.broker = Mosquitto(self.folder / "broker", ids)
        self.broker.start()
        (self.folder / "teams.csv").write_text(self.teams_csv, encoding="utf-8")
        (self.folder / "competition.json").write_text(json.dumps(self.settings))
        self.cli("competition", "new", "--db", str(self.desk_db), "--teams",
                 str(self.folder / "teams.csv"), "--settings",
                 str(self.folder / "competition.json"))
        self.desk_port = free_port()
        self.start_desk()
        for i, sims in enumerate(sims_per):
            for s in sims:
                s.start()
            port = self.broker.port
            if i in self.cabled:
                cable = Cable(self.broker.port)
                cable.plug()
                self.cables[i] = cable
                port = cable.port
            creds = self.folder / f"credentials-{i}.json"
            all_creds = self.broker.credentials["tables"]
            creds.write_text(json.dumps({"tables": {f"sim-{s.uid}": all_creds[f"sim-{s.uid}"]
                                                    for s in sims}}))
            d = Daemon(sims, self.table_folders.get(i, self.folder) / f"tables-{i}.sqlite",
                       free_port(), port, creds,
                       log=self.folder / f"serve-{i}.log")
            d.start()
            self.daemons.append(d)
        for t in self.table_ids:
            wait_for(self._served(t), 60, f"table {t} to be served")
        if self.scripted_referees:
            self.start_referees()

    def _served(self, table: str) -> Callable[[], bool]:
        return lambda: bool(self.table_state(table).get("link", {}).get("connected"))

    @property
    def desk_db(self) -> Path:
        return (self.desk_folder or self.folder) / "desk.sqlite"

    def cli(self, *args: str) -> str:
        out = subprocess.run([FUTMESA, *args], capture_output=True, text=True, timeout=60)
        if out.returncode:
            raise AssertionError(f"futmesa {' '.join(args)} failed:\n{out.stdout}{out.stderr}")
        return out.stdout

    def start_desk(self) -> None:
        assert self.broker is not None
        log = (self.folder / "desk.log").open("a")
        self.desk_proc = subprocess.Popen(
            [FUTMESA, "desk", "--db", str(self.desk_db), "--broker", self.broker.url,
             "--credentials", str(self.folder / "broker" / "credentials" / "desk.json"),
             "--http-host", "127.0.0.1", "--http-port", str(self.desk_port)],
            stdout=log, stderr=subprocess.STDOUT, text=True, process_group=0)
        wait_for(lambda: httpx.get(f"{self.desk_url}/api/venue", timeout=2).json()["connected"],
                 30, "the desk to connect to the broker")

    def kill_desk(self) -> None:
        if self.desk_proc and self.desk_proc.poll() is None:
            self.desk_proc.send_signal(signal.SIGKILL)
            self.desk_proc.wait(timeout=10)

    def start_referees(self) -> None:
        ready = threading.Event()
        handler = logging.FileHandler(self.folder / "referees.log")
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(message)s"))
        logger = logging.getLogger("futmesa.venue.simref")
        logger.addHandler(handler)
        logger.setLevel(logging.DEBUG)

        def run() -> None:
            async def main() -> None:
                self._loop = asyncio.get_running_loop()
                self._stop = asyncio.Event()
                for d in self.daemons:
                    for s in d.sims:
                        self.referees.append(SimReferee(d.base_url, f"sim-{s.uid}", s.goal,
                                                        say=logger.info))
                ready.set()
                await asyncio.gather(*(r.run(self._stop) for r in self.referees))
                for r in self.referees:
                    await r.close()

            asyncio.run(main())

        self._thread = threading.Thread(target=run, name="sim-referees", daemon=True)
        self._thread.start()
        ready.wait(10)

    # -- what the desk says ----------------------------------------------------------------
    def competition(self) -> dict[str, Any]:
        return dict(httpx.get(f"{self.desk_url}/api/competition", timeout=5).json())

    def venue(self) -> dict[str, Any]:
        return dict(httpx.get(f"{self.desk_url}/api/venue", timeout=5).json())

    def table_state(self, table_id: str) -> dict[str, Any]:
        d = next(d for d in self.daemons if table_id in [f"sim-{s.uid}" for s in d.sims])
        return dict(httpx.get(f"{d.base_url}/api/state", params={"table": table_id},
                              timeout=5).json())

    # -- stop ----------------------------------------------------------------------------------
    def stop(self) -> None:
        if self._loop and self._stop:
            self._loop.call_soon_threadsafe(self._stop.set)
        if self._thread:
            self._thread.join(timeout=10)
        for d in self.daemons:
            d.stop()
        for c in self.cables.values():
            c.pull()
        if self.desk_proc and self.desk_proc.poll() is None:
            self.desk_proc.terminate()
            try:
                self.desk_proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.desk_proc.kill()
        if self.broker:
            self.broker.stop()
        for s in self.sims:
            s.stop()

    def logs(self) -> str:
        """The desk's and the daemons' output, for a failing test's message."""
        parts = []
        for p in sorted(self.folder.glob("*.log")):
            parts.append(f"--- {p.name} (last lines)\n" + "\n".join(
                p.read_text(errors="replace").splitlines()[-30:]))
        return "\n".join(parts)
