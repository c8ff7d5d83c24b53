"""Goal-line ToF readings on the host, for `futmesa calibrate`: a detector and a threshold.

The sensors themselves are started and read by the firmware, on a Pico and on a
Raspberry Pi alike (hardware/micropython/futmesa_tof.py, Adafruit's driver);
calibration receives their distances over the link (DIAG frames) and uses
these to propose a threshold and check it with test balls.
"""

from __future__ import annotations

from futmesa.i18n import _

NO_TARGET_MM = 8190  # what the VL53L0X reports when nothing is in range


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
