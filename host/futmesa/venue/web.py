"""The desk's web pages: venue board (every table live), standings, bracket, day summary, and a
page per team for the players.

Routes: ``/`` venue board, ``/standings``, ``/bracket``, ``/summary`` (printable),
``/ranking`` (the season's, across the file's competitions), ``/times`` (every team with its
QR code: a sheet to print and pin up), ``/time/<team>`` (its next match: table, estimated
time, opponent; its results) and ``…/qr.svg``, ``/api/venue`` (tables),
``/api/competition`` (standings, matches), ``/ws`` (venue stream).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import quote

from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles

from futmesa.i18n import N_, jinja_callables, translator
from futmesa.netaddr import public_base_url
from futmesa.venue.board_socket import BoardSocket
from futmesa.venue.desk import Desk
from futmesa.venue.view_cache import ViewCache
from futmesa.venue.views import competition_view, ranking_view, team_view, teams_index
from futmesa.web.common import request_language
from futmesa.web.words import word_routes

TEMPLATES = Path(__file__).parent / "templates"
STATIC = Path(__file__).resolve().parents[1] / "web" / "static"
ENV = Environment(loader=FileSystemLoader(TEMPLATES), autoescape=select_autoescape(),
                  extensions=["jinja2.ext.i18n"])
ENV.install_null_translations(newstyle=True)  # each render passes its language's gettext


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


RANKING_WORDS = {
    "placement": (N_("points by placement"), N_("Points"),
                  N_("Each competition gives points by the place a team finished "
                     "(100, 70, 50, 50, 30…).")),
    "openskill": (N_("rating with uncertainty (OpenSkill)"), N_("Rating"),
                  N_("Every match updates both teams' skill and the uncertainty "
                     "about it; ranked by skill minus three times the uncertainty."))}


def chosen(request: Request) -> int | None:
    """?c=<id>: one of the day's categories (else the newest competition)."""
    raw = request.query_params.get("c", "")
    return int(raw) if raw.isdigit() and len(raw) < 10 else None


class DeskPages:
    """The desk's pages and JSON, each built from the shared views (:class:`ViewCache`)."""

    def __init__(self, desk: Desk, public_url: str | None = None) -> None:
        self.desk = desk
        self.views = ViewCache(desk)
        # the address phones open (the QR codes, the shared links): --public-url, else the
        # one the page was asked by, unless that is this machine's own (a TV on localhost)
        self.public_url = public_url.rstrip("/") if public_url else None

    def base(self, request: Request) -> str:
        if self.public_url:
            return self.public_url
        host = request.url.hostname or ""
        if host in ("localhost", "127.0.0.1", "::1"):
            return public_base_url("0.0.0.0", request.url.port or 80)
        return str(request.base_url).rstrip("/")

    def team_url(self, request: Request, key: str) -> str:
        """A team page's address, its name percent-encoded (spaces too: a link that works
        in a message)."""
        return f"{self.base(request)}/time/{quote(key, safe='')}"

    async def page(self, name: str, request: Request) -> Response:
        lang = request_language(request)
        view = await self.views.get(competition_view, lang, chosen(request))
        return HTMLResponse(render(name, lang, c=view))

    async def board(self, request: Request) -> Response:
        return await self.page("board.html", request)

    async def standings(self, request: Request) -> Response:
        return await self.page("standings.html", request)

    async def bracket(self, request: Request) -> Response:
        return await self.page("bracket.html", request)

    async def summary(self, request: Request) -> Response:
        return await self.page("summary.html", request)

    async def teams(self, request: Request) -> Response:
        lang = request_language(request)
        view = await self.views.get(competition_view, lang)
        index = await self.views.get(teams_index)
        return HTMLResponse(render("teams.html", lang, c=view, teams=index))

    async def team(self, request: Request) -> Response:
        lang = request_language(request)
        key = request.path_params["key"]
        t = await self.views.get(team_view, key, lang, None, chosen(request))
        if t is None:
            said = translator(lang).gettext(N_("No such team in this competition: see the list "
                                               "at /times"))
            return PlainTextResponse(said, 404)
        share = translator(lang).gettext(N_("{team}: my next match and results")).format(
            team=t["team"])
        link = self.team_url(request, key)
        return HTMLResponse(render("team.html", lang, c={"name": t["name"]}, t=t,
                                   share_text=f"{share} {link}", share_url=link))

    async def season(self, request: Request) -> Response:
        lang = request_language(request)
        method = request.query_params.get("method", "placement")
        if method not in RANKING_WORDS:
            method = "placement"
        view = await self.views.get(competition_view, lang)
        rows = await self.views.get(ranking_view, method)
        name, score, note = RANKING_WORDS[method]
        other = "openskill" if method == "placement" else "placement"
        words = translator(lang).gettext
        return HTMLResponse(render(
            "ranking.html", lang, c=view, rows=rows, method_name=words(name),
            score_name=words(score), method_note=words(note),
            other=other, other_name=words(RANKING_WORDS[other][0])))

    async def qr(self, request: Request) -> Response:
        key = request.path_params.get("key")
        url = self.team_url(request, key) if key else f"{self.base(request)}/times"
        return Response(qr_svg(url), media_type="image/svg+xml",
                        headers={"Cache-Control": "max-age=300"})

    async def api_venue(self, request: Request) -> Response:
        return JSONResponse(self.desk.snapshot())

    async def api_competition(self, request: Request) -> Response:
        return JSONResponse(await self.views.get(competition_view, request_language(request),
                                                 chosen(request)))


# the desk's tab icon: a ball on the table's green (a browser asks for it on every page)
FAVICON = (b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">'
           b'<rect width="32" height="32" rx="6" fill="#1b5e20"/>'
           b'<circle cx="16" cy="16" r="8" fill="#f5c400" stroke="#fff" stroke-width="2"/></svg>')


async def favicon(request: Request) -> Response:
    return Response(FAVICON, media_type="image/svg+xml",
                    headers={"Cache-Control": "max-age=86400"})


def create_desk_app(desk: Desk, public_url: str | None = None) -> Starlette:
    pages = DeskPages(desk, public_url)
    socket = BoardSocket(desk)
    routes = [
        Route("/", pages.board),
        Route("/favicon.ico", favicon),
        Route("/standings", pages.standings),
        Route("/bracket", pages.bracket),
        Route("/summary", pages.summary),
        Route("/times", pages.teams),
        Route("/ranking", pages.season),
        Route("/times/qr.svg", pages.qr),
        Route("/time/{key:path}/qr.svg", pages.qr),
        Route("/time/{key:path}", pages.team),
        Route("/api/venue", pages.api_venue),
        Route("/api/competition", pages.api_competition),
        WebSocketRoute("/ws", socket.serve),
        *word_routes(),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    return Starlette(routes=routes)
