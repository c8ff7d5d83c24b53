"""A Raspberry Pi table killed mid-match and started again (issue 34): nothing lost, the gap shown.

On a Pi the host keeps the official time: `futmesa serve --sbc` runs the daemon
and, as its child, the firmware's own loop on the Pi's pins (here the simulated
header, whose control lines are futmesa's stdin). Killing futmesa (SIGKILL:
a crash, a pulled plug) stops both. Started again on the same event log and
state folder, the table's clock resumes from its last checkpoint, the match
goes on with what was stored, and the referee is offered the match time the
clock did not count while futmesa was down — as after a Pico's reset.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import Any

import httpx
import pytest

from futmesa.hardware.boardfile import load_board
from futmesa.sim.referee_moves import lance_towards
from futmesa.store import EventLog
from futmesa_testkit.liveserver import free_port

LONG_LANCE = {"lance_ms": 300_000, "lance_warn_ms": 5_000}  # no lance runs out in the test


class Serve:
    """`futmesa serve --sbc --simulated-pins` as an organiser starts it (a subprocess)."""

    def __init__(self, tmp: Path, board: Path, port: int) -> None:
        self.tmp, self.board, self.port = tmp, board, port
        self.proc: subprocess.Popen[bytes] | None = None
        self.base = f"http://127.0.0.1:{port}"

    def start(self) -> None:
        settings = self.tmp / "settings.json"
        settings.write_text(json.dumps(LONG_LANCE))
        self.log = open(self.tmp / f"serve-{time.monotonic_ns()}.log", "wb")  # noqa: SIM115
        self.proc = subprocess.Popen(
            [str(Path(sys.executable).with_name("futmesa")), "serve", "--sbc", "--simulated-pins",
             "--board", str(self.board), "--db", str(self.tmp / "pi.sqlite"),
             "--state", str(self.tmp / "mesa"), "--settings", str(settings),
             "--http-host", "127.0.0.1", "--http-port", str(self.port)],
            stdin=subprocess.PIPE, stdout=self.log, stderr=subprocess.STDOUT)

    def output(self) -> str:
        return "\n".join((self.tmp / p).read_text(errors="replace")
                         for p in sorted(os.listdir(self.tmp)) if p.startswith("serve-"))

    def send(self, line: str) -> None:
        assert self.proc is not None and self.proc.stdin is not None
        self.proc.stdin.write((line + "\n").encode())
        self.proc.stdin.flush()

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()

    def state(self) -> dict[str, Any]:
        try:
            r = httpx.get(f"{self.base}/api/state", timeout=5)
        except httpx.HTTPError:
            return {}
        return dict(r.json()) if r.status_code == 200 else {}

    def wait(self, cond: Any, what: str, timeout: float = 90) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            st = self.state()
            if st and cond(st):
                return st
            assert self.proc is not None
            if self.proc.poll() is not None:
                raise AssertionError(f"futmesa serve stopped:\n{self.output()}")
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out waiting for {what}; state {st}\n{self.output()}")
            time.sleep(0.05)

    def referee(self, kind: str, data: dict[str, Any], table: str) -> None:
        token = httpx.get(f"{self.base}/console/recover", params={"format": "json",
                                                                 "table": table}).json()["token"]
        r = httpx.post(f"{self.base}/api/referee", json={
            "kind": kind, "data": data, "table": table, "input_id": uuid.uuid4().hex},
            headers={"Authorization": f"Bearer {token}"}, timeout=10)
        body = r.json()
        while body.get("pending"):
            time.sleep(0.05)
            body = httpx.get(f"{self.base}/api/referee/{body['id']}", params={"table": table},
                             headers={"Authorization": f"Bearer {token}"}).json()
        assert body.get("ok"), (kind, body)


def mixed_board(tmp: Path) -> Path:
    """rpi.json with goal line 0 a break-beam (its beam_pin) and goal line 1 a VL53L0X."""
    data = dict(load_board("rpi").data)
    goals = [dict(g) for g in data["goal_sensors"]]
    goals[0]["type"] = "beam"
    data["goal_sensors"] = goals
    path = tmp / "rpi-mixed.json"
    path.write_text(json.dumps(data))
    return path


@pytest.mark.timeout(300)
def test_killing_futmesa_mid_match_resumes_the_clock_and_offers_the_lost_time(tmp_path):
    serve = Serve(tmp_path, mixed_board(tmp_path), free_port())
    serve.start()
    try:
        st = serve.wait(lambda s: s["link"]["connected"] and s.get("match_id"), "the table")
        table, match_id = st["table_id"], st["match_id"]
        assert st["link"]["host_clock"] is True and st["link"]["board"] == "rpi"
        serve.referee("set_up", {"kickoff": "A"}, table)
        serve.referee("start_period", {}, table)
        st = serve.wait(lambda s: s["clock"]["running"], "the clock to run")
        defender = "A" if st["match"]["ends"]["A"] == 0 else "B"
        scorer = "B" if defender == "A" else "A"
        for _ in range(6):  # the lance to the scorer, as the referee enters it
            move = lance_towards(serve.state()["match"], scorer)
            if move is None:
                break
            serve.referee(*move, table)
        serve.referee("shot_asked", {"side": scorer, "disc": 9}, table)
        serve.send("goal 0")  # the break-beam of goal line 0, on the Pi's header
        serve.wait(lambda s: s["match"]["score"][scorer] == 1, "the goal")
        st = serve.wait(lambda s: s["clock"]["ms"] >= 3000, "3 s of match time")
        serve.kill()  # futmesa and the table's loop stop at once
        killed_at = time.monotonic()
        serve.start()
        st = serve.wait(lambda s: (s["link"].get("reset") or {}).get("restored"),
                        "the restarted table's clock restored")
        down_ms = (time.monotonic() - killed_at) * 1000
        reset = st["link"]["reset"]
        # the match time its clock did not count: the downtime (and up to the last 1 s
        # checkpoint), offered to the referee as added time
        assert 300 <= reset["lost_ms"] <= down_ms + 2500, (reset, down_ms)
        assert st["match_id"] == match_id, "the same match goes on"
        assert st["match"]["score"][scorer] == 1
        serve.wait(lambda s: s["clock"]["running"] and s["clock"]["ms"] >= 3000,
                   "the clock going on from its checkpoint")
        serve.referee("added_time", {"ms": round(reset["lost_ms"] / 1000) * 1000}, table)
    finally:
        serve.stop()
    store = EventLog(tmp_path / "pi.sqlite")
    try:
        entries = store.entries(match_id)
    finally:
        store.close()
    goals = [e for e in entries if e.kind == "goal_line"]
    assert len(goals) == 1, goals  # stored once, not lost, not repeated after the restart
    # the restarted loop's own word: its clock went on from the checkpoint (reason 3)
    restored = [e for e in entries if e.kind == "clock_started" and e.data.get("reason") == 3]
    assert len(restored) == 1, [(e.kind, e.data) for e in entries]
    assert any(e.kind == "added_time" for e in entries)
