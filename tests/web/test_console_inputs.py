"""Referee inputs over a bad Wi-Fi and from several consoles (issues 20 item 4, 21 items 4, 7).

Each input carries an id made on the phone: a request whose answer was lost, sent again, is
applied once and answered the same. Two consoles pressing the same thing at once are one
action (the second is answered "já feito"). A slow action's pending answer is read only with
its own table's token, by an id nobody can guess.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import time
import uuid
from typing import Any

import httpx

from futmesa.hub import StateHub
from futmesa_testkit.liveserver import TOKEN, LiveServer, ScriptedTable, make_state, serving

AUTH = {"Authorization": f"Bearer {TOKEN}"}
WAIT_S = 60  # generous: every wait ends as soon as its condition holds


def post(live: LiveServer, body: dict[str, Any], headers: dict[str, str] | None = None,
         timeout: float = 10) -> httpx.Response:
    return httpx.post(live.url + "/api/referee", json=body, headers=headers or AUTH,
                      timeout=timeout)


def goal(input_id: str, console: str = "phone-1", side: str = "A") -> dict[str, Any]:
    return {"kind": "goal", "data": {"side": side}, "input_id": input_id, "console": console}


def follow(live: LiveServer, rid: str, headers: dict[str, str]) -> dict[str, Any]:
    deadline = time.monotonic() + WAIT_S
    while True:
        body = httpx.get(f"{live.url}/api/referee/{rid}", headers=headers, timeout=10).json()
        if body.get("ok") is not None or time.monotonic() > deadline:
            return body
        time.sleep(0.02)


def test_a_replayed_request_is_applied_once_and_answered_the_same(live: LiveServer) -> None:
    table = live.call(ScriptedTable, live.hub)
    input_id = str(uuid.uuid4())
    answers = [post(live, goal(input_id)) for _ in range(5)]
    assert [a.status_code for a in answers] == [200] * 5
    assert all(a.json() == answers[0].json() for a in answers)
    assert [e["kind"] for e in table.entries] == ["goal"]
    assert live.hub.snapshot()["score"] == {"A": 1, "B": 0}
    # another press (a new id) is another goal
    assert post(live, goal(str(uuid.uuid4()))).status_code == 200
    assert len(table.entries) == 2


def test_lost_answers_then_a_retry_apply_once() -> None:
    """Five requests whose answers never reach the phone (the client gives up), then the
    sixth gets the answer: one foul, not seven (issue 20)."""
    hub = StateHub()
    calls: list[str] = []
    with serving(hub, answer_within_s=5) as live:
        release = live.call(asyncio.Event)

        async def slow(kind: str, data: dict[str, Any], author: str) -> dict[str, Any]:
            calls.append(kind)
            await release.wait()
            return {"entry_id": len(calls)}

        live.call(hub.publish, "sim-1", make_state())
        live.call(hub.set_referee_handler, "sim-1", slow)
        body = {"kind": "foul", "data": {"side": "A", "type": "falta"},
                "input_id": str(uuid.uuid4()), "console": "phone-1"}
        lost = 0
        for _ in range(5):
            try:
                post(live, body, timeout=0.3)
            except httpx.TimeoutException:
                lost += 1  # the answer was lost on the way back
        assert lost == 5
        live.call(release.set)
        r = post(live, body)
        assert r.status_code == 200 and r.json()["ok"] is True, r.text
        assert r.json()["result"] == {"entry_id": 1}
        assert calls == ["foul"]


def test_a_slow_input_retried_follows_the_same_pending_answer() -> None:
    hub = StateHub()
    calls: list[str] = []
    with serving(hub, answer_within_s=0.02) as live:
        release = live.call(asyncio.Event)

        async def slow(kind: str, data: dict[str, Any], author: str) -> dict[str, Any]:
            calls.append(kind)
            await release.wait()
            return {"entry_id": 3}

        live.call(hub.publish, "sim-1", make_state())
        live.call(hub.set_referee_handler, "sim-1", slow)
        body = {"kind": "pause", "data": {}, "input_id": str(uuid.uuid4())}
        first, again = post(live, body), post(live, body)
        assert first.status_code == again.status_code == 202
        assert first.json()["id"] == again.json()["id"]
        assert len(first.json()["id"]) >= 20  # not a counter: nobody can guess another's
        live.call(release.set)
        assert follow(live, first.json()["id"], AUTH) == {"ok": True,
                                                          "result": {"entry_id": 3}}
        assert calls == ["pause"]


def test_two_consoles_pressing_the_same_is_one_action(live: LiveServer) -> None:
    table = live.call(ScriptedTable, live.hub)
    first = post(live, goal(str(uuid.uuid4()), console="phone-1"))
    second = post(live, goal(str(uuid.uuid4()), console="phone-2"))
    assert first.json()["ok"] is True and "already" not in first.json()
    assert second.status_code == 200 and second.json()["already"] is True
    assert "já feito" in second.json()["message"]
    assert len(table.entries) == 1
    # the same console pressing again is a second goal (the referee meant it)
    post(live, goal(str(uuid.uuid4()), console="phone-1"))
    assert len(table.entries) == 2
    # another action from the other console is applied
    assert "already" not in post(live, goal(str(uuid.uuid4()), "phone-2", "B")).json()
    assert len(table.entries) == 3


def test_start_period_pressed_twice_is_stored_once(live: LiveServer) -> None:
    table = live.call(ScriptedTable, live.hub)
    for console in ("phone-1", "phone-1", "phone-2"):
        r = post(live, {"kind": "start_period", "data": {}, "input_id": str(uuid.uuid4()),
                        "console": console})
        assert r.status_code == 200 and r.json()["ok"] is True
    assert [e["kind"] for e in table.entries] == ["start_period"]


def test_two_consoles_pressing_nova_partida_together_open_one_match() -> None:
    hub = StateHub()
    opened: list[int] = []

    class Table(ScriptedTable):
        async def handle(self, kind: str, data: dict[str, Any], author: str) -> dict[str, Any]:
            if kind != "new_match":
                return await super().handle(kind, data, author)
            opened.append(len(opened) + 2)
            await asyncio.sleep(0.3)  # slower than the first answer waits
            live.app.state.gate.token = f"token-of-match-{opened[-1]}"
            return {"match_id": opened[-1]}

    table = Table(hub)
    with serving(hub, history=table, answer_within_s=0.05) as live:
        def press(console: str, teams: str) -> httpx.Response:
            return post(live, {"kind": "new_match", "input_id": str(uuid.uuid4()),
                               "console": console, "data": {"settings": {"event": teams}}})

        with concurrent.futures.ThreadPoolExecutor(2) as pool:
            answers = list(pool.map(press, ["phone-1", "phone-2"], ["Copa", "Copa 2"]))
        assert opened == [2]  # one new match, not an empty extra one
        assert sorted(a.status_code for a in answers) == [202, 202]
        outcomes = [follow(live, a.json()["id"], AUTH) for a in answers]
        assert [o["ok"] for o in outcomes] == [True, True]
        assert {o["token"] for o in outcomes} == {"token-of-match-2"}  # both carry on
        assert sum(bool(a.json().get("already")) for a in answers) == 1


def test_a_retried_nova_partida_whose_answer_was_lost_gets_the_new_token() -> None:
    """The answer to "Nova partida" was lost; the retry carries the old token, which that
    very action has retired: it gets the first answer (with the new token), no second match."""
    hub = StateHub()
    opened: list[int] = []

    class Table(ScriptedTable):
        async def handle(self, kind: str, data: dict[str, Any], author: str) -> dict[str, Any]:
            opened.append(2)
            live.app.state.gate.token = "token-of-match-2"
            return {"match_id": 2}

    table = Table(hub)
    with serving(hub, history=table) as live:
        body = {"kind": "new_match", "data": {}, "input_id": str(uuid.uuid4())}
        first = post(live, body)
        again = post(live, body)  # the same old token
        assert again.status_code == 200 and again.json() == first.json()
        assert again.json()["token"] == "token-of-match-2"
        assert opened == [2]
        # a new request with the old token is refused
        assert post(live, {**body, "input_id": str(uuid.uuid4())}).status_code == 403


def test_a_pending_answer_is_read_only_with_its_own_tables_token() -> None:
    """Issue 21 item 4: table B's token could read table A's new token from
    /api/referee/<id>?table=B."""
    hub = StateHub()
    with serving(hub, answer_within_s=0.02) as live:
        release = live.call(asyncio.Event)

        async def slow(kind: str, data: dict[str, Any], author: str) -> dict[str, Any]:
            await release.wait()
            return {"entry_id": 1}

        for t in ("mesa-a", "mesa-b"):
            live.call(hub.publish, t, make_state(table_id=t))
            live.call(hub.set_referee_handler, t, slow)
        live.app.state.gate.tables.update({"mesa-a": "token-a", "mesa-b": "token-b"})
        a = {"Authorization": "Bearer token-a"}
        b = {"Authorization": "Bearer token-b"}
        r = post(live, {"kind": "pause", "data": {}, "table": "mesa-a",
                        "input_id": str(uuid.uuid4())}, a)
        assert r.status_code == 202, r.text
        rid = r.json()["id"]
        live.call(release.set)
        for query in ("", "?table=mesa-b", "?table=mesa-a"):
            stolen = httpx.get(f"{live.url}/api/referee/{rid}{query}", headers=b, timeout=10)
            assert stolen.status_code == 403, (query, stolen.text)
            assert "entry_id" not in stolen.text
        assert httpx.get(f"{live.url}/api/referee/{rid}", timeout=10).status_code == 401
        assert follow(live, rid, a)["ok"] is True


def test_the_host_says_its_time(live: LiveServer) -> None:
    before = time.time() * 1000
    now = httpx.get(live.url + "/api/time", timeout=10).json()["now"]
    assert before <= now <= time.time() * 1000


def test_the_press_time_comes_from_the_phones_stamp_or_its_stopwatch() -> None:
    from futmesa.web.referee_inbox import press_time

    now = 1_800_000_000_000.0
    assert press_time({}, now) is None
    # synced stamp and stopwatch agree: the stamp
    assert press_time({"pressed_at": now - 4000, "age_ms": 4100}, now) == now - 4000
    # the phone's clock is off by an hour: its stopwatch (age) still says when
    assert press_time({"pressed_at": now - 3_600_000, "age_ms": 4000}, now) == now - 4000
    # never in the future; nonsense ignored
    assert press_time({"pressed_at": now + 9000}, now) == now
    assert press_time({"pressed_at": "soon", "age_ms": True}, now) is None
    assert press_time({"age_ms": -5}, now) is None
