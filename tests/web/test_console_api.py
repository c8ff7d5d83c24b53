"""Referee writes: token checks, refusals with reasons, slow actions, display control."""

from __future__ import annotations

import asyncio
import json
import uuid
from typing import Any

import httpx
import websockets

from futmesa_testkit.liveserver import TOKEN, LiveServer, ScriptedTable

AUTH = {"Authorization": f"Bearer {TOKEN}"}


def post(live: LiveServer, body: Any, headers: dict[str, str] | None = None) -> httpx.Response:
    """A write as the console sends it: with an id of its own (unless the body is not an
    object, or says ``input_id: None`` to send none)."""
    if isinstance(body, dict):
        body = {"input_id": uuid.uuid4().hex, **body}
        if body["input_id"] is None:
            del body["input_id"]
    return httpx.post(live.url + "/api/referee", json=body, headers=headers or {})


def test_a_write_without_an_id_is_refused_and_applies_nothing(live: LiveServer) -> None:
    """Issue 31: a body without an input id sent three times applied three fouls; now every
    write names its id, and one without is refused in one line."""
    table = live.call(ScriptedTable, live.hub)
    foul = {"kind": "goal", "data": {"side": "A"}, "input_id": None}
    answers = [post(live, foul, AUTH) for _ in range(3)]
    assert {r.status_code for r in answers} == {400}
    said = answers[0].json()["error"]
    assert "input_id" in said and "\n" not in said, said
    assert table.entries == []
    same = {**foul, "input_id": uuid.uuid4().hex}
    assert [post(live, same, AUTH).status_code for _ in range(3)] == [200, 200, 200]
    assert [e["kind"] for e in table.entries] == ["goal"]  # three sends, applied once


def test_write_without_token_is_401_with_a_reason(live: LiveServer) -> None:
    live.call(ScriptedTable, live.hub)
    r = post(live, {"kind": "goal", "data": {"side": "A"}})
    assert r.status_code == 401
    assert "/console/recover" in r.json()["error"]
    assert live.hub.snapshot()["score"] == {"A": 0, "B": 0}  # nothing was applied


def test_write_with_wrong_token_is_403(live: LiveServer) -> None:
    table = live.call(ScriptedTable, live.hub)
    r = post(live, {"kind": "goal", "data": {"side": "A"}}, {"Authorization": "Bearer nope"})
    assert r.status_code == 403
    assert "token de árbitro inválido" in r.json()["error"]
    assert table.entries == []


def test_write_with_token_applies_and_publishes(live: LiveServer) -> None:
    table = live.call(ScriptedTable, live.hub)
    r = post(live, {"kind": "goal", "data": {"side": "B"}, "author": "Silva"}, AUTH)
    assert r.status_code == 200, r.text
    assert r.json()["ok"] is True and r.json()["result"] == {"entry": 1}
    assert table.entries[0]["author"] == "Silva"
    assert httpx.get(live.url + "/api/state").json()["score"] == {"A": 0, "B": 1}


def test_alternate_token_header(live: LiveServer) -> None:
    live.call(ScriptedTable, live.hub)
    r = post(live, {"kind": "goal", "data": {"side": "A"}}, {"X-Futmesa-Token": TOKEN})
    assert r.status_code == 200


def test_refused_action_says_why(live: LiveServer) -> None:
    live.call(ScriptedTable, live.hub)
    r = post(live, {"kind": "void", "data": {"target": 99}}, AUTH)
    assert r.status_code == 409
    body = r.json()
    assert body["ok"] is False
    assert body["error"] == "there is no entry #99 to correct"


def test_no_table_yet_is_refused_with_reason(live: LiveServer) -> None:
    r = post(live, {"kind": "start", "data": {}}, AUTH)
    assert r.status_code == 409
    assert "nenhuma mesa" in r.json()["error"]
    # a phone in English reads it in English (its Accept-Language)
    r = post(live, {"kind": "start", "data": {}}, {**AUTH, "Accept-Language": "en-US,en;q=0.8"})
    assert r.status_code == 409
    assert r.json()["error"] == "no table is connected to this daemon yet"


