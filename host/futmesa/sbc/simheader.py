"""A Raspberry Pi header without a Pi: simulated pins and VL53L0X sensors, driven as the sim board.

The Linux board (firmware/boards/linux.py) takes it as its `machine`: the
firmware's MachineBoard opens its pins on it, and its ToF goal lines start
Adafruit's unmodified VL53L0X driver (through futmesa_tof, as on the Pico) on
a fake I2C bus whose sensors answer at the register level
(futmesa.hardware.fakei2c), powered through their XSHUT pins.

Its inputs are set by the sim board's control lines on stdin (`goal N`,
`out Z`, `palheta A|C|B`, `button turnA`, `beam N 0|1`, `net Z 0|1`,
`tof N MM [MS]`, `i2c N dead|ok`, `unplug`, `replug`, `sync N`, `ping`;
docs/architecture.md), so `futmesa demo --board sbc` and the tests drive it
as they drive the MicroPython sim. A `goal` on a break-beam line blocks the
beam's pin; on a ToF line the sensor measures a ball (20 mm) for a few
measurements. Pulses last a few loop passes and at least 40 device ms, so a
goal is one goal at any speed. The buzzer's changes are printed as
`BUZ <freq> <duty> <device ms>`, like the sim board's.
"""

from __future__ import annotations

import os
import select
import sys
import time
from typing import Any

from futmesa.hardware.fakei2c import FakeI2C, FakeMachineI2C, FakeVL53L0X

PULSE_MS = 40  # device ms a pulse lasts at least ...
PULSE_PASSES = 4  # ... and loop passes (a beam, a net zone)
BUTTON_PASSES = 8
TOF_PULSE_SAMPLES = 6  # a ball in front of a ToF sensor: this many measurements
STDIN_POLL_S = 0.005  # real seconds between looks at the control lines
BALL_MM = 20
EMPTY_MM = 120
_PALHETA = {"A": (True, False), "C": (False, False), "B": (False, True)}
_BUTTONS = ("turnA", "turnB", "referee")


class _Pulse:
    """A level held for a number of passes and device ms, then released."""

    def __init__(self, pin: int, level: int, passes: int, until: int) -> None:
        self.pin, self.level, self.passes, self.until = pin, level, passes, until


