"""The console's service worker keeps every file the console page loads (docs/operating.md §3:
the console opens without the network): each module under static/console/ is in its SHELL list,
so an offline reload never fails on a module the worker did not keep."""

from __future__ import annotations

import re
from pathlib import Path

STATIC = Path(__file__).resolve().parents[2] / "host" / "futmesa" / "web" / "static"


def _shell() -> set[str]:
    sw = (STATIC / "console-sw.js").read_text(encoding="utf-8")
    listed = re.search(r"const SHELL = \[(.*?)\];", sw, re.S)
    assert listed, "console-sw.js has no SHELL list"
    return set(re.findall(r'"([^"]+)"', listed.group(1)))


def _imported(module: Path, seen: set[Path]) -> set[Path]:
    """`module` and every module it imports, transitively."""
    if module in seen:
        return seen
    seen.add(module)
    for name in re.findall(r'from\s+"(\./[^"]+)"', module.read_text(encoding="utf-8")):
        _imported((module.parent / name).resolve(), seen)
    return seen


def test_every_console_module_is_kept_for_offline() -> None:
    shell = _shell()
    modules = _imported((STATIC / "console" / "main.js").resolve(), set())
    modules |= set((STATIC / "console").glob("*.js"))
    missing = sorted(f"/static/console/{m.name}" for m in modules
                     if f"/static/console/{m.name}" not in shell)
    assert not missing, f"console-sw.js SHELL lacks {missing}: offline, the console would not load"
