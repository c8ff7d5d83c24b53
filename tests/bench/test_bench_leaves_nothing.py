"""A bench that starts a broker leaves nothing behind when it is killed: its mosquitto (which,
started as root, changes its user and loses its parent-death signal), desk, serve and tables'
worker all end, whether the bench gets SIGTERM, SIGINT, or the process that started it dies.

The championship bench's quick day is started in a process group of its own and killed once
its broker and desk run; every process of its tree seen then (by parent pid, from /proc) must
be gone a little later (same pid and start time: a pid reused since is another process)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BENCH = ROOT / "bench" / "championship_bench.py"
PROC = Path("/proc")


def stat_of(pid: int) -> tuple[int, str, int] | None:
    """(parent pid, state, start time) of a process, None when gone."""
    try:
        fields = (PROC / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return int(fields[1]), fields[0], int(fields[19])


def tree(root: int) -> dict[int, tuple[int, str]]:
    """Every process under ``root`` (and root): pid -> (start time, command line)."""
    parents: dict[int, list[int]] = {}
    for entry in PROC.iterdir():
        if entry.name.isdigit():
            got = stat_of(int(entry.name))
            if got is not None:
                parents.setdefault(got[0], []).append(int(entry.name))
    found: dict[int, tuple[int, str]] = {}
    todo = [root]
    while todo:
        pid = todo.pop()
        got = stat_of(pid)
        if got is None or pid in found:
            continue
        try:
            cmd = (PROC / str(pid) / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            cmd = ""
        found[pid] = (got[2], cmd)
        todo += parents.get(pid, [])
    return found


def alive(pid: int, start: int) -> bool:
    got = stat_of(pid)
    return got is not None and got[1] != "Z" and got[2] == start


def wait_for_tree(root: int, timeout_s: float) -> dict[int, tuple[int, str]]:
    """The bench's tree once its broker and its desk both run."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        seen = tree(root)
        cmds = " ".join(cmd for _start, cmd in seen.values())
        if "mosquitto" in cmds and " desk " in cmds:
            return seen
        time.sleep(0.2)
    raise AssertionError(f"the bench never ran its broker and desk: {tree(root)}")


def assert_all_gone(seen: dict[int, tuple[int, str]], timeout_s: float = 30) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        left = {pid: cmd for pid, (start, cmd) in seen.items() if alive(pid, start)}
        if not left:
            return
        time.sleep(0.2)
    for pid, (start, _cmd) in seen.items():  # leave the machine clean, then say it
        if alive(pid, start):
            os.kill(pid, signal.SIGKILL)
    raise AssertionError(f"left running after the bench was killed: {left}")


@pytest.mark.timeout(300)
@pytest.mark.parametrize("how", ["SIGTERM", "SIGINT", "parent dies"])
def test_a_killed_bench_leaves_no_broker_nor_table_process(how: str) -> None:
    if how == "parent dies":  # a parent (make, pytest, a shell) killed hard
        parent = subprocess.Popen(
            [sys.executable, "-c", "import subprocess, sys; subprocess.call(sys.argv[1:])",
             sys.executable, str(BENCH), "--quick"],
            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, process_group=0)
        seen = wait_for_tree(parent.pid, 180)
        parent.kill()
        parent.wait()
    else:
        bench = subprocess.Popen([sys.executable, str(BENCH), "--quick"], cwd=ROOT,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                 process_group=0)
        seen = wait_for_tree(bench.pid, 180)
        bench.send_signal(getattr(signal, how))
        bench.wait(timeout=120)
    assert any("mosquitto" in cmd for _start, cmd in seen.values())
    assert_all_gone(seen)
