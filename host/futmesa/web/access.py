"""Referee access: the per-match console token, its check, and the URL + QR code to share it.

Reads (kiosk, ``/api/state``, súmulas) never need the token. Writes carry it as
``Authorization: Bearer TOKEN`` (or ``X-Futmesa-Token``). A browser on the host
machine itself can always fetch it from ``/console/recover``.

A host serving several tables gives each table its own token (``/console?table=ID``):
a referee's link commands only that table, and a new match on one table retires only
that table's token.
"""

from __future__ import annotations

import hmac
import io
import secrets
from collections.abc import Callable
from urllib.parse import quote

from starlette.requests import Request

from futmesa.i18n import N_, _

LOCAL_HOSTS = frozenset({"127.0.0.1", "::1", "localhost"})
PROXY_HEADERS = ("x-forwarded-for", "forwarded", "x-real-ip")

# refusals of a referee write (English msgids: translated where they are sent, _(MISSING))
MISSING = N_("referee token missing: open the console link the daemon printed (or scan its "
             "QR code); on the host machine itself open /console/recover")
WRONG = N_("wrong referee token (it may belong to an earlier match): open the newest console "
           "link the daemon printed, or /console/recover on the host machine")


def new_token() -> str:
    """A fresh unguessable per-match token, short enough to type from a screen."""
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


class TokenGate:
    """The current console tokens; each may be replaced for each new match.

    ``token`` is the token of a host serving one table (and of a table not yet connected);
    ``tables`` holds each table's own token on a host serving several. A request names its
    table (``table`` in the body or the query); one that names none is for the default
    table (the first to connect, ``default_table()``).
    """

    def __init__(self, token: str,
                 default_table: Callable[[], str | None] | None = None) -> None:
        if not token:
            raise ValueError(
                "the console token must not be empty; use futmesa.web.access.new_token()"
            )
        self.token = token
        self.tables: dict[str, str] = {}
        self.default_table = default_table or (lambda: None)

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
            return 403, _(WRONG)
        return None

    def refuse_recovery(self, request: Request) -> str | None:
        if is_local(request):
            return None
        return _("token recovery only works from the host machine itself (127.0.0.1 / ::1); ask "
                 "the operator for the console link or read the QR code on the host's terminal")


def console_url(base_url: str, token: str, table: str | None = None) -> str:
    table_q = f"table={quote(table, safe='')}&" if table else ""
    return f"{base_url.rstrip('/')}/console?{table_q}token={token}"


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
