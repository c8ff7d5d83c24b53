"""The real rules engine behind the hub, with no device: the browser tests' table that feeds the
engine the entries a test (or the console) sends and publishes its state like the daemon does,
its log served for /api/log. ``kicked_off`` plays a match's first entries; ``rules_served``
serves a table of a ruleset on a live server."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from phone_console import PHONE, console_page

from futmesa.hub import RefusedError, StateHub
from futmesa.rules import Engine, Entry, load_ruleset
from futmesa_testkit.liveserver import TOKEN, LiveServer, make_state, serving


class RulesTable:
    """A real rules engine fed by the test, publishing like the daemon does: each entry at
    0 ms with no author, the refusal's words as the rules say them, the engine's match state
    (`options`: the match's, e.g. its teams) in the state every screen reads."""

    def __init__(self, hub: StateHub, ruleset: str = "mesa-posta",
                 options: dict[str, Any] | None = None) -> None:
        self.hub = hub
        self.ruleset = ruleset
        self.engine = Engine(load_ruleset(ruleset), options or {})
        self.state = self.engine.initial_state()
        self.entries: list[dict[str, Any]] = []
        hub.set_referee_handler("sim-1", self.handle)
        self.publish()

    def entry(self, entry_id: int, kind: str, data: dict[str, Any], source: str,
              author: str) -> Entry:
        """The log's next line as the engine takes it."""
        return Entry(id=entry_id, kind=kind, data=data, source=source,
                     period=self.state.to_dict().get("period", 1), clock_ms=0)

    def refusal(self, pt: str) -> str:
        """What a refusal says on the console."""
        return pt

    def apply(self, kind: str, data: dict[str, Any], source: str = "referee",
              author: str = "Ana") -> int:
        entry = self.entry(len(self.entries) + 1, kind, data, source, author)
        new, effects = self.engine.apply(self.state, entry)
        for effect in effects:
            if effect.kind == "announce" and effect.data.get("code") == "refused":
                raise RefusedError(self.refusal(effect.data["pt"]))
        self.state = new
        self.effects = effects  # what the rules made of it (the daemon answers with them)
        self.entries.append({"id": entry.id, "kind": kind, "data": data, "source": source,
                             "period": entry.period, "clock_ms": entry.clock_ms,
                             "created_at": 0, "author": author, "voided": False,
                             "amended_by": None})
        self.publish()
        return entry.id

    def publish(self) -> None:
        m = self.state.to_dict()
        st = make_state(score=m["score"], teams=m["teams"], period=m["period"],
                        status=m["status"], finished=m["finished"])
        st["match"] = m
        self.published = st
        self.hub.publish("sim-1", st)

    async def handle(self, kind: str, data: dict[str, Any], author: str) -> dict[str, Any]:
        # answered as the daemon answers (table/referee.py): the entry and the new state
        entry_id = self.apply(kind, data, "referee", author)
        return {"entry_id": entry_id, "state": self.published}

    # HistoryProvider for /api/log
    def list_matches(self, limit: int | None = None,
                     before: int | None = None) -> list[dict[str, Any]]:
        return []

    def match_record(self, match_id: int) -> dict[str, Any]:
        return {"match": {"id": 1}, "entries": list(self.entries),
                "state": {"finished": self.state.to_dict()["finished"]}}


def kicked_off(live: LiveServer, table: RulesTable, author: str = "Ana") -> None:
    """The match set up (A kicks off), its first half started, its clock running."""
    for kind, data, source in (("set_up", {"kickoff": "A"}, "referee"),
                               ("start_period", {}, "referee"),
                               ("clock_started", {}, "device")):
        live.call(table.apply, kind, data, source, author)


@contextmanager
def rules_served(table: type[RulesTable], ruleset: str) -> Iterator[tuple[LiveServer, Any]]:
    """A live server whose hub is fed by a new `table` of `ruleset` (its log for /api/log)."""
    hub = StateHub()
    rules = table(hub, ruleset)
    with serving(hub, history=rules) as live:
        yield live, rules


@contextmanager
def phone_on_rules_table(browser: Any, ruleset: str, kick_off: bool = True
                         ) -> Iterator[tuple[LiveServer, Any, Any]]:
    """The rules engine's table of `ruleset` served (its match kicked off unless `kick_off` is
    False) and its console on a 390×844 touch phone: (live, table, phone)."""
    with rules_served(RulesTable, ruleset) as (live, table):
        if kick_off:
            kicked_off(live, table)
        context = browser.new_context(**PHONE)
        try:
            yield live, table, console_page(context, live.url, TOKEN)
        finally:
            context.close()
