"""The simulated table's processes: they go away with the process that started them."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

SCRIPT = """
import sys, time
from futmesa.sim.table import SimTable
sim = SimTable(speed=10)
sim.start()
print(sim.firmware.pid, sim.socat.pid, flush=True)
time.sleep(600)
"""


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    status = Path(f"/proc/{pid}/status")
    return status.exists() and "zombie" not in status.read_text()


def test_firmware_and_cable_stop_when_their_host_is_killed() -> None:
    host = subprocess.Popen([sys.executable, "-c", SCRIPT], stdout=subprocess.PIPE, text=True)
    assert host.stdout is not None
    firmware_pid, socat_pid = (int(x) for x in host.stdout.readline().split())
    try:
        time.sleep(0.5)
        assert _alive(firmware_pid)
        host.send_signal(signal.SIGKILL)  # no clean-up code runs in the host
        host.wait(timeout=10)
        deadline = time.monotonic() + 10
        while (_alive(firmware_pid) or _alive(socat_pid)) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not _alive(firmware_pid), "the simulated firmware outlived its host"
        assert not _alive(socat_pid), "the pty pair (socat) outlived its host"
    finally:
        for pid in (firmware_pid, socat_pid):
            if _alive(pid):
                os.kill(pid, signal.SIGKILL)


def test_the_end_of_period_alarm_is_heard_on_the_simulated_buzzer() -> None:
    """000 Art. 8 §10: the half ends when the alarm sounds; the sim board's buzzer shows it.

    Measured in device time (the sim board stamps each buzzer change with its ms), so a
    busy host reading the board's output late changes nothing: the alarm lasts 2 s of
    device time and starts when the device ends the period; the lance timer's short beeps
    (200 ms) are not it.
    """
    from futmesa_testkit.livetable import LiveTable

    with LiveTable(speed=60, ruleset="pastilha-8x2-clube") as live:  # 2 x 5 min: 5 s here
        live.start_match()
        live.wait(lambda: live.daemon.status.flags & 4, 90, "the interval")  # ST_INTERVAL

        def period_over() -> int | None:
            rows = live.daemon.store.entries(live.daemon.match["id"])
            return next((e.ticks for e in rows if e.kind == "period_over"), None)

        live.wait(lambda: period_over() is not None, 90, "the end of the period in the log")
        over = period_over()
        assert over is not None
        live.wait(lambda: any(f == 0 and t > over for t, f, _ in live.sim.buzzer_device_log),
                  90, "the alarm to end")
        log = list(live.sim.buzzer_device_log)
    pairs = zip(log, log[1:], strict=False)
    tones = [(t0, t1 - t0) for (t0, f0, _), (t1, _, _) in pairs if f0 > 0]
    long_tones = [(t, d) for t, d in tones if d >= 2000 * 0.9]
    assert long_tones, f"no alarm-length tone (device ms) among {tones}"
    start, _ = long_tones[-1]
    assert abs(start - over) < 500, (f"the alarm started at device ms {start}, the period "
                                     f"ended at {over}")
