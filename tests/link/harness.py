"""Helpers for the link tests: the simulated board, the log checked against the device's ground
truth, and the project's fault relay.

The ground truth, the recording sink and the edge player live in futmesa_testkit.groundtruth
(the benchmarks use them too), the relay in futmesa_testkit.faultrelay; they are re-exported here.
"""

from __future__ import annotations

import os
from pathlib import Path

from futmesa.sim import SimTable
from futmesa.store import EventLog
from futmesa_testkit.faultrelay import FaultRelay
from futmesa_testkit.groundtruth import (
    NAME_TO_KIND,
    Driver,
    RecordingSink,
    stored,
    truth,
    wait_until,
)

__all__ = ["FIRMWARE_DIR", "NAME_TO_KIND", "Driver", "FaultRelay",
           "RecordingSink", "check_log", "in_gaps", "make_sim", "stored", "truth", "wait_until"]

FIRMWARE_DIR = Path(os.environ.get("FUTMESA_FIRMWARE_DIR",
                                   Path(__file__).resolve().parents[2] / "firmware"))


def make_sim(tmp_path: Path, **kw: object) -> SimTable:
    """A SimTable whose firmware prints its ground truth (EV lines).

    The caller sets FUTMESA_TRACE_EVENTS=1 in the environment (the sim_factory
    fixture does, with monkeypatch; SimTable passes its environment on).
    """
    kw.setdefault("speed", 60)
    (tmp_path / "sim").mkdir(parents=True, exist_ok=True)
    return SimTable(workdir=tmp_path / "sim", firmware_dir=FIRMWARE_DIR, **kw)  # type: ignore[arg-type]


def in_gaps(item: tuple[int, int, int], gaps: list[tuple[int, int, int]]) -> bool:
    return any(b == item[0] and f <= item[1] <= last for b, f, last in gaps)


def check_log(store: EventLog, produced: list[tuple[int, int, int]], uid: str | None = None,
              allow_gaps: bool = False) -> list[tuple[int, int, int]]:
    """Stored events == produced events (minus recorded gaps), in order; returns the gaps."""
    got = stored(store, uid)
    gaps = store.gaps(uid)
    if not allow_gaps:
        assert gaps == [], f"unexpected gaps recorded: {gaps}"
    expected = [p for p in produced if not in_gaps(p, gaps)]
    assert len(got) == len(set(got)), "an event was stored twice"
    invented = [g for g in got if g not in set(produced)]
    assert not invented, f"events stored that the device never produced: {invented[:5]}"
    lost = [p for p in expected if p not in set(got)]
    assert not lost, f"{len(lost)} events lost (first: {lost[:5]})"
    assert got == expected, "stored events are not in the device's order"
    # every gap covers only events the device really made and the host never stored
    for boot, first, last in gaps:
        for seq in range(first, last + 1):
            assert any(p[:2] == (boot, seq) for p in produced), f"gap {boot}:{seq} invented"
            assert not any(g[:2] == (boot, seq) for g in got), f"gap {boot}:{seq} was stored"
    return gaps
