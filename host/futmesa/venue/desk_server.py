"""Runs the desk (MQTT side and its web pages under uvicorn) in one asyncio process."""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any

import uvicorn

from futmesa.server import check_port_free
from futmesa.venue.desk import Desk
from futmesa.venue.mqtt import Broker
from futmesa.venue.web import create_desk_app


async def run_desk(db: str, broker: Broker, password: str, http_host: str = "127.0.0.1",
                   http_port: int = 8100,
                   on_ready: Callable[[Desk, uvicorn.Server], Coroutine[Any, Any, Any]]
                   | None = None,
                   assign: bool = True, public_url: str | None = None) -> None:
    """Serve the desk until stopped (Ctrl-C, or ``server.should_exit = True``);
    ``public_url``: the address the QR codes and shared links give phones."""
    import asyncio

    check_port_free(http_host, http_port)
    desk = Desk(db, broker, password, assign=assign)
    app = create_desk_app(desk, public_url)
    server = uvicorn.Server(uvicorn.Config(app, host=http_host, port=http_port,
                                           log_level="warning", lifespan="off",
                                           ws_ping_interval=5, ws_ping_timeout=5))
    desk.start()
    task = asyncio.create_task(on_ready(desk, server)) if on_ready else None
    try:
        await server.serve()
    finally:
        if task is not None and not task.done():
            task.cancel()
        desk.stop()
