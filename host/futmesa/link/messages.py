"""Typed views of the device's messages, decoded from futmesa_wire payloads."""

from __future__ import annotations

import dataclasses
import struct
from dataclasses import dataclass

import futmesa_wire as W

_HELLO_ACK_SIZE = struct.calcsize(W.HELLO_ACK_FMT)
_PROFILE_SIZE = struct.calcsize(W.PROFILE_FMT)
HELLO_ACK_SIZE = _HELLO_ACK_SIZE + _PROFILE_SIZE + 4  # the full answer (header seq 0)
RESUME_ACK_SIZE = struct.calcsize(W.RESUME_ACK_FMT)  # the answer to a cursor HELLO (seq 1)


@dataclass(frozen=True)
class Profile:
    """The clock profile a device runs (see firmware/matchclock.py)."""

    periods: int
    extra_periods: int
    clock_mode: int
    end_mode: int
    period_ms: int
    interval_ms: int
    extra_ms: int
    lance_ms: int
    prewarn_ms: int
    flags: int = 0  # W.PROFILE_LANCE_PAST: the lance runs out past its time, not at it

    def pack(self) -> bytes:
        return struct.pack(W.PROFILE_FMT, self.periods, self.extra_periods, self.clock_mode,
                           self.end_mode, self.period_ms, self.interval_ms, self.extra_ms,
                           self.lance_ms, self.prewarn_ms, self.flags)

    @classmethod
    def unpack(cls, raw: bytes) -> Profile:
        return cls(*struct.unpack(W.PROFILE_FMT, raw))

    @classmethod
    def from_dict(cls, d: dict) -> Profile:
        clock_mode = {"continuous": W.CLOCK_CONTINUOUS, "ball-in-play": W.CLOCK_BALL_IN_PLAY}
        end_mode = {"at-alarm": W.END_AT_ALARM, "next-dead-ball": W.END_NEXT_DEAD_BALL}
        return cls(
            periods=int(d.get("periods", 2)),
            extra_periods=int(d.get("extra_periods", 0)),
            clock_mode=clock_mode[d.get("clock_mode", "continuous")],
            end_mode=end_mode[d.get("end_mode", "at-alarm")],
            period_ms=int(d.get("period_ms", 25 * 60_000)),
            interval_ms=int(d.get("interval_ms", 5 * 60_000)),
            extra_ms=int(d.get("extra_ms", 0)),
            lance_ms=int(d.get("lance_ms", 0)),
            # the rules' clock profile says lance_warn_ms (how long before the limit)
            prewarn_ms=int(d.get("lance_warn_ms", d.get("lance_prewarn_ms",
                                                         d.get("prewarn_ms", 0)))),
            flags=W.PROFILE_LANCE_PAST if d.get("lance_over") == "past" else 0,
        )


def _text(raw: bytes) -> str:
    """A NUL-padded name as text, with anything unprintable as '?' (it reaches logs and pages)."""
    text = raw.rstrip(b"\0").decode(errors="replace")
    return "".join(ch if ch.isprintable() else "?" for ch in text)


def _uid(raw: bytes) -> str:
    """A unique id: as text when it is printable ASCII (the sim's "SIM00001"), else in hex
    (a board's machine.unique_id() is binary; control bytes must never reach a terminal)."""
    uid = raw.rstrip(b"\0")
    if uid.isascii() and uid.decode().isprintable():
        return uid.decode()
    return uid.hex()


@dataclass(frozen=True)
class DeviceInfo:
    """What a device says about itself in HELLO_ACK."""

    proto: int
    firmware: str
    board: str
    uid: str
    boot_id: int
    oldest: int
    newest: int
    tick_rate: int  # device ms per 1000 real ms (1000 on a real board)
    tick_bits: int
    profile: Profile
    last_cmd_seq: int
    usb_serial: str | None = None  # from serial.tools.list_ports, when the port enumerates

    @property
    def table_id(self) -> str:
        return f"{self.board}-{self.uid}"

    @classmethod
    def decode(cls, boot_id: int, payload: bytes) -> DeviceInfo:
        if len(payload) < _HELLO_ACK_SIZE + _PROFILE_SIZE + 4:
            raise W.FrameError("HELLO_ACK too short")
        (proto, major, minor, patch, board, uid, oldest, newest, rate,
         bits) = struct.unpack_from(W.HELLO_ACK_FMT, payload, 0)
        profile = Profile.unpack(payload[_HELLO_ACK_SIZE:_HELLO_ACK_SIZE + _PROFILE_SIZE])
        last_cmd = struct.unpack_from("<I", payload, _HELLO_ACK_SIZE + _PROFILE_SIZE)[0]
        return cls(
            proto=proto, firmware=f"{major}.{minor}.{patch}",
            board=_text(board),
            uid=_uid(uid),
            boot_id=boot_id, oldest=oldest, newest=newest, tick_rate=rate or 1000,
            tick_bits=bits or 32, profile=profile, last_cmd_seq=last_cmd,
        )

    def resumed(self, boot_id: int, payload: bytes) -> DeviceInfo | None:
        """This device as a RESUME answer (HELLO_ACK seq 1) says it is now: its seqs and last
        command; None when the answer is from another board or boot (identify it first)."""
        if len(payload) != RESUME_ACK_SIZE:
            raise W.FrameError(f"HELLO_ACK seq 1 of {len(payload)} bytes")
        _version, uid, oldest, newest, last_cmd = struct.unpack(W.RESUME_ACK_FMT, payload)
        if _uid(uid) != self.uid or boot_id != self.boot_id:
            return None
        return dataclasses.replace(self, oldest=oldest, newest=newest, last_cmd_seq=last_cmd)


@dataclass(frozen=True)
class Status:
    """A device status snapshot: the clock as a start point plus a rate."""

    ticks: int
    period: int
    flags: int
    palheta: int
    lance_side: int
    clock_ms: int
    period_ms: int
    added_ms: int
    lance_ms: int
    lance_len_ms: int
    newest: int
    acked: int

    @property
    def running(self) -> bool:
        return bool(self.flags & W.ST_RUNNING)

    @property
    def lance_running(self) -> bool:
        return bool(self.flags & W.ST_LANCE_RUNNING)

    @property
    def in_interval(self) -> bool:
        return bool(self.flags & W.ST_INTERVAL)

    @classmethod
    def decode(cls, ticks: int, payload: bytes) -> Status:
        return cls(ticks, *struct.unpack(W.STATUS_FMT, payload))


@dataclass(frozen=True)
class Gap:
    boot_id: int
    asked_seq: int
    oldest: int
    newest: int

    @classmethod
    def decode(cls, payload: bytes) -> Gap:
        return cls(*struct.unpack(W.GAP_FMT, payload))


_DIAG_SIZE = struct.calcsize(W.DIAG_FMT)


def decode_diag(payload: bytes) -> tuple[int, ...]:
    """A DIAG payload as (tof0_mm, tof1_mm, beam bits, net bits, palheta raw, button bits).

    A distance is W.DIAG_NO_ANSWER (-1) when the sensor did not answer and
    W.DIAG_NO_SAMPLE (-2) when there was no new sample (or the line is a beam).
    """
    if len(payload) < _DIAG_SIZE:
        raise W.FrameError("DIAG too short")
    return struct.unpack_from(W.DIAG_FMT, payload, 0)
