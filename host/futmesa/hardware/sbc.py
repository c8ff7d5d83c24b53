"""Linux single-board-computer mode: the host reads the table's sensors itself through Blinka.

On a Raspberry Pi with the sensors wired to its header (board file
`hardware/boards/rpi.json`) no microcontroller is needed: `SbcTable` reads
the goal-line sensors (VL53L0X through Adafruit's driver, or break-beams),
the side-net zones, the palheta switch and the buttons, and turns them into
the same device entries the host link produces (docs/architecture.md):
`goal_line {goal}`, `ball_out {zone, line, end}`, `palheta {pos}`,
`button {button}`, `sensor_fault {sensor, fault}` and `sensor_ok {sensor}`
(sensor = goal line id, as in futmesa.link.events). Each is a dict
`{"kind", "data", "ticks"}` with `ticks` the host's monotonic ms.

The filters match the firmware's intent: an input must hold its new level
for `debounce_ms` before it counts, a goal or ball-out is reported once per
occurrence and not again within `refractory_ms`.

Tests run it on `FakeI2C` and `FakePin`s (`futmesa.hardware.fakei2c`).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from futmesa.hardware.boardfile import Board
from futmesa.hardware.tof import GoalLineDetector, TofArray, start_tof_sensors
from futmesa.i18n import N_, _

PinFactory = Callable[[int, str], Any]

DEBOUNCE_MS = 5
GOAL_REFRACTORY_MS = 1500
OUT_REFRACTORY_MS = 800
STUCK_MS = 4000  # as the firmware: no goal keeps a line blocked this long


_SBC_HELP = N_(
    "SBC mode runs on a Raspberry Pi: install with `pip install -e '.[hardware]'`, enable I2C "
    "with `sudo raspi-config nonint do_i2c 0`, reboot, and run futmesa as a user in the "
    "gpio and i2c groups"
)  # shown with _()


def _blinka() -> tuple[Any, Any, Any]:
    try:
        import board as blinka_board
        import busio
        import digitalio
    except Exception as exc:  # Blinka raises many kinds on unsupported machines
        raise RuntimeError(_("Blinka cannot start on this machine ({problem}). {help}.").format(
            problem=exc, help=_(_SBC_HELP))) from exc
    return blinka_board, busio, digitalio


def blinka_pin_factory(number: int, role: str) -> Any:
    """A Blinka `DigitalInOut` for BCM GPIO `number` (inputs pulled up, outputs low)."""
    blinka_board, _busio, digitalio = _blinka()
    name = f"D{number}"
    if not hasattr(blinka_board, name):
        raise RuntimeError(_(
            "this machine has no pin {name} ({machine}); check the pin numbers in the board "
            "file (BCM GPIO numbers). {help}.").format(
                name=name, machine=getattr(blinka_board, "board_id", "?"), help=_(_SBC_HELP)))
    try:
        pin = digitalio.DigitalInOut(getattr(blinka_board, name))
        if role == "output":
            pin.switch_to_output(value=False)
        else:
            pin.switch_to_input(pull=digitalio.Pull.UP)
    except Exception as exc:
        raise RuntimeError(_("cannot open GPIO {number} ({problem}). {help}.").format(
            number=number, problem=exc, help=_(_SBC_HELP))) from exc
    return pin


def blinka_i2c(board_cfg: Board) -> Any:
    blinka_board, busio, _digitalio = _blinka()
    try:
        return busio.I2C(blinka_board.SCL, blinka_board.SDA, frequency=board_cfg["i2c"]["freq"])
    except Exception as exc:
        raise RuntimeError(_("cannot open the I2C bus ({problem}). {help}.").format(
            problem=repr(exc), help=_(_SBC_HELP))) from exc


class _Debounced:
    """A value that only changes after the new reading has held for `debounce_ms`."""

    def __init__(self, value: Any) -> None:
        self.stable = value
        self._candidate = value
        self._since = 0

    def feed(self, value: Any, now: int, debounce_ms: int) -> bool:
        """True when the stable value has just changed (read it from `.stable`)."""
        if value == self.stable:
            self._candidate = value
            return False
        if value != self._candidate:
            self._candidate = value
            self._since = now
        if now - self._since >= debounce_ms:
            self.stable = value
            return True
        return False


class SbcTable:
    """All inputs of one board file, read directly by the host."""

    def __init__(
        self,
        board: Board,
        *,
        i2c: Any = None,
        pin_factory: PinFactory | None = None,
        clock_ms: Callable[[], int] | None = None,
        io_timeout_s: float = 0.5,
        sleep: Callable[[float], None] = time.sleep,
        debounce_ms: int = DEBOUNCE_MS,
    ) -> None:
        self.board = board
        self._pin = pin_factory or blinka_pin_factory
        self._i2c = i2c
        self._clock = clock_ms or (lambda: int(time.monotonic() * 1000))
        self._io_timeout_s = io_timeout_s
        self._sleep = sleep
        self.debounce_ms = debounce_ms
        self.active = int(board.data.get("input_active", 0))
        self.tof: TofArray | None = None
        self._detectors: dict[int, GoalLineDetector] = {}
        self._beams: dict[int, tuple[Any, int, _Debounced]] = {}
        self._net: list[tuple[dict[str, Any], Any, _Debounced]] = []
        self._palheta: tuple[Any, Any] | None = None
        self._palheta_filter: _Debounced | None = None
        self._buttons: list[tuple[str, Any, _Debounced]] = []
        self._last_goal: dict[int, int] = {}
        self._last_out: dict[int, int] = {}
        self._faulty: set[int] = set()
        self._blocked_since: dict[int, int] = {}
        self._stuck: set[int] = set()
        self.started = False

    # -- start -------------------------------------------------------------

    def start(self) -> list[dict[str, Any]]:
        """Open every pin and sensor; returns `sensor_fault` entries for sensors that failed."""
        now = self._clock()
        events: list[dict[str, Any]] = []
        tof_goals = [g for g in self.board.goal_sensors if g["type"] == "vl53l0x"]
        if tof_goals:
            if self._i2c is None:
                self._i2c = blinka_i2c(self.board)
            xshut = {g["id"]: self._pin(g["xshut"], "output") for g in tof_goals}
            self.tof = start_tof_sensors(
                self._i2c, self.board, xshut, io_timeout_s=self._io_timeout_s, sleep=self._sleep
            )
            for g in tof_goals:
                self._detectors[g["id"]] = GoalLineDetector(
                    int(g["threshold_mm"]), int(g.get("hysteresis_mm", 8))
                )
            for gid, why in sorted(self.tof.faults.items()):
                self._faulty.add(gid)
                events.append(self._fault(gid, "no_answer", why, now))
        for g in self.board.goal_sensors:
            if g["type"] == "beam":
                pin = self._pin(g["beam_pin"], "input")
                blocked_level = int(g.get("beam_blocked", 1))
                # start from what the input reads now: a beam blocked at start is no goal
                blocked = int(bool(pin.value)) == blocked_level
                self._beams[g["id"]] = (pin, blocked_level, _Debounced(blocked))
        for z in self.board.side_net:
            pin = self._pin(z["pin"], "input")
            self._net.append((z, pin, _Debounced(self._is_active(pin))))
        pal = self.board["palheta"]
        self._palheta = (self._pin(pal["pin_a"], "input"), self._pin(pal["pin_b"], "input"))
        self._palheta_filter = _Debounced(self._read_palheta())
        for name, number in sorted(self.board["buttons"].items()):
            if number is not None:
                pin = self._pin(number, "input")
                self._buttons.append((name, pin, _Debounced(self._is_active(pin))))
        self.started = True
        return events

    # -- poll --------------------------------------------------------------

    def _is_active(self, pin: Any) -> bool:
        return int(bool(pin.value)) == self.active

    def _read_palheta(self) -> str:
        assert self._palheta is not None
        a = self._is_active(self._palheta[0])
        b = self._is_active(self._palheta[1])
        if a and not b:
            return "A"
        if b and not a:
            return "B"
        return "C"

    @staticmethod
    def _event(kind: str, data: dict[str, Any], now: int) -> dict[str, Any]:
        return {"kind": kind, "data": data, "ticks": now}

    def _fault(self, gid: int, fault: str, detail: str, now: int) -> dict[str, Any]:
        return self._event(
            "sensor_fault", {"sensor": gid, "fault": fault, "detail": detail}, now
        )

    def _goal(self, gid: int, now: int) -> list[dict[str, Any]]:
        last = self._last_goal.get(gid)
        if last is not None and now - last < GOAL_REFRACTORY_MS:
            return []
        self._last_goal[gid] = now
        return [self._event("goal_line", {"goal": gid}, now)]

    def _line_blocked(self) -> dict[int, bool]:
        state = {gid: d.blocked for gid, d in self._detectors.items() if gid not in self._faulty}
        for gid, (_pin, _level, filt) in self._beams.items():
            state[gid] = bool(filt.stable)
        return state

    def _check_stuck(self, now: int) -> list[dict[str, Any]]:
        """A line blocked longer than a goal lasts is a fault (never a goal); clear again: ok."""
        out = []
        for gid, blocked in sorted(self._line_blocked().items()):
            if blocked:
                since = self._blocked_since.setdefault(gid, now)
                if now - since >= STUCK_MS and gid not in self._stuck:
                    self._stuck.add(gid)
                    out.append(self._fault(gid, "stuck", "blocked longer than a goal lasts", now))
            else:
                self._blocked_since.pop(gid, None)
                if gid in self._stuck:
                    self._stuck.discard(gid)
                    out.append(self._event("sensor_ok", {"sensor": gid}, now))
        return out

    def poll(self) -> list[dict[str, Any]]:
        """Read every input once; returns the entries that happened."""
        if not self.started:
            raise RuntimeError("call start() before poll()")
        now = self._clock()
        events: list[dict[str, Any]] = []
        if self.tof is not None:
            for gid in sorted(self.tof.sensors):
                try:
                    mm = self.tof.read_mm(gid)
                except (OSError, RuntimeError) as exc:
                    if gid not in self._faulty:
                        self._faulty.add(gid)
                        events.append(self._fault(gid, "no_answer", str(exc), now))
                    continue
                if mm is None:
                    continue
                if gid in self._faulty:
                    self._faulty.discard(gid)
                    events.append(self._event("sensor_ok", {"sensor": gid}, now))
                if self._detectors[gid].feed(mm) is True:
                    events += self._goal(gid, now)
        for gid, (pin, blocked_level, filt) in sorted(self._beams.items()):
            blocked = int(bool(pin.value)) == blocked_level
            if filt.feed(blocked, now, self.debounce_ms) and filt.stable:
                events += self._goal(gid, now)
        events += self._check_stuck(now)
        for zone, pin, filt in self._net:
            if filt.feed(self._is_active(pin), now, self.debounce_ms) and filt.stable:
                zid = zone["zone"]
                last = self._last_out.get(zid)
                if last is None or now - last >= OUT_REFRACTORY_MS:
                    self._last_out[zid] = now
                    data = {"zone": zid, "line": zone["line"], "end": zone["end"]}
                    events.append(self._event("ball_out", data, now))
        assert self._palheta_filter is not None
        if self._palheta_filter.feed(self._read_palheta(), now, self.debounce_ms):
            events.append(self._event("palheta", {"pos": self._palheta_filter.stable}, now))
        for name, pin, filt in self._buttons:
            if filt.feed(self._is_active(pin), now, self.debounce_ms) and filt.stable:
                events.append(self._event("button", {"button": name}, now))
        return events
