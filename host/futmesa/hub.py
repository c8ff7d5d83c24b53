"""State hub: the one place views read the live match state from and send referee input to.

The daemon publishes a new state dict after every change; any number of
views (kiosk WebSockets, the console, `futmesa watch`) subscribe, to one table
(``subscribe(table_id)``) or to every table (``subscribe()``). Subscribers are kept
per table, so a publish costs the table's own subscribers plus the all-tables ones:
N tables with a kiosk each is O(N) work, not N². A view never computes match state
itself. A table's health (faults around the match, futmesa/health.py) is published
separately and reaches every view as the state's `health` key:
{"ok": bool, "faults": [{code, pt, en, since}]}.
"""

from __future__ import annotations

import asyncio
import copy
import inspect
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

from futmesa.i18n import N_, _, short, translator

LANGS = ("pt", "en")  # the languages a refusal is said in (RefusedError.texts)

State = dict[str, Any]


class RefusedError(Exception):
    """A referee action the match cannot take; the message says why, for the console.

    The message is in the process language; ``texts`` ({"pt": …, "en": …}), when given, says
    the same in both, so a console in the other language reads it in its own
    (:meth:`said`). :meth:`words` makes both from one English msgid.
    """

    def __init__(self, message: str = "", texts: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.texts = dict(texts or {})

    @classmethod
    def words(cls, msgid: str, **values: Any) -> RefusedError:
        """The refusal ``msgid`` (marked with ``N_``), its placeholders filled from ``values``."""
        texts = {lang: translator(lang).gettext(msgid).format(**values) for lang in LANGS}
        return cls(_(msgid).format(**values), texts)

    def said(self, lang: str | None = None) -> str:
        """Why, in ``lang`` ("pt", "en", "pt_BR"…; None: the process language)."""
        return (self.texts.get(short(lang)) if lang else None) or str(self)


HEALTHY: State = {"ok": True, "faults": []}

RefereeHandler = Callable[[str, dict[str, Any], str], Awaitable[dict[str, Any]]]


ALL_TABLES = None  # the key of the all-tables subscribers
BACKLOG = 64  # states a view may have waiting (an all-tables view: at least 2 per table)


class Subscription:
    """One view's feed of published states; ``aclose()`` (or ``close()``) ends it.

    Registered when created (not at its first await), so a snapshot taken right after it
    cannot miss a publish landing in between. Every state arrives, in order, while the view
    keeps up; a view that falls behind (its backlog full) loses the oldest state that a
    newer state of the same table replaces (``superseded``), never a table's newest: a
    board lagging behind 64 tables still shows each table's latest score.
    """

    def __init__(self, subscribers: dict[str | None, set[Subscription]],
                 table_id: str | None = ALL_TABLES,
                 backlog: Callable[[], int] = lambda: BACKLOG) -> None:
        self._subscribers = subscribers
        self.table_id = table_id
        self._backlog = backlog
        self._pending: deque[State] = deque()
        self._waiter: asyncio.Future[None] | None = None
        self.superseded = 0  # states skipped because a newer one of their table was waiting
        self.dropped = 0  # newest states lost (only when more tables wait than the backlog)
        subscribers.setdefault(table_id, set()).add(self)

    def put(self, state: State) -> None:
        """A new state for this view (the hub, on the event loop)."""
        if len(self._pending) >= self._backlog():
            self._make_room()
        self._pending.append(state)
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    def _make_room(self) -> None:
        newest: dict[Any, int] = {}
        for i, state in enumerate(self._pending):
            newest[state.get("table_id")] = i
        for i, state in enumerate(self._pending):
            if newest[state.get("table_id")] != i:
                del self._pending[i]
                self.superseded += 1
                return
        self._pending.popleft()
        self.dropped += 1

    def waiting(self) -> int:
        """States published and not yet taken by the view."""
        return len(self._pending)

    def __aiter__(self) -> AsyncIterator[State]:
        return self

    async def __anext__(self) -> State:
        while not self._pending:
            self._waiter = asyncio.get_running_loop().create_future()
            try:
                await self._waiter
            finally:
                self._waiter = None
        return self._pending.popleft()

    def close(self) -> None:
        views = self._subscribers.get(self.table_id)
        if views is not None:
            views.discard(self)
            if not views:
                del self._subscribers[self.table_id]

    async def aclose(self) -> None:
        self.close()


class StateHub:
    """Holds the latest state of each table and fans changes out to subscribers."""

    def __init__(self) -> None:
        self._states: dict[str, State] = {}
        self._health: dict[str, State] = {}
        # per table id; ALL_TABLES (None) holds the views that take every table
        self._subscribers: dict[str | None, set[Subscription]] = {}
        self._referee: dict[str, RefereeHandler] = {}
        # per table: the live log of the match it is playing (matchbook/live_log.py), or None
        self._logs: dict[str, Callable[[], Any]] = {}
        self._extras: dict[str, State] = {}  # per table, merged into its state (e.g. "next")
        # per table and key: drop that extra once a published state satisfies this
        self._extras_until: dict[str, dict[str, Callable[[State], bool]]] = {}
        self.default_table: str | None = None

    # -- publishing (daemon side) -------------------------------------------------
    def publish(self, table_id: str, state: State) -> None:
        """Store the new state of a table and push it to its subscribers and the all-tables ones."""
        extras = self._extras.get(table_id)
        if extras:
            for key, done in list(self._extras_until.get(table_id, {}).items()):
                if done(state):  # e.g. the next match has just started: never shown as next
                    extras.pop(key, None)
                    self._extras_until[table_id].pop(key, None)
            state = {**state, **extras}
        state = {**state, "health": self._health.get(table_id, HEALTHY)}
        self._states[table_id] = state
        if self.default_table is None:
            self.default_table = table_id
        for key in (table_id, ALL_TABLES):
            views = self._subscribers.get(key)
            if views:
                for view in list(views):
                    view.put(state)

    def annotate(self, table_id: str, key: str, value: Any,
                 until: Callable[[State], bool] | None = None) -> None:
        """Add ``key`` to a table's state from now on (``None`` removes it); republishes.

        For what a table's state carries beside the match, e.g. the venue desk's next
        match for this table (``"next"``), shown by the kiosk and the console. ``until``:
        the extra is dropped from the first published state for which it is true, so that
        state already goes out without it (no screen shows the started match as "next").
        """
        extras = self._extras.setdefault(table_id, {})
        untils = self._extras_until.setdefault(table_id, {})
        untils.pop(key, None)
        if value is None:
            extras.pop(key, None)
        else:
            extras[key] = value
            if until is not None:
                untils[key] = until
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

    def set_log_source(self, table_id: str, source: Callable[[], Any]) -> None:
        """Where the console reads the log of the match the table is playing (kept live by
        its daemon: ``LiveLog``), so a console's new entries are not a replay each."""
        self._logs[table_id] = source

    def live_log(self, table_id: str | None = None) -> Any:
        """The live log of the table's match (the default table when None), or None."""
        source = self._logs.get(table_id or self.default_table or "")
        return source() if source is not None else None

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

    def subscribe(self, table_id: str | None = ALL_TABLES) -> Subscription:
        """Every state published from this call on, as an async iterator: of every table, or
        only of ``table_id`` (a kiosk showing one table; its publishes wake nobody else).

        The subscription is registered here, before the caller awaits anything, so a
        snapshot taken right after it cannot miss a publish that lands in between.
        """
        if table_id is ALL_TABLES:
            return Subscription(self._subscribers, ALL_TABLES,
                                lambda: max(BACKLOG, 2 * len(self._states)))
        return Subscription(self._subscribers, table_id)

    def subscriber_count(self, table_id: str | None = ALL_TABLES) -> int:
        """How many views take this table's states only (or, for None, every table's)."""
        return len(self._subscribers.get(table_id, ()))

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
            raise RefusedError.words(N_("no table is connected to this daemon yet"))
        given = {"pressed_at": pressed_at, "input_id": input_id}
        extra = {k: v for k, v in given.items() if v is not None and k in _parameters(handler)}
        return await handler(kind, data, author, **extra)


def _parameters(handler: RefereeHandler) -> frozenset[str]:
    """The parameter names of a referee handler (the daemon's take the press time and id)."""
    try:
        return frozenset(inspect.signature(handler).parameters)
    except (TypeError, ValueError):
        return frozenset()
