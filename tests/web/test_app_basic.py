"""The read-only faces: /api/state and the /ws stream, over a real uvicorn server."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import httpx
import websockets

from futmesa_testkit.liveserver import LiveServer, make_state


def test_api_state_waiting_before_any_publish(live: LiveServer) -> None:
    body = httpx.get(live.url + "/api/state").json()
    assert body["status"] == "waiting"
    assert body["link"]["connected"] is False


def test_api_state_returns_published_snapshot(live: LiveServer) -> None:
    live.publish(make_state(score={"A": 2, "B": 1}))
    body = httpx.get(live.url + "/api/state").json()
    assert body["score"] == {"A": 2, "B": 1}
    assert body["teams"]["A"]["name"] == "Alvorada"


def test_kiosk_page_served(live: LiveServer) -> None:
    r = httpx.get(live.url + "/")
    assert r.status_code == 200
    assert "text/html" in r.headers["content-type"]


def test_ws_sends_snapshot_then_every_publish(live: LiveServer) -> None:
    live.publish(make_state(score={"A": 1, "B": 0}))

    async def run() -> list[dict]:
        got = []
        async with websockets.connect(live.url.replace("http", "ws") + "/ws") as ws:
            got.append(json.loads(await ws.recv()))
            assert json.loads(await ws.recv())["type"] == "display"
            for goals in (2, 3):
                await asyncio.to_thread(live.publish, make_state(score={"A": goals, "B": 0}))
                got.append(json.loads(await asyncio.wait_for(ws.recv(), 5)))
        return got

    got = asyncio.run(run())
    assert [m["type"] for m in got] == ["state"] * 3
    assert [m["state"]["score"]["A"] for m in got] == [1, 2, 3]
    assert all(isinstance(m["now"], int) for m in got)


def test_ws_filters_by_table(live: LiveServer) -> None:
    live.publish(make_state(table_id="t1"))
    live.publish(make_state(table_id="t2"))

    async def run() -> dict:
        async with websockets.connect(live.url.replace("http", "ws") + "/ws?table=t2") as ws:
            first = json.loads(await ws.recv())
            assert first["state"]["table_id"] == "t2"
            assert json.loads(await ws.recv())["type"] == "display"
            await asyncio.to_thread(live.publish, make_state(table_id="t1", score={"A": 5, "B": 0}))
            await asyncio.to_thread(live.publish, make_state(table_id="t2", score={"A": 0, "B": 7}))
            return json.loads(await asyncio.wait_for(ws.recv(), 5))

    msg = asyncio.run(run())
    assert msg["state"]["table_id"] == "t2"
    assert msg["state"]["score"]["B"] == 7


def test_stream_carries_only_the_newest_announcements(live: LiveServer) -> None:
    st = make_state()
    st["match"]["announcements"] = [{"id": i, "pt": f"a{i}", "en": f"a{i}"} for i in range(300)]
    live.publish(st)

    async def run() -> dict:
        async with websockets.connect(live.url.replace("http", "ws") + "/ws") as ws:
            return json.loads(await ws.recv())

    streamed = asyncio.run(run())["state"]["match"]["announcements"]
    from futmesa.web.app import STREAM_ANNOUNCEMENTS

    assert 1 <= STREAM_ANNOUNCEMENTS <= 20
    assert [a["id"] for a in streamed] == list(range(300 - STREAM_ANNOUNCEMENTS, 300))
    full = httpx.get(live.url + "/api/state").json()["match"]["announcements"]
    assert len(full) == 300  # the snapshot API keeps everything


def test_find_logo_by_name_or_file_and_never_outside(tmp_path: Path) -> None:
    from futmesa.web.app import find_logo, slug

    (tmp_path / "gremio-f-c.png").write_bytes(b"png")
    (tmp_path / "escudo.svg").write_bytes(b"<svg/>")
    (tmp_path.parent / "secret.png").write_bytes(b"x")
    assert slug("Grêmio F.C.") == "gremio-f-c"
    assert find_logo(tmp_path, {"name": "Grêmio F.C."}) == (tmp_path / "gremio-f-c.png").resolve()
    assert find_logo(tmp_path, {"name": "X", "logo": "escudo.svg"}).name == "escudo.svg"
    assert find_logo(tmp_path, {"name": "X", "logo": "../secret.png"}) is None
    assert find_logo(tmp_path, {"name": "Ninguém"}) is None
