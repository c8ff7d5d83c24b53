"""`futmesa doctor --sbc` (issue 34): the Pi table's loop checked as any board on USB.

The doctor starts the firmware's loop on the Pi's pins (here the simulated
header) and probes it over the link as it probes a Pico: every sensor named.
On a computer that is not a Raspberry Pi it says so in one line, in Portuguese.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

FUTMESA = str(Path(sys.executable).with_name("futmesa"))


def test_doctor_checks_the_pi_table_as_a_board(tmp_path: Path) -> None:
    proc = subprocess.run([FUTMESA, "doctor", "--sbc", "--simulated-pins", "--state",
                           str(tmp_path / "mesa")], capture_output=True, text=True, timeout=120)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out
    assert "mesa rpi-PISIM001" in out, out
    assert "linha de gol 0: funcionando" in out and "linha de gol 1: funcionando" in out, out
    assert "nenhum problema encontrado" in out, out


def test_doctor_on_a_computer_that_is_not_a_pi_says_so(tmp_path: Path) -> None:
    proc = subprocess.run([FUTMESA, "doctor", "--sbc", "--state", str(tmp_path / "mesa")],
                          capture_output=True, text=True, timeout=120)
    out = proc.stdout + proc.stderr
    assert proc.returncode != 0
    assert "Traceback" not in out, out
    # Blinka sees another machine here, or is not installed: both are named, with what to do
    assert "Raspberry Pi" in out and ("não é um Raspberry Pi" in out or "Blinka" in out), out
