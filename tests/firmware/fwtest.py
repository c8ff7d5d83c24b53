"""Helpers for the MicroPython firmware tests: an App on the bench board, event decoding, asserts.

Runs on the MicroPython unix port only (imported by mpy_test_*.py).
"""

import struct
import time

import futmesa_wire as W
from app import App
from boards.bench import BenchBoard
from devhost import ack_frame, check, hello_frame, ring_event, wipe
from nvstore import NvStore

_counter = [0]
WRAP = time.ticks_add(0, -1) + 1  # the tick period of this port (2**62 on unix)


def eq(got, want, what=""):
    if got != want:
        raise AssertionError("%s: got %r, want %r" % (what, got, want))


def profile(periods=2, extra=0, clock_mode=W.CLOCK_CONTINUOUS, end_mode=W.END_AT_ALARM,
            period_ms=25 * 60 * 1000, interval_ms=5 * 60 * 1000, extra_ms=0, lance_ms=15000,
            prewarn_ms=0, flags=0):
    return struct.pack(W.PROFILE_FMT, periods, extra, clock_mode, end_mode, period_ms,
                       interval_ms, extra_ms, lance_ms, prewarn_ms, flags)


def fresh_dir():
    _counter[0] += 1
    path = "/tmp/futmesa-fwtest-%d-%d" % (time.ticks_us() & 0xFFFFFF, _counter[0])
    wipe(path)
    return path


class Event:
    def __init__(self, seq, ticks, kind, a, b, period, clock_ms, value):
        self.seq = seq
        self.ticks = ticks
        self.kind = kind
        self.name = W.EVENT_NAMES.get(kind, str(kind))
        self.a = a
        self.b = b
        self.period = period
        self.clock_ms = clock_ms
        self.value = value

    def __repr__(self):
        return "<%s a=%d b=%d p=%d clock=%d value=%d t=%d>" % (
            self.name, self.a, self.b, self.period, self.clock_ms, self.value, self.ticks)


class Table:
    """An App on a BenchBoard with its own flash folder; `reboot()` keeps the flash."""

    def __init__(self, tick_start=0, goal_sensor="beam", cfg=None, table=None, prof=None,
                 state=None, capture=False):
        self.state = state or fresh_dir()
        self.args = {"state": self.state, "tick_start": str(tick_start),
                     "goal_sensor": goal_sensor}
        if capture:
            self.args["capture"] = True
        self.cfg = cfg
        store = NvStore(self.state)
        if table is not None:
            import json

            store.write("table.json", json.dumps(table).encode())
        self.board = BenchBoard(self.args, cfg)
        self.app = App(self.board, store, 256)
        self.seen = self.app.link.next_seq - 1
        self.all = []
        if prof is not None:
            eq(self.app.set_profile(prof), W.ACK_OK, "set_profile")

    def reboot(self, elapsed_ms=0):
        """Reset the board: a new App on the same flash, `elapsed_ms` after the last tick."""
        ticks = time.ticks_add(self.board.t, elapsed_ms)
        self.app.clock.slot.close()
        self.board = BenchBoard(self.args, self.cfg)
        self.board.t = ticks
        self.app = App(self.board, NvStore(self.state), 256)
        self.seen = 0
        self.all = []

    def close(self):
        self.app.clock.slot.close()
        wipe(self.state)

    # -- driving -------------------------------------------------------------------
    def step(self, ms=1):
        self.board.advance(ms)
        self.app.step()

    def run(self, ms, step=1):
        for _ in range(ms // step):
            self.step(step)

    def until(self, pred, max_ms, step=1):
        """Step until pred() is true; returns the ms it took (fails after max_ms)."""
        t = 0
        while t <= max_ms:
            if pred():
                return t
            self.step(step)
            t += step
        raise AssertionError("condition not met within %d ms" % max_ms)

    def cmd(self, code, a=0, b=0, c=0, x=0, y=0):
        return self.app.command(code, a, b, c, x, y)

    # -- a host on the data channel ------------------------------------------------
    def hello(self):
        """The host says HELLO (fresh, nothing committed): the link starts sending."""
        self.board.feed(hello_frame())

    def ack_all(self):
        """The host acknowledges every event the device has sent."""
        self.board.feed(ack_frame(self.app.boot_id, self.app.link.sent))

    # -- observing -----------------------------------------------------------------
    def events(self):
        """Events emitted since the last call."""
        link = self.app.link
        out = []
        for seq in range(self.seen + 1, link.next_seq):
            out.append(Event(seq, *ring_event(link, seq)))
        self.seen = link.next_seq - 1
        self.all += out
        return out

    def names(self):
        return [e.name for e in self.events()]

    def ms(self):
        return self.app.clock.ms(self.app.now)


def only(events, name):
    return [e for e in events if e.name == name]
