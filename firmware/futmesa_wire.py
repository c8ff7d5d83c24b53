"""futmesa wire protocol: frame layout, COBS, CRC-32 and message codes.

Written once, in the subset of Python that runs on both MicroPython (the
firmware) and CPython (the host, which imports it as ``futmesa_wire``).
The description for implementers in other languages is docs/protocol.md.

Frame, before COBS (little-endian)::

    0   u8   protocol version
    1   u8   message type (MSG_*)
    2   u16  boot id of the device (host->device: the boot id it talks to)
    4   u32  sequence (events: event seq; commands: command seq; else 0)
    8   u32  device ticks in ms (host->device: 0)
    12  ...  payload (fixed layout per message type)
    -4  u32  CRC-32 of (schema id as u32 LE) + bytes [0, len-4)

The frame is COBS-encoded and followed by one 0x00 delimiter. HELLO,
HELLO_ACK and REFUSE use the fixed HANDSHAKE_SCHEMA so that two sides with
different message definitions can still tell each other so; every other
frame uses SCHEMA_ID, derived from the message layouts below, so a side
with other definitions fails the CRC instead of misreading a frame.

Steady-state encoding on the device (pack_event_frame, pack_status_frame,
pack_diag_frame, pack_small_frame, cobs_encode_into)
writes into preallocated buffers and allocates nothing.
"""

import struct
import sys

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):  # type: ignore[no-redef]
        return x


if sys.implementation.name == "micropython":
    from time import ticks_add, ticks_diff, ticks_ms  # noqa: F401 - the device's clock
else:
    # CPython (the light simulated tables run the firmware's clock and lance modules): the
    # same arithmetic on the same ring of 2**30 ms as the rp2 and unix ports
    import time as _time

    TICKS_PERIOD = 1 << 30
    _TICKS_MAX = TICKS_PERIOD - 1
    _TICKS_HALF = TICKS_PERIOD // 2

    def ticks_ms():
        return int(_time.monotonic() * 1000) & _TICKS_MAX

    def ticks_add(ticks, delta):
        if not -_TICKS_HALF < delta < _TICKS_HALF:  # what MicroPython refuses too
            raise OverflowError("ticks interval overflow")
        return (ticks + delta) & _TICKS_MAX

    def ticks_diff(end, start):
        return ((end - start + _TICKS_HALF) & _TICKS_MAX) - _TICKS_HALF


if sys.implementation.name == "micropython":
    from binascii import crc32

    # device frames are sealed without allocating: no boxed CRC on 32-bit ports
    from wirecrc import crc32_into
else:
    from zlib import crc32

    def crc32_into(data, n, seed_lo, seed_hi, dst, off):
        """dst[off:off+4] = CRC-32 of data[0:n] from seed (seed_hi << 16 | seed_lo), LE."""
        struct.pack_into("<I", dst, off, crc32(memoryview(data)[:n], seed_hi << 16 | seed_lo))

PROTO_VERSION = const(2)  # 2: the small RESUME answer (HELLO_ACK seq 1), issue 13
FIRMWARE_VERSION = (0, 1, 0)

HEADER_FMT = "<BBHII"
HEADER_SIZE = const(12)
CRC_SIZE = const(4)
MAX_PAYLOAD = const(96)
MAX_FRAME = const(112)  # header + payload + crc, before COBS
MAX_ENCODED = const(115)  # COBS adds at most 1 byte per 254, plus the delimiter

# --- message types: device -> host ------------------------------------------
MSG_EVENT = const(0x01)
MSG_HELLO_ACK = const(0x02)
MSG_STATUS = const(0x03)
MSG_CMD_ACK = const(0x04)
MSG_PONG = const(0x05)
MSG_GAP = const(0x06)
MSG_REFUSE = const(0x07)
MSG_LOG = const(0x08)
MSG_DIAG = const(0x09)  # live raw sensor readings, while the host asked for them (CMD_DIAG)
# --- message types: host -> device ------------------------------------------
MSG_HELLO = const(0x81)
MSG_ACK = const(0x82)
MSG_CMD = const(0x83)
MSG_PROFILE = const(0x84)
MSG_PING = const(0x85)

