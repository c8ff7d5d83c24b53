"""Match states for the kiosk's screen tests, shaped as the daemon publishes them."""

from __future__ import annotations

import time
from typing import Any

from futmesa.matchbook.live import in_words
from futmesa_testkit.liveserver import make_state

LONG_A = "Estrela do Norte Futebol de Mesa"
LONG_B = "Botafogo da Mesa"


def goal_items(first_id: int, entry: int, side: str, name: str, conceding: str,
               score: dict[str, int]) -> list[dict[str, Any]]:
    """The two announcements the engine makes for a goal's entry (rules/goals.py)."""
    return [
        {"id": first_id, "entry": entry, "code": "goal", "rule": "000 Art. 12 §1",
         "pt": f"Gol! {name} — {score['A']} × {score['B']} (000 Art. 12 §1)",
         "en": f"Goal! {name} — {score['A']}–{score['B']} (000 Art. 12 §1)"},
        {"id": first_id + 1, "entry": entry, "code": "rearrange", "rule": "000 Art. 6",
         "pt": f"Arrumação das equipes; saída para {conceding} (000 Art. 6)",
         "en": f"Teams re-arrange; kick-off to {conceding} (000 Art. 6)"},
    ]


def match_state(*, score: dict[str, int] | None = None, goals: list[dict[str, Any]] | None = None,
                announcements: list[dict[str, Any]] | None = None, table_id: str = "sim-SIM00001",
                **over: Any) -> dict[str, Any]:
    """A mid-match state: long club names, a black club colour, fouls, goals with scorers."""
    now = int(time.time() * 1000)
    st = make_state(table_id=table_id, score=score or {"A": 0, "B": 0}, period=1)
    st["teams"] = {"A": {"name": LONG_A, "color": "#c8102e"},
                   "B": {"name": LONG_B, "color": "#000000"}}
    st["ruleset_title"] = "CBFM — Regra 1 Toque"
    st["clock"].update(ms=754_000, running=True, at=now)
    st["lance"].update(ms=12_000, running=True, at=now, side="A")
    st["match"].update(
        turn="A", ends={"A": 0, "B": 1}, goals=goals or [],
        fouls={"A": {"fouls": 2, "technical": 0, "disciplinary": 1},
               "B": {"fouls": 1, "technical": 1, "disciplinary": 0}},
        expelled={"A": [], "B": [5]}, announcements=announcements or [])
    st["match"] = in_words(st["match"])
    st.update(over)
    return st


def goal(side: str, disc: int | None, minute: int, entry: int, own: bool = False
         ) -> dict[str, Any]:
    return {"side": side, "own_goal": own, "disc": disc, "period": 1,
            "clock_ms": minute * 60_000 + 5_000, "entry": entry, "at": 0}


def busy() -> dict[str, Any]:
    """2 × 1 after a goal of A's disc 7: every part of the scoreboard showing."""
    goals = [goal("A", 9, 3, 10), goal("B", None, 8, 20, own=False), goal("A", 7, 12, 30)]
    return match_state(score={"A": 2, "B": 1}, goals=goals,
                       announcements=goal_items(1, 30, "A", LONG_A, LONG_B, {"A": 2, "B": 1}))
