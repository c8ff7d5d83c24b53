"""The history side of the web app: the list of stored matches and each match's súmula.

``/history`` (a Jinja2 page), ``/api/matches`` (the same pages as JSON: ``?before=ID&limit=N``,
``older``/``next`` name the next page), ``/report/{id}[.pdf|.csv|.json]``. Records come
from the matchbook (a :class:`~futmesa.web.common.HistoryProvider`); the renderers are
:mod:`futmesa.report`. Building a súmula replays the match, so it runs off the event loop.
"""

from __future__ import annotations

import asyncio
from typing import Any

from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Route

from futmesa import report
from futmesa.i18n import _, jinja_callables, language, short
from futmesa.matchbook import UnloadableMatch, public_record
from futmesa.matchbook.account import line
from futmesa.matchbook.live import names_of
from futmesa.matchbook.wording import ruleset_title, team, venue_zone, when
from futmesa.web.common import TEMPLATES_DIR, HistoryProvider, error, no_history
from futmesa.web.guard import parse_id
from futmesa.web.signing import verify_url

ENV = Environment(loader=FileSystemLoader(TEMPLATES_DIR), autoescape=select_autoescape(["html"]),
                  extensions=["jinja2.ext.i18n"])
ENV.install_null_translations(newstyle=True)  # each render passes its language's gettext


def history_rows(matches: list[dict[str, Any]], lang: str = "pt") -> list[dict[str, Any]]:
    rows = []
    for m in matches:
        teams = m.get("teams") or {}
        score = m.get("score")
        settings: dict[str, Any] = m["settings"] if isinstance(m.get("settings"), dict) else {}
        ending: dict[str, Any] = m["ending"] if isinstance(m.get("ending"), dict) else {}
        rows.append({
            "id": m.get("id"),
            "date": when(m.get("created_at"), venue_zone(settings.get("timezone"))),
            "table_id": m.get("table_id", ""),
            "table": names_of(m.get("table_id"), settings),
            "names": f"{team(teams, 'A', lang)} × {team(teams, 'B', lang)}",
            "score": (f"{score.get('A', 0)} × {score.get('B', 0)}"
                      if isinstance(score, dict) else ""),
            "ending": ending.get(lang, ""),
            "ruleset": ruleset_title(m.get("ruleset", "")),
            # what tells one match from another on a phone (walk #45 M9)
            "signed": bool((m.get("summary") or {}).get("signed")),
            "loadable": m.get("loadable", True),  # no súmula for a match that cannot be loaded
            # the account of the match (matchbook/account.py), as the súmula lists it
            "facts": [{"line": line(f, lang), "struck": bool(f.get("struck"))}
                      for f in (m.get("summary") or {}).get("account") or []],
        })
    return rows


PAGE = 100  # matches per history page: a page costs the same however long the season


def render_history(matches: list[dict[str, Any]], lang: str = "pt",
                   older: int | None = None) -> str:
    """The history page; ``older`` is the match id the "older matches" link starts before."""
    return ENV.get_template("history.html").render(matches=history_rows(matches, lang),
                                                   lang=lang, older=older,
                                                   **jinja_callables(lang))


def history_routes(history: HistoryProvider | None, display: dict[str, Any]) -> list[BaseRoute]:
    def lang_of(request: Request) -> str:
        lang = request.query_params.get("lang") or display.get("lang", "pt")
        return "en" if lang == "en" else "pt"

    async def page_of(request: Request, size: int) -> tuple[list[dict[str, Any]], int | None]:
        """``size`` matches older than ``?before=ID`` (newest first), and the next page's id."""
        if history is None:
            return [], None
        raw = request.query_params.get("before", "")
        before = int(raw) if raw.isdigit() and len(raw) < 19 else None
        # one more than the page tells whether older matches exist; only this page's
        # summaries are built (a first call after a season builds 100, not every match's)
        matches = await asyncio.to_thread(history.list_matches, size + 1, before)
        older = int(matches[size - 1]["id"]) if len(matches) > size else None
        return matches[:size], older

    async def history_page(request: Request) -> Response:
        matches, older = await page_of(request, PAGE)
        return HTMLResponse(render_history(matches, lang_of(request), older))

    async def api_matches(request: Request) -> Response:
        """A page of stored matches, newest first, as /history: ``?before=ID&limit=N``."""
        if history is None:
            return no_history()
        raw = request.query_params.get("limit", "")
        size = min(int(raw), PAGE) if raw.isdigit() and 0 < len(raw) < 4 and int(raw) else PAGE
        matches, older = await page_of(request, size)
        return JSONResponse({
            "matches": matches, "older": older,
            "next": f"/api/matches?before={older}&limit={size}" if older is not None else None})

    async def match_report(request: Request) -> Response:
        if history is None:
            return no_history()
        raw = request.path_params["match"]
        stem, _dot, fmt = raw.partition(".")
        try:
            record = await asyncio.to_thread(history.match_record, parse_id(stem))
        except UnloadableMatch as exc:
            return error(422, _("match {id} {ending}; its log is kept: open it with the "
                                "futmesa version that wrote it").format(
                                    id=exc.match_id, ending=exc.ending()[short(language())]))
        except (KeyError, LookupError, ValueError):
            return error(404, _("no stored match {id}; see /history for the list").format(
                id=repr(stem)))
        record = public_record(record)
        # the súmula's QR code opens this host's verification page (web/signing.py)
        record = {**record, "verify_url": verify_url(request, parse_id(stem))}
        lang = lang_of(request)
        name = f"sumula-{parse_id(stem)}"
        # the lance timer's rows are folded away unless asked for (?timekeeping=1)
        every = request.query_params.get("timekeeping") in ("1", "true", "sim")
        if fmt in ("", "html"):
            return HTMLResponse(await asyncio.to_thread(
                lambda: report.render_html(record, lang, timekeeping=every)))
        if fmt == "json":
            return Response(report.render_json(record, lang, timekeeping=every),
                            media_type="application/json",
                            headers={"Content-Disposition": f'attachment; filename="{name}.json"'})
        if fmt == "csv":
            return Response(report.render_csv(record, lang, timekeeping=every).encode("utf-8-sig"),
                            media_type="text/csv; charset=utf-8",
                            headers={"Content-Disposition": f'attachment; filename="{name}.csv"'})
        if fmt == "pdf":
            pdf = await asyncio.to_thread(
                lambda: report.pdf_bytes(record, lang=lang, timekeeping=every))
            return Response(pdf, media_type="application/pdf",
                            headers={"Content-Disposition": f'inline; filename="{name}.pdf"'})
        return error(404, _("report formats: {formats}").format(
            formats=".html, .pdf, .csv, .json"))

    return [
        Route("/api/matches", api_matches),
        Route("/history", history_page),
        Route("/report/{match}", match_report),
    ]
