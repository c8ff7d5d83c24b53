"""The desk's web pages: venue board (every table live), standings, bracket, day summary, and a
page per team for the players.

Routes: ``/`` venue board, ``/standings``, ``/bracket``, ``/summary`` (printable),
``/ranking`` (the season's, across the file's competitions), ``/times`` (every team with its
QR code: a sheet to print and pin up), ``/time/<team>`` (its next match: table, estimated
time, opponent; its results) and ``…/qr.svg``, ``/api/venue`` (tables),
``/api/competition`` (standings, matches), ``/ws`` (venue stream).
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import quote

from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from futmesa.i18n import N_, jinja_callables
from futmesa.venue.desk import Desk
from futmesa.venue.views import competition_view, ranking_view, team_view, teams_index
from futmesa.web.common import request_language
from futmesa.web.words import word_routes

TEMPLATES = Path(__file__).parent / "templates"
STATIC = Path(__file__).resolve().parents[1] / "web" / "static"
ENV = Environment(loader=FileSystemLoader(TEMPLATES), autoescape=select_autoescape(),
                  extensions=["jinja2.ext.i18n"])
ENV.install_null_translations(newstyle=True)  # each render passes its language's gettext


def gettext_in(lang: str, msgid: str) -> str:
    from futmesa.i18n import translator

    return translator(lang).gettext(msgid)


def qr_svg(url: str) -> bytes:
    """A QR code of `url` as SVG (black on white), for the board and the printed sheet."""
    import io

    import segno

    out = io.BytesIO()
    segno.make(url, error="m").save(out, kind="svg", scale=4, border=2, dark="#000",
                                    light="#fff")
    return out.getvalue()


def render(name: str, lang: str = "pt_BR", **ctx: Any) -> str:
    """A page in ``lang`` (its words from the catalogs)."""
    return ENV.get_template(name).render(html_lang="en" if lang == "en" else "pt-BR",
                                         **jinja_callables(lang), **ctx)


BOARD_FRAME_S = 1 / 60  # a board screen gets at most one update a frame


VIEW_FRESH_S = 3.0  # a page's view is worked out again after this, or when a result lands


class ViewCache:
    """The pages' views of the competition, shared by every screen and phone asking within
    a few seconds while nothing was stored (a day's spectators open team pages all the time;
    working each out again would hold up the boards' live states)."""

    def __init__(self, desk: Desk) -> None:
        self.desk = desk
        self._lock = threading.Lock()
        self._views: dict[tuple[Any, ...], tuple[tuple[Any, ...], float, Any]] = {}

    async def get(self, fn: Callable[..., Any], *args: Any) -> Any:
        return await asyncio.to_thread(self._get, fn, args)

    def _get(self, fn: Callable[..., Any], args: tuple[Any, ...]) -> Any:
        key = (fn.__name__, *args)
        stamp = self.desk.comp.revision()
        now = time.monotonic()
        with self._lock:
            hit = self._views.get(key)
        if hit is not None and hit[0] == stamp and now - hit[1] < VIEW_FRESH_S:
            return hit[2]
        value = fn(self.desk.comp, *args)
        with self._lock:
            if len(self._views) > 2000:  # every team in two languages, and then some
                self._views.clear()
            self._views[key] = (stamp, now, value)
        return value


def create_desk_app(desk: Desk) -> Starlette:
    views = ViewCache(desk)
    loop_holder: dict[str, asyncio.AbstractEventLoop] = {}
    waiters: set[asyncio.Event] = set()

    def changed() -> None:
        loop = loop_holder.get("loop")
        if loop is None:
            return
        for ev in list(waiters):
            loop.call_soon_threadsafe(ev.set)

    desk.listeners.append(changed)

    def chosen(request: Request) -> int | None:
        """?c=<id>: one of the day's categories (else the newest competition)."""
        raw = request.query_params.get("c", "")
        return int(raw) if raw.isdigit() and len(raw) < 10 else None

    async def page(name: str, request: Request) -> Response:
        lang = request_language(request)
        view = await views.get(competition_view, lang, chosen(request))
        return HTMLResponse(render(name, lang, c=view))

    async def board(request: Request) -> Response:
        return await page("board.html", request)

    async def standings(request: Request) -> Response:
        return await page("standings.html", request)

    async def bracket(request: Request) -> Response:
        return await page("bracket.html", request)

    async def summary(request: Request) -> Response:
        return await page("summary.html", request)

    async def teams(request: Request) -> Response:
        lang = request_language(request)
        view = await views.get(competition_view, lang)
        index = await views.get(teams_index)
        return HTMLResponse(render("teams.html", lang, c=view, teams=index))

    async def team(request: Request) -> Response:
        lang = request_language(request)
        key = request.path_params["key"]
        t = await views.get(team_view, key, lang, None, chosen(request))
        if t is None:
            return PlainTextResponse(gettext_in(lang, N_("No such team in this competition: "
                                                         "see the list at /times")), 404)
        share = gettext_in(lang, N_("{team}: my next match and results")).format(team=t["team"])
        return HTMLResponse(render("team.html", lang, c={"name": t["name"]}, t=t,
                                   share_text=f"{share} {request.url}"))

    async def season(request: Request) -> Response:
        lang = request_language(request)
        method = request.query_params.get("method", "placement")
        if method not in ("placement", "openskill"):
            method = "placement"
        view = await views.get(competition_view, lang)
        rows = await views.get(ranking_view, method)
        words = {
            "placement": (N_("points by placement"), N_("Points"),
                          N_("Each competition gives points by the place a team finished "
                             "(100, 70, 50, 50, 30…).")),
            "openskill": (N_("rating with uncertainty (OpenSkill)"), N_("Rating"),
                          N_("Every match updates both teams' skill and the uncertainty "
                             "about it; ranked by skill minus three times the uncertainty."))}
        other = "openskill" if method == "placement" else "placement"
        return HTMLResponse(render(
            "ranking.html", lang, c=view, rows=rows,
            method_name=gettext_in(lang, words[method][0]),
            score_name=gettext_in(lang, words[method][1]),
            method_note=gettext_in(lang, words[method][2]), other=other,
            other_name=gettext_in(lang, words[other][0])))

    async def qr(request: Request) -> Response:
        key = request.path_params.get("key")
        base = str(request.base_url).rstrip("/")
        url = f"{base}/time/{quote(key, safe='')}" if key else f"{base}/times"
        return Response(qr_svg(url), media_type="image/svg+xml",
                        headers={"Cache-Control": "max-age=300"})

    async def api_venue(request: Request) -> Response:
        return JSONResponse(desk.snapshot())

    async def api_competition(request: Request) -> Response:
        return JSONResponse(await views.get(competition_view, request_language(request),
                                            chosen(request)))

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
        Route("/times", teams),
        Route("/ranking", season),
        Route("/times/qr.svg", qr),
        Route("/time/{key:path}/qr.svg", qr),
        Route("/time/{key:path}", team),
        Route("/api/venue", api_venue),
        Route("/api/competition", api_competition),
        WebSocketRoute("/ws", ws),
        *word_routes(),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    return Starlette(routes=routes)
