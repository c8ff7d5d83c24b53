"""The web app's front door: a bad request gets a clear 4xx answer and never reaches the match.

Anyone on the venue network can talk to the host, so every request passes :class:`RequestGuard`
(an ASGI middleware, installed by :func:`futmesa.web.app.create_app`) before any route runs:

- the body is read here, chunk by chunk, and refused with 413 as soon as it passes the limit
  (64 KiB by default: the biggest referee action is a few hundred bytes), so a huge upload
  never sits in memory; a declared ``Content-Length`` over the limit is refused unread;
- a JSON body nested deeper than :data:`MAX_JSON_DEPTH` or holding a number longer than
  :data:`MAX_NUMBER_DIGITS` digits is refused with 400 (Python's parser would otherwise fail
  with ``RecursionError`` or the integer-digits ``ValueError`` and answer 500);
- every route that hands out a referee token to the host machine's own browser
  (``/console/recover``, the admin screen ``/admin`` and its ``/admin/info``) also checks the
  ``Host`` header: a page from another site that re-points its name at 127.0.0.1 (DNS
  rebinding) arrives with its own name there and is refused, before any token is read; and
  a ``?table=`` there must name a table this host serves (an unknown one is answered 404,
  never with the default table's token).

:func:`parse_id` turns a match number from a path or query into an int SQLite can hold,
or raises ``ValueError`` (the routes answer 404), instead of ``OverflowError`` deep in the store.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import socket
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from typing import Any
from urllib.parse import urlsplit

from futmesa.i18n import _

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

DEFAULT_MAX_BODY = 64 * 1024
MAX_JSON_DEPTH = 32  # a referee action is 4 or 5 levels deep
MAX_NUMBER_DIGITS = 30  # far beyond any real count or time in ms; Python refuses 4300
MAX_ID = 2**63 - 1  # the largest SQLite INTEGER
_DIGITS_AS_ZERO = bytes(0x30 if 0x30 <= i <= 0x39 else 0x20 for i in range(256))
RECOVERY_PATHS = frozenset({"/console/recover", "/admin", "/admin/info"})
LOOPBACK_NAMES = frozenset({"localhost", "localhost.localdomain", "ip6-localhost"})


def parse_id(text: str | None) -> int:
    """A stored row number given as text ("42"), or ``ValueError`` if it cannot be one.

    Only ASCII digits, at most :data:`MAX_ID` (``int()`` would also take " 4", "4_2", "-4"
    and "٤"; a number past SQLite's range made the store raise ``OverflowError``).
    """
    if not text or not (text.isascii() and text.isdigit()) or len(text) > 19:
        raise ValueError(f"not a match number: {text!r}")
    value = int(text)
    if value > MAX_ID:
        raise ValueError(f"not a match number: {text!r}")
    return value


def json_problem(raw: bytes, max_depth: int = MAX_JSON_DEPTH,
                 max_digits: int = MAX_NUMBER_DIGITS) -> str | None:
    """Why a (would-be) JSON body is refused before parsing, or ``None`` when it is not.

    One pass over the bytes, outside strings: nesting depth of ``[``/``{`` and the length of
    digit runs. Whether it is valid JSON is left to the route, which says what it expects.
    A body with few brackets and no long digit run anywhere (every console action) is
    passed after two C-speed counts; only the rest is scanned byte by byte (≤ 5 ms at 64 KiB).
    """
    if (raw.count(b"[") + raw.count(b"{") <= max_depth
            and b"0" * (max_digits + 1) not in raw.translate(_DIGITS_AS_ZERO)):
        return None
    depth = 0
    digits = 0
    in_string = False
    escaped = False
    for byte in raw:
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:  # backslash
                escaped = True
            elif byte == 0x22:  # closing quote
                in_string = False
            continue
        if 0x30 <= byte <= 0x39:
            digits += 1
            if digits > max_digits:
                return _("the request body holds a number longer than {digits} digits; send "
                         "the actions the console sends").format(digits=max_digits)
            continue
        digits = 0
        if byte == 0x22:
            in_string = True
        elif byte in (0x5B, 0x7B):  # [ {
            depth += 1
            if depth > max_depth:
                return _("the request body is JSON nested more than {levels} levels deep; send "
                         "the actions the console sends").format(levels=max_depth)
        elif byte in (0x5D, 0x7D):  # ] }
            depth -= 1
    return None


def host_name(header: str) -> str:
    """The name in a ``Host`` header, without port, brackets or final dot, in lower case."""
    host = header.strip().lower()
    if host.startswith("["):
        host = host[1:].partition("]")[0]
    elif host.count(":") == 1:
        host = host.partition(":")[0]
    return host.rstrip(".")


def machine_names() -> set[str]:
    """This machine's own name and the addresses it resolves to (from /etc/hosts or DNS)."""
    names: set[str] = set()
    try:
        hostname = socket.gethostname()
    except OSError:
        return names
    names.add(hostname.lower())
    try:
        for info in socket.getaddrinfo(hostname, None):
            names.add(str(info[4][0]).lower())
    except (OSError, UnicodeError):
        pass
    return names


def _url_host(url: str) -> str:
    """The host name of a published address ("https://mesa1.clube:8443/" -> "mesa1.clube")."""
    name = urlsplit(url if "//" in url else f"//{url}").hostname or ""
    return name.lower().rstrip(".")


def _is_loopback(name: str) -> bool:
    if name in LOOPBACK_NAMES or name.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


class RequestGuard:
    """ASGI middleware applying the checks in this module's docstring to every HTTP request.

    ``public_urls``: addresses the operator published for this host (e.g. ``--public-url``);
    their host names are accepted for token recovery besides loopback and this machine's own
    names and addresses (looked up once, off the event loop, on the first recovery that needs
    them: a slow resolver never delays the kiosk's requests).
    """

    def __init__(self, app: ASGIApp, *, max_body: int = DEFAULT_MAX_BODY,
                 public_urls: Iterable[str] = ()) -> None:
        if max_body < 1:
            raise ValueError("the request body limit must be at least 1 byte")
        self.app = app
        self.max_body = max_body
        self.published = {_url_host(url) for url in public_urls} - {""}
        self.machine: set[str] | None = None

    async def host_is_ours(self, scope: Scope) -> bool:
        """True when the request names this server: loopback, this machine, a published URL."""
        header = _header(scope, b"host")
        if header is None:
            return False
        name = host_name(header)
        if not name:
            return False
        if _is_loopback(name) or name in self.published:
            return True
        server = scope.get("server")  # the local address this connection came in on
        if server is not None and name == str(server[0]).lower():
            return True
        if self.machine is None:
            self.machine = await asyncio.to_thread(machine_names)
        return name in self.machine

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if scope.get("path") in RECOVERY_PATHS and not await self.host_is_ours(scope):
            await _refuse(send, 403, _(
                "token recovery only answers on this machine's own address: open {url} in a "
                "browser on the host itself (this request named the server {server})").format(
                    url=f"{scope.get('scheme', 'http')}://localhost:{_port(scope)}"
                        "/console/recover",
                    server=repr(_header(scope, b"host"))))
            return
        if scope.get("path") in RECOVERY_PATHS:
            unknown = _unknown_table(scope)
            if unknown is not None:
                await _refuse(send, 404, _("unknown table {table}: this computer does not "
                                           "serve that table").format(table=repr(unknown)))
                return
        declared = _header(scope, b"content-length")
        if declared is not None:
            if not (declared.isascii() and declared.isdigit()):
                await _refuse(send, 400, _("the Content-Length header must be a number of "
                                           "bytes"))
                return
            if int(declared) > self.max_body:
                await _refuse(send, 413, self._too_large())
                return
        body = await self._read_body(receive)
        if body is _GONE:
            return  # the client went away in the middle of its body: nobody to answer
        if body is None:
            await _refuse(send, 413, self._too_large())
            return
        if body.lstrip()[:1] in (b"[", b"{"):
            problem = json_problem(body)
            if problem is not None:
                await _refuse(send, 400, problem)
                return
        replay: list[Message] = [{"type": "http.request", "body": body, "more_body": False}]

        async def receive_again() -> Message:
            if replay:
                return replay.pop()
            return await receive()  # after the body: the disconnect, for streaming responses

        await self.app(scope, receive_again, send)

    async def _read_body(self, receive: Receive) -> bytes | None:
        """The whole body, or ``None`` as soon as it grows past the limit (the rest unread)."""
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return _GONE
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_body:
                return None
            if chunk:
                chunks.append(chunk)
            if not message.get("more_body", False):
                return b"".join(chunks)

    def _too_large(self) -> str:
        limit = self.max_body
        size = f"{limit // 1024} KiB" if limit % 1024 == 0 else f"{limit} bytes"
        return _("the request body is larger than the {size} this host accepts; the console's "
                 "actions are far smaller — send just the action").format(size=size)


_GONE = b"<gone>"  # compared by identity: the client disconnected before its body ended


def _unknown_table(scope: Scope) -> str | None:
    """The ``?table=`` of a token route when this host does not serve that table."""
    from urllib.parse import parse_qs

    query = parse_qs(bytes(scope.get("query_string", b"")).decode("latin-1"))
    names = query.get("table") or []
    if not names or not names[-1]:
        return None
    table = names[-1]
    app = scope.get("app")
    gate = getattr(getattr(app, "state", None), "gate", None)
    if gate is None:
        return table  # nobody to ask which tables are served: hand out nothing
    served = set(getattr(gate, "tables", {}) or {})
    default = gate.default_table() if callable(getattr(gate, "default_table", None)) else None
    if table in served or (default and table == default):
        return None
    return table


def _port(scope: Scope) -> str:
    server = scope.get("server")
    return str(server[1]) if server and len(server) > 1 else "PORT"


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            return bytes(value).decode("latin-1")
    return None


async def _refuse(send: Send, status: int, message: str) -> None:
    body = json.dumps({"ok": False, "error": message}, ensure_ascii=False).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json; charset=utf-8"),
                            (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})
