"""Board-file loader: finds `hardware/boards/<name>.json`, checks it and returns it.

The board file is the single source of every pin, bus and sensor address
(format described in `hardware/README.md`); the firmware reads the same JSON
with MicroPython's `json` module, so this loader adds no fields of its own.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn

from futmesa.i18n import _
from futmesa.textfiles import OrganiserFileError, read_json

FORMAT = 1
GOAL_TYPES = ("vl53l0x", "beam")
DATA_CHANNEL_TYPES = ("usb_cdc", "usb_uart", "uart", "pty", "none")
BUTTON_NAMES = ("turnA", "turnB", "referee")
DEFAULT_TOF_ADDRESS = 0x29


class BoardFileError(ValueError):
    """A board file is missing or wrong; the message says what to fix."""


def hardware_dir() -> Path:
    """The `hardware/` folder: `$FUTMESA_HARDWARE_DIR`, else the one in the source tree."""
    env = os.environ.get("FUTMESA_HARDWARE_DIR")
    if env:
        return Path(env)
    return Path(__file__).resolve().parents[3] / "hardware"


def boards_dir() -> Path:
    return hardware_dir() / "boards"


def board_names() -> list[str]:
    d = boards_dir()
    return sorted(p.stem for p in d.glob("*.json")) if d.is_dir() else []


@dataclass(frozen=True)
class Board:
    """A checked board file. `data` is the JSON object exactly as the firmware sees it."""

    name: str
    path: Path
    data: dict[str, Any]

    def __getitem__(self, key: str) -> Any:
        return self.data[key]

    @property
    def goal_sensors(self) -> list[dict[str, Any]]:
        return list(self.data["goal_sensors"])

    @property
    def side_net(self) -> list[dict[str, Any]]:
        return list(self.data["side_net"])

    def tof_addresses(self) -> list[int]:
        return [int(g["address"], 16) for g in self.goal_sensors if g["type"] == "vl53l0x"]

    def used_pins(self) -> dict[int | str, str]:
        """Every pin in use → what it is for (the beam/XSHUT alternative of each goal included)."""
        return {pin: role for role, pin in _pin_roles(self.data)}


def load_board(name_or_path: str | os.PathLike[str]) -> Board:
    """Load and check a board by name (`pico`) or by path to a JSON file."""
    text = str(name_or_path)
    by_name = not (text.endswith(".json") or os.sep in text)
    path = boards_dir() / f"{text}.json" if by_name else Path(text)
    if not path.is_file():
        known = ", ".join(board_names()) or _("none found")
        raise BoardFileError(_(
            "board file {path} not found (known boards: {known}). Pass one of the known names "
            "with --board, or the path of your own board file; if futmesa is installed outside "
            "its source tree set FUTMESA_HARDWARE_DIR to the folder that holds boards/."
        ).format(path=path, known=known))
    try:
        _text, data = read_json(path)  # the one reader of the files a person writes
    except OrganiserFileError as exc:
        raise BoardFileError(str(exc)) from None
    # a board named on the command line must be the file of that name; a file given by path
    # (e.g. one `futmesa calibrate` wrote) may be called anything
    check_board(data, where=str(path), stem=path.stem if by_name else None)
    return Board(name=data["board"], path=path, data=data)


class _Fail:
    """Raises BoardFileError naming the file, the problem and where the format is."""

    def __init__(self, where: str) -> None:
        self.where = where

    def __call__(self, msg: str) -> NoReturn:
        raise BoardFileError(_("{where}: {problem} (format: hardware/README.md)").format(
            where=self.where, problem=msg))


def check_board(data: Any, where: str | None = None, stem: str | None = None) -> None:
    """Raise BoardFileError naming the first problem in a board object."""
    fail = _Fail(where or _("board file"))
    _check_top(data, stem, fail)
    _check_goal_sensors(data["goal_sensors"], fail)
    _check_side_net_and_controls(data, fail)
    _check_pins(data, fail)


def _check_top(data: Any, stem: str | None, fail: _Fail) -> None:
    """The keys, their types, the format, the name, the data channel and the I2C bus."""
    if not isinstance(data, dict):
        fail(_("the top level must be a JSON object"))
    for key, typ in (
        ("format", int),
        ("board", str),
        ("mcu", str),
        ("data_channel", dict),
        ("i2c", dict),
        ("tof", dict),
        ("goal_sensors", list),
        ("side_net", list),
        ("palheta", dict),
        ("buttons", dict),
        ("buzzer", dict),
        ("led", dict),
    ):
        if key not in data:
            fail(_("missing key {where}; add it").format(where=repr(key)))
        if not isinstance(data[key], typ):
            fail(_("{key} must be a {type}").format(key=repr(key), type=typ.__name__))
    if data["format"] != FORMAT:
        fail(_("format {given} is not supported; this futmesa reads format {format}").format(
            given=data["format"], format=FORMAT))
    if stem is not None and data["board"] != stem:
        fail(_("'board' is {board} but the file is named {stem}.json; make them equal").format(
            board=repr(data["board"]), stem=stem))
    if data["data_channel"].get("type") not in DATA_CHANNEL_TYPES:
        fail(_("data_channel.type must be one of {types}").format(
            types=", ".join(DATA_CHANNEL_TYPES)))
    for key in ("id", "sda", "scl", "freq"):
        if not isinstance(data["i2c"].get(key), int):
            fail(_("i2c.{key} must be an integer").format(key=key))
    if data.get("input_active", 0) not in (0, 1):
        fail(_("input_active must be 0 or 1"))


def _check_goal_sensors(goals: list[Any], fail: _Fail) -> None:
    """Two goal lines, ids 0 and 1; a VL53L0X with its own address, or a beam with its pin."""
    if sorted(g.get("id") for g in goals if isinstance(g, dict)) != [0, 1]:
        fail(_("goal_sensors must have exactly the ids 0 and 1 (one per goal line)"))
    addresses: list[int] = []
    for g in goals:
        gid = g["id"]
        if g.get("type") not in GOAL_TYPES:
            fail(_("goal sensor {id}: type must be one of {types}").format(
                id=gid, types=", ".join(GOAL_TYPES)))
        if g["type"] == "vl53l0x":
            for key in ("xshut", "address", "threshold_mm"):
                if key not in g:
                    fail(_("goal sensor {id} (vl53l0x) needs {key}").format(
                        id=gid, key=repr(key)))
            try:
                addr = int(g["address"], 16)
            except (TypeError, ValueError):
                fail(_('goal sensor {id}: address must be a hex string like "0x30"').format(
                    id=gid))
            if not 0x08 <= addr <= 0x77 or addr == DEFAULT_TOF_ADDRESS:
                fail(_("goal sensor {id}: address {address} must be 0x08–0x77 and not 0x29 "
                       "(every VL53L0X starts at 0x29; give each one its own address)").format(
                           id=gid, address=g["address"]))
            if addr in addresses:
                fail(_("goal sensor {id}: address {address} is used twice").format(
                    id=gid, address=g["address"]))
            addresses.append(addr)
        else:
            if "beam_pin" not in g:
                fail(_("goal sensor {id} (beam) needs 'beam_pin'").format(id=gid))
            if g.get("beam_blocked", 1) not in (0, 1):
                fail(_("goal sensor {id}: beam_blocked must be 0 or 1").format(id=gid))


def _check_side_net_and_controls(data: dict[str, Any], fail: _Fail) -> None:
    zones = [z.get("zone") for z in data["side_net"]]
    if zones != list(range(len(zones))):
        fail(_("side_net zones must be numbered 0, 1, 2, … in order"))
    for z in data["side_net"]:
        if z.get("line") not in ("side", "end"):
            fail(_('side_net zone {zone}: line must be "side" or "end"').format(zone=z["zone"]))
        if z.get("end") not in (0, 1):
            fail(_("side_net zone {zone}: end must be 0 or 1").format(zone=z["zone"]))
        if "pin" not in z:
            fail(_("side_net zone {zone}: needs 'pin'").format(zone=z["zone"]))
    for key in ("pin_a", "pin_b"):
        if key not in data["palheta"]:
            fail(_("palheta needs {key}").format(key=repr(key)))
    for name in data["buttons"]:
        if name not in BUTTON_NAMES:
            fail(_("unknown button {name}; known: {known}").format(
                name=repr(name), known=", ".join(BUTTON_NAMES)))
    if "pin" not in data["buzzer"] or "pin" not in data["led"]:
        fail(_("buzzer and led need a 'pin'"))


def _check_pins(data: dict[str, Any], fail: _Fail) -> None:
    """No pin given two jobs; then the rest of the shape, key by key."""
    seen: dict[Any, str] = {}
    for role, pin in _pin_roles(data):
        if pin in seen:
            fail(_("pin {pin} is used twice: {first} and {second}; give one of them another "
                   "pin").format(pin=pin, first=seen[pin], second=role))
        seen[pin] = role
    from futmesa.hardware.boardmodel import board_file_problem

    problem = board_file_problem(data)  # then the rest of the shape, key by key (pydantic)
    if problem:
        fail(problem)


def _pin_roles(data: dict[str, Any]) -> list[tuple[str, Any]]:
    roles: list[tuple[str, Any]] = []
    i2c = data["i2c"]
    roles += [("i2c sda", i2c["sda"]), ("i2c scl", i2c["scl"])]
    ch = data["data_channel"]
    if ch.get("type") == "uart":
        roles += [("uart tx", ch["tx"]), ("uart rx", ch["rx"])]
    for g in data["goal_sensors"]:
        if "xshut" in g:
            roles.append((f"goal {g['id']} xshut", g["xshut"]))
        if "beam_pin" in g:
            roles.append((f"goal {g['id']} beam", g["beam_pin"]))
    for z in data["side_net"]:
        roles.append((f"side-net zone {z['zone']}", z["pin"]))
    roles += [("palheta A", data["palheta"]["pin_a"]), ("palheta B", data["palheta"]["pin_b"])]
    for name, pin in data["buttons"].items():
        if pin is not None:
            roles.append((f"button {name}", pin))
    roles += [("buzzer", data["buzzer"]["pin"]), ("led", data["led"]["pin"])]
    return roles
