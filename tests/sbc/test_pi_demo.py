"""`futmesa demo --board sbc` (issue 34): a whole match on a Raspberry Pi table without a Pi.

The demo's scripted match drives the simulated header of the Linux board (the
firmware's own loop under CPython): goal line 0 a break-beam, goal line 1 a
VL53L0X read by Adafruit's driver on a fake I2C bus. The final score printed is
the one the stored log holds, both kinds of goal line scored, and the súmula of
the stored match is made from it.
"""

from __future__ import annotations

import re
import sqlite3
import subprocess
import sys
from pathlib import Path

from futmesa_testkit.liveserver import free_port

FUTMESA = str(Path(sys.executable).with_name("futmesa"))


def test_the_demo_plays_a_whole_match_on_a_simulated_pi(tmp_path: Path) -> None:
    db = tmp_path / "pi.sqlite"
    proc = subprocess.run(
        [FUTMESA, "demo", "--board", "sbc", "--speed", "600", "--exit-when-done",
         "--db", str(db), "--http-host", "127.0.0.1", "--http-port", str(free_port())],
        capture_output=True, text=True, timeout=600)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out
    final = re.search(r"PLACAR FINAL: Estrela do Norte (\d+) × (\d+) Botafogo da Mesa", out)
    assert final, out
    assert "Raspberry Pi" in out, out
    with sqlite3.connect(db) as conn:
        lines = sorted(r[0] for r in conn.execute(
            "SELECT json_extract(data, '$.goal') FROM entries WHERE kind = 'goal_line'"))
        boards = [r[0] for r in conn.execute("SELECT DISTINCT board FROM devices")]
        ended = conn.execute("SELECT ended_at FROM matches").fetchone()[0]
    assert ended is not None
    assert boards == ["rpi"], boards
    assert 0 in lines and 1 in lines, lines  # the break-beam and the VL53L0X both scored
    assert len(lines) == int(final.group(1)) + int(final.group(2)), (lines, final.group(0))
    pdf = tmp_path / "sumula.pdf"
    made = subprocess.run([FUTMESA, "report", "1", "--db", str(db), "--pdf", str(pdf)],
                          capture_output=True, text=True, timeout=300)
    assert made.returncode == 0, made.stdout + made.stderr
    assert pdf.read_bytes().startswith(b"%PDF"), made.stdout
