"""A table's data channel on a pseudo-terminal: opened raw and non-blocking, reopened when it vanishes.

Used by the boards that run on a computer: the simulated board (the unix port,
one end of a socat pair) and the Linux board (CPython on a Raspberry Pi, the
pty the daemon gave it). Reads and writes never block and allocate nothing;
an error drops the port, which is tried again every REOPEN_MS (a pulled cable).
"""

import sys
import time

try:
    import termios  # type: ignore[import-not-found]  # unix port / CPython only
except ImportError:  # not on a real board
    termios = None

from micropython import const

REOPEN_MS = const(500)  # real ms between attempts to reopen a vanished port
_CPYTHON = sys.implementation.name != "micropython"  # the Linux board: unbuffered FileIO


class PtyPort:
    def __init__(self, path):
        self.path = path
        self.unplugged = False  # the sim's `unplug`: stay closed until `replug`
        self._port = None
        self._last_try = time.ticks_ms()
        self.open()

    def open(self):
        self._last_try = time.ticks_ms()
        if not self.path or self.unplugged:
            return
        try:
            port = open(self.path, "r+b", buffering=0) if _CPYTHON else open(self.path, "r+b")
            if termios is not None:
                fd = port.fileno()
                if _CPYTHON:
                    import tty  # type: ignore[import-not-found]  # CPython

                    tty.setraw(fd)
                else:
                    termios.setraw(fd)
                attrs = termios.tcgetattr(fd)
                attrs[6][6] = 0  # VMIN: a read returns at once ...
                attrs[6][5] = 0  # VTIME: ... with whatever is there
                termios.tcsetattr(fd, termios.TCSANOW, attrs)
            self._port = port
        except OSError:
            self._port = None

    def ready(self):
        if self._port is None:
            if time.ticks_diff(time.ticks_ms(), self._last_try) >= REOPEN_MS:
                self.open()
        return self._port is not None

    def readinto(self, buf):
        if self._port is None:
            return 0
        try:
            n = self._port.readinto(buf)
        except OSError:
            self.drop()
            return 0
        return n or 0

    def write(self, buf, n=-1):
        if self._port is None:
            return 0
        if n < 0:
            n = len(buf)
        try:
            if _CPYTHON:
                return self._port.write(memoryview(buf)[:n]) or 0
            return self._port.write(buf, n) or 0  # no slice: nothing allocated
        except OSError:
            self.drop()
            return 0

    def drop(self):
        if self._port is not None:
            try:
                self._port.close()
            except OSError:
                pass
        self._port = None

    def unplug(self):
        self.unplugged = True
        self.drop()

    def replug(self):
        self.unplugged = False
        self.open()

