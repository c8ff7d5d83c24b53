"""Firmware loop benchmark on the MicroPython unix port: prints its figures (docs/performance.md).

Run from the repository root: `.venv/bin/python bench/firmware_bench.py` (also run by
`make bench`). The firmware is compiled with mpy-cross, as `futmesa flash` installs it,
and driven on the bench board (boards/bench.py: inputs scripted in-process, every
sensor busy, a host acknowledging every 500 passes) by bench/_firmware_bench_mp.py.

Figures: loop passes per second next to a bare ticks_ms loop in the same run (ratio);
bytes allocated over 100,000 passes, with the passes that do not receive a host frame
run under micropython.heap_lock(); the firmware's heap (code and data); passes from a
sensor edge to its frame being written; the clock's error against the tick source
over a simulated 25-minute half that crosses the tick wrap. Nothing here is asserted.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FIRMWARE = ROOT / "firmware"
SCRIPT = Path(__file__).with_name("_firmware_bench_mp.py")
PASSES = 100_000


def tool(name: str) -> str:
    exe = shutil.which(name) or str(Path(sys.executable).with_name(name))
    if not Path(exe).exists():
        sys.exit(f"{name} not found: run `make setup`")
    return exe


def compile_firmware(out: Path) -> None:
    """Compile the firmware, and the ToF driver files as `futmesa flash` lays them out."""
    from futmesa.deploy.flash import tof_driver_sources

    sources = [(src, src.relative_to(FIRMWARE).as_posix()) for src in FIRMWARE.rglob("*.py")]
    for src, rel in [*sources, *((s, r) for s, r in tof_driver_sources())]:
        if Path(rel).name in ("main.py", "manifest.py") or "egg-info" in rel:
            continue
        if Path(rel).name == "wirecrc.py":  # native code (viper): the unix port compiles it
            shutil.copyfile(src, out / rel)  # for its own CPU at import
            continue
        dest = out / Path(rel).with_suffix(".mpy")
        dest.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run([tool("mpy-cross"), "-o", str(dest), "-s", rel, str(src)], check=True)


def run(section: str, passes: int, mpy_dir: Path, state: Path,
        half_min: int = 25) -> dict[str, str]:
    env = dict(os.environ, MICROPYPATH=str(mpy_dir))
    proc = subprocess.run([tool("micropython"), str(SCRIPT), str(passes), str(state), section,
                           str(half_min)],
                          capture_output=True, text=True, env=env, timeout=900)
    if proc.returncode != 0:
        sys.exit(f"the MicroPython side failed ({section}):\n{proc.stdout}{proc.stderr}")
    figures = {}
    for line in proc.stdout.splitlines():
        key, _, value = line.partition(" ")
        figures[key] = value
    return figures


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--passes", type=int, default=PASSES)
    ap.add_argument("--half-min", type=int, default=25, help="the clock section's half")
    ap.add_argument("--quick", action="store_true",
                    help="a short run (make test): 5,000 passes, a 2-minute half")
    args = ap.parse_args()
    passes_wanted = 5_000 if args.quick else args.passes
    half_min = 2 if args.quick else args.half_min
    with tempfile.TemporaryDirectory(prefix="futmesa-fwbench-") as tmp:
        mpy = Path(tmp) / "mpy"
        compile_firmware(mpy)
        state = Path(tmp) / "flash"
        f: dict[str, str] = {}
        for section in ("memory", "rate", "heap", "latency", "clock"):
            f.update(run(section, passes_wanted, mpy, state, half_min))
    passes = int(f["passes"])
    app_rate = passes / (int(f["app_us"]) / 1e6)
    bare_rate = int(f["bare_passes"]) / (int(f["bare_us"]) / 1e6)
    kb = 1024
    print(f"firmware loop on the MicroPython unix port ({sys.platform}, 64-bit), "
          f"{passes:,} passes, every sensor simulated")
    print(f"  loop passes per second (all sensors, link):   {app_rate:12,.0f}  (best of 3)")
    print(f"  bare ticks_ms loop, same run (best of 3):     {bare_rate:12,.0f}")
    print(f"  ratio bare / firmware:                        {bare_rate / app_rate:12.1f} x")
    print(f"  mean pass:                                    {1e6 / app_rate:12.1f} us")
    print(f"  events / frames written (3 x {passes:,} passes): {f['events']:>6} / "
          f"{f['frames_written']}")
    print("heap")
    print(f"  passes under heap_lock():                     {int(f['locked_passes']):12,}"
          f"  (allocation error: {f['locked_failure']})")
    print(f"  bytes allocated over {int(f['alloc_passes']):,} passes:        "
          f"{int(f['alloc_bytes']):8,}  = {f['alloc_acks']} host acks x "
          f"{f['alloc_per_ack']} B (decoding a received frame, link.py)")
    code_kb = int(f["mem_code_bytes"]) / kb
    live_kb = int(f["mem_live_bytes"]) / kb
    print(f"  firmware code in RAM (.mpy, not frozen):      {code_kb:10.1f} KB")
    print(f"  firmware data, boot + 10,000 passes (bound):  "
          f"{int(f['mem_data_peak_bound_bytes']) / kb:10.1f} KB"
          f"  (event ring {int(f['ring_bytes']) / kb:.1f} KB of it)")
    print(f"  live heap, code + data:                       {live_kb:10.1f} KB")
    print("latency (1 ms per pass)")
    print(f"  event -> its frame written (all events):      {f['lat_event_to_frame']:>6} passes")
    print(f"  side-net edge -> frame written:               {f['lat_net_edge_to_frame']:>6} passes"
          f"  ({f['lat_net_edges']} edges)")
    print(f"  beam clear edge -> goal frame written:        "
          f"{f['lat_beam_clear_to_goal_frame']:>6} passes  (the 5 ms debounce)")
    print(f"clock over a simulated {half_min}-minute half (irregular 1-7 ms passes, "
          "ticks wrap mid-half)")
    print(f"  passes: {int(f['clock_passes']):,}   ticks wrapped: {f['clock_wrapped']}")
    print(f"  max error against the tick source:            {f['clock_max_error_ms']:>6} ms")
    print(f"  clock at the alarm:                           {int(f['clock_at_alarm']):>9,} ms"
          f"  (elapsed ticks at that pass: {int(f['clock_alarm_elapsed']):,})")
    print(f"  alarm on the expiry pass:                     {f['clock_alarm_on_expiry_pass']:>6}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
