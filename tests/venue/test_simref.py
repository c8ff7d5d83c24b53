"""The scripted referee (demo, tournament tests) works the table as a person would."""

from __future__ import annotations

import asyncio
from typing import Any

from futmesa.venue.simref import SimReferee


class Recorder(SimReferee):
    def __init__(self) -> None:
        super().__init__("http://127.0.0.1:9", "sim-1", goal=lambda line: None)
        self.pressed: list[str] = []

    async def press(self, kind: str, data: dict[str, Any] | None = None) -> dict[str, Any]:
        self.pressed.append(kind)
        return {"ok": True}


def test_a_last_lance_is_ended_so_the_match_goes_on() -> None:
    """Time up with a shot asked gives a last lance (000 Art. 12 §6); the match waits for
    the referee's "Último lance terminado". The scripted referee used to wait for ever."""
    async def run() -> list[str]:
        ref = Recorder()
        ref.own[7] = {1: [], 2: []}
        await ref.step({"link": {"connected": True}, "match_id": 7, "status": "last_lance",
                        "period": 1, "match": {"pending": []}, "clock": {"running": False}})
        await ref.close()
        return ref.pressed

    assert asyncio.run(run()) == ["lance_done"]
