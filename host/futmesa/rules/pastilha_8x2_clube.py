"""`pastilha-8x2-clube`: a club's internal competition on the pastilha-8x2 rules
with 2 × 5-minute halves (003 Art. 27 a). Everything else is inherited."""

from __future__ import annotations

from .base import MINUTE
from .pastilha_8x2 import Pastilha8x2


class Pastilha8x2Clube(Pastilha8x2):
    name = "pastilha-8x2-clube"
    title = "Pastilha 8x2 — competição interna, 2 × 5 min"
    period_ms = 5 * MINUTE  # 003 Art. 27 a
