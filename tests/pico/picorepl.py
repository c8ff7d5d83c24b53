"""The board's REPL through mpremote, for the virtual Pico tests."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

MPREMOTE = str(Path(sys.executable).with_name("mpremote"))


def mpremote_exec(port: str, code: str, deadline_s: float, call_timeout_s: float = 120) -> str:
    """Run code at the board's REPL with mpremote, retrying while the board is still
    booting (each call given ``call_timeout_s``); its output, or AssertionError."""
    deadline = time.monotonic() + deadline_s
    while True:
        try:
            proc = subprocess.run([MPREMOTE, "connect", port, "exec", code],
                                  capture_output=True, text=True, timeout=call_timeout_s)
            if proc.returncode == 0:
                return proc.stdout
            why = proc.stdout + proc.stderr
        except subprocess.TimeoutExpired as exc:
            why = str(exc)
        if time.monotonic() > deadline:
            raise AssertionError("mpremote never reached the REPL: " + why)

