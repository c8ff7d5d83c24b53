"""The project's fault relay: a simulated cable between a host and a table's pty that misbehaves.

The host opens the relay's pty (`path`, optionally reached through a fixed
symlink `link_path`); the relay copies bytes to and from the table's pty
(`device_side`) and, both ways, flips a bit in, drops, or inserts a stray byte
before each byte at `rate` per byte (futmesa_testkit.noise.corrupt). `unplug()`
makes both ends vanish, as pulling a USB cable does, until `plug()`; a thread
of `start()` can also pull it on a schedule (`unplug_every` / `unplug_for`).

Used by the link's fault tests (tests/link) and the soak benchmark
(bench/soak.py), so both put the same faults on the line.
"""

from __future__ import annotations

import os
import random
import select
import threading
import time
import tty
from pathlib import Path

from futmesa_testkit.noise import corrupt


class FaultRelay:
    """A pty the host opens, relayed to the table's pty with noise and unplugs.

    `stats` counts bytes seen and those flipped, dropped and inserted, and the unplugs.
    """

    def __init__(self, device_side: str, rate: float, seed: int = 7,
                 link_path: Path | None = None, unplug_every: float = 0.0,
                 unplug_for: float = 1.0) -> None:
        self.device_side = device_side
        self.rate = rate
        self.rng = random.Random(seed)
        self.link_path = Path(link_path) if link_path is not None else None
        self.unplug_every = unplug_every
        self.unplug_for = unplug_for
        self.stats = {"bytes": 0, "flipped": 0, "dropped": 0, "inserted": 0, "unplugs": 0}
        self.master = -1
        self._slave = -1
        self._tty = ""
        self._plugged = threading.Event()
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._pull_thread: threading.Thread | None = None

    @property
    def path(self) -> str:
        """What the host opens: the fixed symlink if there is one, else the pty itself."""
        return str(self.link_path) if self.link_path is not None else self._tty

    def start(self) -> FaultRelay:
        self.plug()
        self._thread.start()
        if self.unplug_every > 0:
            self._pull_thread = threading.Thread(target=self._pull, daemon=True)
            self._pull_thread.start()
        return self

    def plug(self) -> None:
        """The cable back in: a new pty (at the same symlink, when there is one)."""
        with self._lock:
            self.master, self._slave = os.openpty()
            tty.setraw(self.master)
            tty.setraw(self._slave)
            self._tty = os.ttyname(self._slave)
            if self.link_path is not None:
                tmp = self.link_path.with_suffix(".new")
                if tmp.is_symlink():
                    tmp.unlink()
                tmp.symlink_to(self._tty)
                tmp.replace(self.link_path)
        self._plugged.set()

    def unplug(self) -> None:
        """The cable out: the host's end vanishes (reads and writes fail) until plug()."""
        self._plugged.clear()
        with self._lock:
            if self.link_path is not None and self.link_path.is_symlink():
                self.link_path.unlink()
            for fd in (self.master, self._slave):
                if fd >= 0:
                    try:
                        os.close(fd)
                    except OSError:
                        pass
            self.master = self._slave = -1
        self.stats["unplugs"] += 1

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=2)
        if self._pull_thread is not None:
            self._pull_thread.join(timeout=self.unplug_for + 2)
        if self._plugged.is_set():
            self.unplug()
            self.stats["unplugs"] -= 1  # stopping is not a fault

    def _pull(self) -> None:
        while not self._stop.wait(self.unplug_every):
            self.unplug()
            if self._stop.wait(self.unplug_for):
                return
            self.plug()

    def _corrupt(self, data: bytes) -> bytes:
        return corrupt(data, self.rate, self.rng, self.stats)

    def _run(self) -> None:
        dev = -1
        while not self._stop.is_set():
            if not self._plugged.wait(0.05):
                continue
            if dev < 0:
                try:
                    dev = os.open(self.device_side, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
                    tty.setraw(dev)
                except OSError:
                    time.sleep(0.05)
                    continue
            with self._lock:
                master = self.master
            if master < 0:
                continue
            try:
                ready, _w, _x = select.select([master, dev], [], [], 0.05)
                if master in ready:
                    os.write(dev, self._corrupt(os.read(master, 4096)))
                if dev in ready:
                    os.write(master, self._corrupt(os.read(dev, 4096)))
            except BlockingIOError:
                continue
            except (OSError, ValueError):
                # the table's side went away (its cable, a reset): reopen it
                try:
                    os.close(dev)
                except OSError:
                    pass
                dev = -1
        if dev >= 0:
            os.close(dev)
