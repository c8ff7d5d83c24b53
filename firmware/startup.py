"""Power-up on a real board: find the board file, write the image's default at first boot, or say
clearly what is wrong and stay reachable so `futmesa flash` can fix it.

main.py calls `board_config()`. The board file is `board.json` on the board's
flash (`futmesa flash` writes it). At the first boot of the futmesa image
(no board.json and no state folder yet: a fresh or freshly formatted flash)
the image's default board file (`futmesa_default_board`, frozen from
hardware/boards/pico.json) is written there; if the flash cannot take it, the
default is used from RAM (the store then reports the storage fault).

Any other missing or unreadable board file is a fault the club must fix: the
board never falls back to another board. `signal()` prints what to do on the
USB console (the REPL, which stays reachable), blinks the LED (3 short blinks
every 2 s, from a hardware timer, so it goes on while the REPL runs) and keeps
the text in `PROBLEM` (`mpremote exec "import startup; print(startup.PROBLEM)"`).
"""

import sys

from micropython import const

BOARD_FILE = "board.json"
STATE_DIR = "/state"
# the board file each port's image drives (sys.platform → "board")
PLATFORM_BOARD = {"rp2": "pico", "esp32": "esp32"}
LED_PIN = const(25)  # the Pico's on-board LED (GPIO 25)
BLINK_MS = const(150)  # one slot of the pattern: on, off, on, off, on, then 9 slots off (2.1 s)
BLINK_SLOTS = const(14)

PROBLEM = None  # the text signal() last showed, for a host at the REPL
_TIMER = [None]  # the blinking timer: kept referenced, or the GC would finalise (stop) it


def _exists(path):
    import os

    try:
        os.stat(path)
    except OSError:
        return False
    return True


def _default_board():
    try:
        import futmesa_default_board  # type: ignore[import-not-found]  # frozen by the image build
    except ImportError:
        return None, None
    return futmesa_default_board.BOARD, futmesa_default_board.BOARD_JSON


def board_config(platform=None, path=BOARD_FILE, state_dir=STATE_DIR, default=None):
    """(cfg, None) with the board file as a dict, or (None, problem) saying what to do.

    `default`: (board name, JSON text) of the image's default board file; None reads
    `futmesa_default_board` (absent on a stock MicroPython: no default, board.json
    must be flashed).
    """
    import json

    want = PLATFORM_BOARD.get(platform or sys.platform)
    try:
        with open(path) as f:
            text = f.read()
    except OSError:
        text = None
    if text is None:
        name, default_json = default if default is not None else _default_board()
        if default_json is None or _exists(state_dir):
            return None, ("%s is missing: write it with `futmesa flash --board %s --port PORT`"
                          % (path, want or "pico"))
        if want is not None and name != want:
            return None, ("this image's default board file is for %s, not this %s board: "
                          "`futmesa flash --board %s --port PORT`" % (name, platform, want))
        try:
            with open(path, "w") as f:  # first boot: the image's board file
                f.write(default_json)
        except OSError:
            pass  # a flash that takes no writes: the default from RAM (the store reports it)
        return json.loads(default_json), None
    try:
        cfg = json.loads(text)
    except ValueError:
        cfg = None
    if not isinstance(cfg, dict) or "board" not in cfg:
        return None, ("%s is unreadable (not a board file): write it again with "
                      "`futmesa flash --board %s --port PORT`" % (path, want or "pico"))
    if want is not None and cfg["board"] != want:
        return None, ("%s is for the %s board, but this is a %s: `futmesa flash --board %s "
                      "--port PORT`" % (path, cfg["board"], platform or sys.platform, want))
    return cfg, None


def signal(problem, machine=None, out=None, platform=None):
    """Show `problem` on the console and blink the LED (Pico); returns the blinking timer."""
    global PROBLEM
    PROBLEM = problem
    if out is None:
        out = print
    out("futmesa: PARADO - " + problem)
    out("futmesa: STOPPED - the table is not running; the LED blinks 3 times every 2 s "
        "until the board file is fixed")
    try:
        import micropython

        micropython.kbd_intr(3)  # Ctrl-C works: mpremote must reach the REPL
    except (ImportError, AttributeError):
        pass
    if (platform or sys.platform) != "rp2":
        return None  # other boards' LED pins come only from the board file
    if machine is None:
        import machine
    try:
        led = machine.Pin("LED", machine.Pin.OUT)  # Pico and Pico W
    except (TypeError, ValueError):
        led = machine.Pin(LED_PIN, machine.Pin.OUT)
    slot = [0]

    def _blink(_timer):
        n = slot[0]
        led.value(1 if n < 6 and not n & 1 else 0)
        slot[0] = (n + 1) % BLINK_SLOTS

    timer = machine.Timer(-1, period=BLINK_MS, callback=_blink)
    _TIMER[0] = timer
    return timer
