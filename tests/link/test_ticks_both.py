"""The tick arithmetic of the firmware's clock and lance timer (``ticks_add``/``ticks_diff``
from futmesa_wire). On MicroPython futmesa_wire hands out ``time``'s own functions; on CPython,
where the light simulated tables run those modules, it computes them on the RP2040's ring of
2**30 ms. tests/pico/test_heap.py compares the two on the virtual Pico itself (the unix port's
ring is 2**62, so it cannot stand in for the device here)."""

from __future__ import annotations

import subprocess

import pytest

import futmesa_wire as W
from futmesa.sim.table import find_micropython

from .harness import FIRMWARE_DIR

RING = 1 << 30
TICKS_VALUES = [0, 1, 2, 999, 15_000, RING // 2 - 1, RING // 2, RING // 2 + 1, RING - 15_000,
                RING - 2, RING - 1]
TICKS_DELTAS = [0, 1, -1, 15_000, -15_000, 1_500_000, -1_500_000, RING // 2 - 1,
                -(RING // 2) + 1]


def test_micropython_gets_its_own_ticks_functions() -> None:
    code = ("import time, futmesa_wire as W\n"
            "print(W.ticks_add is time.ticks_add, W.ticks_diff is time.ticks_diff,"
            " W.ticks_ms is time.ticks_ms)")
    proc = subprocess.run([find_micropython(), "-c", code], capture_output=True, text=True,
                          timeout=120, env={"MICROPYPATH": f"{FIRMWARE_DIR}:.frozen"})
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.split() == ["True", "True", "True"]


def test_cpython_ticks_wrap_on_the_rp2040_ring() -> None:
    assert W.ticks_add(RING - 1, 1) == 0
    assert W.ticks_add(0, -1) == RING - 1
    assert W.ticks_diff(0, RING - 1) == 1
    assert W.ticks_diff(RING - 1, 0) == -1
    assert W.ticks_diff(RING // 2, 0) == -(RING // 2)  # the far half of the ring is "before"
    for a in TICKS_VALUES:
        for d in TICKS_DELTAS:
            b = W.ticks_add(a, d)
            assert 0 <= b < RING
            assert W.ticks_diff(b, a) == d
    for too_far in (RING // 2, -(RING // 2), RING):  # refused, as on the device
        with pytest.raises(OverflowError):
            W.ticks_add(0, too_far)
    assert 0 <= W.ticks_ms() < RING
