"""Referee access: each table's console token, its check, and the URL + QR code to share it.

A table's token is kept with the event log (futmesa.store.tokens): the link (or its printed
QR, taped to the table) commands every match of that table, "Nova partida" included, and
outlives a restart of ``futmesa serve`` on the same log; ``serve --new-referee-token``
retires every earlier link (a console still holding one is told it was replaced).

Reads (kiosk, ``/api/state``, súmulas) never need the token. Writes carry it as
``Authorization: Bearer TOKEN`` (or ``X-Futmesa-Token``). A browser on the host
machine itself can always fetch it from ``/console/recover``.

A host serving several tables gives each table its own token (``/console?table=ID``):
a referee's link commands only that table.

The goalkeeper's secret choice of a penalty is made on a second device, handed to the
defending player (004 Pênaltis): its link carries a *keeper key*
(:func:`keeper_token`), never the referee's token. The key is derived from the table's token,
the match and the side (an HMAC: nothing new to store; a new match or a new referee token
retires it) and makes that side's ``keeper_choice`` in that match, nothing else: with it
``/console`` and every other input are refused (:data:`KEEPER_ONLY`).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import io
import secrets
from collections.abc import Callable
from typing import Any
from urllib.parse import quote, urlencode

from starlette.requests import Request

from futmesa.i18n import N_, _

LOCAL_HOSTS = frozenset({"127.0.0.1", "::1", "localhost"})
PROXY_HEADERS = ("x-forwarded-for", "forwarded", "x-real-ip")

# refusals of a referee write (English msgids: translated where they are sent, _(MISSING))
MISSING = N_("referee token missing: open the console link the daemon printed (or scan its "
             "QR code); on the host machine itself open /console/recover")
WRONG = N_("wrong referee token (from another table, or not a link futmesa printed): open "
           "this table's console link as futmesa prints it, or /console/recover on the host "
           "machine")
RETIRED = N_("this referee link was replaced by a new one on the table computer: scan the new "
             "QR code (on the table computer's screen), or open /console/recover on the host "
             "machine")
KEEPER_ONLY = N_("this link is the goalkeeper's: it only makes his secret choice of the "
                 "penalty, not the referee's console nor any other input; the referee's console "
                 "needs the table's referee link")
KEEPER_SIDES = ("A", "B", "AB")  # a side's goalkeeper, or either (the shoot-out's one page)


def new_token() -> str:
    """A fresh unguessable token (one per table, kept with the event log), short enough to
    type from a screen."""
    return secrets.token_urlsafe(12)


def request_token(request: Request) -> str | None:
    auth = request.headers.get("authorization", "")
    if auth.lower().startswith("bearer "):
        return auth[7:].strip() or None
    return request.headers.get("x-futmesa-token") or None


def is_local(request: Request) -> bool:
    """True only for a direct request from this machine (not relayed by a proxy)."""
    client = request.client
    if client is None or client.host not in LOCAL_HOSTS:
        return False
    return not any(h in request.headers for h in PROXY_HEADERS)


def keeper_token(referee_token: str, match_id: Any, sides: str) -> str:
    """The key of the goalkeeper's page: it makes the secret choice of ``sides``' goalkeeper
    ("A", "B", or "AB": either, the shoot-out's) in match ``match_id`` of the table whose
    referee token is ``referee_token``, and nothing else (:meth:`TokenGate.keeper_sides`)."""
    mac = hmac.new(referee_token.encode(), f"keeper\x1f{match_id}\x1f{sides}".encode(),
                   hashlib.sha256).digest()
    return "k" + base64.urlsafe_b64encode(mac[:15]).decode()


def keeper_allows(sides: str, kind: str, data: Any) -> bool:
    """Whether a keeper key for ``sides`` may send this input: that goalkeeper's choice."""
    side = data.get("side") if isinstance(data, dict) else None
    return kind == "keeper_choice" and isinstance(side, str) and len(side) == 1 and side in sides


class TokenGate:
    """The console tokens: one per table, kept with the event log (futmesa.store.tokens).

    ``token`` is the token of a host serving one table (and of a table not yet connected);
    ``tables`` holds each table's own token on a host serving several. A request names its
    table (``table`` in the body or the query); one that names none is for the default
    table (the first to connect, ``default_table()``).
    """

    def __init__(self, token: str,
                 default_table: Callable[[], str | None] | None = None,
                 match_of: Callable[[str | None], Any] | None = None) -> None:
        if not token:
            raise ValueError(
                "the console token must not be empty; use futmesa.web.access.new_token()"
            )
        self.token = token
        self.tables: dict[str, str] = {}
        self.retired: set[str] = set()  # replaced by `serve --new-referee-token`
        self.default_table = default_table or (lambda: None)
        # the match a table plays now (a keeper key is for one match): the hub's
        self.match_of = match_of or (lambda table: None)

    def token_for(self, table: str | None = None) -> str:
        """The token that commands ``table`` (or the default table)."""
        key = table or self.default_table()
        if key and key in self.tables:
            return self.tables[key]
        return self.token

    def refuse(self, request: Request, table: str | None = None) -> tuple[int, str] | None:
        """``None`` when the request carries the token of ``table``, else (status, reason)."""
        given = request_token(request)
        if given is None:
            return 401, _(MISSING)
        if not hmac.compare_digest(given.encode(), self.token_for(table).encode()):
            if self.keeper_sides(given, table) is not None:
                return 403, _(KEEPER_ONLY)
            return 403, _(RETIRED if given in self.retired else WRONG)
        return None

    def keeper_key(self, table: str | None, sides: str) -> str:
        """The key of the goalkeeper's page for ``sides`` in ``table``'s match now."""
        return keeper_token(self.token_for(table), self.match_of(table), sides)

    def keeper_sides(self, given: str, table: str | None = None) -> str | None:
        """The sides whose goalkeeper's choice ``given`` makes, when it is a keeper key of
        ``table``'s match now; else None."""
        token, match_id = self.token_for(table), self.match_of(table)
        for sides in KEEPER_SIDES:
            if hmac.compare_digest(given.encode(),
                                   keeper_token(token, match_id, sides).encode()):
                return sides
        return None

    def refuse_input(self, request: Request, table: str | None, kind: str,
                     data: Any) -> tuple[int, str] | None:
        """:meth:`refuse` for one referee input: a keeper key may send its goalkeeper's
        choice, and only that."""
        given = request_token(request)
        if given is not None and not hmac.compare_digest(given.encode(),
                                                         self.token_for(table).encode()):
            sides = self.keeper_sides(given, table)
            if sides is not None:
                return None if keeper_allows(sides, kind, data) else (403, _(KEEPER_ONLY))
        return self.refuse(request, table)

    def refuse_recovery(self, request: Request) -> str | None:
        if is_local(request):
            return None
        return _("token recovery only works from the host machine itself (127.0.0.1 / ::1); ask "
                 "the operator for the console link or read the QR code on the host's terminal")


def console_url(base_url: str, token: str, table: str | None = None) -> str:
    table_q = f"table={quote(table, safe='')}&" if table else ""
    return f"{base_url.rstrip('/')}/console?{table_q}token={token}"


def qr_svg(text: str) -> str:
    """``text`` (a link) as a QR code, SVG markup for a page."""
    import segno

    out = io.BytesIO()
    segno.make(text, error="m").save(out, kind="svg", border=2, xmldecl=False, omitsize=True,
                                     svgns=True, dark="#000", light="#fff")
    return out.getvalue().decode()


def keeper_url(base_url: str, key: str, table: str | None, side: str | None) -> str:
    """The goalkeeper's page (``/console/keeper``) with his key (:func:`keeper_token`)."""
    query = urlencode({**({"table": table} if table else {}), **({"side": side} if side else {}),
                       "token": key})
    return f"{base_url.rstrip('/')}/console/keeper?{query}"


def access_banner(base_url: str, token: str, *, qr: bool = True,
                  table: str | None = None) -> str:
    """The text the daemon prints: kiosk and console URLs, and a terminal QR code
    (``table``: one table's scoreboard and console on a host serving several)."""
    url = console_url(base_url, token, table)
    base = base_url.rstrip("/")
    kiosk = f"{base}/?table={quote(table, safe='')}" if table else f"{base}/"
    rows = [
        *([(_("table"), table)] if table else []),
        (_("scoreboard (TV)"), kiosk),
        (_("venue board"), f"{base}/?mode=board"),
        (_("referee console"), url),
        (_("match history"), f"{base}/history"),
    ]
    width = max(len(label) for label, _value in rows)
    text = "".join(f"{label:<{width}} : {value}\n" for label, value in rows)
    if qr:
        import segno

        out = io.StringIO()
        segno.make(url, error="m").terminal(out=out, compact=True)
        text += out.getvalue()
    return text
