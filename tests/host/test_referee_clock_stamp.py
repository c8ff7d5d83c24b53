"""The match clock a referee input is stored with (host/futmesa/table/clock.py at_ms): walk
49a L5 — a foul entered 14 s after "Tempo esgotado" (nº 79, 02:00) in «A mesa está posta»,
whose table counts on until the ball goes out, was stamped 01:59 (nº 80), and the table ended
the half at 02:14 in the same second (nº 81): the clock column went backwards. Two causes: the
host's reading was capped at the period's end below what the table itself reported, and an
input stored at its arrival (a whole ms, ``int(now)``) was counted back by the fraction of a
ms under ``now`` (120000 − 0.4 → 119999 → "01:59")."""

from __future__ import annotations

import time

import futmesa_wire as W
from futmesa.link.messages import Status
from futmesa.matchbook.timeline import Timeline
from futmesa.table.clock import TableClock

PERIOD = 120_000


def heard(clock_ms: int, ago_ms: float) -> TableClock:
    """A table clock whose running STATUS read ``clock_ms`` ``ago_ms`` ago."""
    clock = TableClock()
    clock.heard_status(Status(ticks=1000, period=2, flags=W.ST_RUNNING, palheta=0,
                              lance_side=0, clock_ms=clock_ms, period_ms=PERIOD, added_ms=0,
                              lance_ms=0, lance_len_ms=0, newest=1, acked=1),
                       time.time() * 1000 - ago_ms)
    return clock


def stamped(clock: TableClock) -> int:
    """The clock a prompt referee input gets, as the daemon stamps it (table/referee.py)."""
    now = time.time() * 1000 + 0.4  # never a whole ms: the arrival is int(now)
    at = Timeline({"created_at": 0}).referee_stamp(now, None, "foul")
    return clock.at_ms(at, now, 1.0)


def test_an_input_at_the_periods_end_is_stamped_at_its_end_not_a_ms_before() -> None:
    assert stamped(heard(PERIOD - 500, 5_000)) == PERIOD


def test_a_table_counting_past_time_up_is_read_past_it() -> None:
    """The table says 02:10 (it plays on to the ball out): the host never reads it back."""
    assert stamped(heard(PERIOD + 10_000, 4_000)) >= PERIOD + 10_000
