"""The referee's side of the web app: the console pages, referee input, display settings, the log.

Writes need the console token (:class:`~futmesa.web.access.TokenGate`). Referee input goes to
the hub (``hub.referee_input``); the console's log is the matchbook's record of the match, each
entry with its sentence in the kiosk's language and the fields of the correction form.
"""

from __future__ import annotations

import asyncio
import hmac
import math
import secrets
import time
from collections import OrderedDict
from typing import Any

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from futmesa.hub import RefusedError, StateHub
from futmesa.i18n import _, translator
from futmesa.matchbook import public_record
from futmesa.matchbook.signing import SIGNING_KINDS, closed
from futmesa.matchbook.wording import amend_fields, origin, sentence, status_text
from futmesa.web.access import MISSING, TokenGate, console_url, request_token
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
    request_language,
)
from futmesa.web.guard import parse_id
from futmesa.web.ledger import InputLedger, InputRecord, valid_input_id
from futmesa.web.public import Broadcast

ANSWER_WITHIN_S = 0.1  # the console gets an answer (result or "still applying") this fast
MAX_PENDING = 200  # slow referee actions whose outcome the console may still ask for
MAX_PRESS_AGE_MS = 6 * 3600 * 1000  # a queued input older than this says nothing of its time
PRESS_AGREE_MS = 2000  # the phone's synced press time is used when its stopwatch agrees


class PendingOutcomes:
    """Outcomes of slow referee actions, by request id; bounded, oldest answered ones go first."""

    def __init__(self, limit: int | None = None) -> None:
        self.limit = limit if limit is not None else MAX_PENDING
        self.items: OrderedDict[str, dict[str, Any]] = OrderedDict()

    def has_room(self) -> bool:
        if len(self.items) < self.limit:
            return True
        for rid, outcome in list(self.items.items()):
            if not outcome.get("pending"):
                del self.items[rid]
                return True
        return False

    def __setitem__(self, rid: str, outcome: dict[str, Any]) -> None:
        self.items[rid] = outcome

    def get(self, rid: str) -> dict[str, Any] | None:
        return self.items.get(rid)


def log_view(record: dict[str, Any], lang: str) -> dict[str, Any]:
    """The console's log: each entry with its sentence, origin, status and correction form, and
    whether the referee's signature has closed the match (``closed``: the daemon then refuses
    every input but a captain's signature and "reabrir"). A signature or a reopening is never
    correctable (the daemon refuses it: reopen instead)."""
    shown = public_record(record)
    match = shown.get("match") or {}
    teams = (shown.get("state") or {}).get("teams") or match.get("teams") or {}
    entries = shown.get("entries", [])
    by_id = {e.get("id"): e for e in entries}
    out = []
    for e in entries:
        key = "text" if lang == "pt" else "text_en"
        text = e.get(key) or sentence(str(e.get("kind")), e.get("data"), teams, lang,
                                      period=e.get("period"), targets=by_id)
        status = e.get("status") or ({"state": "voided"} if e.get("voided") else
                                     {"state": "amended", "by": e.get("amended_by")}
                                     if e.get("amended_by") else {"state": "effective"})
        correctable = (status.get("state") in ("effective", "amended")
                       and e.get("kind") not in ("void", "amend", *SIGNING_KINDS))
        out.append({**e, "text": text, "status": status,
                    "meaning": e.get("meaning_en" if lang == "en" else "meaning") or [],
                    "origin": origin(e.get("source"), e.get("author"), lang),
                    "status_text": status_text(status, lang),
                    "correctable": correctable,
                    "fields": amend_fields(str(e.get("kind")), e.get("data"), teams, lang)
                    if correctable else []})
    return {"match": match, "entries": out, "closed": closed(record.get("entries") or [])}


def press_time(body: dict[str, Any], now_ms: float) -> float | None:
    """When the referee pressed this input (host Unix ms), from what the phone said, or None.

    The phone sends ``pressed_at`` (its clock synced to the host's, ``/api/time``) and
    ``age_ms`` (how long before sending it was pressed, by the phone's own clock: right even
    when the sync is off). The synced stamp is used when both agree within
    :data:`PRESS_AGREE_MS`; else the age. Never in the future.
    """
    def number(v: Any) -> float | None:
        ok = isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v)
        return float(v) if ok else None

    age = number(body.get("age_ms"))
    by_age = now_ms - age if age is not None and 0 <= age <= MAX_PRESS_AGE_MS else None
    pressed = number(body.get("pressed_at"))
    if pressed is not None and (by_age is None or abs(pressed - by_age) <= PRESS_AGREE_MS):
        return min(pressed, now_ms)
    return by_age


