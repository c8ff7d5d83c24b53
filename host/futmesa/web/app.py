"""Starlette application: kiosk, read-only state API and stream, referee console, súmulas.

The app never computes match state: it serves what the daemon publishes into the
:class:`~futmesa.hub.StateHub`, reads stored matches through the matchbook, and forwards
referee actions to the hub. Its routes are grouped by audience:

- :mod:`.public` (no token): ``/`` kiosk, ``/board``, ``/api/state``, ``/api/tables``, ``/ws``,
  ``/logo/{side}``;
- :mod:`.console` (writes need the console token): ``/console``, ``POST /api/referee``,
  ``POST /api/display``, ``/api/log``; ``/console/recover`` hands the token to a browser on
  the host machine itself;
- :mod:`.history` (no token): ``/history``, ``/api/matches``, ``/report/{id}[.pdf|.csv|.json]``;
- :mod:`.signing`: ``/assinar`` (signing the súmula on the phone), ``POST /api/assinar`` and
  ``/api/reabrir`` (console token), ``/verificar/{id}`` (the chain's check, no token).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.routing import Mount
from starlette.staticfiles import StaticFiles

from futmesa.hub import StateHub
from futmesa.web.access import TokenGate
from futmesa.web.common import STATIC_DIR, HistoryProvider
from futmesa.web.console import console_routes
from futmesa.web.guard import DEFAULT_MAX_BODY, RequestGuard
from futmesa.web.history import history_routes
from futmesa.web.public import (
    ENCODED,
    STREAM_ANNOUNCEMENTS,
    Broadcast,
    find_logo,
    public_routes,
    slug,
    stream_states,
    stream_view,
)
from futmesa.web.referee_inbox import ANSWER_WITHIN_S
from futmesa.web.signing import signing_routes
from futmesa.web.words import word_routes

__all__ = ["ENCODED", "STREAM_ANNOUNCEMENTS", "Broadcast", "HistoryProvider", "create_app",
           "find_logo", "slug", "stream_states", "stream_view"]


def create_app(
    hub: StateHub,
    *,
    console_token: str,
    history: HistoryProvider | None = None,
    logo_dir: Path | None = None,
    answer_within_s: float = ANSWER_WITHIN_S,
    max_body: int = DEFAULT_MAX_BODY,
    public_urls: tuple[str, ...] = (),
    clip_dir: Path | None = None,
) -> Starlette:
    """Build the web app over ``hub``; ``console_token`` guards referee writes.

    The token lasts the serve session; a host serving several tables gives each its own in
    ``app.state.gate.tables`` (futmesa.web.access.TokenGate).
    ``logo_dir`` holds club logos: the file named in ``teams.X.logo``, or one named after
    the team (``gremio-f-c.png`` for "Grêmio F.C."); served at ``/logo/A`` and ``/logo/B``.
    ``max_body`` and ``public_urls`` set up the :class:`~futmesa.web.guard.RequestGuard`.
    ``clip_dir``: the camera's clips (docs/camera.md), served at ``/clips/`` (ranges too, as
    a phone's video player asks).
    """
    gate = TokenGate(console_token, match_of=lambda table: hub.snapshot(table).get("match_id"))
    broadcast = Broadcast()
    display: dict[str, Any] = {"mode": "scoreboard", "theme": "default", "lang": "pt",
                               "sound": "off"}
    routes = [
        *public_routes(hub, display=display, broadcast=broadcast, logo_dir=logo_dir),
        *console_routes(hub, gate=gate, display=display, broadcast=broadcast, history=history,
                        answer_within_s=answer_within_s),
        *history_routes(history, display),
        *signing_routes(hub, gate=gate, history=history),
        *word_routes(),
        Mount("/static", StaticFiles(directory=STATIC_DIR), name="static"),
        *([Mount("/clips", StaticFiles(directory=clip_dir, check_dir=False), name="clips")]
          if clip_dir is not None else []),
    ]
    app = Starlette(routes=routes)
    app.add_middleware(RequestGuard, max_body=max_body, public_urls=public_urls)
    app.state.hub = hub
    app.state.gate = gate
    app.state.history = history
    app.state.display = display
    return app

