"""Firmware loop benchmark on the emulated RP2040 (the virtual Pico, tools/vpico): prints figures.

Run from the repository root: `.venv/bin/python bench/pico_bench.py [--passes N]` (also
run by `make bench`; needs the image from `make firmware`). The real RPI_PICO image
boots on rp2040js with a blank flash, is handed back to its REPL (CMD_REPL, as
`futmesa flash` does); mpremote
copies the bench board (firmware/boards/bench.py: inputs scripted in-process, every
sensor busy, a host acknowledging every 500 passes) and runs the same MicroPython
side as bench/firmware_bench.py (bench/_firmware_bench_mp.py), one section per run.
The firmware modules themselves run frozen from the image's flash, as on a real Pico.

Every time is the emulated chip's own (`ticks_us` on the RP2040's timer at 125 MHz
system clock): the emulator runs slower than real time, the figures are device time.
Nothing here is asserted.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "host"))

from futmesa.link.protocol import LiveSink  # noqa: E402
from futmesa.sim.vpico import SimTableError, VirtualPico, find_image  # noqa: E402

SCRIPT = Path(__file__).with_name("_firmware_bench_mp.py")


def mpremote(port: str, *args: str, timeout: float = 3600) -> str:
    exe = Path(sys.executable).with_name("mpremote")
    proc = subprocess.run([str(exe), "connect", port, *args], capture_output=True, text=True,
                          timeout=timeout)
    if proc.returncode != 0:
        raise SimTableError(f"mpremote {' '.join(args[:2])} failed:\n{proc.stdout}{proc.stderr}")
    return proc.stdout


def section(port: str, name: str, passes: int, half_min: float,
            latency_passes: int = 20000) -> dict[str, str]:
    # (sys.argv cannot be rebound on the board: refill the list)
    setup = (f"import sys; del sys.argv[:]; sys.argv.extend(['bench', '{passes}', '/bench', "
             f"'{name}', '{half_min}', '{latency_passes}'])")
    out = mpremote(port, "exec", setup, "run", str(SCRIPT))
    figures = {}
    for line in out.splitlines():
        key, _, value = line.strip().partition(" ")
        figures[key] = value
    if "Traceback" in out:
        raise SimTableError(f"the bench section {name} failed on the Pico:\n{out}")
    # the raw figures as each section ends (a long run shows its progress)
    print(f"[{name}] " + " ".join(f"{k}={v}" for k, v in figures.items() if k), flush=True)
    return figures


class _Sink(LiveSink):
    """A host that takes every event as it happens (so the device sends each one at once);
    the link's optional callbacks (reservations, losses) keep their defaults."""

    def __init__(self) -> None:
        self.events = 0

    def on_event(self, *args: object) -> None:
        self.events += 1


def edge_to_frame(pico: VirtualPico, rounds: int) -> dict[str, list[float]]:
    """Sensor edge -> its event frame on the CDC, in device µs (the harness stamps both:
    `EDGE` when it moves the input, `EVUS` when the frame's bytes leave on the USB CDC)."""
    import futmesa_wire as W
    from futmesa.link import HostLink

    sink = _Sink()
    link = HostLink(pico.host_port, sink)
    link.start()
    out: dict[str, list[float]] = {"out": [], "goal": []}
    try:
        deadline = time.monotonic() + 900
        while not link.connected:
            if time.monotonic() > deadline:
                raise SimTableError("no connection for the latency section")
            time.sleep(0.1)
        # the ToF build brings its sensors up in the loop's first device second or so
        # (a 60 ms net contact then can pass unseen): start once the board has settled
        t0 = pico.device_ms()
        while pico.device_ms() < t0 + 3000:
            time.sleep(0.2)
        for what, cmd, kind in (("out", "out 0", W.EV_BALL_OUT),
                                ("goal", "goal 0", W.EV_GOAL_LINE)):
            for _ in range(rounds):
                start = len(pico.lines)
                pico.send(cmd)
                edge = pico.wait_line(f"EDGE {what} 0 ", 120, start)
                frame = pico.wait_line("EVUS ", 120, start)
                while int(frame.split()[3]) != kind:
                    start = pico.lines.index(frame, start) + 1
                    frame = pico.wait_line("EVUS ", 120, start)
                out[what].append(int(frame.split()[4]) - int(edge.split()[3]))
                print(f"[latency] {what}: {out[what][-1]} device us", flush=True)
                # let the board re-arm before the next one: a net's 800 ms refractory
                # time, a goal line's 1,500 ms (a second goal sooner is the same ball
                # rattling, firmware/inputs.py, and makes no frame)
                t0 = pico.device_ms()
                while pico.device_ms() < t0 + (1000 if what == "out" else 2000):
                    time.sleep(0.05)
    finally:
        link.stop()
    return out


