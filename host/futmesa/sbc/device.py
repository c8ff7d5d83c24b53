"""The Pi table's own process: firmware/ under CPython on the Linux board, on a pseudo-terminal.

    python -m futmesa.sbc.device --board-file rpi --port PTY --state DIR [--simulated]

It imports the firmware's modules from firmware/ (never a copy: `--modules`
prints where each came from), gives them the MicroPython names they use
(futmesa.sbc.mpcompat), builds the Linux board (firmware/boards/linux.py) on
Blinka — or on the simulated header with `--simulated` — and runs `App`, the
same loop as on the Pico. The daemon talks to it over the pty exactly as to a
Pico over USB. Its `--state` folder is its flash: boot id, clock checkpoint,
profile, calibration; keep it across restarts and the clock resumes from it.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from futmesa.hardware.boardfile import BoardFileError, hardware_dir, load_board
from futmesa.i18n import N_, _
from futmesa.sbc import mpcompat

FIRMWARE_MODULES = ("app", "inputs", "matchclock", "lance", "buzzer", "link", "nvstore",
                    "futmesa_wire", "boards", "boards.linux", "boards.ptyport", "futmesa_tof")


def firmware_dir() -> Path:
    """firmware/ of this source tree (`$FUTMESA_FIRMWARE_DIR` overrides)."""
    env = os.environ.get("FUTMESA_FIRMWARE_DIR")
    return Path(env) if env else Path(__file__).resolve().parents[3] / "firmware"


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m futmesa.sbc.device", description=__doc__)
    p.add_argument("--board-file", default="rpi", help="board name or JSON path (default rpi)")
    p.add_argument("--port", help="the pty the daemon reads (the table's data channel)")
    p.add_argument("--state", default="futmesa-mesa", help="the table's flash: a folder")
    p.add_argument("--speed", type=int, default=1, help="device time runs N times faster")
    p.add_argument("--ring", type=int, default=512)
    p.add_argument("--uid", default="PISIM001", help="--simulated: the board's unique id")
    p.add_argument("--goal-sensor", choices=("beam", "tof", "mixed"), default=None,
                   help="override the board file's goal-line sensor types")
    p.add_argument("--simulated", action="store_true",
                   help="simulated pins and VL53L0X sensors, driven by control lines on stdin")
    p.add_argument("--exit-on-eof", action="store_true",
                   help="stop when stdin closes (the process driving it is gone)")
    p.add_argument("--no-watchdog", action="store_true")
    p.add_argument("--modules", action="store_true",
                   help="print where each firmware module was imported from, and exit")
    return p


def import_firmware() -> dict[str, Any]:
    """Import the firmware's modules from firmware/ (and futmesa_tof from hardware/)."""
    mpcompat.install()
    for path in (str(hardware_dir() / "micropython"), str(firmware_dir())):
        if path not in sys.path:
            sys.path.insert(0, path)
    import importlib

    return {name: importlib.import_module(name) for name in FIRMWARE_MODULES}


_SBC_HELP = N_("on the Raspberry Pi: `pip install -e '.[hardware]'`, enable I2C with `sudo "
               "raspi-config nonint do_i2c 0`, reboot, and run futmesa as a user in the gpio and "
               "i2c groups (docs/install.md)")


def pins_problem(exc: OSError) -> str:
    """The Linux board's failure to open its pins, in the organiser's words."""
    what = getattr(exc, "what", None)
    machine = getattr(exc, "machine", "?")
    detail = getattr(exc, "detail", str(exc))
    if machine == "GENERIC_LINUX_PC":
        return _("this computer is not a Raspberry Pi (Blinka sees {machine}): run `futmesa "
                 "serve --sbc` on the Pi, or try it here with `futmesa demo --board sbc`").format(
                     machine=machine)
    if what == "blinka":
        text = _("Blinka cannot start on this machine ({problem})").format(problem=detail)
    elif what == "pin":
        text = _("cannot open pin {pin} on {machine}: the board file's pins are BCM GPIO "
                 "numbers").format(pin=detail, machine=machine)
    elif what == "i2c":
        text = _("cannot open the I2C bus ({problem})").format(problem=detail)
    else:
        return str(exc)
    return text + "; " + _(_SBC_HELP)


def main(argv: list[str] | None = None) -> int:
    ns = _parser().parse_args(argv)
    try:
        board_file = load_board(ns.board_file)
    except BoardFileError as exc:
        print(_("Error: {problem}").format(problem=exc), file=sys.stderr)
        return 2
    mods = import_firmware()
    if ns.modules:
        for name in FIRMWARE_MODULES:
            print(name, mods[name].__file__)
        return 0
    boards = mods["boards"]
    cfg = dict(board_file.data)
    machine = None
    if ns.simulated:
        from futmesa.sbc.simheader import SimHeader

        kinds = boards.goal_kinds_from(cfg, ns.goal_sensor)
        machine = SimHeader(cfg, kinds, ns.uid.encode(), exit_on_eof=ns.exit_on_eof)
    os.makedirs(ns.state, exist_ok=True)
    args: dict[str, Any] = {"board_cfg": cfg, "port": ns.port, "state": ns.state,
                            "speed": str(ns.speed), "machine": machine}
    if ns.goal_sensor:
        args["goal_sensor"] = ns.goal_sensor
    if ns.no_watchdog:
        args["no_watchdog"] = "1"
    try:
        board = boards.load("rpi", args)
    except OSError as exc:
        print(_("Error: {problem}").format(problem=pins_problem(exc)), file=sys.stderr)
        return 2
    store = mods["nvstore"].NvStore(ns.state)
    app = mods["app"].App(board, store, ns.ring)
    major, minor, patch = mods["futmesa_wire"].FIRMWARE_VERSION
    board.log(f"futmesa firmware {major}.{minor}.{patch} boot {app.boot_id} on {board.name} "
              f"(CPython, firmware from {firmware_dir()})")
    try:
        app.run()
    except KeyboardInterrupt:
        board.buzzer(0, 0)
    return 0


if __name__ == "__main__":
    sys.exit(main())
