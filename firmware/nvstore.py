"""Flash persistence: boot id, clock profile and clock state, as small files.

Each file is written whole to a temporary name and renamed over the old one,
so a reset during a write leaves either the old or the new content.
"""

import os
import struct


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

    def write(self, name, data):
        tmp = self._path(name + ".tmp")
        with open(tmp, "wb") as f:
            f.write(data)
        os.rename(tmp, self._path(name))

    def next_boot_id(self):
        """Increment and store the boot id; returns the new one (1..65535)."""
        raw = self.read("boot.bin")
        last = struct.unpack("<H", raw)[0] if raw and len(raw) == 2 else 0
        boot = last % 0xFFFF + 1
        self.write("boot.bin", struct.pack("<H", boot))
        return boot
