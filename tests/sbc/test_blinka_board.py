"""The Linux board on Blinka's API (issue 34): digital pins through `digitalio`, the VL53L0X
through `busio` and Adafruit's driver, the buzzer on a GPIO — under the firmware's App.

Blinka itself only runs on a Pi, so its three modules are stand-ins here whose pins and
bus are the fake ones (futmesa.hardware.fakei2c): what is checked is that the firmware's
own loop, through boards.blinka and boards.linux, sees a goal on each kind of goal line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path


def test_the_firmware_loop_reads_pins_and_the_tof_through_blinka() -> None:
    script = Path(__file__).with_name("blinka_board_check.py")
    proc = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    got = json.loads(proc.stdout.strip().splitlines()[-1])
    assert got["name"] == "rpi"
    assert got["kinds"] == ["beam", "tof"]
    assert got["goals"] == [1, 1], got  # one goal on each line: the beam and the VL53L0X
    assert 0x31 in got["addresses"], got  # the driver moved the sensor to its board address
    assert got["buzzer"][-2:] == [True, False], got  # an active buzzer, switched on the GPIO
    assert got["watchdog"] == "WATCHDOG=1"  # systemd's watchdog fed by the loop
