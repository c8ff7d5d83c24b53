"""The Pi table runs the firmware's own modules (issue 34): imported from firmware/, never copied.

`python -m futmesa.sbc.device --modules` imports what the Pi table's process
runs and prints where each module came from; the host package holds none of
the firmware's filters, clocks or link (the old host-side SBC reader, with its
own debounce, refractory and stuck-line filters, is gone).
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# (not Buzzer: config.Buzzer is the buzzer's setting, not a second buzzer driver)
FIRMWARE_CLASSES = {"App", "Inputs", "GoalLine", "Tuning", "MatchClock", "LanceTimer",
                    "DeviceLink", "NvStore", "MachineBoard", "GoalTof"}


def test_the_device_process_imports_the_firmware_from_firmware() -> None:
    proc = subprocess.run([sys.executable, "-m", "futmesa.sbc.device", "--modules"],
                          capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    where = dict(line.split(" ", 1) for line in proc.stdout.splitlines())
    for name in ("app", "inputs", "matchclock", "lance", "buzzer", "link", "nvstore",
                 "boards", "boards.linux"):
        assert Path(where[name]).resolve().is_relative_to(ROOT / "firmware"), (name, where)
    assert Path(where["futmesa_tof"]).resolve() == ROOT / "hardware/micropython/futmesa_tof.py"


def test_the_host_package_reimplements_no_firmware_part() -> None:
    found = []
    for path in sorted((ROOT / "host" / "futmesa").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef) and node.name in FIRMWARE_CLASSES:
                found.append(f"{path.relative_to(ROOT)}: class {node.name}")
        text = path.read_text(encoding="utf-8").lower()
        if "debounce" in text or "refractory" in text:
            found.append(f"{path.relative_to(ROOT)}: a sensor filter (debounce/refractory)")
    assert not found, "the firmware's parts live in firmware/ only:\n" + "\n".join(found)
    assert not (ROOT / "host/futmesa/hardware/sbc.py").exists()
