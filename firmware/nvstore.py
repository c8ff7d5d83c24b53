"""Flash persistence: boot id, clock profile, table tuning and the clock state, as small files.

Rare writes (profile, boot id) go whole to a temporary name renamed over the
old one, so a reset during a write leaves either the old or the new content.
The clock state is a fixed-size slot: a file kept open and rewritten in place
(seek, write, flush), which allocates nothing, so the loop can checkpoint the
running clock in steady state. On littlefs (rp2, esp32) a flushed rewrite is
atomic: a reset leaves the old or the new record, never a mix.

A flash that cannot be written (full, read-only, damaged, or no filesystem
mounted at all) never stops the firmware: every write reports failure instead
of raising, the state lives on in RAM, and `error` keeps the first failure's
errno so the firmware can report a storage fault (App, `EV_SENSOR_FAULT` with
`SENSOR_STORAGE`). The callback `on_fault` (set by App) hears each new failure.
"""

import os
import struct


class Slot:
    """A fixed-size record rewritten in place without allocating."""

    def __init__(self, path, size, store=None):
        self.size = size
        self.buf = bytearray(size)
        self.valid = False
        self._store = store
        self._f = None
        try:
            f = open(path, "r+b")
            n = f.readinto(self.buf)
            self.valid = n == size
        except OSError:
            try:
                f = open(path, "w+b")
            except OSError as exc:
                self._failed(exc)  # the record lives in RAM only
                return
        self._f = f
        if not self.valid:
            for i in range(size):
                self.buf[i] = 0
            self.flush()

    def _failed(self, exc):
        if self._f is not None:
            try:
                self._f.close()
            except OSError:
                pass
        self._f = None  # stop writing: a full or broken flash fails again on every try
        if self._store is not None:
            self._store.failed(exc)

    def flush(self):
        """Write self.buf to flash (allocation-free); after a failure, a no-op (RAM only)."""
        f = self._f
        if f is None:
            return
        try:
            f.seek(0)
            f.write(self.buf)
            f.flush()
        except OSError as exc:
            self._failed(exc)

    def close(self):
        try:
            if self._f is not None:
                self._f.close()
        except OSError:
            pass


class NvStore:
    def __init__(self, directory):
        self.dir = directory
        self.error = 0  # errno of the first failed write; 0 while the flash takes writes
        self.on_fault = None  # called with the errno of each failed write (App reports it)
        try:
            os.mkdir(directory)
        except OSError:
            pass

    def failed(self, exc):
        """Record a failed write (`exc`: the OSError)."""
        code = exc.args[0] if exc.args and isinstance(exc.args[0], int) else -1
        if not self.error:
            self.error = code
        if self.on_fault is not None:
            self.on_fault(code)

    def _path(self, name):
        return self.dir + "/" + name

    def read(self, name):
        try:
            with open(self._path(name), "rb") as f:
                return f.read()
        except OSError:
            return None

    def read_json(self, name):
        """A small JSON object from flash (e.g. table.json), or None when absent or unreadable."""
        raw = self.read(name)
        if not raw:
            return None
        try:
            import json

            value = json.loads(raw)
        except ValueError:
            return None
        return value if isinstance(value, dict) else None

    def write(self, name, data):
        """Write a whole file (temporary name, then rename); False when the flash refused it."""
        tmp = self._path(name + ".tmp")
        try:
            with open(tmp, "wb") as f:
                f.write(data)
            os.rename(tmp, self._path(name))
        except OSError as exc:
            self.failed(exc)
            return False
        return True

    def remove(self, name):
        try:
            os.remove(self._path(name))
        except OSError:
            pass

    def slot(self, name, size):
        return Slot(self._path(name), size, self)

    def next_boot_id(self):
        """Increment and store the boot id; returns the new one (1..65535).

        When it cannot be stored the id is still new to the host with high
        probability: the next id plus a random offset, so the host sees a reset.
        """
        raw = self.read("boot.bin")
        last = struct.unpack("<H", raw)[0] if raw and len(raw) == 2 else 0
        boot = last % 0xFFFF + 1
        if not self.write("boot.bin", struct.pack("<H", boot)):
            boot = (boot + _random16()) % 0xFFFF + 1
        return boot


def _random16():
    try:
        r = os.urandom(2)
        return r[0] | r[1] << 8
    except (AttributeError, OSError):
        return 0  # a port without os.urandom: the next id as it is
