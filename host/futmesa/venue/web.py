"""The desk's web pages: venue board (every table live), standings, bracket, day summary.

Routes: ``/`` venue board, ``/standings``, ``/bracket``, ``/summary`` (printable),
``/api/venue`` (tables), ``/api/competition`` (standings, matches), ``/ws`` (venue stream).
"""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from futmesa.i18n import jinja_callables
from futmesa.venue.desk import Desk
from futmesa.venue.views import competition_view
from futmesa.web.common import request_language
from futmesa.web.words import word_routes

TEMPLATES = Path(__file__).parent / "templates"
STATIC = Path(__file__).resolve().parents[1] / "web" / "static"
ENV = Environment(loader=FileSystemLoader(TEMPLATES), autoescape=select_autoescape(),
                  extensions=["jinja2.ext.i18n"])
ENV.install_null_translations(newstyle=True)  # each render passes its language's gettext


def render(name: str, lang: str = "pt_BR", **ctx: Any) -> str:
    """A page in ``lang`` (its words from the catalogs)."""
    return ENV.get_template(name).render(html_lang="en" if lang == "en" else "pt-BR",
                                         **jinja_callables(lang), **ctx)


BOARD_FRAME_S = 1 / 60  # a board screen gets at most one update a frame


def create_desk_app(desk: Desk) -> Starlette:
    loop_holder: dict[str, asyncio.AbstractEventLoop] = {}
    waiters: set[asyncio.Event] = set()

    def changed() -> None:
        loop = loop_holder.get("loop")
        if loop is None:
            return
        for ev in list(waiters):
            loop.call_soon_threadsafe(ev.set)

    desk.listeners.append(changed)

    async def page(name: str, request: Request) -> Response:
        lang = request_language(request)
        view = await asyncio.to_thread(competition_view, desk.comp, lang)
        return HTMLResponse(render(name, lang, c=view))

    async def board(request: Request) -> Response:
        return await page("board.html", request)

    async def standings(request: Request) -> Response:
        return await page("standings.html", request)

    async def bracket(request: Request) -> Response:
        return await page("bracket.html", request)

    async def summary(request: Request) -> Response:
        return await page("summary.html", request)

    async def api_venue(request: Request) -> Response:
        return JSONResponse(desk.snapshot())

    async def api_competition(request: Request) -> Response:
        return JSONResponse(await asyncio.to_thread(competition_view, desk.comp,
                                                    request_language(request)))

    async def ws(websocket: WebSocket) -> None:
        loop_holder["loop"] = asyncio.get_running_loop()
        await websocket.accept()
        ev = asyncio.Event()
        waiters.add(ev)
        closed = asyncio.ensure_future(websocket.receive())
        loop = asyncio.get_running_loop()
        try:
            seq = 0
            while True:
                ev.clear()
                seq_was = seq
                seq, change = desk.since(seq)
                # the first message is every table ("venue"); then only what changed
                await websocket.send_json({"type": "venue-delta" if seq_was else "venue",
                                           **change})
                sent = loop.time()
                if not ev.is_set():
                    wait = asyncio.ensure_future(ev.wait())
                    done, _ = await asyncio.wait({wait, closed}, timeout=5,
                                                 return_when=asyncio.FIRST_COMPLETED)
                    wait.cancel()
                    if closed in done:
                        if closed.result().get("type") == "websocket.disconnect":
                            return
                        closed = asyncio.ensure_future(websocket.receive())
                # a change goes out at once; one that follows a send within a frame of a
                # 60 Hz screen waits out the rest of that frame (what changed meanwhile
                # goes with it)
                rest = BOARD_FRAME_S - (loop.time() - sent)
                if rest > 0:
                    await asyncio.sleep(rest)
        except (WebSocketDisconnect, RuntimeError, OSError):
            pass
        finally:
            waiters.discard(ev)
            closed.cancel()
            with contextlib.suppress(BaseException):
                await closed

    routes = [
        Route("/", board),
        Route("/standings", standings),
        Route("/bracket", bracket),
        Route("/summary", summary),
        Route("/api/venue", api_venue),
        Route("/api/competition", api_competition),
        WebSocketRoute("/ws", ws),
        *word_routes(),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    return Starlette(routes=routes)
