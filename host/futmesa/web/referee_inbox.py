"""The referee inbox: every referee input a console sends (``POST /api/referee``) and the
answers it waits for (``GET /api/referee/{id}``).

The body is a :class:`RefereeInput` (pydantic), refused in one line saying what to send. Each
input carries its own id, so a resend is applied once whoever sends it and answered the same
(:class:`~futmesa.web.ledger.InputLedger`), and the same action another console has just sent
is applied once ("já feito"). The answer comes within :data:`ANSWER_WITHIN_S`: the outcome, or
"received, still being applied" with an id to follow it by (:class:`PendingOutcomes`), which
only its own table's token, or the token that asked, may read.
"""

from __future__ import annotations

import asyncio
import hmac
import math
import secrets
import time
from collections import OrderedDict
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from futmesa.hub import RefusedError, StateHub
from futmesa.i18n import _, translator
from futmesa.web.access import MISSING, TokenGate, request_token
from futmesa.web.common import error, read_json, request_language
from futmesa.web.ledger import InputLedger, InputRecord, valid_input_id

ANSWER_WITHIN_S = 0.1  # the console gets an answer (result or "still applying") this fast
MAX_PENDING = 200  # slow referee actions whose outcome the console may still ask for
MAX_PRESS_AGE_MS = 6 * 3600 * 1000  # a queued input older than this says nothing of its time
PRESS_AGREE_MS = 2000  # the phone's synced press time is used when its stopwatch agrees


class RefereeInput(BaseModel):
    """One referee input as a console sends it."""

    model_config = ConfigDict(extra="ignore")
    kind: str
    data: dict[str, Any] = {}
    input_id: Any = None
    table: Any = None
    author: Any = None
    console: Any = None
    pressed_at: Any = None
    age_ms: Any = None


def parse_input(body: dict[str, Any]) -> RefereeInput | str:
    """The input, or the one line saying what to send instead."""
    try:
        parsed = RefereeInput.model_validate(body)
    except ValidationError as exc:
        field = exc.errors()[0]["loc"][0] if exc.errors()[0]["loc"] else ""
        if field == "data":
            return _("\"data\" must be a JSON object")
        return _("missing \"kind\": say which action, e.g. \"shot_asked\"")
    if not parsed.kind:
        return _("missing \"kind\": say which action, e.g. \"shot_asked\"")
    return parsed


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
    # the new state reaches every screen through /ws; the answer stays small and fast: of
    # it, only the goals it leaves (the console takes them as its answer's, not news: G9)
    answer = {k: v for k, v in result.items() if k != "state"}
    state = result.get("state")
    match = state.get("match") if isinstance(state, dict) else None
    if isinstance(match, dict) and isinstance(match.get("goals"), list):
        answer["goals"] = {"match_id": state.get("match_id"),
                           "log_length": match.get("log_length"),
                           "entries": [g.get("entry") for g in match["goals"]
                                       if isinstance(g, dict)]}
    if isinstance(match, dict) and "restart" in match:
        # and the restart it leaves to take: an act whose answer brings one closes its sheet
        # (console main.js, walk50a M1)
        r = match["restart"]
        answer["restart"] = {k: r.get(k) for k in ("kind", "side", "taken")} \
            if isinstance(r, dict) else None
    return {"ok": True, "result": answer}


