"""The field's measures, in millimetres, as the rule documents give them: one place for the
simulated camera's drawing and the ball path's judge.

Frame: x along the length from goal line 0 (x = 0) to goal line 1 (x = length); y across the
width from side line 0 (y = 0) to side line 1 (y = width). Measures from 003 (Pastilha 8x2):
the field 1.69 × 1.04 m (Art. 3), the small area 30 × 11 cm and the big area 60 × 30 cm,
centred on the goal (Art. 4 a, b: the first figure along the goal line, the second into the
field — the penalty mark at 20.5 cm, Art. 4 f, lies inside the 30 cm), the centre circle 32 cm
across (Art. 4 c), the goal 11 cm between the posts (Art. 6 a), the ball 1.1 cm across
(Art. 11 §1).

How a ball stands against a line, from 000: over a line only when it has wholly passed it
(a goal, Art. 12: "ultrapassa totalmente a linha de gol"; the same reading for the side and
end lines); a ball on a line or touching it belongs to the area the line marks (Art. 20: "dentro
da área grande … ou sobre a linha demarcatória desta área"); a ball on the midline or touching
it is neutral, in neither half (Art. 13 §5), so it has crossed only once wholly past it.
"""

from __future__ import annotations

FIELD_MM = (1690.0, 1040.0)  # 003 Art. 3 a, b
GOAL_MM = 110.0  # 003 Art. 6 a: between the posts
BALL_MM = 11.0  # 003 Art. 11 §1
BALL_R = BALL_MM / 2
SMALL_AREA_MM = (300.0, 110.0)  # 003 Art. 4 a: along the goal line, into the field
BIG_AREA_MM = (600.0, 300.0)  # 003 Art. 4 b
CENTRE_CIRCLE_MM = 320.0  # 003 Art. 4 c: diameter


def half_of(x_mm: float) -> int:
    """The half a point is in by x: 0 on goal line 0's side, 1 on goal line 1's."""
    return 0 if x_mm < FIELD_MM[0] / 2 else 1


def wholly_out(x_mm: float, y_mm: float) -> bool:
    """The ball (centre here) has wholly passed a side or end line (000 Art. 12)."""
    length, width = FIELD_MM
    return (x_mm < -BALL_R or x_mm > length + BALL_R or y_mm < -BALL_R
            or y_mm > width + BALL_R)


def in_area(x_mm: float, y_mm: float, size: tuple[float, float]) -> int | None:
    """The end (0|1) whose area of ``size`` holds the ball, touching its line included
    (000 Art. 20), else None."""
    length, width = FIELD_MM
    along, depth = size
    if abs(y_mm - width / 2) > along / 2 + BALL_R:
        return None
    if -BALL_R <= x_mm <= depth + BALL_R:
        return 0
    if length - depth - BALL_R <= x_mm <= length + BALL_R:
        return 1
    return None


def area_of(x_mm: float, y_mm: float) -> tuple[str | None, int]:
    """("small" | "big" | None, end): the smallest area holding the ball; with no area, the
    end of the half it is in."""
    for name, size in (("small", SMALL_AREA_MM), ("big", BIG_AREA_MM)):
        end = in_area(x_mm, y_mm, size)
        if end is not None:
            return name, end
    return None, half_of(x_mm)


def wholly_in_half(x_mm: float) -> int | None:
    """The half the ball is wholly in, or None on (or touching) the midline (000 Art. 13 §5)."""
    mid = FIELD_MM[0] / 2
    if x_mm < mid - BALL_R:
        return 0
    if x_mm > mid + BALL_R:
        return 1
    return None


def in_mouth(y_mm: float) -> bool:
    """A point on a goal line between the posts (003 Art. 6 a)."""
    return abs(y_mm - FIELD_MM[1] / 2) < GOAL_MM / 2
