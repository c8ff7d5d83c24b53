"""Ground truth for simulated tables: what the firmware made, what reached the log, and a player.

The firmware's own record is the truth: with FUTMESA_TRACE_EVENTS set in its
environment, firmware/link.py prints `EV <boot> <seq> <kind>` for every event it
numbers (`truth`). `stored` reads what an EventLog holds in the same form,
`RecordingSink` commits a HostLink's events to a real EventLog as the daemon does
(no rules), and `Driver` plays random sensor edges into the board. Shared by the
link's fault tests (tests/link/harness.py) and the benchmarks (bench/soak.py,
bench/link_bench.py).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import futmesa_wire as W
from futmesa.link import DeviceInfo, Status
from futmesa.matchbook import stored_event
from futmesa.sim.table import SimTable
from futmesa.store import EventLog

NAME_TO_KIND = {name: code for code, name in W.EVENT_NAMES.items()}


def wait_until(cond: Callable[[], bool], timeout: float, what: str,
               sim: SimTable | None = None) -> None:
    deadline = time.monotonic() + timeout
    while not cond():
        if sim is not None and not sim.alive:
            raise AssertionError(f"the firmware died while waiting for {what}:\n"
                                 + sim.output_tail(40))
        if time.monotonic() > deadline:
            tail = ("\nfirmware output:\n" + sim.output_tail(20)) if sim else ""
            raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}{tail}")
        time.sleep(0.01)


def truth(sim: SimTable) -> list[tuple[int, int, int]]:
    """Every event the firmware numbered, in order: (boot, seq, kind)."""
    with sim._lock:
        lines = list(sim.lines)
    out = []
    for line in lines:
        if line.startswith("EV "):
            _word, boot, seq, kind = line.split()
            out.append((int(boot), int(seq), int(kind)))
    return out


@dataclass
class RecordingSink:
    """A LinkSink that commits to a real EventLog, as the daemon does (no rules)."""

    store: EventLog
    statuses: list[Status] = field(default_factory=list)
    status_times: list[float] = field(default_factory=list)  # host monotonic ms at arrival
    connections: list[tuple[bool, str]] = field(default_factory=list)
    devices: list[DeviceInfo] = field(default_factory=list)
    gaps: list[tuple[int, int, int]] = field(default_factory=list)
    lost: list[tuple[int, int, int, dict[str, int]]] = field(default_factory=list)

    def on_device(self, info: DeviceInfo) -> tuple[int, int]:
        self.devices.append(info)
        self.store.seen_device(info.uid, info.board, info.usb_serial)
        return self.store.last_committed(info.uid)

    def on_event(self, info: DeviceInfo, boot_id: int, seq: int, ticks: int,
                 payload: tuple[int, int, int, int, int, int]) -> None:
        ev, kind, data = stored_event(info.uid, boot_id, seq, ticks, payload)
        self.store.append_device_event(ev, None, kind, data)

    def on_gap(self, info: DeviceInfo, boot_id: int, first_seq: int, last_seq: int) -> None:
        self.gaps.append((boot_id, first_seq, last_seq))
        self.store.record_gap(info.uid, boot_id, first_seq, last_seq, None)

    def on_lost(self, info: DeviceInfo, boot_id: int, first_seq: int, last_seq: int,
                kinds: dict[str, int]) -> None:
        self.lost.append((boot_id, first_seq, last_seq, kinds))
        added = self.store.record_lost(info.uid, boot_id, first_seq, last_seq)
        if added:
            self.gaps.append((boot_id, *added))

    def on_reservation(self, info: DeviceInfo, boot_id: int, made_seq: int,
                       reserved_seq: int) -> tuple[tuple[int, int] | None,
                                                   tuple[int, int] | None]:
        gap, maybe = self.store.record_reservation(info.uid, boot_id, made_seq, reserved_seq)
        if gap:
            self.gaps.append((boot_id, *gap))
        return gap, maybe

    def on_status(self, info: DeviceInfo, status: Status, wall_ms: float) -> None:
        self.statuses.append(status)
        self.status_times.append(time.monotonic() * 1000)

    def on_connection(self, connected: bool, reason: str) -> None:
        self.connections.append((connected, reason))


def stored(store: EventLog, uid: str | None = None) -> list[tuple[int, int, int]]:
    return [(e.boot_id, e.seq, NAME_TO_KIND[e.kind]) for e in store.device_events(uid)]


class Driver:
    """Plays random sensor edges into the simulated board (its stdin)."""

    LINES = ("goal 0", "goal 1", "out 0", "out 2", "out 3", "out 5", "palheta A", "palheta C",
             "palheta B", "button turnA", "button turnB", "button referee")

    def __init__(self, sim: SimTable, seed: int = 1) -> None:
        self.sim = sim
        self.rng = random.Random(seed)

    def play(self, n: int, gap_s: float = 0.02) -> None:
        for _step in range(n):
            self.sim.send(self.rng.choice(self.LINES))
            time.sleep(gap_s)
