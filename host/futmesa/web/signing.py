"""Signing the súmula on the referee's phone, reopening, and the public verification page.

- ``GET /assinar[?table=ID]``: the signing page (``static/sign.html``): the result, the
  súmula's summary, the chain's final hash; the referee and each captain sign with a finger.
- ``GET /api/assinaturas[?table=ID|match=N]``: what that page shows (no token: the súmula is
  public).
- ``POST /api/assinar`` and ``POST /api/reabrir`` (console token): a signature or a "reabrir"
  with its reason, sent as referee input through the hub, so the daemon checks, stores and
  chains them like any entry and refuses them with a Portuguese reason.
- ``GET /verificar/{match}``: whether the match's hash chain checks, its final hash and
  its signatures (the page the súmula's QR code opens).
"""

from __future__ import annotations

import asyncio
import html
import json
import time
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Route

from futmesa.hub import RefusedError, StateHub
from futmesa.i18n import _, jinja_callables, short, translator
from futmesa.matchbook import UnloadableMatch, build, public_record
from futmesa.matchbook.account import line
from futmesa.matchbook.numbers import number_of
from futmesa.matchbook.signing import MAX_NAME, ROLES, over, role_label
from futmesa.matchbook.sumula import facts_of
from futmesa.matchbook.wording import team
from futmesa.web.access import MISSING, TokenGate, request_token
from futmesa.web.common import (
    TEMPLATES_DIR,
    HistoryProvider,
    error,
    no_history,
    page,
    read_json,
    request_language,
)
from futmesa.web.guard import parse_id

ENV = Environment(loader=FileSystemLoader(TEMPLATES_DIR), autoescape=select_autoescape(["html"]),
                  extensions=["jinja2.ext.i18n"])
ENV.install_null_translations(newstyle=True)  # each render passes its language's gettext


def verify_url(request: Request, match_id: Any) -> str:
    """The address of a match's verification page on this host: the address the host
    publishes (``serve`` prints it; --public-url), else as the request reached it — never the
    loopback address a súmula downloaded on the host itself would carry to a phone."""
    base = str(getattr(request.app.state, "public_url", "") or request.base_url)
    return f"{base.rstrip('/')}/verificar/{match_id}"


def signing_view(record: dict[str, Any], url: str, lang: str = "pt") -> dict[str, Any]:
    """What the signing page shows (in ``lang``, "pt" or "en"): result, summary, final hash,
    who has signed."""
    record = {**public_record(record), "verify_url": url}
    s = build(record, lang)
    t = translator(lang)
    teams = (record.get("state") or {}).get("teams") or {}
    shown = {t.gettext("Competition"), t.gettext("Table"), t.gettext("Rules"),
             t.gettext("Referee"), t.gettext("Status")}
    summary = [f"{k}: {v}" for k, v in s.meta if v and k in shown]
    struck = [False] * len(summary)
    # the account of the match, as the súmula and the history list it (matchbook/account.py)
    for fact in facts_of(record):
        summary.append(line(fact, lang))
        struck.append(bool(fact.get("struck")))
    chain = record.get("chain") or {}
    rows = {e.get("id"): e for e in record.get("entries") or []}
    signatures = [{**sig, "label": role_label(str(sig.get("role")), teams, lang),
                   # the reopening, by the match's number (matchbook/numbers.py)
                   "reopened_no": number_of(sig.get("reopened_by"), rows)}
                  for sig in record.get("signatures") or []]
    return {
        "match_id": s.id, "result": s.result, "finished": s.finished, "ending": s.ending,
        "summary": summary, "summary_struck": struck, "chain": chain, "signatures": signatures,
        "closed": any(sig.get("valid") and sig.get("role") == "referee" for sig in signatures),
        "roles": [{"role": r, "label": role_label(r, teams, lang)} for r in ROLES],
        "verify_url": url,
    }


def signing_routes(hub: StateHub, *, gate: TokenGate,
                   history: HistoryProvider | None) -> list[BaseRoute]:
    """``/assinar`` (the signing page), ``/api/assinaturas`` (who has signed), ``/api/assinar``
    and ``/api/reabrir`` (a signature, a reopening: referee input), ``/verificar/{match}``."""
    s = Signing(hub, gate, history)
    return [
        Route("/assinar", s.sign_page),
        Route("/api/assinaturas", s.summary),
        Route("/api/assinar", s.sign, methods=["POST"]),
        Route("/api/reabrir", s.reopen_match, methods=["POST"]),
        Route("/verificar/{match}", s.verify_page),
    ]


def _table_of(request: Request) -> str | None:
    return request.query_params.get("table") or None


def _which(body: dict[str, Any]) -> dict[str, Any]:
    """The match the page shows (an earlier one of the table's is signed too: walk 45g G8)."""
    return {"match": body["match"]} if body.get("match") is not None else {}


def _signature(body: dict[str, Any]) -> tuple[dict[str, Any], str]:
    name = str(body.get("name") or "").strip()
    data = {"role": body.get("role"), "name": name, "signs": body.get("signs"),
            "image": body.get("image"), **_which(body)}
    return data, name[:MAX_NAME] or "árbitro"


def _reopen(body: dict[str, Any]) -> tuple[dict[str, Any], str]:
    return ({"reason": str(body.get("reason") or "").strip()[:300], **_which(body)},
            str(body.get("author") or "árbitro")[:MAX_NAME])