# --- payload layouts ----------------------------------------------------------
# EVENT: kind, a, b, period, clock_ms, value
EVENT_FMT = "<BBBBii"
EVENT_SIZE = const(12)
# HELLO: host protocol version, last committed boot id, last committed seq;
# seq IDENTIFY_ONLY asks the device who it is without starting a replay
HELLO_FMT = "<HHI"
IDENTIFY_ONLY = const(0xFFFFFFFF)
# HELLO_ACK: proto, fw major/minor/patch, board (8s), unique id (8s),
# oldest seq held, newest seq, tick rate (device ms per 1000 real ms),
# tick bits (the device's ticks wrap at 2**bits; frames carry them mod 2**32),
# then a PROFILE, then the last command seq the device executed (u32): the answer to an
# identify-only HELLO and the boot announcement (header seq 0)
HELLO_ACK_FMT = "<HBBB8s8sIIIB"
# the answer to a cursor HELLO (header seq 1), only what the host needs to resume: proto,
# unique id (8s), oldest seq held, newest seq, last command seq executed; the rest is
# the same for the whole boot and was in the full HELLO_ACK the host asked for before
RESUME_ACK_FMT = "<H8sIII"
# STATUS: period, flags, palheta, lance side, clock_ms, period_ms, added_ms,
# lance_ms (remaining), lance_len_ms, newest event seq, acked seq
STATUS_FMT = "<BBBBiiiiiII"
# ACK: boot id, seq (cumulative: everything up to seq is committed)
ACK_FMT = "<HI"
# CMD: code, a, b, c, x, y
CMD_FMT = "<BBBBii"
# CMD_ACK: result, code of the command
CMD_ACK_FMT = "<BBH"
# PROFILE: periods, extra periods, clock mode, end mode, period_ms,
# interval_ms, extra_ms, lance_ms, lance_prewarn_ms, flags
PROFILE_FMT = "<BBBBiiiiiI"
# PROFILE flags: the lance runs out once its time is passed (001 Art. XXIX e "mais de quinze
# segundos", 003 Art. 71 "10 segundos é o tempo máximo"), not when it is reached (000 Art. 26
# §1 A "ao atingir este tempo")
PROFILE_LANCE_PAST = const(1)
# PING: host time (ms, low 32 bits); PONG: the same echoed back
PING_FMT = "<I"
# GAP: boot id asked, seq asked, oldest seq held, newest seq held
GAP_FMT = "<HIII"
# REFUSE: device protocol version, host protocol version it was offered
REFUSE_FMT = "<HH"
# DIAG: tof0_mm, tof1_mm (the newest sample since the last DIAG; DIAG_NO_ANSWER,
# DIAG_NO_SAMPLE), beam bits (bit i = goal line i blocked), net bits (bit z = zone z
# active), palheta raw (0 A, 1 centre, 2 B, 3 both contacts), button bits
DIAG_FMT = "<hhBBBB"
DIAG_NO_ANSWER = const(-1)  # the sensor did not answer on its bus
DIAG_NO_SAMPLE = const(-2)  # no new sample since the last DIAG (or not a ToF line)

_SCHEMA_TEXT = (
    HEADER_FMT + EVENT_FMT + HELLO_FMT + HELLO_ACK_FMT + RESUME_ACK_FMT + STATUS_FMT + ACK_FMT + CMD_FMT
    + CMD_ACK_FMT + PROFILE_FMT + PING_FMT + GAP_FMT + REFUSE_FMT + DIAG_FMT
    + "EV:1-21 CMD:1-16 MSG:01-09,81-85"
)
# crc32() returns an unsigned value on both MicroPython and CPython 3, so it is
# never masked with 0xFFFFFFFF (on a 32-bit port the mask would box a second
# large int per frame).
SCHEMA_ID = crc32(_SCHEMA_TEXT.encode())
HANDSHAKE_SCHEMA = 0x314D5446  # "FTM1": never changes

_SCHEMA_SEED = crc32(struct.pack("<I", SCHEMA_ID))
_HANDSHAKE_SEED = crc32(struct.pack("<I", HANDSHAKE_SCHEMA))
_SEED_LO = _SCHEMA_SEED & 0xFFFF  # _SCHEMA_SEED in halves that stay small ints (_seal)
_SEED_HI = _SCHEMA_SEED >> 16

