"""The desk pages' views, shared: a day's spectators open team pages all the time, and
working each view out again for every phone would hold up the boards' live states."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable
from typing import Any

from futmesa.venue.desk import Desk

VIEW_FRESH_S = 3.0  # a page's view is worked out again after this, or when a result lands


class ViewCache:
    """The pages' views of the competition, shared by every screen and phone asking within
    a few seconds while nothing was stored (a day's spectators open team pages all the time;
    working each out again would hold up the boards' live states)."""

    def __init__(self, desk: Desk) -> None:
        self.desk = desk
        self._lock = threading.Lock()
        self._views: dict[tuple[Any, ...], tuple[tuple[Any, ...], float, Any]] = {}

    async def get(self, fn: Callable[..., Any], *args: Any) -> Any:
        return await asyncio.to_thread(self._get, fn, args)

    def _get(self, fn: Callable[..., Any], args: tuple[Any, ...]) -> Any:
        key = (fn.__name__, *args)
        stamp = self.desk.comp.revision()
        now = time.monotonic()
        with self._lock:
            hit = self._views.get(key)
        if hit is not None and hit[0] == stamp and now - hit[1] < VIEW_FRESH_S:
            return hit[2]
        value = fn(self.desk.comp, *args)
        with self._lock:
            if len(self._views) > 2000:  # every team in two languages, and then some
                self._views.clear()
            self._views[key] = (stamp, now, value)
        return value
