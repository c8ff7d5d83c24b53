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

    At speed 60 the 2 s alarm lasts about 33 ms of real time; the lance timer's
    short beeps (200 ms of device time) last about 3 ms, so only the alarm is long.
    """
    from futmesa.sim.live import LiveTable

    speed = 60
    with LiveTable(speed=speed, ruleset="pastilha-8x2-clube") as live:  # 2 x 5 min: 5 s here
        live.start_match()
        live.wait(lambda: live.daemon.status.flags & 4, 30, "the interval")  # ST_INTERVAL
        over = time.monotonic()
        live.wait(lambda: any(f == 0 and t > over for t, f, _ in live.sim.buzzer_log), 10,
                  "the alarm to end")
        log = list(live.sim.buzzer_log)
    pairs = zip(log, log[1:], strict=False)
    tones = [(t0, t1 - t0) for (t0, f0, _), (t1, _, _) in pairs if f0 > 0]
    alarm_real_s = 2.0 / speed
    long_tones = [(t, d) for t, d in tones if d >= alarm_real_s * 0.6]
    assert long_tones, f"no alarm-length tone among {tones}"
    start, _ = long_tones[-1]
    assert abs(start - over) < 1.0, "the alarm did not sound at the end of the period"
