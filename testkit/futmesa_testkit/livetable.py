"""A simulated table, its daemon and the web server, running in a background thread.

For tests and benchmarks: `with LiveTable(speed=60) as live: live.start_match(); live.sim.goal(1)`.
"""

from __future__ import annotations

import asyncio
import shutil
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from futmesa import server
from futmesa.sim.table import SimTable
from futmesa_testkit.liveserver import free_port


class LiveTable:
    def __init__(self, speed: int = 60, ruleset: str = "cbfm-1toque", db: str | Path | None = None,
                 http_port: int | None = None, settings: dict[str, Any] | None = None,
                 sim: SimTable | None = None, more_sims: list[SimTable] | None = None,
                 camera: Any = None, quiet: bool = True, **sim_kwargs: Any) -> None:
        self.speed = speed
        self.quiet = quiet  # False: the host prints what `futmesa serve` prints (its links)
        self.ruleset = ruleset
        self.settings = settings
        self._tmp = tempfile.TemporaryDirectory(prefix="futmesa-live-")
        self.db = str(db or Path(self._tmp.name) / "match.sqlite")
        self.http_port = http_port or free_port()
        # a given table (e.g. the virtual Pico, futmesa.sim.vpico) or a unix-port sim board
        self.sim = sim if sim is not None else SimTable(speed=speed, **sim_kwargs)
        self.more_sims = list(more_sims or [])  # more tables served by the same host
        self.camera = camera  # CameraSettings: a camera over the first table (docs/camera.md)
        self.running: server.Running | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._ready = threading.Event()
        self._thread: threading.Thread | None = None
        self._error: BaseException | None = None
        self._new_referee_token = False

    # -- lifecycle -------------------------------------------------------------------
    def __enter__(self) -> LiveTable:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def start(self, start_sim: bool = True) -> None:
        if start_sim:
            for sim in (self.sim, *self.more_sims):
                sim.start()
        self.start_host()

    def start_host(self, new_referee_token: bool = False) -> None:
        """Start (or restart) the daemon and web server against the table's port (with
        ``new_referee_token``: as `futmesa serve --new-referee-token`)."""
        self._new_referee_token = new_referee_token
        self._ready.clear()
        self._error = None
        self._thread = threading.Thread(target=self._run, name="futmesa-live", daemon=True)
        self._thread.start()
        if not self._ready.wait(20):
            raise RuntimeError(f"the daemon did not start: {self._error!r}")
        if self._error:
            raise RuntimeError(f"the daemon did not start: {self._error!r}")

    def stop_host(self) -> None:
        if self.running and self._loop and self._loop.is_running():
            self._loop.call_soon_threadsafe(self.running.stop)
        if self._thread:
            self._thread.join(timeout=10)
        self.running = None

    def restart_with_a_blank_table(self) -> None:
        """The host stopped and the table powered off, its flash state gone (a Pico that lost
        it, a new `futmesa sim`), both started again; returns once the table is connected."""
        self.stop_host()
        self.sim.kill_firmware()
        shutil.rmtree(self.sim.state_dir, ignore_errors=True)
        self.sim.boot()
        self.start_host()
        self.wait(lambda: self.daemon.connected and self.daemon.match is not None, 90,
                  "the table to connect to the restarted host")

    def stop(self) -> None:
        self.stop_host()
        for sim in (self.sim, *self.more_sims):
            sim.stop()
        self._tmp.cleanup()

    def _run(self) -> None:
        async def ready(running: server.Running) -> None:
            self.running = running
            self._loop = asyncio.get_running_loop()
            self._ready.set()
            await asyncio.Event().wait()

        try:
            ports = [s.host_port for s in (self.sim, *self.more_sims)]
            asyncio.run(server.run(ports, self.db,
                                   self.ruleset, self.settings, http_port=self.http_port,
                                   on_ready=ready, quiet=self.quiet, camera=self.camera,
                                   **({"new_referee_token": True}
                                      if self._new_referee_token else {})))
        except BaseException as exc:  # noqa: BLE001 - reported to the starting thread
            self._error = exc
            self._ready.set()

    # -- access ------------------------------------------------------------------------
    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.http_port}"

    @property
    def daemon(self) -> Any:
        assert self.running is not None, "the host is not running"
        return self.running.daemon

    @property
    def token(self) -> str:
        assert self.running is not None
        return self.running.token

    def wait(self, cond: Callable[[], bool], timeout: float, what: str) -> None:
        deadline = time.monotonic() + timeout
        while not cond():
            if not self.sim.alive:
                raise AssertionError("the firmware died:\n" + self.sim.output_tail())
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out after {timeout} s waiting for {what}")
            time.sleep(0.005)

    def wait_tables(self, timeout: float = 90) -> None:
        """Wait until every table the host serves is connected and has its match open."""
        self.wait(lambda: self.running is not None
                  and all(d.connected and d.match is not None for d in self.running.daemons),
                  timeout, "every table to connect")

    def referee(self, kind: str, data: dict[str, Any] | None = None) -> dict[str, Any]:
        return self.daemon.referee(kind, data or {}, "test-referee")

    def give_lance(self, side: str) -> None:
        """The lances that bring the ball to `side`, as a referee enters them: only the team
        with the lance asks for a shot (000 Art. 12 §3 A)."""
        from futmesa.sim.referee_moves import lance_towards

        for _lance in range(6):
            move = lance_towards(self.match(), side)
            if move is None:
                return
            self.referee(*move)

    def match(self) -> dict[str, Any]:
        state = self.daemon.state
        return state.to_dict() if state is not None else {}

    def start_match(self, teams: dict[str, Any] | None = None, kickoff: str = "A") -> None:
        """Wait for the table, set the teams up and start the first period."""
        self.wait(lambda: self.running is not None and self.daemon.connected
                  and self.daemon.match is not None, 90, "the table to connect")
        data: dict[str, Any] = {"kickoff": kickoff}
        if teams:
            data["teams"] = teams
        self.referee("set_up", data)
        self.referee("start_period")
        # the table's first period under way: its clock running, or held for the kick-off where
        # it runs only with the ball in play (004 A partida; walk49a M1) — the table's clock as
        # the match says it, so the next input finds the hold already done
        self.wait(lambda: self.daemon.status is not None and self.daemon.status.period >= 1
                  and self.match().get("status") == "running"
                  and self.daemon.status.running == bool(self.match().get("clock_running")),
                  90, "the clock to start")
