"""`futmesa serve`: a daemon against a port, with clear messages when the board is not there."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import httpx

from futmesa.sim.table import SimTable
from futmesa_testkit.liveserver import free_port

FUTMESA = str(Path(sys.executable).with_name("futmesa"))


def _get_state(port: int, timeout: float = 20) -> dict:
    deadline = time.monotonic() + timeout
    while True:
        try:
            return httpx.get(f"http://127.0.0.1:{port}/api/state", timeout=1).json()
        except httpx.HTTPError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def test_serve_without_a_board_says_so_and_keeps_serving(tmp_path: Path) -> None:
    port = free_port()
    proc = subprocess.Popen(
        [FUTMESA, "serve", "--device", str(tmp_path / "ttyACM9"), "--db",
         str(tmp_path / "m.sqlite"), "--http-port", str(port), "--http-host", "127.0.0.1"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    try:
        state = _get_state(port)
        assert state["link"]["connected"] is False
    finally:
        proc.terminate()
        out, _ = proc.communicate(timeout=20)
    assert "não existe: ligue a mesa no USB" in out


def test_serve_against_a_pty_board(tmp_path: Path) -> None:
    port = free_port()
    with SimTable(speed=10) as sim:
        proc = subprocess.Popen(
            [FUTMESA, "serve", "--device", sim.host_port, "--db", str(tmp_path / "m.sqlite"),
             "--http-port", str(port), "--http-host", "127.0.0.1"],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        )
        try:
            deadline = time.monotonic() + 20
            state = _get_state(port)
            while not state.get("link", {}).get("connected"):
                assert time.monotonic() < deadline, state
                time.sleep(0.1)
                state = _get_state(port)
            assert state["table_id"] == "sim-SIM00001"
            assert state["ruleset"] == "cbfm-1toque"
        finally:
            proc.terminate()
            proc.communicate(timeout=20)


def test_serve_refuses_an_unknown_ruleset(tmp_path: Path) -> None:
    proc = subprocess.run([FUTMESA, "serve", "--device", "/dev/null", "--ruleset", "futsal",
                           "--db", str(tmp_path / "m.sqlite")], capture_output=True, text=True,
                          timeout=30)
    assert proc.returncode == 2
    assert "cbfm-1toque" in proc.stderr  # the message lists the known rulesets
