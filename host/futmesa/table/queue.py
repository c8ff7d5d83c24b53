"""One table's work, one piece at a time in the order it came: the link's frames and the
referee's inputs reach the match through this queue, so no lock is shared between threads.

The caller waits for its answer (the link must know what was committed before it acknowledges
a frame; the referee's phone gets the new state). Work handed in by the queue's own thread
(a referee's "Nova partida" opening the match, a callback) runs at once, in turn.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any, TypeVar

T = TypeVar("T")

_Work = tuple[Callable[..., Any], tuple[Any, ...], Future[Any]]


class TableQueue:
    """A worker thread per table; :meth:`run` hands it a call and returns its result."""

    def __init__(self, name: str) -> None:
        self._name = name
        self._work: queue.SimpleQueue[_Work | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._start = threading.Lock()
        self._closed = False

    def run(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` on the table's thread, after the work handed in before it."""
        if threading.current_thread() is self._thread:
            return fn(*args)
        with self._start:
            if self._closed:  # stopped: nothing else runs on this table any more
                return fn(*args)
            if self._thread is None:
                self._thread = threading.Thread(target=self._serve, daemon=True,
                                                name=f"table-{self._name}")
                self._thread.start()
            done: Future[T] = Future()
            self._work.put((fn, args, done))
        return done.result()

    def close(self) -> None:
        """Finish the work handed in, then stop the thread."""
        with self._start:
            self._closed = True
            self._work.put(None)

    def _serve(self) -> None:
        while True:
            work = self._work.get()
            if work is None:
                return
            fn, args, done = work
            try:
                done.set_result(fn(*args))
            except BaseException as exc:  # noqa: BLE001 - handed back to the caller
                done.set_exception(exc)
