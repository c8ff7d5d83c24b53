"""Soak: a simulated match day through a fault relay, with host kills and device resets.

The real firmware runs on the simulated board (MicroPython unix port, sped up
`--speed` times, so a real minute is an hour of table time at 60×). Its serial
line reaches the host through the project's fault relay (futmesa_testkit.faultrelay):
every byte, both ways, is flipped (one random bit), dropped, or preceded by an inserted random
byte at `--noise` per byte; the relay pulls the cable every `--unplug-every`
seconds for `--unplug-for` seconds (both ends vanish, as with USB). The host is a
separate process (the real HostLink on a real SQLite log) killed with SIGKILL
every `--kill-every` seconds and restarted; the board is reset (its process
killed and booted again, flash kept) every `--reset-every` seconds. Sensor
edges are played all along.

At the end the log is compared with the firmware's own ground truth
(FUTMESA_TRACE_EVENTS: every event it numbered) and the script prints: events
made, stored, lost with a trace (inside a gap the link recorded), lost without
a trace, duplicated, invented; bad frames; and the time from the end of each
fault to the host being connected again. Figures: docs/performance.md.
`make bench` runs it with the defaults (about 2.5 minutes).
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "host"))
sys.path.insert(0, str(ROOT / "firmware"))

import futmesa_wire as W  # noqa: E402
from futmesa.sim import SimTable  # noqa: E402
from futmesa.store import EventLog  # noqa: E402
from futmesa_testkit.faultrelay import FaultRelay  # noqa: E402
from futmesa_testkit.groundtruth import Driver, RecordingSink, stored, truth  # noqa: E402

IDLE_S = 20.0  # after play: stop waiting once nothing has arrived for this long


# -- the host, as its own process (so it can be killed with SIGKILL) --------------------------

def host_worker(port: str, db: str, stats_path: str, events_path: str, retry: str) -> None:
    from futmesa.link import HostLink, protocol

    if retry == "old":
        # the handshake before issue 13: HELLO every 1 s, and always "who are you?" first
        protocol.HELLO_RETRY_S = 1.0
        tick = protocol.LinkProtocol.tick

        def old_tick(self: protocol.LinkProtocol) -> None:
            if self._synced or self._hello_sent:
                tick(self)
                return
            info, self.info = self.info, None
            try:
                tick(self)
            finally:
                self.info = info

        protocol.LinkProtocol.tick = old_tick  # type: ignore[method-assign]
    elif retry != "-":
        protocol.HELLO_RETRY_S = float(retry)

    store = EventLog(db)

    class Sink(RecordingSink):
        """Logs when the table is heard (a STATUS while synced), at most every 0.1 s."""

        last = (0, 0.0)

        def on_status(self, info, status, wall_ms):  # type: ignore[no-untyped-def]
            now = time.time()
            if info.boot_id != self.last[0] or now - self.last[1] >= 0.1:
                self.last = (info.boot_id, now)
                with open(events_path, "a") as f:
                    f.write(f"{now:.3f} {info.boot_id}\n")

    link = HostLink(port, Sink(store))
    link.start()
    while True:
        s = link.stats
        tmp = stats_path + ".tmp"
        with open(tmp, "w") as f:
            json.dump({"bad_frames": s.bad_frames, "events": s.events, "gaps": s.gaps,
                       "duplicates": s.duplicates, "refused_events": s.refused_events}, f)
        os.replace(tmp, stats_path)
        time.sleep(0.2)


class Host:
    """The host process: started, killed (SIGKILL) and restarted; its counters summed."""

    def __init__(self, port: Path, db: Path, work: Path, retry: str) -> None:
        self.port, self.db, self.work = port, db, work
        self.retry = retry
        self.events_path = work / "connections.log"
        self.proc: subprocess.Popen[bytes] | None = None
        self.lives = 0
        self.totals: dict[str, int] = {}

    def _stats_path(self) -> Path:
        return self.work / f"stats-{self.lives}.json"

    def start(self) -> None:
        self.lives += 1
        self.proc = subprocess.Popen(
            [sys.executable, __file__, "--worker", str(self.port), str(self.db),
             str(self._stats_path()), str(self.events_path), self.retry],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def kill(self) -> None:
        if self.proc is not None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait()
            self.proc = None
        try:
            stats = json.loads(self._stats_path().read_text())
        except (OSError, ValueError):
            stats = {}
        for key, value in stats.items():
            self.totals[key] = self.totals.get(key, 0) + int(value)

    def heard(self) -> list[tuple[float, int]]:
        """(time, boot id) of the statuses the host processes logged, in order."""
        try:
            lines = self.events_path.read_text().splitlines()
        except OSError:
            return []
        return [(float(t), int(b)) for t, b in (line.split() for line in lines)]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seconds", type=float, default=120.0, help="real seconds of play")
    ap.add_argument("--speed", type=int, default=60, help="device time runs this much faster")
    ap.add_argument("--noise", type=float, default=0.002, help="faults per byte, each way")
    ap.add_argument("--unplug-every", type=float, default=25.0)
    ap.add_argument("--unplug-for", type=float, default=3.0)
    ap.add_argument("--kill-every", type=float, default=40.0)
    ap.add_argument("--reset-every", type=float, default=55.0)
    ap.add_argument("--events-per-s", type=float, default=8.0)
    ap.add_argument("--hello-retry", type=float, default=None,
                    help="the host's HELLO retry in s (default: the link's own), to compare")
    ap.add_argument("--old-handshake", action="store_true",
                    help="the host handshake before issue 13 (1 s retry, always identify "
                         "first), to compare reconnection times")
    ap.add_argument("--worker", nargs=5, help=argparse.SUPPRESS)
    ap.add_argument("--quick", action="store_true",
                    help="a short run (make test): 16 s with every fault at least once")
    args = ap.parse_args()
    if args.quick:
        args.seconds, args.unplug_every, args.kill_every, args.reset_every = 16, 5, 7, 11
    if args.worker:
        host_worker(*args.worker)
        return 0

    os.environ["FUTMESA_TRACE_EVENTS"] = "1"
    work = Path(tempfile.mkdtemp(prefix="futmesa-soak-"))
    (work / "sim").mkdir()
    sim = SimTable(speed=args.speed, workdir=work / "sim", ring=512, uid="SOAK0001")
    relay = FaultRelay(sim.host_port, args.noise, seed=13, link_path=work / "host.tty")
    retry = ("old" if args.old_handshake else
             "-" if args.hello_retry is None else str(args.hello_retry))
    host = Host(work / "host.tty", work / "soak.sqlite", work, retry)
    faults: list[tuple[str, float]] = []  # (kind, time the fault ended)
    stop_play = threading.Event()

    def play() -> None:
        drv = Driver(sim, seed=21)
        while not stop_play.is_set():
            try:
                sim.send(drv.rng.choice(Driver.LINES))
            except (OSError, ValueError, AttributeError):
                pass  # the board is being reset
            stop_play.wait(1 / args.events_per_s)

    print(f"soak: {args.seconds:.0f} s real = {args.seconds * args.speed / 3600:.1f} h of table "
          f"time at {args.speed}x; noise {args.noise} per byte each way; unplug every "
          f"{args.unplug_every:.0f} s for {args.unplug_for:.0f} s; host SIGKILL every "
          f"{args.kill_every:.0f} s; board reset every {args.reset_every:.0f} s (every other "
          f"one with the cable out)", flush=True)
    t_start = time.time()
    try:
        sim.start()
        relay.start()
        host.start()
        player = threading.Thread(target=play, daemon=True)
        player.start()
        schedule = []
        for every, kind in ((args.unplug_every, "unplug"), (args.kill_every, "host kill"),
                            (args.reset_every, "board reset")):
            t = every
            while t < args.seconds:
                schedule.append((t, kind))
                t += every
        schedule.sort()
        n_resets = 0
        for at, kind in schedule:
            time.sleep(max(0.0, t_start + at - time.time()))
            if kind == "unplug":
                relay.unplug()
                sim.unplug()
                time.sleep(args.unplug_for)
                sim.plug()
                relay.plug()
            elif kind == "host kill":
                host.kill()
                time.sleep(1.0)
                host.start()
            elif n_resets % 2 == 0:
                sim.reset()
            else:  # a reset while the cable is out: the unacknowledged events are on flash
                kind = "reset unplugged"
                relay.unplug()
                sim.unplug()
                time.sleep(args.unplug_for / 2)
                sim.reset()
                time.sleep(args.unplug_for / 2)
                sim.plug()
                relay.plug()
            if kind.endswith("reset") or kind == "reset unplugged":
                n_resets += 1
            faults.append((kind, time.time()))
        time.sleep(max(0.0, t_start + args.seconds - time.time()))
        stop_play.set()
        # settle: the host catches up with everything the board made (or records it lost)
        deadline = time.time() + 90
        last, since = -1, time.time()
        while time.time() < deadline:
            store = EventLog(work / "soak.sqlite")
            n = len(stored(store)) + sum(b - a + 1 for _, a, b in store.gaps())
            store.close()
            if n != last:
                last, since = n, time.time()
            elif time.time() - since > (2 if n >= len(truth(sim)) else IDLE_S):
                break  # caught up, or nothing more arrives (what is missing is lost)
            time.sleep(0.5)
        settle_s = time.time() - (t_start + args.seconds) - (0 if n >= len(truth(sim))
                                                             else IDLE_S)
    finally:
        stop_play.set()
        host.kill()
        relay.stop()
        produced = truth(sim)
        sim.stop()

    store = EventLog(work / "soak.sqlite")
    got = stored(store)
    gaps = store.gaps()
    maybe = store.possible_losses()
    store.close()
    produced_set = set(produced)
    got_set = set(got)

    def in_gap(p: tuple[int, int, int]) -> bool:
        return any(b == p[0] and first <= p[1] <= last for b, first, last in gaps)

    invented = [g for g in got if g not in produced_set]
    duplicated = len(got) - len(got_set)
    def in_maybe(p: tuple[int, int, int]) -> bool:
        return any(b == p[0] and after < p[1] <= up_to for b, after, up_to in maybe)

    traced = [p for p in produced if p not in got_set and in_gap(p)]
    noted = [p for p in produced if p not in got_set and not in_gap(p) and in_maybe(p)]
    silent = [p for p in produced
              if p not in got_set and not in_gap(p) and not in_maybe(p)]
    in_order = got == [p for p in produced if p in got_set]
    heard = host.heard()
    recover: dict[str, list[float]] = {}
    for kind, ended in faults:
        before = [b for t, b in heard if t < ended]
        after = [t for t, b in heard if t >= ended
                 and ("reset" not in kind or not before or b != before[-1])]
        if after:  # the host hears the table (synced; for a reset: its new boot) again
            recover.setdefault(kind, []).append(after[0] - ended)
    print("\nresults")
    print(f"  events made by the board:                    {len(produced):,}")
    print(f"  stored in the log, in the board's order:     {len(got):,}  "
          f"(order kept: {in_order})")
    print(f"  lost with a trace (inside a recorded gap):   {len(traced):,}  "
          f"({len(gaps)} gaps)")
    print(f"  lost with a trace (after a reset, inside a recorded possible loss: "
          f"{len(maybe)} noted, up to {sum(u - a for _, a, u in maybe)} events):")
    print(f"                                               {len(noted):,}")
    print(f"  not delivered and in no gap (lost without a trace, or still held by the board"
          f" after {IDLE_S:.0f} s without progress):")
    print(f"                                               {len(silent):,}"
          + (f"  first: {silent[:3]}" if silent else ""))
    print(f"  duplicated:                                  {duplicated:,}")
    print(f"  invented:                                    {len(invented):,}")
    kinds: dict[str, int] = {}
    for p in traced:
        name = W.EVENT_NAMES.get(p[2], str(p[2]))
        kinds[name] = kinds.get(name, 0) + 1
    if kinds:
        print("  kinds lost with a trace:                     "
              + ", ".join(f"{n} {k}" for k, n in sorted(kinds.items())))
    print(f"  bad frames counted by the host:              {host.totals.get('bad_frames', 0):,}"
          f"  (relay: {relay.stats['flipped']:,} flipped, {relay.stats['dropped']:,} dropped,"
          f" {relay.stats['inserted']:,} inserted of {relay.stats['bytes']:,} bytes)")
    print(f"  host lives (SIGKILLed and restarted):        {host.lives}")
    print(f"  settling after play stopped:                 {settle_s:.1f} s")
    print("  time from the end of a fault to the host hearing the table again, synced"
          " (median / max, s):")
    for kind in ("unplug", "host kill", "board reset", "reset unplugged"):
        values = recover.get(kind, [])
        n_faults = sum(1 for k, _ in faults if k == kind)
        if values:
            print(f"    {kind:<12} {statistics.median(values):5.2f} / {max(values):5.2f}"
                  f"   ({len(values)} of {n_faults} recovered)")
        else:
            print(f"    {kind:<12}   —            (0 of {n_faults} recovered)")
    ok = not invented and not duplicated and in_order
    print(f"  verdict: {'no event invented, duplicated or reordered' if ok else 'FAULTY LOG'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
