"""The firmware loop allocates nothing on the Pico: run under `heap_lock` on the real image.

On the unix port a small int holds 62 bits, so a loop that boxes large ints there still
passes a heap-lock test; the RP2040's small ints stop at 2**30. This test runs the
benchmark's heap section (bench/_firmware_bench_mp.py, the bench board: every sensor
busy, goals, balls out, palheta, buttons; a host ack every 500 passes, decoded outside
the lock) on the virtual Pico, with the firmware frozen in the image as a club flashes
it, and requires every locked pass to run without a MemoryError and the unlocked run to
allocate 0 bytes. It failed while frames were sealed with `ticks & 0xFFFFFFFF` (a boxed
mask on a 32-bit port: one allocation per frame). On the same board it then checks that the
RP2040's own ``time.ticks_add``/``ticks_diff`` give what futmesa_wire computes on CPython
(where the light simulated tables run the firmware's clock and lance timer).
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

import futmesa_wire as W
from futmesa.deploy.flash import release_board

from .picorepl import MPREMOTE, mpremote_exec

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "bench" / "_firmware_bench_mp.py"
BOARDS = ROOT / "firmware" / "boards"
PASSES = 3000
RING = 1 << 30  # the RP2040's ticks wrap here
TICKS_VALUES = [0, 1, 999, RING // 2 - 1, RING // 2, RING // 2 + 1, RING - 15_000, RING - 1]
TICKS_DELTAS = [0, 1, -1, 15_000, -15_000, 1_500_000, RING // 2 - 1, -(RING // 2) + 1,
                -(RING // 2), RING // 2]  # the last two: refused (OverflowError)


@pytest.mark.timeout(1800)
def test_the_loop_allocates_nothing_on_the_rp2040(pico_factory) -> None:
    pico = pico_factory("tof")
    pico.start()
    assert release_board(pico.host_port, timeout_s=600, ack_timeout_s=300) is not None, \
        pico.output_tail()
    pico.wait_line("LOG booted (watchdog)", 300)  # the REPL-only boot
    mpremote_exec(pico.host_port, "print('ready')", 600)
    copy = subprocess.run(
        [MPREMOTE, "connect", pico.host_port, "mkdir", ":boards", "+",
         "cp", str(BOARDS / "__init__.py"), ":boards/__init__.py", "+",
         "cp", str(BOARDS / "bench.py"), ":boards/bench.py"],
        capture_output=True, text=True, timeout=900)
    assert copy.returncode == 0, copy.stdout + copy.stderr
    setup = ("import sys; del sys.argv[:]; "
             f"sys.argv.extend(['bench', '{PASSES}', '/bench', 'heap', '1'])")
    run = subprocess.run([MPREMOTE, "connect", pico.host_port, "exec", setup,
                          "run", str(SCRIPT)], capture_output=True, text=True, timeout=1500)
    out = run.stdout + run.stderr
    assert run.returncode == 0 and "Traceback" not in out, out
    got = dict(line.split(" ", 1) for line in run.stdout.splitlines() if " " in line)
    print(out)  # the figures, for the log
    assert got["locked_failure"] == "none", out
    assert int(got["locked_passes"]) > PASSES * 0.99, out  # all but the ack passes
    assert int(got["locked_events"]) > 0, out  # the scenario made events under the lock
    assert int(got["alloc_bytes"]) == 0, out
    assert int(got["alloc_per_ack"]) == 0, out
    ticks = mpremote_exec(pico.host_port, (
        "import time\n"
        "def add(a, x):\n"
        "    try:\n"
        "        return time.ticks_add(a, x)\n"
        "    except OverflowError:\n"
        "        return None\n"
        f"v, d = {TICKS_VALUES!r}, {TICKS_DELTAS!r}\n"
        "print([[add(a, x) for x in d] for a in v])\n"
        "print([[time.ticks_diff(a, b) for b in v] for a in v])"), 300)
    added, diffs = (json.loads(line.replace("None", "null"))
                    for line in ticks.strip().splitlines()[-2:])
    assert added == [[cpython_ticks_add(a, x) for x in TICKS_DELTAS] for a in TICKS_VALUES]
    assert diffs == [[W.ticks_diff(a, b) for b in TICKS_VALUES] for a in TICKS_VALUES]


def cpython_ticks_add(a: int, delta: int) -> int | None:
    try:
        return W.ticks_add(a, delta)
    except OverflowError:
        return None