UNSIGNED_LOOKBACK = 50  # the newest matches looked at (a day at one table is far fewer)
DAY_S = 24 * 3600  # "the matches of the day": the table's last 24 hours


def unsigned_matches(rows: list[dict[str, Any]], table_id: Any, shown: Any, current: Any,
                     lang: str, now: float) -> list[dict[str, Any]]:
    """The table's earlier matches of the day that are over and still lack the referee's
    signature, newest first (``rows``: the history's, with their summaries)."""
    t = translator(lang)
    out = []
    for m in rows:
        summary = m.get("summary") or {}
        if (m.get("table_id") != table_id or m.get("id") in (shown, current)
                or not m.get("loadable", True) or summary.get("signed")
                or not over(m.get("finished"), m.get("ended_at"))
                or now - float(m.get("created_at") or 0) > DAY_S):
            continue
        teams, score = m.get("teams") or {}, m.get("score") or {}
        out.append({"id": m["id"], "title": t.gettext("Match no. {id}: {a} {ga} × {gb} {b}").format(
            id=m["id"], a=team(teams, "A", lang), ga=score.get("A", 0), gb=score.get("B", 0),
            b=team(teams, "B", lang))})
    return out


class Signing:
    """The súmula's signatures and its public verification page."""

    def __init__(self, hub: StateHub, gate: TokenGate, history: HistoryProvider | None) -> None:
        self.hub = hub
        self.gate = gate
        self.history = history

    # the table's pages speak the host's language (as the console and the TV), never the
    # phone's own; sign.js sends the page's language to /api/assinaturas (docs/translations.md)
    async def sign_page(self, request: Request) -> Response:
        return page("sign.html", request)

    async def load(self, request: Request, match: Any) -> dict[str, Any] | JSONResponse:
        if self.history is None:
            return no_history()
        try:
            return await asyncio.to_thread(self.history.match_record, parse_id(str(match)))
        except UnloadableMatch as exc:
            lang = short(request_language(request, browser=True))
            return error(422, translator(lang).gettext("match {id} {ending}").format(
                id=exc.match_id, ending=exc.ending()[lang]))
        except (KeyError, LookupError, ValueError):
            return error(404, translator(request_language(request, browser=True)).gettext(
                "no stored match {id}").format(id=match))

    async def summary(self, request: Request) -> Response:
        match = (request.query_params.get("match")
                 or self.hub.snapshot(_table_of(request)).get("match_id"))
        if match is None:
            return error(404, translator(request_language(request, browser=True)).gettext(
                "no match on this table yet"))
        record = await self.load(request, match)
        if isinstance(record, JSONResponse):
            return record
        lang = short(request_language(request, browser=True))
        view = signing_view(record, verify_url(request, record["match"]["id"]), lang)
        return JSONResponse({**view, **await self.earlier(request, record, lang)})

    async def earlier(self, request: Request, record: dict[str, Any],
                      lang: str) -> dict[str, Any]:
        """Whether the match shown is the table's current one, and the table's earlier
        unsigned matches of the day (each signed from this page: walk 45g G8)."""
        live = self.hub.snapshot(_table_of(request))
        shown, current = record["match"]["id"], live.get("match_id")
        table_id = record["match"].get("table_id")
        finished = bool((record.get("state") or {}).get("finished"))
        # an earlier match is signed once over (a new match may have stopped it)
        here = {"current": shown == current, "signable": finished if shown == current
                else over(finished, record["match"].get("ended_at"))}
        if self.history is None or live.get("table_id") not in (None, table_id):
            return {**here, "unsigned": []}
        rows = await asyncio.to_thread(self.history.list_matches, UNSIGNED_LOOKBACK)
        return {**here,
                "unsigned": unsigned_matches(rows, table_id, shown, current, lang, time.time())}

    async def send(self, request: Request, kind: str, build_data: Any) -> Response:
        if request_token(request) is None:
            return error(401, _(MISSING))
        body = await read_json(request)
        if isinstance(body, JSONResponse):
            return body
        table = str(body["table"]) if body.get("table") else _table_of(request)
        refusal = self.gate.refuse(request, table)
        if refusal is not None:
            return error(*refusal)
        data, author = build_data(body)
        try:
            await self.hub.referee_input(kind, data, author, table)
        except RefusedError as exc:
            return error(409, exc.said(request_language(request, browser=True)))
        return JSONResponse({"ok": True})

    async def sign(self, request: Request) -> Response:
        return await self.send(request, "signature", _signature)

    async def reopen_match(self, request: Request) -> Response:
        return await self.send(request, "reopen", _reopen)

    async def verify_page(self, request: Request) -> Response:
        record = await self.load(request, request.path_params["match"])
        if isinstance(record, JSONResponse):
            message = json.loads(bytes(record.body)).get("error", "")
            return HTMLResponse(f"<!doctype html><meta charset=utf-8><p>{html.escape(message)}</p>",
                                status_code=record.status_code)
        lang = request_language(request)
        view = signing_view(record, verify_url(request, record["match"]["id"]), short(lang))
        # the event log this host really keeps (the command is copied to the host itself)
        path = getattr(getattr(self.history, "store", None), "path", None)
        db = Path(path).name if path else "futmesa.sqlite"
        return HTMLResponse(ENV.get_template("verify.html").render(
            v=view, db=db, html_lang="en" if lang == "en" else "pt-BR", **jinja_callables(lang)))
