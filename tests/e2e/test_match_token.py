"""The referee token lasts the serve session: the link printed at the start (taped to the
table as a QR) commands the next match too (issue #45); a forged token stays refused."""

from __future__ import annotations

import uuid

import httpx

from futmesa_testkit.livetable import LiveTable


def _post(live: LiveTable, token: str, kind: str, data: dict) -> httpx.Response:
    return httpx.post(live.base_url + "/api/referee",
                      json={"kind": kind, "data": data, "input_id": uuid.uuid4().hex},
                      headers={"Authorization": f"Bearer {token}"}, timeout=10)


def test_new_match_keeps_the_console_token() -> None:
    with LiveTable(speed=10) as live:
        live.start_match()
        printed = live.token
        assert _post(live, printed, "new_match", {"ruleset": "pastilha-8x2"}).status_code == 200
        assert live.token == printed
        refused = _post(live, "forjado" + printed[7:], "set_up", {"teams": {"A": {"name": "X"}}})
        assert refused.status_code == 403
        accepted = _post(live, printed, "set_up", {"teams": {"A": {"name": "Casa"}}})
        assert accepted.status_code == 200, accepted.text
        state = httpx.get(live.base_url + "/api/state").json()
        assert state["ruleset"] == "pastilha-8x2"
        assert state["teams"]["A"]["name"] == "Casa"
        assert state["match_id"] == 2
