"""Starlette application: kiosk page, read-only state API and WebSocket stream.

The app never computes match state: it serves what the daemon publishes into
the :class:`~futmesa.hub.StateHub` and forwards referee actions to it.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from pathlib import Path
from typing import Any, Protocol

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from futmesa.hub import StateHub

STATIC_DIR = Path(__file__).parent / "static"


class HistoryProvider(Protocol):
    """Read access to stored matches, implemented by the event store."""

    def list_matches(self) -> list[dict[str, Any]]: ...

    def match_record(self, match_id: int) -> dict[str, Any]: ...


def now_ms() -> int:
    return int(time.time() * 1000)


def _state_message(state: dict[str, Any]) -> dict[str, Any]:
    # "now" is the host's wall clock when sent, so a display on another machine
    # can correct for its own clock being off (the kiosk takes the best sample).
    return {"type": "state", "state": state, "now": now_ms()}


async def stream_states(websocket: WebSocket, hub: StateHub, wanted: str | None) -> None:
    """Send the snapshot, then every published state of the wanted table, until closed."""
    updates = hub.subscribe()
    # Start listening before the snapshot so no publish between them is lost.
    next_update: asyncio.Future[Any] = asyncio.ensure_future(updates.__anext__())
    closed: asyncio.Future[Any] = asyncio.ensure_future(websocket.receive())
    try:
        await websocket.send_json(_state_message(hub.snapshot(wanted)))
        while True:
            done, _ = await asyncio.wait(
                {next_update, closed}, return_when=asyncio.FIRST_COMPLETED
            )
            if closed in done:
                message = closed.result()
                if message.get("type") == "websocket.disconnect":
                    return
                closed = asyncio.ensure_future(websocket.receive())  # ignore client chatter
                continue
            state = next_update.result()
            next_update = asyncio.ensure_future(updates.__anext__())
            table = wanted or hub.default_table
            if table is None or state.get("table_id") == table:
                await websocket.send_json(_state_message(state))
    except (WebSocketDisconnect, RuntimeError, OSError):
        pass
    finally:
        for task in (next_update, closed):
            task.cancel()
            with contextlib.suppress(BaseException):
                await task
        await updates.aclose()


def create_app(
    hub: StateHub,
    *,
    console_token: str,
    history: HistoryProvider | None = None,
) -> Starlette:
    """Build the web app over ``hub``; ``console_token`` guards referee writes."""

    async def kiosk(request: Request) -> Response:
        return FileResponse(STATIC_DIR / "kiosk.html", headers={"Cache-Control": "no-cache"})

    async def api_state(request: Request) -> Response:
        table = request.query_params.get("table")
        return JSONResponse(hub.snapshot(table))

    async def ws_state(websocket: WebSocket) -> None:
        await websocket.accept()
        wanted = websocket.query_params.get("table")
        await stream_states(websocket, hub, wanted)

    routes = [
        Route("/", kiosk),
        Route("/api/state", api_state),
        WebSocketRoute("/ws", ws_state),
        Mount("/static", StaticFiles(directory=STATIC_DIR), name="static"),
    ]
    app = Starlette(routes=routes)
    app.state.hub = hub
    app.state.console_token = console_token
    app.state.history = history
    return app