def test_bad_bodies(live: LiveServer) -> None:
    r = httpx.post(live.url + "/api/referee", content=b"not json", headers=AUTH)
    assert r.status_code == 400
    assert post(live, {"data": {}}, AUTH).status_code == 400
    assert post(live, {"kind": "x", "data": [1]}, AUTH).status_code == 400


def test_slow_action_answers_at_once_then_reports(live: LiveServer) -> None:
    release = live.call(asyncio.Event)  # the action finishes only when the test says so

    async def slow(kind: str, data: dict[str, Any], author: str) -> dict[str, Any]:
        await release.wait()
        return {"entry": 7}

    live.call(live.hub.set_referee_handler, "sim-1", slow)
    live.call(setattr, live.hub, "default_table", "sim-1")
    r = post(live, {"kind": "start", "data": {}}, AUTH)
    assert r.status_code == 202  # answered while the action was still running
    rid = r.json()["id"]
    follow = httpx.get(f"{live.url}/api/referee/{rid}", headers=AUTH).json()
    assert follow == {"ok": None, "pending": True}
    live.call(release.set)
    for _ in range(100):
        follow = httpx.get(f"{live.url}/api/referee/{rid}", headers=AUTH).json()
        if follow.get("ok") is not None:
            break
    assert follow == {"ok": True, "result": {"entry": 7}}
    assert httpx.get(f"{live.url}/api/referee/{rid}").status_code == 401  # needs the token


def test_recover_from_localhost_gives_the_token(live: LiveServer) -> None:
    r = httpx.get(live.url + "/console/recover?format=json")
    assert r.json()["token"] == TOKEN
    r = httpx.get(live.url + "/console/recover", follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == f"/console?token={TOKEN}"


def test_recover_refused_through_a_proxy(live: LiveServer) -> None:
    r = httpx.get(live.url + "/console/recover", headers={"X-Forwarded-For": "192.168.1.50"})
    assert r.status_code == 403
    assert "próprio computador da mesa" in r.json()["error"]
    assert TOKEN not in r.text


def test_token_can_change_per_match(live: LiveServer) -> None:
    live.call(ScriptedTable, live.hub)
    live.app.state.gate.token = "match-2-token"
    assert post(live, {"kind": "goal", "data": {"side": "A"}}, AUTH).status_code == 403
    r = post(live, {"kind": "goal", "data": {"side": "A"}},
             {"Authorization": "Bearer match-2-token"})
    assert r.status_code == 200


def test_display_change_needs_token_and_reaches_kiosks(live: LiveServer) -> None:
    assert httpx.post(live.url + "/api/display", json={"mode": "blank"}).status_code == 401
    bad = httpx.post(live.url + "/api/display", json={"mode": "disco"}, headers=AUTH)
    assert bad.status_code == 400

    async def run() -> dict[str, Any]:
        async with websockets.connect(live.url.replace("http", "ws") + "/ws") as ws:
            await ws.recv()  # state
            assert json.loads(await ws.recv())["mode"] == "scoreboard"
            r = await asyncio.to_thread(
                httpx.post, live.url + "/api/display", json={"mode": "blank", "theme": "contrast"},
                headers=AUTH)
            assert r.status_code == 200
            return json.loads(await asyncio.wait_for(ws.recv(), 5))

    msg = asyncio.run(run())
    assert msg == {"type": "display", "mode": "blank", "theme": "contrast", "lang": "pt",
                   "sound": "off"}


def test_reads_need_no_token(live: LiveServer) -> None:
    for path in ("/", "/console", "/console/keeper", "/api/state", "/api/tables", "/history"):
        assert httpx.get(live.url + path).status_code == 200, path


def test_answer_leaves_out_the_state(live: LiveServer) -> None:
    async def handler(kind: str, data: dict[str, Any], author: str) -> dict[str, Any]:
        return {"ok": True, "entry_id": 3, "state": {"huge": "x" * 100_000}}

    live.call(live.hub.set_referee_handler, "sim-1", handler)
    live.call(setattr, live.hub, "default_table", "sim-1")
    r = post(live, {"kind": "start_period", "data": {}}, AUTH)
    assert r.json()["result"] == {"ok": True, "entry_id": 3}
    assert len(r.content) < 200
