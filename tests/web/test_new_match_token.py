"""A slow "Nova partida" (answered later, on a busy host) still hands the new token to the
console that asked, although that console's token has just been replaced (issue 14)."""

from __future__ import annotations

import asyncio
import time
import uuid
from typing import Any

import httpx

from futmesa.hub import StateHub
from futmesa_testkit.liveserver import TOKEN, ScriptedTable, serving


def test_a_slow_new_match_answers_the_asker_with_the_new_token() -> None:
    hub = StateHub()

    class Table(ScriptedTable):
        async def handle(self, kind: str, data: dict[str, Any], author: str) -> dict[str, Any]:
            if kind != "new_match":
                return await super().handle(kind, data, author)
            await asyncio.sleep(0.3)  # slower than the first answer waits
            app.state.gate.token = "token-of-match-2"  # should the table's token change meanwhile
            return {"match_id": 2}

    table = Table(hub)
    with serving(hub, history=table, answer_within_s=0.05) as live:
        app = live.app
        old = {"Authorization": f"Bearer {TOKEN}"}
        r = httpx.post(live.url + "/api/referee", headers=old, timeout=10,
                       json={"kind": "new_match", "data": {}, "input_id": uuid.uuid4().hex})
        assert r.status_code == 202, r.text
        rid = r.json()["id"]
        deadline = time.monotonic() + 60
        while True:
            answer = httpx.get(f"{live.url}/api/referee/{rid}", headers=old, timeout=10)
            assert answer.status_code == 200, answer.text
            if answer.json()["ok"] is not None or time.monotonic() > deadline:
                break
            time.sleep(0.05)
        assert answer.json()["ok"] is True
        assert answer.json()["token"] == "token-of-match-2"
        # the old token is refused everywhere else
        refused = httpx.get(live.url + "/api/token", headers=old, timeout=10)
        assert refused.status_code == 403
        stranger = httpx.get(f"{live.url}/api/referee/{rid}",
                             headers={"Authorization": "Bearer someone-else"}, timeout=10)
        assert stranger.status_code == 403
