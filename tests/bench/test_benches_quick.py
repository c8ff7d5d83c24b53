"""Every benchmark in bench/ runs in its ``--quick`` mode, so a change that breaks one fails here.

A bench prints figures and asserts no speed; it must still run to its end: a non-zero exit (an
exception, a check that it measured what it says, e.g. the venue bench's N tables) fails the
test, with the bench's output. The figures are printed (``pytest -s`` shows them). The last
test breaks a bench on purpose and checks that the failure is seen.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BENCH = ROOT / "bench"
# every bench script (run_all.py runs them all; _*.py are their helpers)
SCRIPTS = sorted(p.name for p in BENCH.glob("*.py")
                 if p.name != "run_all.py" and not p.name.startswith("_"))
# the emulated RP2040 runs slower than real time: its quick run takes 3-10 minutes (more on a
# loaded machine: 11 min beside four browser tests)
MARKS = {"pico_bench.py": [pytest.mark.pico, pytest.mark.slow, pytest.mark.timeout(1800)],
         "kiosk_latency.py": [pytest.mark.browser]}


def run_quick(script: str, *args: str, env: dict[str, str] | None = None,
              timeout: float = 600) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(BENCH / script), "--quick", *args],
                          cwd=ROOT, capture_output=True, text=True, timeout=timeout,
                          env={**os.environ, **(env or {})})


def test_every_bench_is_listed_here() -> None:
    assert "venue_bench.py" in SCRIPTS and len(SCRIPTS) >= 10
    assert set(MARKS) <= set(SCRIPTS)


@pytest.mark.parametrize("script", [pytest.param(s, marks=MARKS.get(s, []), id=s)
                                    for s in SCRIPTS])
def test_bench_runs_quick(script: str) -> None:
    done = run_quick(script, timeout=1500)
    print(done.stdout)
    assert done.returncode == 0, (f"bench/{script} --quick failed ({done.returncode}):\n"
                                  f"{done.stdout[-3000:]}\n{done.stderr[-3000:]}")
    assert done.stdout.strip(), f"bench/{script} printed no figures"


def test_a_broken_bench_fails() -> None:
    """The venue bench with one table's referee token wrong: its inputs are refused (403),
    which the bench must count as an error, not as a table that scored less."""
    done = run_quick("venue_bench.py", "--part", "daemon",
                     env={"FUTMESA_BENCH_BREAK": "wrong-token"})
    assert done.returncode != 0, done.stdout
    assert "403" in done.stdout + done.stderr
