"""The referee inputs a console sent lately, so that none is applied twice.

Each input carries an id the phone made when it was pressed (``input_id``) and the id of the
console that made it (``console``). A request that arrives again with an id already seen (a
retry after a lost answer, a replayed queue) is answered with the first answer and applied
once. Two consoles of one table pressing the same thing within :data:`TWIN_WINDOW_S` (two
referees seeing the same foul, two phones pressing "Nova partida") are one action: the second
is answered "já feito". A console repeating its own press (a new id) is a new action, except
for what can only happen once at a time (starting a period, opening a new match).
"""

from __future__ import annotations

import asyncio
import json
import re
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

TWIN_WINDOW_S = 3.0  # two consoles' identical presses this close together are one action
KEEP_INPUTS = 2000  # input ids remembered per daemon (a match has a few hundred inputs)
# kinds that happen once at a time whoever presses them, even twice on one console
ONCE_KINDS = frozenset({"start_period", "new_match"})
INPUT_ID = re.compile(r"^[A-Za-z0-9_-]{8,64}$")


def valid_input_id(value: Any) -> str | None:
    """The phone's input id if it is one (8–64 letters, digits, ``-`` or ``_``), else None."""
    return value if isinstance(value, str) and INPUT_ID.match(value) else None


def _same_action_key(kind: str, data: dict[str, Any]) -> str:
    if kind == "new_match":
        return kind  # two new matches at once are one, whatever each form said
    return kind + json.dumps(data, sort_keys=True, separators=(",", ":"), default=str)


@dataclass
class InputRecord:
    """One input as received: its task, and the answer given (for a retry to get it again)."""

    table: str | None
    token: str  # the token it was sent with: only that token's retries get its answer
    console: str
    key: str
    kind: str
    task: asyncio.Future[Any]
    received: float = field(default_factory=time.monotonic)
    rid: str | None = None  # the id of its pending answer, when it was slow
    answer: tuple[int, dict[str, Any]] | None = None  # (HTTP status, body) once answered


class InputLedger:
    """Recent inputs by (table, input id), and by action for the twin check."""

    def __init__(self, keep: int = KEEP_INPUTS, window_s: float = TWIN_WINDOW_S) -> None:
        self.keep = keep
        self.window_s = window_s
        self.by_id: OrderedDict[tuple[str | None, str], InputRecord] = OrderedDict()
        self.recent: list[InputRecord] = []

    def seen(self, table: str | None, input_id: str | None) -> InputRecord | None:
        """The record of an input id already received for this table, if any."""
        return self.by_id.get((table, input_id)) if input_id else None

    def twin(self, table: str | None, console: str, kind: str,
             data: dict[str, Any]) -> InputRecord | None:
        """The same action from another console (or a once-only one from any) within the
        window, still being applied or applied; a refused one does not count."""
        now = time.monotonic()
        self.recent = [r for r in self.recent if now - r.received <= self.window_s]
        key = _same_action_key(kind, data)
        for r in reversed(self.recent):
            if r.table != table or r.key != key:
                continue
            if r.console == console and kind not in ONCE_KINDS:
                continue
            if not r.task.done() or _succeeded(r.task):
                return r
        return None

    def add(self, table: str | None, input_id: str | None, console: str, kind: str,
            data: dict[str, Any], task: asyncio.Future[Any], token: str) -> InputRecord:
        record = InputRecord(table=table, token=token, console=console,
                             key=_same_action_key(kind, data), kind=kind, task=task)
        self.recent.append(record)
        if input_id:
            self.by_id[(table, input_id)] = record
            while len(self.by_id) > self.keep:
                self.by_id.popitem(last=False)
        return record


def _succeeded(task: asyncio.Future[Any]) -> bool:
    return not task.cancelled() and task.exception() is None
