"""The on-board ToF module (hardware/micropython/futmesa_tof.py): Adafruit's driver behind a
busio adapter over `machine.I2C`, XSHUT addressing, non-blocking reads, on MicroPython and CPython.
"""

import json
import shutil
import subprocess
import sys
from pathlib import Path

import adafruit_bus_device
import adafruit_vl53l0x
import pytest

import futmesa.hardware.fakei2c as fakei2c
from futmesa.hardware.boardfile import hardware_dir, load_board

ONBOARD = hardware_dir() / "micropython" / "futmesa_tof.py"
MICROPYTHON = shutil.which("micropython") or str(Path(sys.executable).parent / "micropython")

SCENARIO = """
import json, sys
from fakei2c import FakeI2C, FakeVL53L0X, FakeMachineI2C, FakeMachine
import futmesa_tof as T
cfg = json.load(open(sys.argv[1]))
bus = FakeI2C()
devs = [bus.add(FakeVL53L0X(distance_mm=150)) for _ in range(2)]
machine = FakeMachine({g["xshut"]: devs[g["id"]] for g in cfg["goal_sensors"]})
if len(sys.argv) > 2:
    devs[0].dead = True
logs = []
readers = T.start_all(FakeMachineI2C(bus), machine, cfg, cfg["goal_sensors"], logs.append)
print("scan", bus.scan())
print("started", [r is not None for r in readers])
print("logs", len(logs))
live = [r for r in readers if r is not None][-1]
first = live.read()
while first == T.NO_SAMPLE:
    first = live.read()
print("first", first)
print("again", live.read())
devs[1].distance_mm = 42
v = T.NO_SAMPLE
while v == T.NO_SAMPLE or v == 150:
    v = live.read()
print("ball", v)
devs[1].dead = True
print("dead", live.read())
"""


def _stage(tmp_path):
    shutil.copy(ONBOARD, tmp_path)
    shutil.copy(fakei2c.__file__, tmp_path)
    shutil.copy(adafruit_vl53l0x.__file__, tmp_path)
    bd = tmp_path / "adafruit_bus_device"
    bd.mkdir()
    for name in ("__init__.py", "i2c_device.py"):
        shutil.copy(Path(adafruit_bus_device.__file__).parent / name, bd)
    (tmp_path / "run.py").write_text(SCENARIO)
    board = tmp_path / "board.json"
    board.write_text(json.dumps(load_board("pico").data))
    return board


@pytest.mark.parametrize("vm", ["micropython", "cpython"])
def test_onboard_start_and_read(tmp_path, vm):
    board = _stage(tmp_path)
    exe = MICROPYTHON if vm == "micropython" else sys.executable
    out = subprocess.run([exe, "run.py", str(board)], cwd=tmp_path, capture_output=True,
                         text=True, timeout=60, env={"PYTHONPATH": str(tmp_path)})
    assert out.returncode == 0, out.stderr + out.stdout
    assert out.stdout.splitlines() == [
        "scan [48, 49]", "started [True, True]", "logs 0", "first 150",
        "again -2",  # nothing new yet: NO_SAMPLE, the loop goes on
        "ball 42", "dead -1",
    ]


def test_onboard_dead_sensor_is_logged_and_skipped(tmp_path):
    board = _stage(tmp_path)
    out = subprocess.run([MICROPYTHON, "run.py", str(board), "dead0"], cwd=tmp_path,
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr + out.stdout
    lines = out.stdout.splitlines()
    assert lines[:3] == ["scan [49]", "started [False, True]", "logs 1"]
