"""Run by test_blinka_board.py in a process of its own (the firmware's MicroPython names are
installed into it): the Linux board on Blinka's API — `board`, `digitalio`, `busio` stand-ins
whose pins and I2C bus are the fake ones — under the firmware's own App. Prints JSON."""

from __future__ import annotations

import json
import os
import socket
import sys
import tempfile
import time
import types
from typing import Any

from futmesa.hardware.boardfile import load_board
from futmesa.hardware.fakei2c import FakeI2C, FakeVL53L0X
from futmesa.sbc.device import import_firmware

mods = import_firmware()
cfg = dict(load_board("rpi").data)
goals = [dict(g) for g in cfg["goal_sensors"]]
goals[0]["type"] = "beam"  # goal line 0: a break-beam on GPIO 5; goal line 1: VL53L0X (XSHUT 27)
cfg["goal_sensors"] = goals
levels: dict[int, bool] = {}
outputs: dict[int, list[bool]] = {}
sensor = FakeVL53L0X(distance_mm=150, powered=False)
xshut = {int(goals[1]["xshut"]): sensor}
bus = FakeI2C([sensor])


class BcmPin:
    def __init__(self, n: int) -> None:
        self.id = n


board = types.ModuleType("board")
board.board_id = "RASPBERRY_PI_4B"  # type: ignore[attr-defined]
for n in range(28):
    setattr(board, f"D{n}", BcmPin(n))
board.SCL, board.SDA = BcmPin(3), BcmPin(2)  # type: ignore[attr-defined]


class Pull:
    UP = "up"


class DigitalInOut:
    def __init__(self, pin: BcmPin) -> None:
        self.n = pin.id
        self.output = False

    def switch_to_output(self, value: bool = False) -> None:
        self.output = True
        self.value = value

    def switch_to_input(self, pull: Any = None) -> None:
        self.output = False
        levels.setdefault(self.n, pull == Pull.UP)  # an open input reads its pull

    @property
    def value(self) -> bool:
        return levels.get(self.n, True)

    @value.setter
    def value(self, v: bool) -> None:
        outputs.setdefault(self.n, []).append(bool(v))
        if self.n in xshut:
            xshut[self.n].power(bool(v))

    def deinit(self) -> None:
        pass


digitalio = types.ModuleType("digitalio")
digitalio.DigitalInOut = DigitalInOut  # type: ignore[attr-defined]
digitalio.Pull = Pull  # type: ignore[attr-defined]
busio = types.ModuleType("busio")
busio.I2C = lambda scl, sda, frequency=400000: bus  # type: ignore[attr-defined]
sys.modules.update(board=board, digitalio=digitalio, busio=busio)
sys.modules["pwmio"] = None  # type: ignore[assignment]  # no PWM: the buzzer is switched

levels[5] = False  # the beam is clear (beam_blocked 1)
state = tempfile.mkdtemp(prefix="futmesa-blinka-")
# systemd's watchdog socket (WatchdogSec=, NotifyAccess=all): the loop tells it it runs
notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
notify.bind(os.path.join(state, "notify"))
notify.settimeout(5)
os.environ["NOTIFY_SOCKET"] = os.path.join(state, "notify")
pi = mods["boards"].load("rpi", {"board_cfg": cfg, "port": None, "state": state})
app = mods["app"].App(pi, mods["nvstore"].NvStore(state))


def run_for(ms: float) -> None:
    end = time.monotonic() + ms / 1000
    while time.monotonic() < end:
        app.step()
        pi.idle()


run_for(400)  # the ToF baseline settles
levels[5] = True  # a ball breaks the beam of goal line 0 ...
run_for(60)
levels[5] = False  # ... and is gone
run_for(100)
sensor.distance_mm = 20  # a ball in front of goal line 1's VL53L0X
run_for(150)
sensor.distance_mm = 150
run_for(100)
pi.buzzer(2700, 32768)
pi.buzzer(0, 0)
watchdog = notify.recv(64).decode()
print(json.dumps({
    "watchdog": watchdog,
    "kinds": list(pi.goal_kinds()),
    "goals": [g.goals for g in app.inputs.goals],
    "addresses": bus.scan(),
    "buzzer": outputs.get(int(cfg["buzzer"]["pin"]), []),
    "name": pi.name,
    "passes": app.passes,
}))
