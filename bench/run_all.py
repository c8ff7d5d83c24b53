"""Runs every benchmark script in bench/ (each prints its own figures) — `make bench`."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main() -> int:
    extra = ["--quick"] if "--quick" in sys.argv[1:] else []
    failed = []
    for script in sorted(HERE.glob("*.py")):
        if script.name == "run_all.py" or script.name.startswith("_"):
            continue
        print(f"\n===== {script.name} =====", flush=True)
        if subprocess.call([sys.executable, str(script), *extra]) != 0:
            failed.append(script.name)
    if failed:
        print("benchmarks that failed to run: " + ", ".join(failed))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
