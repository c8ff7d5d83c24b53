"""Stored match logs made by hand for the matchbook tests (no daemon, no serial link)."""

from __future__ import annotations

from typing import Any

from futmesa.matchbook.entries import to_entry
from futmesa.rules import Engine, load_ruleset
from futmesa.sim.referee_moves import kick_off_first
from futmesa.store import StoredEntry

T0 = 1_780_000_000_000  # Unix ms


def match_row(ruleset: str = "cbfm-1toque", **settings: Any) -> dict[str, Any]:
    return {"id": 1, "table_id": "sim-T1", "ruleset": ruleset,
            "settings": {"teams": {"A": {"name": "Alvorada"}, "B": {"name": "Botafogo"}},
                         "kickoff": "A", **settings},
            "referee": "Árbitro Silva", "created_at": T0 / 1000, "ended_at": None}


class Log:
    """Appends stored rows the way the daemon does: ids in order, device and referee sources."""

    def __init__(self) -> None:
        self.rows: list[StoredEntry] = []

    def add(self, kind: str, data: dict[str, Any] | None = None, source: str = "referee",
            author: str = "árbitro", clock_ms: int = 0) -> int:
        i = len(self.rows) + 1
        self.rows.append(StoredEntry(i, 1, source, kind, dict(data or {}), 1, clock_ms, 0,
                                     author if source == "referee" else "T1",
                                     T0 / 1000 + i, T0 + i * 1000.0))
        return i

    def match(self) -> dict[str, Any]:
        """The match state the rules make of the rows so far (cbfm, as `match_row`)."""
        row = match_row()
        engine = Engine(load_ruleset(row["ruleset"]), row["settings"])
        state, _ = engine.replay([to_entry(r) for r in self.rows])
        return state.to_dict()

    def device(self, kind: str, data: dict[str, Any] | None = None, clock_ms: int = 0) -> int:
        return self.add(kind, data, source="device", clock_ms=clock_ms)

    def goal(self, side: str = "A", disc: int = 7) -> int:
        """A shot asked by ``side`` and the ball over the line it attacks (cbfm, 000 Art. 12);
        its kick-off touch first when it has the kick-off not yet taken (no shot from it, 000
        Art. 12 §5)."""
        move = kick_off_first(self.match(), side)
        if move is not None:
            self.add(*move)
        self.add("shot_asked", {"side": side, "disc": disc})
        # at kick-off side A defends goal line 0 and attacks goal line 1
        return self.device("goal_line", {"goal": 1 if side == "A" else 0, "held_ms": 40})


def started() -> Log:
    log = Log()
    log.add("set_up", {"kickoff": "A"})
    log.add("start_period", {})
    log.device("period_started", {})
    log.device("clock_started", {"reason": 0})
    return log
