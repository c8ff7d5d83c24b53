"""`futmesa doctor` against the virtual Pico: the real image, its VL53L0X sensors on the
emulated I2C bus (fakei2c's register model behind the harness), the USB CDC on a pty."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

FUTMESA = str(Path(sys.executable).with_name("futmesa"))


@pytest.mark.timeout(1200)
def test_doctor_reads_the_tof_sensors_of_the_pico(pico_factory) -> None:
    pico = pico_factory("tof")
    pico.start()
    pico.tof(1, 64)  # goal line 1's sensor now measures 64 mm (the fake's register model)
    out = subprocess.run([FUTMESA, "doctor", "--port", pico.host_port, "--timeout", "240"],
                         capture_output=True, text=True, timeout=400)
    text = out.stdout + out.stderr
    assert out.returncode == 0, text + "\n" + pico.output_tail()
    assert "firmware 0.1.0" in text
    assert "goal sensors vl53l0x" in text
    assert "goal line 0 now: 120 mm (clear)" in text
    assert "goal line 1 now: 64 mm" in text  # read through the real driver, over I2C
    assert "no problems found" in text
    assert pico.resets == [], "no watchdog reset while the doctor talked to the board"
