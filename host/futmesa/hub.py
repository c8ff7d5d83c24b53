"""State hub: the one place views read the live match state from and send referee input to.

The daemon publishes a new state dict after every change; any number of
views (kiosk WebSockets, the console, `futmesa watch`) subscribe. A view
never computes match state itself. A table's health (faults around the
match, futmesa/health.py) is published separately and reaches every view
as the state's `health` key: {"ok": bool, "faults": [{code, pt, en, since}]}.
"""

from __future__ import annotations

import asyncio
import copy
import inspect
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

State = dict[str, Any]


class RefusedError(Exception):
    """A referee action the match cannot take; the message says why, for the console."""


HEALTHY: State = {"ok": True, "faults": []}

RefereeHandler = Callable[[str, dict[str, Any], str], Awaitable[dict[str, Any]]]


class Subscription:
    """One view's feed of published states; ``aclose()`` (or ``close()``) ends it."""

    def __init__(self, subscribers: set[asyncio.Queue[State]]) -> None:
        self._subscribers = subscribers
        self._queue: asyncio.Queue[State] = asyncio.Queue(maxsize=64)
        subscribers.add(self._queue)

    def __aiter__(self) -> AsyncIterator[State]:
        return self

    async def __anext__(self) -> State:
        return await self._queue.get()

    def close(self) -> None:
        self._subscribers.discard(self._queue)

    async def aclose(self) -> None:
        self.close()


class StateHub:
    """Holds the latest state of each table and fans changes out to subscribers."""

    def __init__(self) -> None:
        self._states: dict[str, State] = {}
        self._health: dict[str, State] = {}
        self._subscribers: set[asyncio.Queue[State]] = set()
        self._referee: dict[str, RefereeHandler] = {}
        self._extras: dict[str, State] = {}  # per table, merged into its state (e.g. "next")
        self.default_table: str | None = None

    # -- publishing (daemon side) -------------------------------------------------
    def publish(self, table_id: str, state: State) -> None:
        """Store the new state of a table and push it to every subscriber."""
        extras = self._extras.get(table_id)
        if extras:
            state = {**state, **extras}
        state = {**state, "health": self._health.get(table_id, HEALTHY)}
        self._states[table_id] = state
        if self.default_table is None:
            self.default_table = table_id
        for queue in list(self._subscribers):
            if queue.full():  # a stalled view only ever needs the newest state
                try:
                    queue.get_nowait()
                except asyncio.QueueEmpty:
                    pass
            queue.put_nowait(state)

    def annotate(self, table_id: str, key: str, value: Any) -> None:
        """Add ``key`` to a table's state from now on (``None`` removes it); republishes.

        For what a table's state carries beside the match, e.g. the venue desk's next
        match for this table (``"next"``), shown by the kiosk and the console.
        """
        extras = self._extras.setdefault(table_id, {})
        if value is None:
            extras.pop(key, None)
        else:
            extras[key] = value
        state = self._states.get(table_id)
        if state is not None:
            base = {k: v for k, v in state.items() if k != key}
            self.publish(table_id, base)

    def publish_health(self, table_id: str, health: State) -> None:
        """A table's health changed: every view gets its state again with the new health."""
        self._health[table_id] = health
        state = self._states.get(table_id) or {"table_id": table_id, "status": "waiting",
                                               "link": {"connected": False}}
        self.publish(table_id, state)

    def set_referee_handler(self, table_id: str, handler: RefereeHandler) -> None:
        self._referee[table_id] = handler

    # -- reading (view side) ------------------------------------------------------
    def snapshot(self, table_id: str | None = None) -> State:
        """The current state of a table (the default table when None); a copy."""
        key = table_id or self.default_table
        if key is None or key not in self._states:
            return {"table_id": key, "status": "waiting", "link": {"connected": False},
                    "health": HEALTHY}
        return copy.deepcopy(self._states[key])

    def tables(self) -> list[State]:
        """Every table's state, for the venue board."""
        return [copy.deepcopy(s) for _, s in sorted(self._states.items())]

    def subscribe(self) -> Subscription:
        """Every state published (of any table) from this call on, as an async iterator.

        The subscription is registered here, before the caller awaits anything, so a
        snapshot taken right after it cannot miss a publish that lands in between.
        """
        return Subscription(self._subscribers)

    async def referee_input(
        self, kind: str, data: dict[str, Any], author: str, table_id: str | None = None,
        pressed_at: float | None = None, input_id: str | None = None,
    ) -> dict[str, Any]:
        """Apply a referee action; raises RefusedError with a reason the console shows.

        ``pressed_at``: when the referee pressed it (host Unix ms), for an input that reached
        the host late (a phone offline for a moment); ``input_id``: the id the phone gave it
        (applied once however often it is sent). Each is passed on to a handler that takes it.
        """
        key = table_id or self.default_table
        handler = self._referee.get(key or "")
        if handler is None:
            raise RefusedError("no table is connected to this daemon yet")
        given = {"pressed_at": pressed_at, "input_id": input_id}
        extra = {k: v for k, v in given.items() if v is not None and k in _parameters(handler)}
        return await handler(kind, data, author, **extra)


def _parameters(handler: RefereeHandler) -> frozenset[str]:
    """The parameter names of a referee handler (the daemon's take the press time and id)."""
    try:
        return frozenset(inspect.signature(handler).parameters)
    except (TypeError, ValueError):
        return frozenset()
