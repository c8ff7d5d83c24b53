"""`futmesa flash --uf2` end to end on the virtual Pico: the image copied onto the BOOTSEL drive
(a folder the harness watches) is written to the emulated flash, the board reboots into
futmesa, hands its USB port back (CMD_REPL, then machine.reset() into a REPL-only boot)
and mpremote writes the board file; a board then booted from that flash runs the board
file that was written (here the beam build, not the image's default ToF one)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

FUTMESA = str(Path(sys.executable).with_name("futmesa"))


@pytest.mark.timeout(1800)
def test_flash_uf2_writes_the_image_and_the_board_file(flashed, pico_factory) -> None:
    done = flashed("beam")
    log = "\n".join(done.log)
    assert "copying futmesa-pico.uf2" in log, log
    assert "UF2 futmesa-pico.uf2" in log, log  # the harness's drive took the whole image
    assert "writing the board file pico-beam.json as board.json" in log, log
    assert "RESET forced" in log, log  # machine.reset() after the copy, as on a real Pico
    # the version check (one probe, the product's own) completed its handshake
    assert "ok: pico on " in log and "runs firmware 0.1.0, protocol" in log, log
    pico = pico_factory("beam")
    pico.start()
    out = subprocess.run([FUTMESA, "doctor", "--port", pico.host_port, "--timeout", "240"],
                         capture_output=True, text=True, timeout=400)
    text = out.stdout + out.stderr
    # the board runs the written board file: beams on its goal lines, no ToF sensor
    assert "goal line 0 now: beam clear" in text, text + pico.output_tail()
    assert "goal line 1 now: beam clear" in text, text
    assert pico.resets == []