def console_routes(hub: StateHub, *, gate: TokenGate, display: dict[str, Any],
                   broadcast: Broadcast, history: HistoryProvider | None,
                   answer_within_s: float = ANSWER_WITHIN_S) -> list[BaseRoute]:
    """``/console``, ``/console/expert``, ``/console/keeper``, ``/console/recover``,
    ``/console/sw.js``, ``/api/token``, ``/api/time``, ``/api/referee``,
    ``/api/referee/{rid}``, ``/api/display``, ``/api/log``."""
    pending = PendingOutcomes()
    # a pending answer's readers: its table, and the tokens that asked it (the asker may
    # follow a "Nova partida" that has just replaced its token); nobody else
    readers: dict[str, tuple[str | None, set[str]]] = {}
    ledger = InputLedger()

    def with_token(kind: str, table: str | None, task: asyncio.Future[Any],
                   lang: str | None = None) -> dict[str, Any]:
        outcome = outcome_of(task, lang)
        if kind == "new_match" and outcome["ok"]:
            # the console that started the match carries on with its table's new token
            outcome["token"] = gate.token_for(table)
        return outcome

    def table_of(request: Request) -> str | None:
        """The table a request is for (``?table=ID``), or None for the default table."""
        return request.query_params.get("table") or None

    async def console(request: Request) -> Response:
        return page("console.html", request, browser=True)

    async def expert(request: Request) -> Response:
        return page("expert.html", request, browser=True)

    async def keeper(request: Request) -> Response:
        return page("keeper.html", request, browser=True)

    async def service_worker(request: Request) -> Response:
        # served under /console so it may keep the console's pages for an offline start
        return FileResponse(STATIC_DIR / "console-sw.js", media_type="text/javascript",
                            headers={"Cache-Control": "no-cache",
                                     "Service-Worker-Allowed": "/console"})

    async def host_time(request: Request) -> Response:
        return JSONResponse({"now": time.time() * 1000})

    async def recover(request: Request) -> Response:
        refusal = gate.refuse_recovery(request)
        if refusal is not None:
            return error(403, refusal)
        table = table_of(request)
        url = console_url("", gate.token_for(table), table)
        if request.query_params.get("format") == "json":
            return JSONResponse({"ok": True, "token": gate.token_for(table), "url": url})
        return RedirectResponse(url, status_code=303)

    async def authorized_body(request: Request) -> dict[str, Any] | JSONResponse:
        """The JSON body of a referee write for its table (``table`` in the body or the
        query), or the response refusing it."""
        if request_token(request) is None:
            return error(401, _(MISSING))  # no token: refused before the body is read
        body = await read_json(request)
        if isinstance(body, JSONResponse):
            return body
        table = body.get("table") or table_of(request)
        refusal = gate.refuse(request, str(table) if table else None)
        if refusal is not None:
            return error(*refusal)
        return body

    async def check_token(request: Request) -> Response:
        refusal = gate.refuse(request, table_of(request))
        if refusal is not None:
            return error(*refusal)
        return JSONResponse({"ok": True})

    def pending_answer(record: InputRecord, token: str, already: bool, lang: str) -> Response:
        """"Received, still being applied": the id to follow it by (one per input); its words
        in ``lang`` (the console's)."""
        t = translator(lang)
        if record.rid is None:
            if not pending.has_room():
                return error(503, t.gettext("too many actions are still being applied: wait a "
                                            "few seconds, then send this one again"))
            rid = secrets.token_urlsafe(16)  # not guessable: it may carry a new token
            record.rid = rid
            pending[rid] = {"ok": None, "pending": True}
            for old in [r for r in readers if pending.get(r) is None]:
                del readers[old]
            readers[rid] = (record.table, set())
            record.task.add_done_callback(
                lambda task: pending.__setitem__(
                    rid, with_token(record.kind, record.table, task, lang)))
        readers[record.rid][1].add(token)
        body: dict[str, Any] = {"ok": None, "pending": True, "id": record.rid,
                                "message": t.gettext("received; still being applied — the "
                                                     "result follows")}
        if already:
            body["already"] = True
        return JSONResponse(body, status_code=202)

    async def answer(record: InputRecord, token: str, started: float, lang: str) -> Response:
        """The answer to an input: its outcome, or "still applying" when it is slow (in
        ``lang``, the console's)."""
        if record.answer is not None:  # a retry: the first answer again
            status, body = record.answer
            return JSONResponse(body, status_code=status)
        done, _pending = await asyncio.wait({record.task}, timeout=answer_within_s)
        if not done:
            return pending_answer(record, token, already=False, lang=lang)
        if record.answer is None:
            outcome = with_token(record.kind, record.table, record.task, lang)
            outcome["ms"] = round((time.perf_counter() - started) * 1000, 1)
            record.answer = (200 if outcome["ok"] else 409, outcome)
        status, body = record.answer
        return JSONResponse(body, status_code=status)

    def already_done(twin: InputRecord, token: str, lang: str) -> Response:
        """The same action another console (or this one, for a once-only action) has just
        sent: applied once, answered "já feito"."""
        if not twin.task.done():
            return pending_answer(twin, token, already=True, lang=lang)
        body: dict[str, Any] = {
            "ok": True, "already": True,
            "message": translator(lang).gettext("already done: the same action has just been "
                                                "recorded")}
        outcome = with_token(twin.kind, twin.table, twin.task, lang)
        if "token" in outcome:
            body["token"] = outcome["token"]
        return JSONResponse(body)

    async def referee(request: Request) -> Response:
        started = time.perf_counter()
        token = request_token(request)
        if token is None:
            return error(401, _(MISSING))  # no token: refused before the body is read
        body = await read_json(request)
        if isinstance(body, JSONResponse):
            return body
        table = str(body["table"]) if body.get("table") else table_of(request)
        input_id = valid_input_id(body.get("input_id"))
        seen = ledger.seen(table, input_id)
        if seen is not None and hmac.compare_digest(seen.token.encode(), token.encode()):
            # a retry of an input already received (its answer was lost): answered the
            # same, applied once, even after a "Nova partida" it made replaced the token
            return await answer(seen, token, started, request_language(request, browser=True))
        refusal = gate.refuse(request, table)
        if refusal is not None:
            return error(*refusal)
        kind = body.get("kind")
        data = body.get("data", {})
        if not isinstance(kind, str) or not kind:
            return error(400, _("missing \"kind\": say which action, e.g. \"shot_asked\""))
        if not isinstance(data, dict):
            return error(400, _("\"data\" must be a JSON object"))
        if input_id is None:
            # every write carries its own id, so a resend is applied once whoever sends it
            return error(400, _("missing \"input_id\": give each action an id of its own "
                                "(8–64 letters, digits, - or _) and send the same id again to "
                                "retry it"))
        author = str(body.get("author") or "referee")[:60]
        console_id = str(body.get("console") or "")[:64]
        twin = ledger.twin(table, console_id, kind, data)
        if twin is not None:
            return already_done(twin, token, request_language(request, browser=True))
        pressed = press_time(body, time.time() * 1000)
        task = asyncio.ensure_future(
            hub.referee_input(kind, data, author, table, pressed_at=pressed, input_id=input_id))
        record = ledger.add(table, input_id, console_id, kind, data, task, token)
        return await answer(record, token, started, request_language(request, browser=True))

    async def referee_result(request: Request) -> Response:
        rid = request.path_params["rid"]
        token = request_token(request)
        if token is None:
            return error(401, _(MISSING))
        reader = readers.get(rid)
        outcome = pending.get(rid)
        if reader is None or outcome is None:
            return error(404, _("no such pending action (the daemon may have restarted)"))
        table, askers = reader
        # only its own table's token, or a token that asked it; never another table's
        refusal = gate.refuse(request, table)
        if token not in askers and refusal is not None:
            return error(*refusal)
        return JSONResponse(outcome)

    async def set_display(request: Request) -> Response:
        body = await authorized_body(request)
        if isinstance(body, JSONResponse):
            return body
        for key, allowed in (("mode", DISPLAY_MODES), ("theme", THEMES), ("lang", LANGS),
                             ("sound", SOUNDS)):
            if key in body:
                if body[key] not in allowed:
                    return error(400, _("{key} must be one of {values}").format(
                        key=key, values=", ".join(allowed)))
                display[key] = body[key]
        broadcast.send({"type": "display", **display})
        return JSONResponse({"ok": True, **display})


    async def api_log(request: Request) -> Response:
        if history is None:
            return no_history()
        match_id = request.query_params.get("match") or hub.snapshot().get("match_id")
        if match_id is None:
            return JSONResponse({"entries": []})
        try:
            record = await asyncio.to_thread(history.match_record, parse_id(str(match_id)))
        except (KeyError, LookupError, ValueError):
            return error(404, _("no stored match {id}").format(id=match_id))
        lang = request.query_params.get("lang") or display.get("lang", "pt")
        return JSONResponse(log_view(record, "en" if lang == "en" else "pt"))

    return [
        Route("/console", console),
        Route("/console/expert", expert),
        Route("/console/sw.js", service_worker),
        Route("/console/keeper", keeper),
        Route("/console/recover", recover),
        Route("/api/token", check_token),
        Route("/api/time", host_time),
        Route("/api/referee", referee, methods=["POST"]),
        Route("/api/referee/{rid}", referee_result),
        Route("/api/display", set_display, methods=["POST"]),
        Route("/api/log", api_log),
    ]


def outcome_of(task: asyncio.Future[Any], lang: str | None = None) -> dict[str, Any]:
    """The console's view of a finished referee action, in ``lang`` (None: the host's)."""
    t = translator(lang)
    if task.cancelled():
        return {"ok": False, "error": t.gettext("the action was cancelled (the daemon is "
                                                "stopping)")}
    exc = task.exception()
    if isinstance(exc, RefusedError):
        return {"ok": False, "error": exc.said(lang) or t.gettext("refused by the rules")}
    if exc is not None:
        return {"ok": False, "error": t.gettext(
            "internal error applying the action: {error}; it was not applied — tell the "
            "operator").format(error=repr(exc))}
    result = task.result()
    if not isinstance(result, dict):
        return {"ok": True, "result": {}}
    # the new state reaches every screen through /ws; the answer stays small and fast
    return {"ok": True, "result": {k: v for k, v in result.items() if k != "state"}}
