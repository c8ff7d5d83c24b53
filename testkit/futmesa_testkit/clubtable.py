"""A table as a club runs it: `futmesa sim` and `futmesa serve` as two real commands.

For tests that must see what a referee sees from the installed program (issue 44's walk at
the human pace): the sim's pty, the organiser's `--settings` file, the daemon's own SQLite
file read back as it is written, and `/api/state` as every screen reads it.
`with ClubTable(tmp, "gaucha", {"half_minutes": 1}) as club: club.state(); club.log()`.
"""

from __future__ import annotations

import json
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import httpx

from futmesa_testkit.harness import Harness
from futmesa_testkit.liveserver import free_port

FUTMESA = str(Path(sys.executable).with_name("futmesa"))
T = TypeVar("T")


@dataclass(frozen=True)
class Row:
    """One stored entry of the match's log, as the daemon wrote it."""

    id: int
    source: str
    kind: str
    data: dict[str, Any]
    period: int


class ClubTable(Harness):
    def __init__(self, folder: Path, ruleset: str, settings: dict[str, Any],
                 speed: int = 1) -> None:
        self.folder, self.ruleset, self.speed = folder, ruleset, speed
        self.db = folder / "clube.sqlite"
        self.http_port = free_port()
        self.base_url = f"http://127.0.0.1:{self.http_port}"
        (folder / "copa.json").write_text(json.dumps(settings, ensure_ascii=False))
        self.sim: subprocess.Popen[str] | None = None
        self.serve: subprocess.Popen[str] | None = None
        self.console_url = ""
        self.device = ""     # the path `serve --device` was given
        self.table_id = ""   # the sim's id (SIM00002): `--table 2` starts that table again
        self.sims = 0

    # -- the two commands ----------------------------------------------------------------
    def start(self) -> None:
        self.device = device = self.start_sim()
        serve_out = self.folder / "serve.out"
        self.serve = subprocess.Popen(
            [FUTMESA, "serve", "--device", device, "--ruleset", self.ruleset,
             "--db", str(self.db), "--settings", str(self.folder / "copa.json"),
             "--http-port", str(self.http_port), "--http-host", "127.0.0.1"],
            stdout=serve_out.open("w"), stderr=subprocess.STDOUT, text=True)
        line = self.wait(lambda: self._line(serve_out, "console do árbitro"), 60,
                         "the console's address")
        token = line.split("token=", 1)[1].strip()
        self.console_url = f"{self.base_url}/console?token={token}"
        self.wait(lambda: self._ready(), 90, "the table connected with its match open")

    def start_sim(self, *options: str) -> str:
        """`futmesa sim` with these options; the device path it prints for `serve`."""
        self.sims += 1
        sim_out = self.folder / f"sim{self.sims}.out"
        self.sim = subprocess.Popen([FUTMESA, "sim", "--speed", str(self.speed), *options],
                                    stdin=subprocess.PIPE, stdout=sim_out.open("w"),
                                    stderr=subprocess.STDOUT, text=True)
        hint = self.wait(lambda: self._line(sim_out, "conecte o daemon: "), 60,
                         "the sim's pty")
        said = self._line(sim_out, "mesa simulada ") or ""
        self.table_id = said.split("(id ", 1)[1].split(")", 1)[0]
        return hint.split("--device ", 1)[1].strip()

    def power_cut(self, sig: int = signal.SIGTERM) -> None:
        """The table loses power (its `futmesa sim` ends, stopped or killed by ``sig``): the
        daemon sees it gone."""
        assert self.sim is not None
        self.sim.send_signal(sig)
        self.sim.wait(timeout=30)
        self.sim = None
        self.wait(lambda: not self.state().get("link", {}).get("connected"), 60,
                  "the daemon to see the table gone")

    def power_back(self) -> str:
        """The same table powered again (`futmesa sim --table N`); the path it prints."""
        return self.start_sim("--table", self.table_id.removeprefix("SIM").lstrip("0"))

    def stop(self) -> None:
        for proc in (self.serve, self.sim):
            if proc is not None and proc.poll() is None:
                proc.terminate()
                try:
                    proc.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait(timeout=10)

    def _line(self, path: Path, start: str) -> str | None:
        for line in path.read_text(errors="replace").splitlines():
            if line.startswith(start):
                return line
        return None

    def _ready(self) -> bool:
        try:
            s = self.state()
        except httpx.HTTPError:
            return False
        return bool(s.get("link", {}).get("connected")) and s.get("match_id") is not None

    # -- what the club's table does and what it shows -------------------------------------
    def at_the_table(self, line: str) -> None:
        """A line typed into the sim's terminal (`out 3`, `palheta A`, `goal 0`)."""
        assert self.sim is not None and self.sim.stdin is not None
        self.sim.stdin.write(line + "\n")
        self.sim.stdin.flush()

    def state(self) -> dict[str, Any]:
        return dict(httpx.get(self.base_url + "/api/state", timeout=10).json())

    def match(self) -> dict[str, Any]:
        return dict(self.state().get("match") or {})

    def log(self) -> list[Row]:
        """The match's stored entries, read from the daemon's SQLite file (read-only)."""
        db = sqlite3.connect(f"file:{self.db}?mode=ro", uri=True, timeout=10)
        try:
            rows = db.execute("SELECT id, source, kind, data, period FROM entries WHERE "
                              "match_id = (SELECT MAX(id) FROM matches) ORDER BY id").fetchall()
        finally:
            db.close()
        return [Row(int(i), str(s), str(k), json.loads(d), int(p)) for i, s, k, d, p in rows]

    def output(self) -> str:
        """Both commands' output, for a failure message."""
        parts = []
        for name in [*(f"sim{n}.out" for n in range(1, self.sims + 1)), "serve.out"]:
            if (self.folder / name).exists():
                text = (self.folder / name).read_text(errors="replace")
                lines = [x for x in text.splitlines() if "█" not in x and "▀" not in x]
                parts.append(f"--- {name}\n" + "\n".join(lines[-30:]))
        return "\n".join(parts)

    def wait(self, cond: Callable[[], T | None], timeout: float, what: str) -> T:
        deadline = time.monotonic() + timeout
        while True:
            value = cond()
            if value:
                return value
            for proc in (self.sim, self.serve):
                if proc is not None and proc.poll() is not None:
                    raise AssertionError(f"a command ended while waiting for {what}:\n"
                                         + self.output())
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out after {timeout} s waiting for {what}")
            time.sleep(0.05)
