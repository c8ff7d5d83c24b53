"""One thread that carries out calls one at a time, in the order they were put: a slow
job (a disk write) taken off a thread that must keep going (paho's network loop)."""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from typing import Any


class InOrder:
    def __init__(self, name: str, call: Callable[..., None]) -> None:
        self._call = call
        self._queue: queue.Queue[tuple[Any, ...] | None] = queue.Queue()
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)

    def start(self) -> None:
        self._thread.start()

    def put(self, *args: Any) -> bool:
        """Queue one call; False when the thread is not running (the caller does it)."""
        if not self._thread.is_alive():
            return False
        self._queue.put(args)
        return True

    def stop(self, timeout: float = 30) -> None:
        """Carry out what was put, then end."""
        if self._thread.is_alive():
            self._queue.put(None)
            self._thread.join(timeout=timeout)

    def _run(self) -> None:
        while True:
            item = self._queue.get()
            if item is None:
                return
            self._call(*item)
