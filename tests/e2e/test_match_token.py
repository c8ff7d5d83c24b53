"""Each match gets its own referee token: a new match makes the old console link stop working."""

from __future__ import annotations

import uuid

import httpx

from futmesa_testkit.livetable import LiveTable


def _post(live: LiveTable, token: str, kind: str, data: dict) -> httpx.Response:
    return httpx.post(live.base_url + "/api/referee",
                      json={"kind": kind, "data": data, "input_id": uuid.uuid4().hex},
                      headers={"Authorization": f"Bearer {token}"}, timeout=10)


def test_new_match_rotates_the_console_token() -> None:
    with LiveTable(speed=10) as live:
        live.start_match()
        old = live.token
        assert _post(live, old, "new_match", {"ruleset": "pastilha-8x2"}).status_code == 200
        new = live.token
        assert new != old
        refused = _post(live, old, "set_up", {"teams": {"A": {"name": "X"}}})
        assert refused.status_code == 403
        accepted = _post(live, new, "set_up", {"teams": {"A": {"name": "Casa"}}})
        assert accepted.status_code == 200, accepted.text
        state = httpx.get(live.base_url + "/api/state").json()
        assert state["ruleset"] == "pastilha-8x2"
        assert state["teams"]["A"]["name"] == "Casa"
        assert state["match_id"] == 2
