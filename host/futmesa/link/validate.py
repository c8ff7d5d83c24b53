"""What a device may say: range checks for the fields of its frames, and safe LOG text.

A frame with a valid CRC can still carry impossible values (a buggy or
hostile firmware): a gap beyond the newest event, a sequence number past
SEQ_MAX, an event kind that does not exist. The link checks every field here
before anything can move its cursor; a failed check raises `Invalid`, and
the frame is counted as bad instead of being applied (docs/protocol.md,
"Checking what the device says"). Values outside their physical range (time added,
a clock correction, a profile's period length) are impossible events too.
"""

from __future__ import annotations

import futmesa_wire as W
from futmesa.link.messages import DeviceInfo, Gap, Status

SEQ_MAX = 0x3FFFFFFF  # event seqs stay below 2**30 (firmware/link.py SEQ_MAX)
SEQ_WINDOW_MAX = 0xFFFF  # an out-of-order seq further ahead than this is not believed
BOOT_MAX = 0xFFFF
CLOCK_LIMIT_MS = 24 * 3600 * 1000  # no match clock reads a day
MAX_PERIOD = 32
TICK_RATE_MAX = 1_000_000  # device ms per 1000 real ms (the simulator runs up to ~1000x)


class Invalid(ValueError):
    """A well-formed frame whose fields are impossible."""


def _need(ok: bool, what: str) -> None:
    if not ok:
        raise Invalid(what)


def check_hello_ack(info: DeviceInfo, seq: int) -> None:
    _need(1 <= info.boot_id <= BOOT_MAX, f"boot id {info.boot_id}")
    _need(seq in (0, 1), f"HELLO_ACK seq {seq}")
    _need(info.newest <= SEQ_MAX, f"newest seq {info.newest}")
    _need(1 <= info.oldest <= info.newest + 1, f"oldest seq {info.oldest} "
                                               f"(newest {info.newest})")
    _need(1 <= info.tick_rate <= TICK_RATE_MAX, f"tick rate {info.tick_rate}")
    _need(8 <= info.tick_bits <= 32, f"tick bits {info.tick_bits}")
    _need(bool(info.uid), "an empty unique id")


def check_status(s: Status) -> None:
    _need(s.period <= MAX_PERIOD, f"period {s.period}")
    _need(s.flags < 128, f"flags 0x{s.flags:02x}")
    _need(s.palheta <= 2 and s.lance_side <= 2, "palheta or lance side")
    _need(abs(s.clock_ms) <= CLOCK_LIMIT_MS, f"clock {s.clock_ms} ms")
    _need(0 <= s.period_ms <= CLOCK_LIMIT_MS and 0 <= s.added_ms <= CLOCK_LIMIT_MS,
          "period or added length")
    _need(0 <= s.lance_ms <= CLOCK_LIMIT_MS and 0 <= s.lance_len_ms <= CLOCK_LIMIT_MS,
          "lance time")
    _need(s.newest <= SEQ_MAX and s.acked <= s.newest, f"seqs newest {s.newest} "
                                                      f"acked {s.acked}")


def check_gap(gap: Gap, wire_boot: int, expected: int) -> None:
    """GAP(asked, oldest, newest) for the boot we talk to, asked where we are, oldest ≤ newest+1."""
    _need(gap.boot_id == wire_boot, f"gap for boot {gap.boot_id}, not {wire_boot}")
    _need(gap.newest <= SEQ_MAX, f"gap newest {gap.newest}")
    _need(1 <= gap.oldest <= gap.newest + 1,
          f"gap oldest {gap.oldest} beyond newest {gap.newest}")
    _need(1 <= gap.asked_seq <= expected, f"gap asked from {gap.asked_seq}, the host "
                                          f"expects {expected}")


# per event kind: the largest a, b it can carry (None: any u8)
_AB_MAX: dict[int, tuple[int | None, int | None]] = {
    W.EV_GOAL_LINE: (1, 0),
    W.EV_BALL_OUT: (None, 1),
    W.EV_PALHETA: (2, 0),
    W.EV_CLOCK_STARTED: (3, 0),
    W.EV_CLOCK_STOPPED: (3, 0),
    W.EV_LANCE_EXPIRED: (2, 1),
    W.EV_BUTTON: (2, 0),
    W.EV_SENSOR_FAULT: (None, W.FAULT_STORAGE),
    W.EV_LANCE_STARTED: (2, 0),
    W.EV_LOST: (W.EV_LOST, W.LOST_RESERVED),
}


def check_event(payload: tuple[int, int, int, int, int, int]) -> None:
    kind, a, b, period, clock_ms, value = payload
    _need(kind in W.EVENT_NAMES and kind != W.EV_GAP, f"event kind {kind}")
    _need(period <= MAX_PERIOD, f"period {period}")
    if kind != W.EV_LOST:  # its clock_ms carries a seq
        _need(abs(clock_ms) <= CLOCK_LIMIT_MS, f"clock {clock_ms} ms")
    a_max, b_max = _AB_MAX.get(kind, (None, None))
    _need(a_max is None or a <= a_max, f"{W.EVENT_NAMES[kind]} a={a}")
    _need(b_max is None or b <= b_max, f"{W.EVENT_NAMES[kind]} b={b}")
    if kind == W.EV_GOAL_LINE:
        _need(value >= 0, f"goal held {value} ms")
    elif kind == W.EV_BOOT:
        _need(value > 0, f"ring of {value}")
    elif kind == W.EV_TIME_ADDED:  # the firmware adds only a positive time, within a day
        _need(0 < value <= CLOCK_LIMIT_MS, f"time added {value} ms")
    elif kind == W.EV_CLOCK_ADJUSTED:  # no correction moves a clock by more than a day
        _need(abs(value) <= CLOCK_LIMIT_MS, f"clock adjusted by {value} ms")
    elif kind == W.EV_PROFILE_SET:  # value: the new profile's period length
        _need(0 < value <= CLOCK_LIMIT_MS, f"profile with a period of {value} ms")


def check_lost(kind: int, first: int, value: int) -> None:
    """EV_LOST: a per-kind count (kind, first, count) or the summary (0, first, last)."""
    _need(1 <= first <= SEQ_MAX, f"lost from seq {first}")
    if kind:
        _need(kind in W.EVENT_NAMES and kind != W.EV_GAP, f"lost kind {kind}")
        _need(1 <= value <= SEQ_MAX, f"lost count {value}")
    else:
        _need(first <= value <= SEQ_MAX, f"lost {first}..{value}")


def printable(raw: bytes, limit: int = W.MAX_PAYLOAD) -> str:
    """Device LOG text safe for a terminal: control characters (escape sequences,
    carriage returns, bells) become '?', so a firmware cannot rewrite the operator's screen."""
    text = raw[:limit].decode("utf-8", errors="replace")
    return "".join(ch if ch.isprintable() else "?" for ch in text)
