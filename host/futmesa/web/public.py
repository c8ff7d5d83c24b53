"""The public side of the web app: kiosk, venue board, state API and the /ws stream, logos.

Read-only, no token. Every screen gets what the daemon publishes into the hub; nothing here
computes match state.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import unicodedata
from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import BaseRoute, Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from futmesa.hub import StateHub
from futmesa.web.common import now_ms, page

PING_EVERY_S = 5.0  # a kiosk that hears nothing for 3 pings assumes the host is gone
STREAM_ANNOUNCEMENTS = 8  # the stream carries only the newest announcements (see below)


def _state_message(state: dict[str, Any]) -> dict[str, Any]:
    # "now" is the host's wall clock when sent, so a display on another machine
    # can correct for its own clock being off (the kiosk keeps the best sample).
    return {"type": "state", "state": state, "now": now_ms()}


def stream_view(state: dict[str, Any]) -> dict[str, Any]:
    """The state as streamed on /ws: ``match.announcements`` cut to the newest ones.

    The engine keeps every announcement of the match in the state; a view shows the ones it
    has not seen yet (the kiosk queues every announcement of an entry, the goal first, and
    then the restart; an entry makes at most a few), and it has seen the earlier ones in
    earlier messages. Sending hundreds of them on every change made the stream slow (70 kB
    per message after 400 inputs); 20 of them were still 3.8 kB of a 6.3 kB state at the end
    of the demo's match, sent again on every clock status (once a second per table): with 3,
    3.1 kB (docs/performance.md, "Venue scale"). 8 keep a burst of entries (a goal, its
    restart, a foul and its sanction) for a screen that skipped a state it fell behind on.
    ``GET /api/state`` keeps the full list.
    """
    match = state.get("match")
    if isinstance(match, dict):
        shown = match.get("announcements")
        if isinstance(shown, list) and len(shown) > STREAM_ANNOUNCEMENTS:
            state = {**state, "match": {**match, "announcements": shown[-STREAM_ANNOUNCEMENTS:]}}
    return state


class _Encoded:
    """Each published state is turned into JSON once, however many screens receive it.

    Kept for the last ``size`` states published, of any table: a state waits in its
    screens' queues while other tables publish (64 tables, ~2 states/s each, evicted a
    16-entry cache before every screen had sent it, and each screen encoded it again).
    """

    def __init__(self, size: int = 1024) -> None:
        self.size = size
        self.cache: dict[int, tuple[dict[str, Any], str]] = {}

    def text(self, state: dict[str, Any]) -> str:
        hit = self.cache.get(id(state))
        if hit is not None and hit[0] is state:
            return hit[1]
        text = json.dumps(_state_message(stream_view(state)), separators=(",", ":"))
        if len(self.cache) >= self.size:
            self.cache.pop(next(iter(self.cache)))
        self.cache[id(state)] = (state, text)
        return text


ENCODED = _Encoded()


class Broadcast:
    """Fan-out of small app-level messages (display mode changes) to open sockets."""

    def __init__(self) -> None:
        self.queues: set[asyncio.Queue[dict[str, Any]]] = set()

    def send(self, message: dict[str, Any]) -> None:
        for queue in list(self.queues):
            if not queue.full():
                queue.put_nowait(message)


async def stream_states(
    websocket: WebSocket,
    hub: StateHub,
    wanted: str | None,
    *,
    all_tables: bool = False,
    display: dict[str, Any] | None = None,
    broadcast: Broadcast | None = None,
) -> None:
    """Send the snapshot, then every published state of the wanted table(s), until closed.

    One table's stream subscribes to that table only (the hub wakes it for that table's
    publishes, nobody else's); ``all_tables`` (the venue board modes) takes every table.
    """
    # the default table (no ?table=) is known once a table has published; before that the
    # stream listens to every table and keeps the default one's states
    table = None if all_tables else (wanted or hub.default_table)
    updates = hub.subscribe(table)
    side: asyncio.Queue[dict[str, Any]] = asyncio.Queue(maxsize=16)
    if broadcast is not None:
        broadcast.queues.add(side)
    # Start listening before the snapshot so no publish between them is lost.
    next_update: asyncio.Future[Any] = asyncio.ensure_future(updates.__anext__())
    next_side: asyncio.Future[Any] = asyncio.ensure_future(side.get())
    closed: asyncio.Future[Any] = asyncio.ensure_future(websocket.receive())
    try:
        # The state comes first (the contract); the display settings follow it.
        if all_tables:
            await websocket.send_json({"type": "tables", "now": now_ms(),
                                       "default": hub.default_table,
                                       "tables": [stream_view(s) for s in hub.tables()]})
        else:
            await websocket.send_text(ENCODED.text(hub.snapshot(wanted)))
        if display is not None:
            await websocket.send_json({"type": "display", **display})
        while True:
            done, _pending = await asyncio.wait(
                {next_update, closed, next_side},
                timeout=PING_EVERY_S,
                return_when=asyncio.FIRST_COMPLETED,
            )
            if not done:
                await websocket.send_json({"type": "ping", "now": now_ms()})
                continue
            if closed in done:
                message = closed.result()
                if message.get("type") == "websocket.disconnect":
                    return
                closed = asyncio.ensure_future(websocket.receive())  # ignore client chatter
            if next_side in done:
                await websocket.send_json(next_side.result())
                next_side = asyncio.ensure_future(side.get())
            if next_update in done:
                state = next_update.result()
                next_update = asyncio.ensure_future(updates.__anext__())
                shown = table or hub.default_table
                if all_tables or shown is None or state.get("table_id") == shown:
                    await websocket.send_text(ENCODED.text(state))
    except (WebSocketDisconnect, RuntimeError, OSError):
        pass
    finally:
        if broadcast is not None:
            broadcast.queues.discard(side)
        for task in (next_update, closed, next_side):
            task.cancel()
            with contextlib.suppress(BaseException):
                await task
        await updates.aclose()


LOGO_EXTENSIONS = (".png", ".svg", ".webp", ".jpg", ".jpeg")


def slug(name: str) -> str:
    """A team name as a logo file name stem: "Grêmio F.C." -> "gremio-f-c"."""
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", plain.lower()).strip("-")


def find_logo(logo_dir: Path, team: dict[str, Any]) -> Path | None:
    """The club logo of a team: its ``logo`` file name, else a file named after the team."""
    root = logo_dir.resolve()
    names = []
    if isinstance(team.get("logo"), str):
        names.append(team["logo"])
    if isinstance(team.get("name"), str) and slug(team["name"]):
        names += [slug(team["name"]) + ext for ext in LOGO_EXTENSIONS]
    for name in names:
        path = (root / name).resolve()
        if path.parent == root and path.suffix.lower() in LOGO_EXTENSIONS and path.is_file():
            return path
    return None


def public_routes(hub: StateHub, *, display: dict[str, Any], broadcast: Broadcast,
                  logo_dir: Path | None) -> list[BaseRoute]:
    """Routes every screen may use: ``/``, ``/board``, ``/api/state``, ``/api/tables``, ``/ws``,
    ``/logo/{side}``."""

    async def kiosk(request: Request) -> Response:
        return page("kiosk.html", request)

    async def board(request: Request) -> Response:
        return RedirectResponse("/?mode=board", status_code=307)

    async def api_state(request: Request) -> Response:
        return JSONResponse(hub.snapshot(request.query_params.get("table")))

    async def api_tables(request: Request) -> Response:
        return JSONResponse({"tables": hub.tables(), "now": now_ms()})

    async def ws_state(websocket: WebSocket) -> None:
        await websocket.accept()
        await stream_states(
            websocket,
            hub,
            websocket.query_params.get("table"),
            all_tables=websocket.query_params.get("all") == "1",
            display=dict(display),
            broadcast=broadcast,
        )

    async def logo(request: Request) -> Response:
        side = request.path_params["side"]
        team = (hub.snapshot(request.query_params.get("table")).get("teams") or {}).get(side)
        if logo_dir is None or side not in ("A", "B") or not isinstance(team, dict):
            return Response(status_code=404)
        path = find_logo(logo_dir, team)
        if path is None:
            return Response(status_code=404)
        return FileResponse(path, headers={"Cache-Control": "no-cache"})

    async def favicon(request: Request) -> Response:
        return Response(status_code=204)

    return [
        Route("/", kiosk),
        Route("/favicon.ico", favicon),
        Route("/logo/{side}", logo),
        Route("/board", board),
        Route("/api/state", api_state),
        Route("/api/tables", api_tables),
        WebSocketRoute("/ws", ws_state),
    ]