class SimHeader:
    """The `machine` of a simulated Pi header (Pin, I2C, PWM, WDT, unique_id)."""

    def __init__(self, cfg: dict[str, Any], goal_kinds: tuple[str, str], uid: bytes,
                 exit_on_eof: bool = False) -> None:
        header = self
        self.cfg = cfg
        self.uid = uid[:8].ljust(8, b"0")
        self.exit_on_eof = exit_on_eof
        self.active = int(cfg.get("input_active", 0))
        self.levels: dict[int, int] = {}  # input pin -> level it reads (idle: not active)
        self.sensors: dict[int, FakeVL53L0X] = {}  # goal line -> its ToF sensor
        self._xshut: dict[int, FakeVL53L0X] = {}  # XSHUT pin -> the sensor it powers
        self.goal_kinds = goal_kinds
        self.beam_pin: dict[int, tuple[int, int]] = {}  # goal -> (pin, blocked level)
        for g in cfg.get("goal_sensors", ()):
            gid = int(g["id"])
            if goal_kinds[gid] == "tof":
                sensor = FakeVL53L0X(distance_mm=EMPTY_MM, powered=False)
                self.sensors[gid] = sensor
                self._xshut[int(g["xshut"])] = sensor
            else:
                blocked = int(g.get("beam_blocked", 1))
                self.beam_pin[gid] = (int(g["beam_pin"]), blocked)
                self.levels[int(g["beam_pin"])] = 1 - blocked
        self.net_pins = [int(z["pin"]) for z in sorted(cfg["side_net"], key=lambda z: z["zone"])]
        self.palheta_pins = (int(cfg["palheta"]["pin_a"]), int(cfg["palheta"]["pin_b"]))
        self.button_pins = {k: int(v) for k, v in cfg.get("buttons", {}).items() if v is not None}
        for n in (*self.net_pins, *self.palheta_pins, *self.button_pins.values()):
            self.levels[n] = 1 - self.active
        self.bus = FakeI2C(list(self.sensors.values()))
        self._pulses: list[_Pulse] = []
        # goal -> (measurement count, device ms) both reached before its reading ends
        self._tof_pulses: dict[int, tuple[int, int, int]] = {}  # ... and the distance after
        self._board: Any = None
        self._buz = (0, 0)
        self._pending = b""
        self._stdin_open = True
        self._stdin_last = 0.0

        class Pin:
            IN = 0
            OUT = 1
            PULL_UP = 1
            IRQ_RISING = 1
            IRQ_FALLING = 2

            def __init__(self, n: int, mode: int = 0, pull: int | None = None,
                         value: int | None = None) -> None:
                self.n = int(n)
                if mode == Pin.OUT:
                    self.value(value or 0)

            def value(self, v: int | None = None) -> int | None:
                if v is None:
                    return header.levels.get(self.n, 1 - header.active)
                sensor = header._xshut.get(self.n)
                if sensor is not None:
                    sensor.power(bool(v))
                return None

            def irq(self, handler: Any = None, trigger: int = 0, hard: bool = False) -> None:
                return None  # polled, as Blinka's pins

        self.Pin = Pin

    # -- the machine the board opens ------------------------------------------------------
    def I2C(self, bus_id: int, sda: Any = None, scl: Any = None,  # noqa: N802 - machine's
            freq: int = 400000) -> FakeMachineI2C:
        return FakeMachineI2C(self.bus)

    def PWM(self, pin: Any) -> _SimBuzzer:  # noqa: N802 - machine's name
        return _SimBuzzer(self)

    def WDT(self, timeout: int = 4000) -> _NoWatchdog:  # noqa: N802 - machine's name
        return _NoWatchdog()

    def unique_id(self) -> bytes:
        return self.uid

    def attach(self, board: Any) -> None:
        self._board = board

    def buzzer_changed(self, freq: int, duty: int) -> None:
        if (freq, duty) != self._buz:
            self._buz = (freq, duty)
            print("BUZ", freq, duty, self._now(), flush=True)

    def _now(self) -> int:
        return int(self._board.ticks_ms()) if self._board is not None else 0

    # -- each loop pass (LinuxBoard.service) ----------------------------------------------
    def service(self) -> None:
        self._age_pulses()
        now = time.monotonic()
        if now - self._stdin_last < STDIN_POLL_S:  # as the sim board: not a syscall a pass
            return
        self._stdin_last = now
        for line in self._control_lines():
            self.command(line.split())

    def _age_pulses(self) -> None:
        if self._pulses:
            now = self._now()
            keep = []
            for p in self._pulses:
                p.passes -= 1
                if p.passes <= 0 and now - p.until >= 0:
                    self.levels[p.pin] = 1 - p.level
                else:
                    keep.append(p)
            self._pulses = keep
        for gid, (end, until, after) in list(self._tof_pulses.items()):
            sensor = self.sensors[gid]
            if sensor.measurements >= end and self._now() - until >= 0:
                sensor.distance_mm = after
                del self._tof_pulses[gid]

    def _control_lines(self) -> list[str]:
        if not self._stdin_open:
            return []
        try:
            ready, _w, _x = select.select([sys.stdin], [], [], 0)
        except (OSError, ValueError):
            ready = []
        if not ready:
            return []
        chunk = os.read(sys.stdin.fileno(), 4096)
        if not chunk:
            self._stdin_open = False
            if self.exit_on_eof:
                print("LOG control channel closed: the simulated table stops", flush=True)
                raise SystemExit(0)
            return []
        data = self._pending + chunk
        *lines, self._pending = data.split(b"\n")
        return [raw.decode(errors="replace") for raw in lines]

    def _pulse(self, pin: int, level: int, passes: int, ms: int = PULSE_MS) -> None:
        self.levels[pin] = level
        self._pulses.append(_Pulse(pin, level, passes, self._now() + ms))

    def command(self, words: list[str]) -> None:
        """One control line (the sim board's language)."""
        if not words:
            return
        cmd, args = words[0], words[1:]
        try:
            if cmd == "goal":
                self.goal(int(args[0]))
            elif cmd == "beam":
                pin, blocked = self.beam_pin[int(args[0])]
                self.levels[pin] = blocked if int(args[1]) else 1 - blocked
            elif cmd == "tof":
                sensor = self.sensors[int(args[0])]
                if len(args) > 2:  # held MS device ms (and a few measurements), then as before
                    self._pulse_tof(int(args[0]), int(args[1]), int(args[2]))
                else:
                    sensor.distance_mm = int(args[1])
            elif cmd == "i2c":
                self.sensors[int(args[0])].dead = args[1] == "dead"
            elif cmd == "out":
                self._pulse(self.net_pins[int(args[0])], self.active, PULSE_PASSES)
            elif cmd == "net":
                level = int(args[1])
                self.levels[self.net_pins[int(args[0])]] = self.active if level else 1 - self.active
            elif cmd == "palheta":
                a, b = _PALHETA[args[0]]
                self.levels[self.palheta_pins[0]] = self.active if a else 1 - self.active
                self.levels[self.palheta_pins[1]] = self.active if b else 1 - self.active
            elif cmd == "button":
                if args[0] not in _BUTTONS:
                    raise KeyError(args[0])
                self._pulse(self.button_pins[args[0]], self.active, BUTTON_PASSES, 3 * PULSE_MS)
            elif cmd == "unplug" and self._board is not None:
                self._board.port.unplug()
            elif cmd == "replug" and self._board is not None:
                self._board.port.replug()
            elif cmd == "sync":
                print("SYNC", args[0], flush=True)
            elif cmd == "ping":
                print("PONG", flush=True)
            else:
                print("LOG unknown sim command: " + " ".join(words), flush=True)
        except (IndexError, ValueError, KeyError):
            print("LOG bad sim command: " + " ".join(words), flush=True)

    def _pulse_tof(self, gid: int, mm: int, ms: int) -> None:
        """Sensor `gid` measures `mm` for `ms` device ms (and a few measurements), then what it
        measured before."""
        sensor = self.sensors[gid]
        before = self._tof_pulses.get(gid, (0, 0, sensor.distance_mm))[2]
        sensor.distance_mm = mm
        self._tof_pulses[gid] = (sensor.measurements + TOF_PULSE_SAMPLES, self._now() + ms,
                                 before)

    def goal(self, gid: int) -> None:
        """A ball crosses goal line `gid`: its beam is blocked, or its ToF sensor sees it."""
        if gid in self.sensors:
            self._pulse_tof(gid, BALL_MM, PULSE_MS)
        else:
            pin, blocked = self.beam_pin[gid]
            self._pulse(pin, blocked, PULSE_PASSES)


class _SimBuzzer:
    def __init__(self, header: SimHeader) -> None:
        self.header = header
        self._freq = 0

    def freq(self, hz: int) -> None:
        self._freq = int(hz)

    def duty_u16(self, duty: int) -> None:
        self.header.buzzer_changed(self._freq if duty else 0, int(duty))


class _NoWatchdog:
    def feed(self) -> None:
        pass
