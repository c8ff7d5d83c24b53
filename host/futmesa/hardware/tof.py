"""Goal-line time-of-flight sensors on the host: Adafruit's VL53L0X driver, several on one bus.

Address assignment at boot through the XSHUT pins (hardware/README.md): all
sensors off, then one at a time on, opened at 0x29 and moved to the address
its board file gives. A sensor that does not answer is recorded as a fault,
switched off again (so it cannot sit on 0x29 and collide with the next one)
and the others still start.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from futmesa.hardware.boardfile import DEFAULT_TOF_ADDRESS, Board
from futmesa.i18n import _

NO_TARGET_MM = 8190  # what the VL53L0X reports when nothing is in range


def _driver_class() -> Any:
    try:
        from adafruit_vl53l0x import VL53L0X
    except ImportError as exc:  # pragma: no cover - depends on the install
        raise RuntimeError(_(
            "the VL53L0X driver is not installed; run: .venv/bin/pip install -e '.[hardware]'"
        )) from exc
    return VL53L0X


@dataclass
class TofArray:
    """The started sensors by goal id, and the goal ids that failed with why."""

    sensors: dict[int, Any] = field(default_factory=dict)
    faults: dict[int, str] = field(default_factory=dict)

    def read_mm(self, goal: int) -> int | None:
        """The newest distance of one sensor, or None if no new sample is ready yet."""
        s = self.sensors[goal]
        if not s.data_ready:
            return None
        return int(s.range)

    def read_blocking_mm(self, goal: int) -> int:
        return int(self.sensors[goal].range)


def start_tof_sensors(
    i2c: Any,
    board: Board,
    xshut: Mapping[int, Any],
    *,
    io_timeout_s: float = 0.5,
    sleep: Callable[[float], None] = time.sleep,
    continuous: bool = True,
    driver: Any = None,
) -> TofArray:
    """Give every VL53L0X of `board` its address and start it.

    `xshut` maps goal id → a pin object with a writable `value` (a
    `digitalio.DigitalInOut` switched to output, or a FakePin).
    """
    cls = driver or _driver_class()
    goals = sorted(
        (g for g in board.goal_sensors if g["type"] == "vl53l0x"), key=lambda g: g["id"]
    )
    tof_cfg = board.data.get("tof", {})
    budget = int(tof_cfg.get("timing_budget_us", 33000))
    boot_s = int(tof_cfg.get("boot_delay_ms", 10)) / 1000
    for g in goals:
        xshut[g["id"]].value = False
    sleep(0.01)
    out = TofArray()
    for g in goals:
        gid = g["id"]
        pin = xshut[gid]
        pin.value = True
        sleep(boot_s)
        try:
            sensor = cls(i2c, DEFAULT_TOF_ADDRESS, io_timeout_s=io_timeout_s)
            sensor.set_address(int(g["address"], 16))
            sensor.measurement_timing_budget = budget
            if continuous:
                sensor.start_continuous()
        except (OSError, ValueError, RuntimeError) as exc:
            pin.value = False
            out.faults[gid] = _(
                "goal sensor {id} (VL53L0X, XSHUT pin {pin}) did not start: {problem}. Check its "
                "4 wires (VIN, GND, SDA, SCL) and the XSHUT wire, then run `futmesa doctor` again."
            ).format(id=gid, pin=g["xshut"], problem=exc)
            continue
        out.sensors[gid] = sensor
    return out


class GoalLineDetector:
    """Threshold with hysteresis on a distance: blocked below `threshold_mm`,
    clear again only above `threshold_mm + hysteresis_mm`; `confirm` readings in a
    row are needed to change state (one noisy sample is not a goal)."""

    def __init__(self, threshold_mm: int, hysteresis_mm: int = 8, confirm: int = 2) -> None:
        self.threshold_mm = threshold_mm
        self.hysteresis_mm = hysteresis_mm
        self.confirm = max(1, confirm)
        self.blocked = False
        self._streak = 0

    def feed(self, mm: int) -> bool | None:
        """Feed one reading; returns True on the clear→blocked edge, False on
        blocked→clear, None otherwise."""
        if self.blocked:
            wants_change = mm > self.threshold_mm + self.hysteresis_mm
        else:
            wants_change = 0 < mm < self.threshold_mm
        self._streak = self._streak + 1 if wants_change else 0
        if self._streak >= self.confirm:
            self._streak = 0
            self.blocked = not self.blocked
            return self.blocked
        return None


def propose_threshold(empty_mm: list[int], ball_mm: list[int]) -> tuple[int, int]:
    """Threshold and hysteresis from readings with the goal empty and with the ball in.

    The threshold sits midway between the nearest empty reading and the farthest
    ball reading; the hysteresis is a quarter of that gap (at least 2 mm).
    Raises ValueError with what to do when the two sets overlap.
    """
    empty = [m for m in empty_mm if 0 < m < NO_TARGET_MM] or [NO_TARGET_MM]
    if not ball_mm:
        raise ValueError(_("no readings with the ball inside; put the ball in the goal and "
                           "retry"))
    near_empty = min(empty)
    far_ball = max(ball_mm)
    gap = near_empty - far_ball
    if gap < 6:
        raise ValueError(_(
            "the ball ({ball} mm) and the empty goal ({empty} mm) read too close together to "
            "tell apart; aim the sensor across the goal below the ball's top, cover shiny "
            "surfaces opposite it with matte black tape, and calibrate again"
        ).format(ball=far_ball, empty=near_empty))
    threshold = far_ball + gap // 2
    return threshold, max(2, gap // 4)
