"""A match built entry by entry straight through the rules engine (no daemon, no store), for
tests and benches that need a long log fast: each entry half a second after the last."""

from __future__ import annotations

from typing import Any

from futmesa.rules import Engine, Entry, load_ruleset


class EntryBuilder:
    """``put`` applies one entry and keeps it; ``state`` is the match after the last one."""

    def __init__(self, ruleset: str = "cbfm-1toque") -> None:
        self.engine = Engine(load_ruleset(ruleset))
        self.state = self.engine.initial_state()
        self.log: list[Entry] = []

    def put(self, kind: str, data: dict[str, Any], source: str = "referee") -> Entry:
        n = len(self.log) + 1
        entry = Entry(n, kind, data, source, 1, n * 500, n * 500, at=1_000_000 + n * 500)
        self.state, _ = self.engine.apply(self.state, entry)
        self.log.append(entry)
        return entry

    def kick_off(self, side: str = "A") -> None:
        """Set-up with ``side`` kicking off, the first period started, the clock running."""
        self.put("set_up", {"kickoff": side})
        self.put("start_period", {})
        self.put("clock_started", {"reason": 0}, "device")
