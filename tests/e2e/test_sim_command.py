"""`futmesa sim`: a simulated table on a pty that `futmesa serve` (or doctor) can use."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from futmesa.deploy.probe import probe

FUTMESA = str(Path(sys.executable).with_name("futmesa"))


def test_sim_prints_a_port_a_daemon_can_use_and_takes_inputs() -> None:
    proc = subprocess.Popen([FUTMESA, "sim", "--speed", "10"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        assert proc.stdout is not None and proc.stdin is not None
        first = proc.stdout.readline()  # blocks until the table is up (or the command fails)
        assert first.startswith("mesa simulada em "), first  # the suite reads Portuguese
        port = first.split(" em ", 1)[1].strip()
        hint = proc.stdout.readline().strip()
        assert hint == f"conecte o daemon: futmesa serve --device {port}"
        result = probe(port, timeout_s=30)  # the futmesa handshake, as serve does it
        assert result.info.board == "sim"
        proc.stdin.write("palheta B\n")
        proc.stdin.flush()
    finally:
        proc.terminate()
        out, _ = proc.communicate(timeout=30)
    assert proc.returncode == 0, out
    assert not os.path.exists(port)  # the pty went away with the table
