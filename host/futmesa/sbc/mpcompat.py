"""The MicroPython names firmware/ uses, for running it under CPython (the Linux board's process).

`install()` adds a `micropython` module (`const`, `kbd_intr`, `heap_lock`...) and the
`time.ticks_*` / `sleep_ms` functions, on the same ring of 2**30 ms as the rp2 port
(`futmesa_wire`'s CPython ticks). It changes the process it runs in, so only the table's
own process (futmesa.sbc.device) calls it, never the daemon.
"""

from __future__ import annotations

import sys
import time
import types

import futmesa_wire as W


def _noop(*_args: object, **_kwargs: object) -> None:
    return None


def _viper(fn: object) -> object:
    return fn  # never reached: wirecrc is imported on MicroPython only


def install() -> None:
    """Make `import micropython` and `time.ticks_ms()` work as on a board (idempotent)."""
    # (a `micropython` package of type stubs may be installed: it has `const` and no more)
    if not hasattr(sys.modules.get("micropython"), "kbd_intr"):
        mp = types.ModuleType("micropython")
        mp.const = W.const  # type: ignore[attr-defined]
        mp.kbd_intr = _noop  # type: ignore[attr-defined]
        mp.heap_lock = _noop  # type: ignore[attr-defined]
        mp.heap_unlock = _noop  # type: ignore[attr-defined]
        mp.alloc_emergency_exception_buf = _noop  # type: ignore[attr-defined]
        mp.viper = _viper  # type: ignore[attr-defined]
        mp.native = _viper  # type: ignore[attr-defined]
        sys.modules["micropython"] = mp
    if not hasattr(time, "ticks_ms"):
        time.ticks_ms = W.ticks_ms  # type: ignore[attr-defined]
        time.ticks_add = W.ticks_add  # type: ignore[attr-defined]
        time.ticks_diff = W.ticks_diff  # type: ignore[attr-defined]
        time.ticks_us = _ticks_us  # type: ignore[attr-defined]
        time.sleep_ms = _sleep_ms  # type: ignore[attr-defined]
        time.sleep_us = _sleep_us  # type: ignore[attr-defined]


def _ticks_us() -> int:
    return int(time.monotonic() * 1_000_000) & (W.TICKS_PERIOD - 1)


def _sleep_ms(ms: int) -> None:
    time.sleep(ms / 1000)


def _sleep_us(us: int) -> None:
    time.sleep(us / 1_000_000)
