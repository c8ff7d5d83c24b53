"""The device side of the link (firmware/link.py) under the real `micropython` VM.

tests/link/mp_link_check.py drives DeviceLink frame by frame through a fake
board: handshake, replay window, cumulative and repeated acks, resend on
stall, HELLO mid-replay, gaps, command ordering and idempotency, silence,
refusal, bad frames, sequence rollover, and no allocation in steady state.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from futmesa.sim.table import find_micropython

from .harness import FIRMWARE_DIR

HERE = Path(__file__).resolve().parent


def run_check(trace: bool) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "FUTMESA_TRACE_EVENTS"}
    env["MICROPYPATH"] = f"{FIRMWARE_DIR}:{HERE.parent / 'firmware'}:.frozen"
    if trace:
        env["FUTMESA_TRACE_EVENTS"] = "1"
    return subprocess.run([find_micropython(), str(HERE / "mp_link_check.py")],
                          capture_output=True, text=True, timeout=120, env=env)


def test_device_link_protocol_rules_on_micropython():
    proc = run_check(trace=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = proc.stdout.strip().splitlines()
    assert lines[-1] == "OK 19", proc.stdout  # every check ran, incl. the heap-locked one
    assert "ok no allocation in steady state" in lines


def test_trace_flag_prints_every_event():
    proc = run_check(trace=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    ev = [line for line in proc.stdout.splitlines() if line.startswith("EV ")]
    assert ev[:3] == ["EV 7 1 9", "EV 7 2 9", "EV 7 3 9"]
