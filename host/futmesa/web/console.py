"""The referee's side of the web app: the console pages, referee input, display settings, the log.

Writes need the console token (:class:`~futmesa.web.access.TokenGate`). Referee input goes to
the hub through the referee inbox (:mod:`futmesa.web.referee_inbox`); the console's log is the
matchbook's record of the match, each entry with its sentence in the kiosk's language and the
fields of the correction form.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from futmesa.hub import StateHub
from futmesa.i18n import N_, _, translator
from futmesa.matchbook import public_record
from futmesa.matchbook.answer import once
from futmesa.matchbook.numbers import with_numbers
from futmesa.matchbook.signing import closed
from futmesa.matchbook.wording import (
    amend_fields,
    document_kinds,
    origin,
    sentence,
    status_text,
)
from futmesa.web.access import (
    MISSING,
    TokenGate,
    console_url,
    keeper_url,
    qr_svg,
    request_token,
)
from futmesa.web.common import (
    DISPLAY_MODES,
    LANGS,
    SOUNDS,
    STATIC_DIR,
    THEMES,
    HistoryProvider,
    error,
    no_history,
    page,
    read_json,
)
from futmesa.web.guard import parse_id
from futmesa.web.public import Broadcast
from futmesa.web.referee_inbox import ANSWER_WITHIN_S, RefereeInbox

ASK_AGAIN = N_("Ask the goalkeeper to choose again")  # the Registro's void of his secret choice
UNDO = {"void": N_("Undo the void"), "amend": N_("Undo the correction")}  # the Registro's undo


def entry_view(e: dict[str, Any], teams: dict[str, Any], by_id: dict[Any, dict[str, Any]],
               lang: str, kinds: dict[str, list[str]] | None = None) -> dict[str, Any]:
    """One entry of the console's log: its sentence, origin, status and correction form. A
    signature or a reopening is never correctable (the daemon refuses it: reopen instead)."""
    key = "text" if lang == "pt" else "text_en"
    text = e.get(key) or sentence(str(e.get("kind")), e.get("data"), teams, lang,
                                  period=e.get("period"), targets=by_id)
    status = e.get("status") or ({"state": "voided"} if e.get("voided") else
                                 {"state": "amended", "by": e.get("amended_by")}
                                 if e.get("amended_by") else {"state": "effective"})
    if "by_no" not in status:  # a hand-made or older record: the match's number of "by"
        status = {**status, "by_no": (by_id.get(status.get("by")) or {}).get("no")}
    counts = status.get("state") in ("effective", "amended")
    # what the engine corrects, as the matchbook says it (matchbook/records.py: never the
    # clock's rows, a period's start, a signature, a moot answer); a correction is undone
    correctable = bool(e.get("correctable")) and e.get("kind") not in ("void", "amend")
    # a correction in effect is undone the way it was made: a void of it, two taps; an undo
    # itself offers no further undo (no chain of offers that read the same): the entry it
    # gave back is in force again, and corrected by its own "Anular" / "Corrigir"
    undo = counts and e.get("kind") in ("void", "amend") and not e.get("undoes")
    # its headline: the fact entered (what it caused is in its meaning, under it: records.py)
    facts = (e.get("headline") or {}).get("en" if lang == "en" else "pt")
    if facts is None:
        facts = [str(f.get(key) or "") for f in e.get("facts") or []]
    fact_lines = [f for f in facts if f and f != text]
    return {**e, "text": text, "status": status,
            # the entry's facts in the account of the match, where they say more than its text
            "fact_lines": fact_lines,
            # what the correction form names it: its facts and its sentence, each said once
            "named": " — ".join(once([*fact_lines, text])),
            "undo": translator(lang).gettext(UNDO[str(e.get("kind"))]) if undo else None,
            "meaning": e.get("meaning_en" if lang == "en" else "meaning") or [],
            "origin": origin(e.get("source"), e.get("author"), lang),
            "status_text": status_text(status, lang, e.get("kind")),
            "correctable": correctable,
            # the goalkeeper's secret choice (matchbook/keeper_secret.py): never corrected,
            # only voided, so that he chooses again — said so, naming no corner (walk51a H1)
            "ask_again": translator(lang).gettext(ASK_AGAIN)
            if correctable and e.get("secret") else None,
            # its goal lines named by the ends of its own half, as its sentence (walk52b H1)
            "fields": amend_fields(str(e.get("kind")), e.get("amend_data") or e.get("data"),
                                   teams, lang, kinds, e.get("ends"),
                                   e.get("answer_options"))
            if correctable and not e.get("secret") else []}


def log_view(record: dict[str, Any], lang: str) -> dict[str, Any]:
    """The console's log of a stored match, whole, and whether the referee's signature has
    closed it (``closed``: the daemon then refuses every input but a captain's signature and
    "reabrir")."""
    shown = public_record(record)
    match = shown.get("match") or {}
    teams = (shown.get("state") or {}).get("teams") or match.get("teams") or {}
    entries = with_numbers(shown.get("entries", []))  # each with its nº in the match
    by_id = {e.get("id"): e for e in entries}
    kinds = document_kinds(shown.get("state"))
    return {"match": match,
            "entries": [entry_view(e, teams, by_id, lang, kinds) for e in entries],
            "closed": closed(record.get("entries") or []), "full": True}


def _number(text: str | None) -> int | None:
    return int(text) if text and text.isascii() and text.isdigit() and len(text) < 16 else None


def live_log_view(live: Any, epoch: str | None, since: str | None, lang: str,
                  limit: str | None = None, before: str | None = None) -> dict[str, Any]:
    """What changed in the live match's log since revision ``since`` of ``epoch``
    (matchbook/live_log.py): a console holding the log receives only its new or changed
    entries, so what it reads over a match grows as the match. ``limit``: a whole log comes
    as its newest ``limit`` entries (``older``: how many more); ``before=ID``: the page of
    ``limit`` entries before entry ID."""
    most = min(max(_number(limit) or LOG_PAGE, 1), LOG_PAGE_MOST) if limit else None
    page = _number(before)
    if page is not None:
        body = live.older(page, most or LOG_PAGE)
    else:
        rev = _number(since)
        body = live.since(epoch, rev if rev is not None else -1, most)
    return {**body, "match_id": live.match_id,
            "entries": [entry_view(e, live.teams, {}, lang, live.kinds)
                        for e in body["entries"]]}


LOG_PAGE = 200  # entries a console gets of a long log at first, and per page of older ones
LOG_PAGE_MOST = 1000


def console_routes(hub: StateHub, *, gate: TokenGate, display: dict[str, Any],
                   broadcast: Broadcast, history: HistoryProvider | None,
                   answer_within_s: float = ANSWER_WITHIN_S) -> list[BaseRoute]:
    """``/console``, ``/console/expert``, ``/console/keeper``, ``/console/recover``,
    ``/console/sw.js``, ``/api/token``, ``/api/keeper``, ``/api/time``, ``/api/referee``,
    ``/api/referee/{rid}`` (:mod:`futmesa.web.referee_inbox`), ``/api/display``,
    ``/api/log``, ``/api/account``."""
    inbox = RefereeInbox(hub, gate, answer_within_s)
    desk = ConsoleSide(hub, gate, display, broadcast, history)
    return [
        Route("/console", desk.console),
        Route("/console/expert", desk.expert),
        Route("/console/sw.js", desk.service_worker),
        Route("/console/keeper", desk.keeper),
        Route("/console/recover", desk.recover),
        Route("/api/token", desk.check_token),
        Route("/api/keeper", desk.keeper_link),
        Route("/api/time", desk.host_time),
        Route("/api/referee", inbox.receive, methods=["POST"]),
        Route("/api/referee/{rid}", inbox.result),
        Route("/api/display", desk.set_display, methods=["POST"]),
        Route("/api/log", desk.api_log),
        Route("/api/account", desk.api_account),
    ]


def table_of(request: Request) -> str | None:
    """The table a request is for (``?table=ID``), or None for the default table."""
    return request.query_params.get("table") or None


class ConsoleSide:
    """The console's pages, its token's recovery and check, the display settings, the log."""

    def __init__(self, hub: StateHub, gate: TokenGate, display: dict[str, Any],
                 broadcast: Broadcast, history: HistoryProvider | None) -> None:
        self.hub = hub
        self.gate = gate
        self.display = display
        self.broadcast = broadcast
        self.history = history

    # the referee's console speaks the host's language (as the TV does) unless ?lang= asks:
    # never the phone's own, an English phone beside a Portuguese TV (docs/translations.md)
    async def console(self, request: Request) -> Response:
        return page("console.html", request)

    async def expert(self, request: Request) -> Response:
        return page("expert.html", request)

    async def keeper(self, request: Request) -> Response:
        return page("keeper.html", request)

    async def service_worker(self, request: Request) -> Response:
        # served under /console so it may keep the console's pages for an offline start
        return FileResponse(STATIC_DIR / "console-sw.js", media_type="text/javascript",
                            headers={"Cache-Control": "no-cache",
                                     "Service-Worker-Allowed": "/console"})

    async def host_time(self, request: Request) -> Response:
        return JSONResponse({"now": time.time() * 1000})

    async def recover(self, request: Request) -> Response:
        refusal = self.gate.refuse_recovery(request)
        if refusal is not None:
            return error(403, refusal)
        table = table_of(request)
        url = console_url("", self.gate.token_for(table), table)
        if request.query_params.get("format") == "json":
            return JSONResponse({"ok": True, "token": self.gate.token_for(table), "url": url})
        return RedirectResponse(url, status_code=303)

    async def authorized_body(self, request: Request) -> dict[str, Any] | JSONResponse:
        """The JSON body of a referee write for its table (``table`` in the body or the
        query), or the response refusing it."""
        if request_token(request) is None:
            return error(401, _(MISSING))  # no token: refused before the body is read
        body = await read_json(request)
        if isinstance(body, JSONResponse):
            return body
        table = body.get("table") or table_of(request)
        refusal = self.gate.refuse(request, str(table) if table else None)
        if refusal is not None:
            return error(*refusal)
        return body

    async def check_token(self, request: Request) -> Response:
        refusal = self.gate.refuse(request, table_of(request))
        if refusal is not None:
            return error(*refusal)
        return JSONResponse({"ok": True})

    async def keeper_link(self, request: Request) -> Response:
        """``GET /api/keeper?side=A|B``: the goalkeeper's page for his secret choice of a
        penalty, with a key that makes only that choice (web/access.py), and its QR code to
        read on his phone; the referee's alone. No side: either goalkeeper's (the shoot-out's
        page, handed from one to the other)."""
        table = table_of(request)
        refusal = self.gate.refuse(request, table)
        if refusal is not None:
            return error(*refusal)
        side = request.query_params.get("side") or None
        if side not in ("A", "B", None):
            return error(400, _("side must be A or B (the defending team's goalkeeper)"))
        url = keeper_url(str(request.base_url), self.gate.keeper_key(table, side or "AB"),
                         table, side)
        return JSONResponse({"ok": True, "url": url, "qr_svg": qr_svg(url)},
                            headers={"Cache-Control": "no-store"})

    async def set_display(self, request: Request) -> Response:
        body = await self.authorized_body(request)
        if isinstance(body, JSONResponse):
            return body
        for key, allowed in (("mode", DISPLAY_MODES), ("theme", THEMES), ("lang", LANGS),
                             ("sound", SOUNDS)):
            if key in body:
                if body[key] not in allowed:
                    return error(400, _("{key} must be one of {values}").format(
                        key=key, values=", ".join(allowed)))
                self.display[key] = body[key]
        self.broadcast.send({"type": "display", **self.display})
        return JSONResponse({"ok": True, **self.display})

    async def api_account(self, request: Request) -> Response:
        """The account of the match (matchbook/account.py): the table's match being played,
        or ``?match=N`` as stored; public, as the súmula is (no secret is a fact)."""
        match_id = request.query_params.get("match")
        live = self.hub.live_log(table_of(request))
        if live is not None and match_id in (None, str(live.match_id)):
            return JSONResponse({"match_id": live.match_id, "facts": live.account()})
        if self.history is None:
            return no_history()
        match_id = match_id or self.hub.snapshot(table_of(request)).get("match_id")
        if match_id is None:
            return JSONResponse({"match_id": None, "facts": []})
        try:
            record = await asyncio.to_thread(self.history.match_record,
                                             parse_id(str(match_id)))
        except (KeyError, LookupError, ValueError):
            return error(404, _("no stored match {id}").format(id=match_id))
        return JSONResponse({"match_id": record["match"]["id"],
                             "facts": public_record(record).get("account") or []})

    async def api_log(self, request: Request) -> Response:
        if self.history is None:
            return no_history()
        lang = request.query_params.get("lang") or self.display.get("lang", "pt")
        lang = "en" if lang == "en" else "pt"
        match_id = request.query_params.get("match")
        live = self.hub.live_log(table_of(request))
        if live is not None and match_id in (None, str(live.match_id)):
            q = request.query_params
            return JSONResponse(live_log_view(live, q.get("epoch"), q.get("since"), lang,
                                              q.get("limit"), q.get("before")))
        match_id = match_id or self.hub.snapshot(table_of(request)).get("match_id")
        if match_id is None:
            return JSONResponse({"entries": [], "full": True})
        try:
            record = await asyncio.to_thread(self.history.match_record,
                                             parse_id(str(match_id)))
        except (KeyError, LookupError, ValueError):
            return error(404, _("no stored match {id}").format(id=match_id))
        return JSONResponse(log_view(record, lang))
