"""What every part of the web app shares: the history interface, errors, the display settings."""

from __future__ import annotations

import time
from functools import lru_cache
from pathlib import Path
from typing import Any, Protocol

from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse

from futmesa.i18n import _

STATIC_DIR = Path(__file__).parent / "static"
TEMPLATES_DIR = Path(__file__).parent / "templates"
DISPLAY_MODES = ("scoreboard", "board", "blank")
THEMES = ("default", "contrast")
LANGS = ("pt", "en")
SOUNDS = ("off", "on")  # kiosk sounds (goal, lance warning, end of period): off by default


class HistoryProvider(Protocol):
    """Read access to stored matches (:class:`futmesa.matchbook.MatchLibrary`).

    A record is ``{"match": {...}, "entries": [...], "state": {...}}``; see
    :meth:`futmesa.matchbook.MatchLibrary.match_record` for the fields.
    """

    def list_matches(self, limit: int | None = None,
                     before: int | None = None) -> list[dict[str, Any]]:
        """Newest first: all, or ``limit`` matches older than match ``before``."""
        ...

    def match_record(self, match_id: int) -> dict[str, Any]: ...


def now_ms() -> int:
    return int(time.time() * 1000)


def request_language(request: Request, browser: bool = False) -> str:
    """The language an answer is in ("pt_BR" or "en"): ``?lang=``; then, for an API a page
    calls (``browser``: its script sends the page's own language as Accept-Language), that
    header; else the host's (``--lang``, ``FUTMESA_LANG``, the locale, Brazilian Portuguese).
    No page follows its browser: the table's pages speak as the TV does (a phone, or a venue
    TV's kiosk Chromium, is often left in English)."""
    from futmesa.i18n import language, normalize

    given = normalize(request.query_params.get("lang"))
    if given:
        return given
    if browser:
        for part in request.headers.get("accept-language", "").split(","):
            found = normalize(part.split(";")[0])
            if found:
                return found
    return normalize(language()) or "pt_BR"


def error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"ok": False, "error": message}, status_code=status)


def no_history() -> JSONResponse:
    return error(404, _("this daemon was started without a match store, so there is no "
                        "history"))


def page(name: str, request: Request) -> HTMLResponse:
    """A browser page of static/ in the request's language (:func:`request_language`): its
    words are ``{{ _('English') }}`` in the markup, translated by the catalogs, and
    ``<html lang>`` tells the page's script which catalog to speak."""
    from futmesa.i18n import jinja_callables
    from futmesa.matchbook.wording import ruleset_choices

    lang = request_language(request)
    html_lang = "en" if lang == "en" else "pt-BR"
    template = _pages().get_template(name)
    html = template.render(lang=lang, html_lang=html_lang, rulesets=ruleset_choices(),
                           **jinja_callables(lang))
    return HTMLResponse(html, headers={"Cache-Control": "no-cache"})


@lru_cache(maxsize=1)
def _pages() -> Any:
    from jinja2 import Environment, FileSystemLoader, select_autoescape

    env = Environment(loader=FileSystemLoader(STATIC_DIR), autoescape=select_autoescape(["html"]),
                      extensions=["jinja2.ext.i18n"])
    env.install_null_translations(newstyle=True)  # each render passes its language's gettext
    return env


async def read_json(request: Request) -> dict[str, Any] | JSONResponse:
    try:
        body = await request.json()
    except (ValueError, RecursionError):  # RequestGuard refuses the deep/long ones first
        return error(400, _("the request body must be JSON like {example}").format(
            example='{"kind": ..., "data": {...}}'))
    if not isinstance(body, dict):
        return error(400, _("the request body must be a JSON object"))
    return body