class RefereeInbox:
    """``/api/referee`` and ``/api/referee/{rid}`` for one app."""

    def __init__(self, hub: StateHub, gate: TokenGate,
                 answer_within_s: float = ANSWER_WITHIN_S) -> None:
        self.hub = hub
        self.gate = gate
        self.answer_within_s = answer_within_s
        self.pending = PendingOutcomes()
        # a pending answer's readers: its table, and the tokens that asked it (should the
        # table's token change meanwhile); nobody else
        self.readers: dict[str, tuple[str | None, set[str]]] = {}
        self.ledger = InputLedger()

    def with_token(self, kind: str, table: str | None, task: asyncio.Future[Any],
                   lang: str | None = None) -> dict[str, Any]:
        outcome = outcome_of(task, lang)
        if kind == "new_match" and outcome["ok"]:
            # the console that started the match carries on with its table's token (the
            # same for the whole serve session: futmesa.web.access)
            outcome["token"] = self.gate.token_for(table)
        return outcome

    async def receive(self, request: Request) -> Response:
        """``POST /api/referee``: one input, applied once, answered at once or by id."""
        started = time.perf_counter()
        token = request_token(request)
        if token is None:
            return error(401, _(MISSING))  # no token: refused before the body is read
        body = await read_json(request)
        if isinstance(body, JSONResponse):
            return body
        table = str(body["table"]) if body.get("table") else (
            request.query_params.get("table") or None)
        lang = request_language(request, browser=True)
        input_id = valid_input_id(body.get("input_id"))
        seen = self.ledger.seen(table, input_id)
        if seen is not None and hmac.compare_digest(seen.token.encode(), token.encode()):
            # a retry of an input already received (its answer was lost): answered the
            # same, applied once
            return await self.answer(seen, token, started, lang)
        # the table's referee token, or a goalkeeper's key for his choice (web/access.py)
        refusal = self.gate.refuse_input(request, table, str(body.get("kind") or ""),
                                         body.get("data"))
        if refusal is not None:
            return error(*refusal)
        parsed = parse_input(body)
        if isinstance(parsed, str):
            return error(400, parsed)
        if input_id is None:
            # every write carries its own id, so a resend is applied once whoever sends it
            return error(400, _("missing \"input_id\": give each action an id of its own "
                                "(8–64 letters, digits, - or _) and send the same id again to "
                                "retry it"))
        author = str(parsed.author or "referee")[:60]
        console_id = str(parsed.console or "")[:64]
        twin = self.ledger.twin(table, console_id, parsed.kind, parsed.data)
        if twin is not None:
            return self.already_done(twin, token, lang)
        pressed = press_time(body, time.time() * 1000)
        task = asyncio.ensure_future(self.hub.referee_input(
            parsed.kind, parsed.data, author, table, pressed_at=pressed, input_id=input_id))
        record = self.ledger.add(table, input_id, console_id, parsed.kind, parsed.data, task,
                                 token)
        return await self.answer(record, token, started, lang)

    async def result(self, request: Request) -> Response:
        """``GET /api/referee/{rid}``: the outcome of a slow input."""
        rid = request.path_params["rid"]
        token = request_token(request)
        if token is None:
            return error(401, _(MISSING))
        reader = self.readers.get(rid)
        outcome = self.pending.get(rid)
        if reader is None or outcome is None:
            return error(404, _("no such pending action (the daemon may have restarted)"))
        table, askers = reader
        # only its own table's token, or a token that asked it; never another table's
        refusal = self.gate.refuse(request, table)
        if token not in askers and refusal is not None:
            return error(*refusal)
        return JSONResponse(outcome)

    def pending_answer(self, record: InputRecord, token: str, already: bool,
                       lang: str) -> Response:
        """"Received, still being applied": the id to follow it by (one per input); its words
        in ``lang`` (the console's)."""
        t = translator(lang)
        if record.rid is None:
            if not self.pending.has_room():
                return error(503, t.gettext("too many actions are still being applied: wait a "
                                            "few seconds, then send this one again"))
            rid = secrets.token_urlsafe(16)  # not guessable: it may carry a new token
            record.rid = rid
            self.pending[rid] = {"ok": None, "pending": True}
            for old in [r for r in self.readers if self.pending.get(r) is None]:
                del self.readers[old]
            self.readers[rid] = (record.table, set())
            record.task.add_done_callback(
                lambda task: self.pending.__setitem__(
                    rid, self.with_token(record.kind, record.table, task, lang)))
        self.readers[record.rid][1].add(token)
        body: dict[str, Any] = {"ok": None, "pending": True, "id": record.rid,
                                "message": t.gettext("received; still being applied — the "
                                                     "result follows")}
        if already:
            body["already"] = True
        return JSONResponse(body, status_code=202)

    async def answer(self, record: InputRecord, token: str, started: float,
                     lang: str) -> Response:
        """The answer to an input: its outcome, or "still applying" when it is slow (in
        ``lang``, the console's)."""
        if record.answer is not None:  # a retry: the first answer again
            status, body = record.answer
            return JSONResponse(body, status_code=status)
        done, _pending = await asyncio.wait({record.task}, timeout=self.answer_within_s)
        if not done:
            return self.pending_answer(record, token, already=False, lang=lang)
        if record.answer is None:
            outcome = self.with_token(record.kind, record.table, record.task, lang)
            outcome["ms"] = round((time.perf_counter() - started) * 1000, 1)
            record.answer = (200 if outcome["ok"] else 409, outcome)
        status, body = record.answer
        return JSONResponse(body, status_code=status)

    def already_done(self, twin: InputRecord, token: str, lang: str) -> Response:
        """The same action another console (or this one, for a once-only action) has just
        sent: applied once, answered "já feito"."""
        if not twin.task.done():
            return self.pending_answer(twin, token, already=True, lang=lang)
        body: dict[str, Any] = {
            "ok": True, "already": True,
            "message": translator(lang).gettext("already done: the same action has just been "
                                                "recorded")}
        outcome = self.with_token(twin.kind, twin.table, twin.task, lang)
        if "token" in outcome:
            body["token"] = outcome["token"]
        return JSONResponse(body)
