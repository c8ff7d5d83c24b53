"""Starlette application: kiosk, read-only state API and stream, referee console, súmulas.

The app never computes match state: it serves what the daemon publishes into
the :class:`~futmesa.hub.StateHub` and forwards referee actions to it.

Routes (read-only, no token): ``/`` kiosk, ``/board`` venue board, ``/api/state``,
``/api/tables``, ``/ws``, ``/history``, ``/report/{id}[.pdf|.csv|.json]``, ``/api/log``.
Referee writes need the console token: ``POST /api/referee``, ``POST /api/display``.
``/console/recover`` hands the token to a browser on the host machine itself.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import re
import time
import unicodedata
from pathlib import Path
from typing import Any, Protocol

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import (
    FileResponse,
    HTMLResponse,
    JSONResponse,
    RedirectResponse,
    Response,
)
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from futmesa.hub import RefusedError, StateHub
from futmesa.web.access import TokenGate, request_token

STATIC_DIR = Path(__file__).parent / "static"
PING_EVERY_S = 5.0  # a kiosk that hears nothing for 3 pings assumes the host is gone
ANSWER_WITHIN_S = 0.1  # the console gets an answer (result or "still applying") this fast
DISPLAY_MODES = ("scoreboard", "board", "blank")
THEMES = ("default", "contrast")
LANGS = ("pt", "en")
SOUNDS = ("off", "on")  # kiosk sounds (goal, lance warning, end of period): off by default


class HistoryProvider(Protocol):
    """Read access to stored matches, implemented by the event store.

    A record is ``{"match": {...}, "entries": [...], "state": {...}}``; see
    :mod:`futmesa.report` for the fields.
    """

    def list_matches(self) -> list[dict[str, Any]]: ...

    def match_record(self, match_id: int) -> dict[str, Any]: ...


def now_ms() -> int:
    return int(time.time() * 1000)


STREAM_ANNOUNCEMENTS = 20  # the stream carries only the newest announcements (see below)


def _state_message(state: dict[str, Any]) -> dict[str, Any]:
    # "now" is the host's wall clock when sent, so a display on another machine
    # can correct for its own clock being off (the kiosk keeps the best sample).
    return {"type": "state", "state": state, "now": now_ms()}


def stream_view(state: dict[str, Any]) -> dict[str, Any]:
    """The state as streamed on /ws: ``match.announcements`` cut to the newest ones.

    The engine keeps every announcement of the match in the state; views show the latest,
    and sending hundreds of them to every screen on every change made the stream slow
    (70 kB per message after 400 inputs). ``GET /api/state`` keeps the full list.
    """
    match = state.get("match")
    if isinstance(match, dict):
        shown = match.get("announcements")
        if isinstance(shown, list) and len(shown) > STREAM_ANNOUNCEMENTS:
            state = {**state, "match": {**match, "announcements": shown[-STREAM_ANNOUNCEMENTS:]}}
    return state


class _Encoded:
    """Each published state is turned into JSON once, however many screens receive it."""

    def __init__(self, size: int = 16) -> None:
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
    """Send the snapshot, then every published state of the wanted table(s), until closed."""
    updates = hub.subscribe()
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
            done, _ = await asyncio.wait(
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
                table = wanted or hub.default_table
                if all_tables or table is None or state.get("table_id") == table:
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


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"ok": False, "error": message}, status_code=status)


def _no_history() -> JSONResponse:
    return _error(404, "this daemon was started without a match store, so there is no history")


def create_app(
    hub: StateHub,
    *,
    console_token: str,
    history: HistoryProvider | None = None,
    logo_dir: Path | None = None,
    answer_within_s: float = ANSWER_WITHIN_S,
) -> Starlette:
    """Build the web app over ``hub``; ``console_token`` guards referee writes.

    The daemon can give each match a new token with ``app.state.gate.token = new``.
    ``logo_dir`` holds club logos: the file named in ``teams.X.logo``, or one named after
    the team (``gremio-f-c.png`` for "Grêmio F.C."); served at ``/logo/A`` and ``/logo/B``.
    """
    gate = TokenGate(console_token)
    broadcast = Broadcast()
    display: dict[str, Any] = {"mode": "scoreboard", "theme": "default", "lang": "pt",
                               "sound": "off"}
    pending: dict[str, dict[str, Any]] = {}  # request id -> outcome of a slow action
    askers: dict[str, str] = {}  # request id -> the token that asked it
    request_ids = itertools.count(1)

    def page(name: str) -> FileResponse:
        return FileResponse(STATIC_DIR / name, headers={"Cache-Control": "no-cache"})

    async def kiosk(request: Request) -> Response:
        return page("kiosk.html")

    async def board(request: Request) -> Response:
        return RedirectResponse("/?mode=board", status_code=307)

    async def console(request: Request) -> Response:
        return page("console.html")

    async def keeper(request: Request) -> Response:
        return page("keeper.html")

    async def recover(request: Request) -> Response:
        refusal = gate.refuse_recovery(request)
        if refusal is not None:
            return _error(403, refusal)
        if request.query_params.get("format") == "json":
            return JSONResponse({"ok": True, "token": gate.token,
                                 "url": f"/console?token={gate.token}"})
        return RedirectResponse(f"/console?token={gate.token}", status_code=303)

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

    async def read_json(request: Request) -> dict[str, Any] | JSONResponse:
        try:
            body = await request.json()
        except (json.JSONDecodeError, UnicodeDecodeError):
            return _error(400, 'the request body must be JSON like {"kind": ..., "data": {...}}')
        if not isinstance(body, dict):
            return _error(400, "the request body must be a JSON object")
        return body

    async def authorized_body(request: Request) -> dict[str, Any] | JSONResponse:
        """The JSON body of a referee write, or the response refusing it."""
        refusal = gate.refuse(request)
        if refusal is not None:
            return _error(*refusal)
        return await read_json(request)

    async def check_token(request: Request) -> Response:
        refusal = gate.refuse(request)
        if refusal is not None:
            return _error(*refusal)
        return JSONResponse({"ok": True})

    def with_token(kind: str, task: asyncio.Future[Any]) -> dict[str, Any]:
        outcome = _outcome(task)
        if kind == "new_match" and outcome["ok"]:
            outcome["token"] = gate.token  # the console that started the match carries on
        return outcome

    async def referee(request: Request) -> Response:
        started = time.perf_counter()
        body = await authorized_body(request)
        if isinstance(body, JSONResponse):
            return body
        kind = body.get("kind")
        data = body.get("data", {})
        if not isinstance(kind, str) or not kind:
            return _error(400, "missing \"kind\": say which action, e.g. \"shot_asked\"")
        if not isinstance(data, dict):
            return _error(400, "\"data\" must be a JSON object")
        author = str(body.get("author") or "referee")[:60]
        table = body.get("table") or None
        task = asyncio.ensure_future(hub.referee_input(kind, data, author, table))
        done, _ = await asyncio.wait({task}, timeout=answer_within_s)
        if not done:
            rid = str(next(request_ids))
            pending[rid] = {"ok": None, "pending": True}
            # the asker may follow its action with the token it sent, even when that action
            # was a Nova partida that has just replaced the token
            askers[rid] = request_token(request) or ""
            task.add_done_callback(lambda t: pending.__setitem__(rid, with_token(kind, t)))
            return JSONResponse(
                {"ok": None, "pending": True, "id": rid,
                 "message": "received; still being applied — the result follows"},
                status_code=202,
            )
        outcome = with_token(kind, task)
        outcome["ms"] = round((time.perf_counter() - started) * 1000, 1)
        return JSONResponse(outcome, status_code=200 if outcome["ok"] else 409)

    async def referee_result(request: Request) -> Response:
        refusal = gate.refuse(request)
        asker = askers.get(request.path_params["rid"])
        if refusal is not None and not (asker and request_token(request) == asker):
            return _error(*refusal)
        outcome = pending.get(request.path_params["rid"])
        if outcome is None:
            return _error(404, "no such pending action (the daemon may have restarted)")
        return JSONResponse(outcome)

    async def set_display(request: Request) -> Response:
        body = await authorized_body(request)
        if isinstance(body, JSONResponse):
            return body
        for key, allowed in (("mode", DISPLAY_MODES), ("theme", THEMES), ("lang", LANGS),
                             ("sound", SOUNDS)):
            if key in body:
                if body[key] not in allowed:
                    return _error(400, f"{key} must be one of {', '.join(allowed)}")
                display[key] = body[key]
        broadcast.send({"type": "display", **display})
        return JSONResponse({"ok": True, **display})

    async def api_log(request: Request) -> Response:
        if history is None:
            return _no_history()
        match_id = request.query_params.get("match") or hub.snapshot().get("match_id")
        if match_id is None:
            return JSONResponse({"entries": []})
        try:
            record = await asyncio.to_thread(history.match_record, int(match_id))
        except (KeyError, LookupError, ValueError):
            return _error(404, f"no stored match {match_id}")
        from futmesa import report

        shown = report.public_record(record)
        return JSONResponse({"match": shown.get("match"), "entries": shown.get("entries", [])})

    async def history_page(request: Request) -> Response:
        from futmesa import report

        if history is None:
            return HTMLResponse(report.render_history_html([]), status_code=200)
        return HTMLResponse(report.render_history_html(
            await asyncio.to_thread(history.list_matches)))

    async def api_matches(request: Request) -> Response:
        if history is None:
            return _no_history()
        return JSONResponse({"matches": await asyncio.to_thread(history.list_matches)})

    async def match_report(request: Request) -> Response:
        from futmesa import report

        if history is None:
            return _no_history()
        raw = request.path_params["match"]
        stem, _, fmt = raw.partition(".")
        try:
            record = await asyncio.to_thread(history.match_record, int(stem))
        except (KeyError, LookupError, ValueError):
            return _error(404, f"no stored match {stem!r}; see /history for the list")
        record = report.public_record(record)
        name = f"sumula-{int(stem)}"
        # the store replays the match through the rules: off the event loop, so the
        # screens' streams never wait for a súmula
        if fmt in ("", "html"):
            return HTMLResponse(report.render_html(record))
        if fmt == "json":
            return Response(report.render_json(record), media_type="application/json",
                            headers={"Content-Disposition": f'attachment; filename="{name}.json"'})
        if fmt == "csv":
            return Response(report.render_csv(record), media_type="text/csv; charset=utf-8",
                            headers={"Content-Disposition": f'attachment; filename="{name}.csv"'})
        if fmt == "pdf":
            pdf = await asyncio.to_thread(report.pdf_bytes, record)
            return Response(pdf, media_type="application/pdf",
                            headers={"Content-Disposition": f'inline; filename="{name}.pdf"'})
        return _error(404, "report formats: .html, .pdf, .csv, .json")

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

    routes = [
        Route("/", kiosk),
        Route("/favicon.ico", favicon),
        Route("/logo/{side}", logo),
        Route("/board", board),
        Route("/console", console),
        Route("/console/keeper", keeper),
        Route("/console/recover", recover),
        Route("/api/state", api_state),
        Route("/api/tables", api_tables),
        Route("/api/token", check_token),
        Route("/api/referee", referee, methods=["POST"]),
        Route("/api/referee/{rid}", referee_result),
        Route("/api/display", set_display, methods=["POST"]),
        Route("/api/log", api_log),
        Route("/api/matches", api_matches),
        Route("/history", history_page),
        Route("/report/{match}", match_report),
        WebSocketRoute("/ws", ws_state),
        Mount("/static", StaticFiles(directory=STATIC_DIR), name="static"),
    ]
    app = Starlette(routes=routes)
    app.state.hub = hub
    app.state.gate = gate
    app.state.history = history
    app.state.display = display
    return app


def _outcome(task: asyncio.Future[Any]) -> dict[str, Any]:
    """The console's view of a finished referee action."""
    if task.cancelled():
        return {"ok": False, "error": "the action was cancelled (the daemon is stopping)"}
    exc = task.exception()
    if isinstance(exc, RefusedError):
        return {"ok": False, "error": str(exc) or "refused by the rules"}
    if exc is not None:
        return {"ok": False, "error": f"internal error applying the action: {exc!r}; "
                                      "it was not applied — tell the operator"}
    result = task.result()
    if not isinstance(result, dict):
        return {"ok": True, "result": {}}
    # the new state reaches every screen through /ws; the answer stays small and fast
    return {"ok": True, "result": {k: v for k, v in result.items() if k != "state"}}
