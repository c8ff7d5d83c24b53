"""Helpers for the link tests: a recording sink over a real EventLog, the device's ground truth,
a noisy pty relay, and a driver that plays sensor edges into the simulated board.

The ground truth is what the firmware itself printed: with FUTMESA_TRACE_EVENTS set,
firmware/link.py prints `EV <boot> <seq> <kind>` for every event it numbers.
"""

from __future__ import annotations

import os
import random
import select
import termios
import threading
import time
import tty
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import futmesa_wire as W
from futmesa.link import DeviceInfo, Status
from futmesa.matchbook import stored_event
from futmesa.sim import SimTable
from futmesa.sim.noise import corrupt
from futmesa.store import EventLog

FIRMWARE_DIR = Path(os.environ.get("FUTMESA_FIRMWARE_DIR",
                                   Path(__file__).resolve().parents[2] / "firmware"))
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


def make_sim(tmp_path: Path, **kw: object) -> SimTable:
    """A SimTable whose firmware prints its ground truth (EV lines).

    The caller sets FUTMESA_TRACE_EVENTS=1 in the environment (the sim_factory
    fixture does, with monkeypatch; SimTable passes its environment on).
    """
    kw.setdefault("speed", 60)
    (tmp_path / "sim").mkdir(parents=True, exist_ok=True)
    return SimTable(workdir=tmp_path / "sim", firmware_dir=FIRMWARE_DIR, **kw)  # type: ignore[arg-type]


def truth(sim: SimTable) -> list[tuple[int, int, int]]:
    """Every event the firmware numbered, in order: (boot, seq, kind)."""
    with sim._lock:
        lines = list(sim.lines)
    out = []
    for line in lines:
        if line.startswith("EV "):
            _, boot, seq, kind = line.split()
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

    def on_status(self, info: DeviceInfo, status: Status, wall_ms: float) -> None:
        self.statuses.append(status)
        self.status_times.append(time.monotonic() * 1000)

    def on_connection(self, connected: bool, reason: str) -> None:
        self.connections.append((connected, reason))


def stored(store: EventLog, uid: str | None = None) -> list[tuple[int, int, int]]:
    return [(e.boot_id, e.seq, NAME_TO_KIND[e.kind]) for e in store.device_events(uid)]


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


class Driver:
    """Plays random sensor edges into the simulated board (its stdin)."""

    LINES = ("goal 0", "goal 1", "out 0", "out 2", "out 3", "out 5", "palheta A", "palheta C",
             "palheta B", "button turnA", "button turnB", "button referee")

    def __init__(self, sim: SimTable, seed: int = 1) -> None:
        self.sim = sim
        self.rng = random.Random(seed)

    def play(self, n: int, gap_s: float = 0.02) -> None:
        for _ in range(n):
            self.sim.send(self.rng.choice(self.LINES))
            time.sleep(gap_s)


class NoisyRelay:
    """A pty the host opens, relayed to the table's pty, corrupting bytes both ways.

    Each byte is, with probability `rate`, flipped (one random bit), dropped, or
    preceded by an inserted random byte (a third of the cases each).
    """

    def __init__(self, device_side: str, rate: float, seed: int = 7) -> None:
        self.device_side = device_side
        self.rate = rate
        self.rng = random.Random(seed)
        self.master, self._slave = os.openpty()
        tty.setraw(self._slave)
        tty.setraw(self.master)
        self.path = os.ttyname(self._slave)
        self.stats = {"bytes": 0, "flipped": 0, "dropped": 0, "inserted": 0}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def start(self) -> NoisyRelay:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=2)
        for fd in (self.master, self._slave):
            try:
                os.close(fd)
            except OSError:
                pass

    def _corrupt(self, data: bytes) -> bytes:
        return corrupt(data, self.rate, self.rng, self.stats)

    def _run(self) -> None:
        dev = -1
        while not self._stop.is_set():
            if dev < 0:
                try:
                    dev = os.open(self.device_side, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
                    attrs = termios.tcgetattr(dev)
                    tty.setraw(dev)
                    del attrs
                except OSError:
                    time.sleep(0.05)
                    continue
            ready, _, _ = select.select([self.master, dev], [], [], 0.05)
            try:
                if self.master in ready:
                    data = os.read(self.master, 4096)
                    os.write(dev, self._corrupt(data))
                if dev in ready:
                    data = os.read(dev, 4096)
                    os.write(self.master, self._corrupt(data))
            except BlockingIOError:
                continue
            except OSError:
                os.close(dev)
                dev = -1
        if dev >= 0:
            os.close(dev)
