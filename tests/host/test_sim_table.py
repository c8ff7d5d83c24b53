"""The simulated table's processes: they go away with the process that started them."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

SCRIPT = """
import sys, time
from futmesa.sim.table import SimTable
sim = SimTable(speed=10)
sim.start()
print(sim.firmware.pid, sim.socat.pid, flush=True)
time.sleep(600)
"""


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    status = Path(f"/proc/{pid}/status")
    return status.exists() and "zombie" not in status.read_text()


def test_firmware_and_cable_stop_when_their_host_is_killed() -> None:
    host = subprocess.Popen([sys.executable, "-c", SCRIPT], stdout=subprocess.PIPE, text=True)
    assert host.stdout is not None
    firmware_pid, socat_pid = (int(x) for x in host.stdout.readline().split())
    try:
        time.sleep(0.5)
        assert _alive(firmware_pid)
        host.send_signal(signal.SIGKILL)  # no clean-up code runs in the host
        host.wait(timeout=10)
        deadline = time.monotonic() + 10
        while (_alive(firmware_pid) or _alive(socat_pid)) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not _alive(firmware_pid), "the simulated firmware outlived its host"
        assert not _alive(socat_pid), "the pty pair (socat) outlived its host"
    finally:
        for pid in (firmware_pid, socat_pid):
            if _alive(pid):
                os.kill(pid, signal.SIGKILL)