# --- device event kinds (EVENT.kind) -----------------------------------------
EV_GOAL_LINE = const(1)  # a = goal line 0|1, value = ms the line was blocked
EV_BALL_OUT = const(2)  # a = side-net zone, b = line (0 side, 1 end), value = end 0|1
EV_PALHETA = const(3)  # a = position (0 towards A, 1 centre, 2 towards B)
EV_CLOCK_STARTED = const(4)  # a = reason (0 start, 1 resume, 2 play on)
EV_CLOCK_STOPPED = const(5)  # a = reason (0 pause, 1 dead ball, 2 period over)
EV_PERIOD_OVER = const(6)  # the period in `period` is over
EV_ALARM = const(7)  # a = buzzer pattern
EV_LANCE_EXPIRED = const(8)  # a = side on turn (0 A, 1 B, 2 unknown), b = 1 pre-warning
EV_BUTTON = const(9)  # a = button (0 turn A, 1 turn B, 2 call the referee)
EV_SENSOR_FAULT = const(10)  # a = sensor id, b = fault code (FAULT_*)
EV_SENSOR_OK = const(11)  # a = sensor id: the fault has cleared
EV_BOOT = const(12)  # value = number of events the ring holds
EV_PERIOD_STARTED = const(13)  # the period in `period` starts
EV_CLOCK_ADJUSTED = const(14)  # value = signed correction in ms
EV_TIME_ADDED = const(15)  # value = added ms announced by the referee
EV_MATCH_OVER = const(16)
EV_PROFILE_SET = const(17)  # value = period_ms of the new profile
EV_TIME_UP = const(18)  # next-dead-ball mode: time is up, period ends at the next dead ball
EV_LANCE_STARTED = const(19)  # a = side (0 A, 1 B, 2 unknown)
EV_GAP = const(20)  # host-side only: events the device could no longer replay
# a previous boot's events that were never acknowledged before a reset, from flash:
# a = their kind, value = how many, clock_ms = first seq; then a = 0, clock_ms = first
# seq, value = last seq (the summary)
EV_LOST = const(21)
# EV_LOST with a = 0 and b = LOST_RESERVED: the previous boot's seq reservation (flash): it made
# event clock_ms and numbered at most up to value (docs/protocol.md section 7)
LOST_RESERVED = const(1)

EVENT_NAMES = {
    EV_GOAL_LINE: "goal_line",
    EV_BALL_OUT: "ball_out",
    EV_PALHETA: "palheta",
    EV_CLOCK_STARTED: "clock_started",
    EV_CLOCK_STOPPED: "clock_stopped",
    EV_PERIOD_OVER: "period_over",
    EV_ALARM: "alarm",
    EV_LANCE_EXPIRED: "lance_expired",
    EV_BUTTON: "button",
    EV_SENSOR_FAULT: "sensor_fault",
    EV_SENSOR_OK: "sensor_ok",
    EV_BOOT: "boot",
    EV_PERIOD_STARTED: "period_started",
    EV_CLOCK_ADJUSTED: "clock_adjusted",
    EV_TIME_ADDED: "time_added",
    EV_MATCH_OVER: "match_over",
    EV_PROFILE_SET: "profile_set",
    EV_TIME_UP: "time_up",
    EV_LANCE_STARTED: "lance_started",
    EV_GAP: "gap",
    EV_LOST: "lost",
}

FAULT_STUCK = const(1)  # blocked longer than a goal can last
FAULT_NO_ANSWER = const(2)  # I2C sensor stopped answering
FAULT_OUT_OF_RANGE = const(3)  # reading outside the sensor's range
FAULT_DRIFT = const(4)  # empty-goal baseline drifted
FAULT_STORAGE = const(5)  # the flash refused a write (value = errno): no persistence until reset
SENSOR_STORAGE = const(15)  # EV_SENSOR_FAULT's sensor id for the device's own flash

