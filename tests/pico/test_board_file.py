"""A Pico whose board file is missing gives a clear signal and never runs another board.

The real image on the virtual Pico: a freshly flashed board (the image writes its
default board file and its state folder at first boot) is handed back to its REPL
(CMD_REPL, as `futmesa flash` does), its board.json is deleted with mpremote, and the
reset button pressed. The board must then say what to do on its USB console (what it
printed at boot reaches only a host that had the port open then, so the test asks the
REPL for `startup.PROBLEM`, as docs/firmware.md tells a club to), blink the LED 3 times
every 2.1 s (read from the LED pin's GPIO output, in
device time), keep its REPL reachable, and never start futmesa on some other board
(the old behaviour fell back to the sim board and died on `ImportError: boards.sim`).
"""

from __future__ import annotations

import re
import time

import pytest
import serial

from futmesa.deploy.flash import release_board

from .picorepl import mpremote_exec

BLINK_US = 150_000  # one slot of the pattern (firmware/startup.py BLINK_MS)
PERIOD_US = 14 * BLINK_US  # 3 blinks, then dark: 2.1 s



def read_until(ser: serial.Serial, pattern: str, timeout: float, pico) -> str:
    """Bytes from the board's console until `pattern` (a regex) matches them."""
    got = b""
    deadline = time.monotonic() + timeout
    while True:
        got += ser.read(4096)
        text = got.decode(errors="replace").replace("\r", "")
        if re.search(pattern, text, re.M):
            return text
        if time.monotonic() > deadline or not pico.alive:
            raise AssertionError(f"the console never matched {pattern!r}; it said:\n{text}\n"
                                 + pico.output_tail())


def blinks(edges: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """(rise µs, on-time µs) of each complete LED pulse."""
    out, rise = [], None
    for us, level in edges:
        if level and rise is None:
            rise = us
        elif not level and rise is not None:
            out.append((rise, us - rise))
            rise = None
    return out


@pytest.mark.timeout(1500)
def test_a_missing_board_file_shows_the_problem_and_blinks_the_led(pico_factory) -> None:
    pico = pico_factory("tof")  # blank flash: the first boot writes board.json and /state
    pico.start()
    # futmesa runs (it answers the handshake): hand the port back as `futmesa flash` does
    assert release_board(pico.host_port, timeout_s=600, ack_timeout_s=300) is not None, \
        pico.output_tail()
    pico.wait_line("LOG booted (watchdog)", 300)  # the REPL-only boot
    out = mpremote_exec(pico.host_port, "import os; os.remove('board.json'); "
                        "print('gone', 'board.json' not in os.listdir(), "
                        "'state' in os.listdir())", 600)
    assert "gone True True" in out, out
    events_before = len(pico.events)
    with serial.Serial(pico.host_port, 115200, timeout=0.2) as ser:
        start, led_start = len(pico.lines), len(pico.led_edges)
        pico.reset()  # the reset button: a normal boot, with board.json gone
        # the LED: 3 blinks of 150 ms every 2.1 s, read from the pin in device time
        deadline = time.monotonic() + 600
        while len(blinks(pico.led_edges[led_start:])) < 7:
            assert time.monotonic() < deadline and pico.alive, \
                f"LED pulses: {blinks(pico.led_edges[led_start:])}\n" + pico.output_tail()
            time.sleep(0.2)
        # what the board printed at boot, if the port was already up to carry it (a host
        # that opens the port later asks the REPL: startup.PROBLEM)
        boot_text = ser.read(65536).decode(errors="replace").replace("\r", "")
        # the REPL is reachable, and nothing of futmesa's loop or any board layer was loaded
        ser.write(b"\r\nimport sys, startup\r\n")
        ser.write(b"print('MODS', sorted(m for m in sys.modules if m.startswith('boards') "
                  b"or m in ('app', 'link')))\r\n")
        ser.write(b"print('PROBLEM', startup.PROBLEM)\r\n")
        text = read_until(ser, r"^PROBLEM .*$", 300, pico)
    assert re.search(r"^MODS \[\]$", text, re.M), text
    assert re.search(r"^PROBLEM board\.json is missing: write it with `futmesa flash --board "
                     r"pico --port PORT`$", text, re.M), text
    for line in boot_text.splitlines():  # whatever of the boot output got through
        assert "Traceback" not in line and "ImportError" not in line, boot_text
    assert pico.events[events_before:] == [], "the board sent futmesa event frames"
    assert pico.resets[-1:] == ["button"] and len(pico.lines) > start
    pulses = blinks(pico.led_edges[led_start:])[:7]
    for _rise, on in pulses:
        assert abs(on - BLINK_US) < 40_000, pulses
    gaps = [b[0] - a[0] for a, b in zip(pulses, pulses[1:], strict=False)]
    # find the pattern's phase: the long gap (1.5 s) comes after every third blink
    longs = [i for i, g in enumerate(gaps) if g > 4 * BLINK_US]
    assert longs and all((i - longs[0]) % 3 == 0 for i in longs), gaps
    for i, gap in enumerate(gaps):
        want = PERIOD_US - 4 * BLINK_US if i in longs else 2 * BLINK_US
        assert abs(gap - want) < 40_000, gaps