def watch_emulator(pico: VirtualPico) -> None:
    """The emulator stopping before the bench ends is a failure now, not a 15-minute wait."""

    def watch() -> None:
        while pico.firmware is not None and pico.firmware.poll() is None:
            time.sleep(0.5)
        if not done.is_set():
            print("pico_bench: the emulator stopped:\n" + pico.output_tail(), flush=True)
            os._exit(1)

    threading.Thread(target=watch, daemon=True).start()


done = threading.Event()  # set when the bench no longer needs the emulator


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--passes", type=int, default=5000,
                        help="passes per timed run (100,000 for the heap section's figure)")
    parser.add_argument("--heap-passes", type=int, default=100_000)
    parser.add_argument("--latency-rounds", type=int, default=5,
                        help="edges per input for the edge -> CDC frame latency")
    parser.add_argument("--half-min", type=float, default=2,
                        help="the clock section's half, in minutes (it crosses the tick wrap)")
    parser.add_argument("--latency-passes", type=int, default=20_000,
                        help="1-ms passes of the latency section (20,000: 10 goals, 28 balls out)")
    parser.add_argument("--quick", action="store_true",
                        help="a short run (make test): few passes, one latency round")
    opts = parser.parse_args()
    if opts.quick:
        opts.passes, opts.heap_passes, opts.latency_rounds, opts.half_min = 500, 2000, 1, 0.25
        opts.latency_passes = 6000
    try:
        image = find_image()
    except SimTableError as exc:
        print(f"pico_bench: {exc}")
        return 1
    wall0 = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="futmesa-picobench-") as tmp:
        pico = VirtualPico(workdir=tmp, image=image, flash_file=Path(tmp) / "flash.img")
        with pico:
            watch_emulator(pico)
            # blank flash: the image writes its board file and runs futmesa; CMD_REPL (as
            # `futmesa flash` does) resets it into a REPL-only boot for mpremote
            from futmesa.deploy.flash import release_board

            if release_board(pico.host_port, timeout_s=900, ack_timeout_s=300) is None:
                raise SimTableError("the virtual Pico did not answer the handshake")
            pico.wait_line("LOG booted (watchdog)", 300)
            deadline = time.monotonic() + 600
            while True:
                try:
                    mpremote(pico.host_port, "exec", "print('ready')", timeout=120)
                    break
                except (SimTableError, subprocess.TimeoutExpired):
                    if time.monotonic() > deadline:
                        raise
            fw = ROOT / "firmware" / "boards"
            mpremote(pico.host_port, "mkdir", ":boards", "+", "cp", str(fw / "__init__.py"),
                     ":boards/__init__.py", "+", "cp", str(fw / "bench.py"), ":boards/bench.py")
            t0 = pico.device_ms()
            f: dict[str, str] = {}
            f.update(section(pico.host_port, "memory", opts.passes, opts.half_min))
            f.update(section(pico.host_port, "rate", opts.passes, opts.half_min))
            f.update(section(pico.host_port, "heap", opts.heap_passes, opts.half_min))
            f.update(section(pico.host_port, "latency", opts.passes, opts.half_min,
                             opts.latency_passes))
            f.update(section(pico.host_port, "clock", opts.passes, opts.half_min))
            device_s = (pico.device_ms() - t0) / 1000
            # last: the running firmware (the reset button boots futmesa again; the REPL
            # flag was taken), edge -> frame on the CDC
            done.set()  # a reset restarts the emulator
            pico.reset()
            try:
                lat = edge_to_frame(pico, opts.latency_rounds)
            except SimTableError as exc:
                print(f"[latency] not measured: {exc}".splitlines()[0], flush=True)
                lat = {"out": [], "goal": []}
    wall_s = time.monotonic() - wall0
    passes = int(f["passes"])
    app_rate = passes / (int(f["app_us"]) / 1e6)
    bare_rate = int(f["bare_passes"]) / (int(f["bare_us"]) / 1e6)
    kb = 1024
    print(f"firmware loop on the emulated RP2040 (MicroPython v1.28.0 RPI_PICO image, rp2040js),"
          f" {passes:,} passes per run, every sensor simulated; device time")
    print(f"  loop passes per second (all sensors, link):   {app_rate:12,.0f}  (best of 3)")
    print(f"  bare ticks_ms loop, same image (best of 3):   {bare_rate:12,.0f}")
    print(f"  ratio bare / firmware:                        {bare_rate / app_rate:12.1f} x")
    print(f"  mean pass:                                    {1e6 / app_rate:12.1f} us")
    print("heap")
    print(f"  passes under heap_lock():                     {int(f['locked_passes']):12,}"
          f"  (allocation error: {f['locked_failure']})")
    print(f"  bytes allocated over {int(f['alloc_passes']):,} passes:       "
          f"{int(f['alloc_bytes']):8,}  = {f['alloc_acks']} host acks x {f['alloc_per_ack']} B")
    if "heap_free_after_boot" in f:
        print(f"  heap free after boot (App made, GC'd):        "
              f"{int(f['heap_free_after_boot']) / kb:10.1f} KB of "
              f"{int(f['heap_total']) / kb:.1f} KB")
        print(f"  heap free after a {opts.half_min * 60:4.0f}-s half to its alarm:     "
              f"{int(f['heap_free_after_half']) / kb:10.1f} KB")
    print(f"  bench board code (from .py, in RAM):          "
          f"{int(f['mem_code_bytes']) / kb:10.1f} KB  (the firmware itself is frozen)")
    print(f"  firmware data, boot + 10,000 passes (bound):  "
          f"{int(f['mem_data_peak_bound_bytes']) / kb:10.1f} KB"
          f"  (event ring {int(f['ring_bytes']) / kb:.1f} KB of it)")
    print("latency (1 ms per pass)")
    print(f"  event -> its frame written (all events):      {f['lat_event_to_frame']:>6} passes")
    print(f"  side-net edge -> frame written:               {f['lat_net_edge_to_frame']:>6} passes"
          f"  ({f['lat_net_edges']} edges in {opts.latency_passes:,} passes)")
    print("sensor edge -> event frame leaving on the USB CDC, running firmware (device us)")
    for what, label in (("out", "side-net contact closes -> ball-out frame"),
                        ("goal", "ToF ball leaves the line -> goal-line frame")):
        v = sorted(lat[what])
        if not v:
            print(f"  {label}:  not measured")
            continue
        print(f"  {label}:  median {v[len(v) // 2]:8,.0f}  max {v[-1]:8,.0f}  ({len(v)} edges)")
    print(f"clock over a {opts.half_min * 60:.0f}-second half (irregular 1-7 ms passes, ticks wrap "
          "mid-half)")
    print(f"  passes: {int(f['clock_passes']):,}   ticks wrapped: {f['clock_wrapped']}")
    print(f"  max error against the tick source:            {f['clock_max_error_ms']:>6} ms")
    print(f"  alarm on the expiry pass:                     {f['clock_alarm_on_expiry_pass']:>6}")
    print(f"emulation: {device_s:.1f} s of device time in {wall_s:.0f} s of wall time "
          f"({device_s / wall_s:.2f}x real time, sections only / whole run)")
    if int(f["lat_net_edges"]) == 0 or int(f["lat_unwritten"]) > 0:
        print(f"pico_bench: the latency section measured {f['lat_net_edges']} ball-out edges "
              f"and left {f['lat_unwritten']} events unwritten: it must measure some, all sent")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