# --- commands (CMD.code) ------------------------------------------------------
CMD_START = const(1)  # start the match clock (period 1) or the next period
CMD_PAUSE = const(2)
CMD_RESUME = const(3)
CMD_ADJUST = const(4)  # x = signed correction in ms
CMD_ADD_TIME = const(5)  # x = ms added to the current period
CMD_BEEP = const(6)  # a = pattern
CMD_LANCE = const(7)  # a = side (0 A, 1 B, 2 unknown), b = 0 restart / 1 stop
CMD_PLAY_ON = const(8)  # ball-in-play mode: restart the clock; a = 1: count the dead ball as played
CMD_NEW_PERIOD = const(9)  # end the interval, arm the next period
CMD_SET_CLOCK = const(10)  # a = period, x = clock ms (host correction)
CMD_REPLAY = const(11)  # a = 0; x = boot id, y = first seq wanted
CMD_NEW_MATCH = const(12)  # forget the clock state, keep the profile
CMD_DEAD_BALL = const(13)  # ball-in-play mode: the referee stops the clock
CMD_DIAG = const(14)  # a = 1 start / 0 stop streaming MSG_DIAG (every DIAG_MS)
CMD_SET_THRESHOLD = const(15)  # a = goal line, x = threshold_mm, y = hysteresis_mm (kept on flash)
CMD_REPL = const(16)  # leave the loop for the MicroPython REPL (Ctrl-C works again): re-flashing
CMD_INTERVAL = const(17)  # the rules ended the period now (a last lance): the interval counts from now

CMD_NAMES = {
    CMD_START: "start",
    CMD_PAUSE: "pause",
    CMD_RESUME: "resume",
    CMD_ADJUST: "adjust",
    CMD_ADD_TIME: "add_time",
    CMD_BEEP: "beep",
    CMD_LANCE: "lance",
    CMD_PLAY_ON: "play_on",
    CMD_NEW_PERIOD: "new_period",
    CMD_SET_CLOCK: "set_clock",
    CMD_REPLAY: "replay",
    CMD_NEW_MATCH: "new_match",
    CMD_DEAD_BALL: "dead_ball",
    CMD_DIAG: "diag",
    CMD_SET_THRESHOLD: "set_threshold",
    CMD_REPL: "repl",
    CMD_INTERVAL: "interval",
}

ACK_OK = const(0)
ACK_DUPLICATE = const(1)  # already done: the command was a retry
ACK_REFUSED = const(2)  # not possible in this state
ACK_UNKNOWN = const(3)  # unknown command code

# STATUS.flags
ST_RUNNING = const(1)
ST_LANCE_RUNNING = const(2)
ST_INTERVAL = const(4)
ST_MATCH_OVER = const(8)
ST_TIME_UP = const(16)
ST_CONFIGURED = const(32)
ST_HOST_LINK = const(64)

# PROFILE modes
CLOCK_CONTINUOUS = const(0)
CLOCK_BALL_IN_PLAY = const(1)
END_AT_ALARM = const(0)
END_NEXT_DEAD_BALL = const(1)

# Buzzer patterns
BEEP_WARNING = const(1)
BEEP_ALARM = const(2)
BEEP_GOAL = const(3)
BEEP_PREWARN = const(4)


class FrameError(ValueError):
    """A received byte string is not a valid frame (bad COBS, length, CRC or version)."""


# --- COBS ---------------------------------------------------------------------
def cobs_encode_into(src, n, dst, start=0):
    """COBS-encode src[start:start+n] into dst and append the 0x00 delimiter.

    Returns the number of bytes written. Allocates nothing.
    """
    code_pos = 0
    out = 1
    code = 1
    i = start
    n += start
    while i < n:
        byte = src[i]
        if byte == 0:
            dst[code_pos] = code
            code_pos = out
            out += 1
            code = 1
        else:
            dst[out] = byte
            out += 1
            code += 1
            if code == 0xFF:
                dst[code_pos] = code
                code_pos = out
                out += 1
                code = 1
        i += 1
    dst[code_pos] = code
    dst[out] = 0
    return out + 1


def cobs_decode_into(src, n, dst):
    """Decode COBS src[0:n] (without the delimiter) into dst; returns the length.

    Raises FrameError on a malformed encoding.
    """
    i = 0
    out = 0
    while i < n:
        code = src[i]
        if code == 0:
            raise FrameError("zero byte inside a COBS frame")
        i += 1
        end = i + code - 1
        if end > n:
            raise FrameError("COBS block runs past the end of the frame")
        while i < end:
            byte = src[i]
            if byte == 0:
                raise FrameError("zero byte inside a COBS frame")
            dst[out] = byte
            out += 1
            i += 1
        if code < 0xFF and i < n:
            dst[out] = 0
            out += 1
    return out


