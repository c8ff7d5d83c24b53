"""Cross-check: the firmware's own VL53L0X helper (firmware/boards/vl53l0x.py) on the same
register-level fake bus the Adafruit driver is tested on, under the MicroPython VM."""

import shutil
import subprocess
import sys
from pathlib import Path

import futmesa.hardware.fakei2c as fakei2c
from futmesa.deploy.flash import firmware_dir
from futmesa.hardware.boardfile import load_board

MICROPYTHON = shutil.which("micropython") or str(Path(sys.executable).parent / "micropython")

SCRIPT = """
import json, sys
from fakei2c import FakeI2C, FakeVL53L0X, FakeMachineI2C, FakeMachine
from boards.vl53l0x import start_all, NO_SAMPLE
cfg = json.load(open(sys.argv[1]))
bus = FakeI2C()
devs = [bus.add(FakeVL53L0X(distance_mm=150)) for _ in range(2)]
machine = FakeMachine({g["xshut"]: devs[g["id"]] for g in cfg["goal_sensors"]})
s = start_all(FakeMachineI2C(bus), machine, cfg["goal_sensors"], ("tof", "tof"), 10, print)
print("scan", bus.scan())
devs[1].distance_mm = 42
for i in range(2):
    v = NO_SAMPLE
    while v == NO_SAMPLE:
        v = s[i].sample()
    print(i, v)
"""


def test_firmware_tof_helper_on_the_fake_bus(tmp_path):
    helper = firmware_dir() / "boards" / "vl53l0x.py"
    assert helper.is_file(), "firmware/boards/vl53l0x.py is gone: update or remove this test"
    (tmp_path / "boards").mkdir()
    shutil.copy(helper, tmp_path / "boards")
    (tmp_path / "boards" / "__init__.py").write_text("")
    shutil.copy(fakei2c.__file__, tmp_path)
    (tmp_path / "run.py").write_text(SCRIPT)
    board = tmp_path / "board.json"
    board.write_text(load_board("pico").path.read_text())
    out = subprocess.run([MICROPYTHON, "run.py", str(board)], cwd=tmp_path, capture_output=True,
                         text=True, timeout=30)
    assert out.returncode == 0, out.stderr + out.stdout
    assert out.stdout.splitlines() == ["scan [48, 49]", "0 150", "1 42"]
