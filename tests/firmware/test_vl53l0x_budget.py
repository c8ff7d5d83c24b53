"""The firmware's VL53L0X timing budget matches Adafruit's driver: both run on the same
register-level fake (Adafruit's on CPython, the firmware's on the MicroPython VM) and must leave
the same final-range timeout registers for the board files' 20 ms budget and for 33 ms."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from adafruit_vl53l0x import VL53L0X

from futmesa.hardware.fakei2c import FakeI2C, FakeVL53L0X
from futmesa.sim.table import find_micropython

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = """
import sys
from fakei2c import FakeI2C, FakeVL53L0X, FakeMachine, FakeMachineI2C
from boards.vl53l0x import start_all
bus = FakeI2C()
dev = bus.add(FakeVL53L0X(distance_mm=150, powered=False))
s = start_all(FakeMachineI2C(bus), FakeMachine({6: dev}),
              [{"id": 0, "xshut": 6, "address": "0x30"}], ("tof", "beam"), 0, None,
              int(sys.argv[1]))
print(dev.regs[0][0x71], dev.regs[0][0x72])
"""


@pytest.mark.parametrize("budget_us", [20000, 33000, 50000])
def test_timing_budget_registers_match_adafruit(budget_us: int, tmp_path: Path) -> None:
    bus = FakeI2C()
    dev = bus.add(FakeVL53L0X(distance_mm=150))
    sensor = VL53L0X(bus)
    sensor.measurement_timing_budget = budget_us
    want = f"{dev.regs[0][0x71]} {dev.regs[0][0x72]}"
    script = tmp_path / "budget.py"
    script.write_text(SCRIPT)
    env = dict(os.environ, MICROPYPATH=f"{ROOT / 'firmware'}:{ROOT / 'host/futmesa/hardware'}")
    proc = subprocess.run([find_micropython(), str(script), str(budget_us)], capture_output=True,
                          text=True, env=env, timeout=60)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.strip() == want, (proc.stdout, want)
    assert want != "0 0"
