"""Flash persistence: boot id, clock profile, table tuning and the clock state, as small files.

Rare writes (profile, boot id) go whole to a temporary name renamed over the
old one, so a reset during a write leaves either the old or the new content.
The clock state is a fixed-size slot: a file kept open and rewritten in place
(seek, write, flush), which allocates nothing, so the loop can checkpoint the
running clock in steady state. On littlefs (rp2, esp32) a flushed rewrite is
atomic: a reset leaves the old or the new record, never a mix.
"""

import os
import struct


class Slot:
    """A fixed-size record rewritten in place without allocating."""

    def __init__(self, path, size):
        self.size = size
        self.buf = bytearray(size)
        self.valid = False
        try:
            f = open(path, "r+b")
            n = f.readinto(self.buf)
            self.valid = n == size
        except OSError:
            f = open(path, "w+b")
        if not self.valid:
            for i in range(size):
                self.buf[i] = 0
            f.seek(0)
            f.write(self.buf)
            f.flush()
        self._f = f

    def flush(self):
        """Write self.buf to flash (allocation-free)."""
        f = self._f
        f.seek(0)
        f.write(self.buf)
        f.flush()

    def close(self):
        try:
            self._f.close()
        except OSError:
            pass


class NvStore:
    def __init__(self, directory):
        self.dir = directory
        try:
            os.mkdir(directory)
        except OSError:
            pass

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
        tmp = self._path(name + ".tmp")
        with open(tmp, "wb") as f:
            f.write(data)
        os.rename(tmp, self._path(name))

    def remove(self, name):
        try:
            os.remove(self._path(name))
        except OSError:
            pass

    def slot(self, name, size):
        return Slot(self._path(name), size)

    def next_boot_id(self):
        """Increment and store the boot id; returns the new one (1..65535)."""
        raw = self.read("boot.bin")
        last = struct.unpack("<H", raw)[0] if raw and len(raw) == 2 else 0
        boot = last % 0xFFFF + 1
        self.write("boot.bin", struct.pack("<H", boot))
        return boot
