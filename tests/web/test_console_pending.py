"""The console's slow actions are remembered for their answer, up to a bound (issue 11)."""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

import httpx
import pytest

from futmesa.hub import StateHub
from futmesa.web import referee_inbox
from futmesa.web.referee_inbox import PendingOutcomes
from futmesa_testkit.liveserver import TOKEN, make_state, serving


def test_answered_outcomes_make_room_pending_ones_do_not() -> None:
    p = PendingOutcomes(limit=2)
    p["1"] = {"ok": None, "pending": True}
    p["2"] = {"ok": True}
    assert p.has_room()  # the answered one goes
    assert p.get("2") is None and p.get("1") == {"ok": None, "pending": True}
    p["3"] = {"ok": None, "pending": True}
    assert not p.has_room()


def test_a_full_console_says_to_wait_instead_of_growing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(referee_inbox, "MAX_PENDING", 2)
    hub = StateHub()
    release = asyncio.Event()

    async def slow(kind: str, data: dict[str, Any], author: str) -> dict[str, Any]:
        await release.wait()
        return {"ok": True}

    with serving(hub, answer_within_s=0.01) as live:
        live.call(hub.publish, "sim-1", make_state())
        live.call(hub.set_referee_handler, "sim-1", slow)
        auth = {"Authorization": f"Bearer {TOKEN}"}
        codes = [httpx.post(live.url + "/api/referee", headers=auth, timeout=10, json={
            "kind": "pause", "input_id": uuid.uuid4().hex}).status_code for _ in range(3)]
        assert codes == [202, 202, 503]
        body = httpx.post(live.url + "/api/referee", headers=auth, timeout=10, json={
            "kind": "pause", "input_id": uuid.uuid4().hex}).json()
        assert body["ok"] is False and "aguarde alguns segundos" in body["error"]
        live.call(release.set)