def cobs_encode(data):
    """COBS-encode bytes and return them with the trailing delimiter (allocates)."""
    dst = bytearray(len(data) + len(data) // 254 + 2)
    n = cobs_encode_into(data, len(data), dst)
    return bytes(dst[:n])


def cobs_decode(data):
    """Decode one COBS block (no delimiter) and return the raw bytes (allocates).

    Same result and errors as cobs_decode_into, but copies each run with one
    slice instead of byte by byte (the host's fast path).
    """
    out = bytearray()
    i = 0
    n = len(data)
    while i < n:
        code = data[i]
        if code == 0:
            raise FrameError("zero byte inside a COBS frame")
        end = i + code
        if end > n:
            raise FrameError("COBS block runs past the end of the frame")
        run = data[i + 1:end]
        if 0 in run:
            raise FrameError("zero byte inside a COBS frame")
        out += run
        i = end
        if code < 0xFF and i < n:
            out.append(0)
    return out


# --- frames -------------------------------------------------------------------
def _seed_for(msg_type):
    if msg_type == MSG_HELLO or msg_type == MSG_HELLO_ACK or msg_type == MSG_REFUSE:
        return _HANDSHAKE_SEED
    return _SCHEMA_SEED


def frame_crc(raw, n):
    """CRC-32 of the schema id followed by raw[0:n]."""
    if n == len(raw):
        return crc32(raw, _seed_for(raw[1]))
    return crc32(memoryview(raw)[:n], _seed_for(raw[1]))


def build_frame(msg_type, boot_id, seq, ticks, payload=b""):
    """Return the raw (un-encoded) frame with its CRC (allocates; for the host and rare device frames)."""
    if len(payload) > MAX_PAYLOAD:
        raise FrameError("payload too long")
    raw = bytearray(HEADER_SIZE + len(payload) + CRC_SIZE)
    struct.pack_into(
        HEADER_FMT, raw, 0, PROTO_VERSION, msg_type, boot_id & 0xFFFF,
        seq & 0xFFFFFFFF, ticks & 0xFFFFFFFF,
    )
    raw[HEADER_SIZE:HEADER_SIZE + len(payload)] = payload
    body = HEADER_SIZE + len(payload)
    struct.pack_into("<I", raw, body, frame_crc(raw, body))
    return raw


def encode_frame(msg_type, boot_id, seq, ticks, payload=b""):
    """Build a frame and return it COBS-encoded with its delimiter, ready to write."""
    return cobs_encode(build_frame(msg_type, boot_id, seq, ticks, payload))


class Frame:
    """A decoded frame: header fields and the raw payload bytes."""

    __slots__ = ("version", "msg_type", "boot_id", "seq", "ticks", "payload")

    def __init__(self, version, msg_type, boot_id, seq, ticks, payload):
        self.version = version
        self.msg_type = msg_type
        self.boot_id = boot_id
        self.seq = seq
        self.ticks = ticks
        self.payload = payload

    def __repr__(self):
        return "Frame(type=0x%02x boot=%d seq=%d ticks=%d payload=%r)" % (
            self.msg_type, self.boot_id, self.seq, self.ticks, bytes(self.payload))


def check_raw(raw, n):
    """Validate raw[0:n] (length, CRC, version); return the message type.

    A frame of another protocol version is still accepted when it is a
    handshake frame, so that the receiver can refuse it with a reason.
    """
    if n < HEADER_SIZE + CRC_SIZE:
        raise FrameError("frame too short")
    if n > MAX_FRAME:
        raise FrameError("frame too long")
    body = n - CRC_SIZE
    got = struct.unpack_from("<I", raw, body)[0]
    if frame_crc(raw, body) != got:
        raise FrameError("CRC mismatch")
    msg_type = raw[1]
    if raw[0] != PROTO_VERSION and _seed_for(msg_type) != _HANDSHAKE_SEED:
        raise FrameError("protocol version %d, expected %d" % (raw[0], PROTO_VERSION))
    return msg_type


def decode_frame(data):
    """Decode one COBS block (without delimiter) into a Frame; raises FrameError."""
    raw = cobs_decode(data)
    n = len(raw)
    check_raw(raw, n)
    version, msg_type, boot_id, seq, ticks = struct.unpack_from(HEADER_FMT, raw, 0)
    return Frame(version, msg_type, boot_id, seq, ticks, bytes(raw[HEADER_SIZE:n - CRC_SIZE]))


EVENT_FRAME_SIZE = const(28)  # HEADER_SIZE + EVENT_SIZE + CRC_SIZE
STATUS_FRAME_SIZE = const(48)  # HEADER_SIZE + 32 + CRC_SIZE


def _seal(body, dst, off):
    """CRC the packed header + payload in body, copy it to dst[off:] and append the CRC.

    The copy is a bytearray slice assignment and the CRC goes straight into dst
    (wirecrc.crc32_into on MicroPython), so nothing is allocated, not even a
    boxed CRC on a 32-bit port.
    """
    n = len(body)
    dst[off:off + n] = body
    crc32_into(body, n, _SEED_LO, _SEED_HI, dst, off + n)


def pack_event_frame(body, dst, off, boot_id, seq, ticks, kind, a, b, period, clock_ms, value):
    """Write a raw EVENT frame (with CRC) into dst[off:off+EVENT_FRAME_SIZE].

    body is a scratch buffer of exactly HEADER_SIZE + EVENT_SIZE bytes (the CRC's input).
    """
    struct.pack_into(HEADER_FMT, body, 0, PROTO_VERSION, MSG_EVENT, boot_id, seq, ticks)
    struct.pack_into(EVENT_FMT, body, HEADER_SIZE, kind, a, b, period, clock_ms, value)
    _seal(body, dst, off)


def pack_status_frame(body, dst, boot_id, seq, ticks, period, flags, palheta, side,
                      clock_ms, period_ms, added_ms, lance_ms, lance_len_ms, newest, acked):
    """Write a raw STATUS frame (with CRC) into dst; body is a 44-byte scratch buffer."""
    struct.pack_into(HEADER_FMT, body, 0, PROTO_VERSION, MSG_STATUS, boot_id, seq, ticks)
    struct.pack_into(STATUS_FMT, body, HEADER_SIZE, period, flags, palheta, side, clock_ms,
                     period_ms, added_ms, lance_ms, lance_len_ms, newest, acked)
    _seal(body, dst, 0)


DIAG_FRAME_SIZE = const(24)  # HEADER_SIZE + 8 + CRC_SIZE


def pack_diag_frame(body, dst, boot_id, ticks, tof0, tof1, beams, nets, palheta, buttons):
    """Write a raw DIAG frame (with CRC) into dst; body is a 20-byte scratch buffer."""
    struct.pack_into(HEADER_FMT, body, 0, PROTO_VERSION, MSG_DIAG, boot_id, 0, ticks)
    struct.pack_into(DIAG_FMT, body, HEADER_SIZE, tof0, tof1, beams, nets, palheta, buttons)
    _seal(body, dst, 0)


SMALL_FRAME_SIZE = const(20)  # HEADER_SIZE + 4 + CRC_SIZE: PONG, CMD_ACK


def pack_small_frame(body, dst, msg_type, boot_id, seq, ticks, word):
    """Write a raw frame whose payload is one u32 (PONG, CMD_ACK) into dst[0:20].

    body is a 16-byte scratch buffer. CMD_ACK's payload <BBH (result, code, 0)
    is the u32 result | code << 8.
    """
    struct.pack_into(HEADER_FMT, body, 0, PROTO_VERSION, msg_type, boot_id, seq, ticks)
    struct.pack_into("<I", body, HEADER_SIZE, word)
    _seal(body, dst, 0)


class Deframer:
    """Splits a byte stream on 0x00 delimiters into COBS blocks.

    feed() returns a list of complete blocks (without delimiter); an overlong
    block is dropped and counted in `overruns`, so line noise cannot grow
    memory. The host uses it; the device has its own allocation-free reader.
    """

    def __init__(self, max_block=MAX_ENCODED):
        self.max_block = max_block
        self.buf = bytearray()
        self.overruns = 0
        self._skipping = False

    def feed(self, data):
        blocks = []
        start = 0
        while True:
            idx = data.find(b"\x00", start)
            if idx < 0:
                chunk = data[start:]
                if not self._skipping:
                    self.buf += chunk
                    if len(self.buf) > self.max_block:
                        self.buf = bytearray()
                        self._skipping = True
                        self.overruns += 1
                return blocks
            chunk = data[start:idx]
            if self._skipping:
                self._skipping = False
            else:
                self.buf += chunk
                if 0 < len(self.buf) <= self.max_block:
                    blocks.append(bytes(self.buf))
                elif len(self.buf) > self.max_block:
                    self.overruns += 1
            self.buf = bytearray()
            start = idx + 1
