"""Frame CRC on the device: wirecrc.crc32_into (viper, writes into the frame) against
binascii.crc32 (returns an int), under the MicroPython unix port. Prints figures, asserts nothing.

Run from the repository root: `.venv/bin/python bench/wirecrc_bench.py` (also run by
`make bench`). Figures: µs per 24-byte (EVENT) and 44-byte (STATUS) frame body for both,
in the same process, and their ratio; and how many of the CRCs were 2**30 or more, which
binascii.crc32 returns as a boxed (heap) int on a 32-bit board (16 B each). The boxing
itself is measured on the emulated RP2040 (bench/pico_bench.py); this port is 64-bit.
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
N = 20_000

MP_SCRIPT = """
import binascii, sys, time
from wirecrc import crc32_into
N = int(sys.argv[1])
seed = 0xC90E3A74
lo, hi = seed & 0xFFFF, seed >> 16
dst = bytearray(4)
for size in (24, 44):
    frames = [bytearray((i * 7 + k) & 0xFF for k in range(size)) for i in range(64)]
    t = time.ticks_us()
    for i in range(N):
        binascii.crc32(frames[i & 63], seed)
    t_bin = time.ticks_diff(time.ticks_us(), t)
    t = time.ticks_us()
    for i in range(N):
        crc32_into(frames[i & 63], size, lo, hi, dst, 0)
    t_vip = time.ticks_diff(time.ticks_us(), t)
    big = 0
    for i in range(N):
        f = frames[i & 63]
        f[0] = i & 0xFF
        f[1] = i >> 8 & 0xFF
        if binascii.crc32(f, seed) >= 1 << 30:
            big += 1
    print("%d %.3f %.3f %d" % (size, t_bin / N, t_vip / N, big))
"""


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--frames", type=int, default=N, help="frames per figure")
    ap.add_argument("--quick", action="store_true", help="a short run (make test): 2,000 frames")
    args = ap.parse_args()
    n = 2_000 if args.quick else args.frames
    exe = shutil.which("micropython") or str(Path(sys.executable).with_name("micropython"))
    if not Path(exe).exists():
        sys.exit("micropython not found: run `make setup`")
    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / "crcbench.py"
        script.write_text(MP_SCRIPT)
        env = dict(os.environ, MICROPYPATH=str(ROOT / "firmware"))
        proc = subprocess.run([exe, str(script), str(n)], capture_output=True, text=True, env=env,
                              timeout=600)
    if proc.returncode != 0:
        sys.exit(f"the MicroPython side failed:\n{proc.stdout}{proc.stderr}")
    print(f"frame CRC under the MicroPython unix port, {n:,} frames per figure")
    print("| frame body | binascii.crc32 | wirecrc.crc32_into | ratio "
          "| CRCs ≥ 2**30 (boxed on 32-bit) |")
    print("|---|---|---|---|---|")
    for line in proc.stdout.split("\n"):
        if not line.strip():
            continue
        size, t_bin, t_vip, big = line.split()
        ratio = float(t_vip) / float(t_bin)
        print(f"| {size} B | {float(t_bin):.3f} µs | {float(t_vip):.3f} µs | {ratio:.2f}× | "
              f"{int(big) * 100 / n:.0f} % |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
