"""Test and benchmark helpers: a real uvicorn server on a free localhost port, sample states.

Used by tests/web, tests/browser and bench/; not by the daemon.
"""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from typing import Any

import uvicorn

from futmesa.hub import StateHub

TOKEN = "test-token-4f2a"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class LiveServer:
    """uvicorn in a thread; ``publish`` runs on the server's event loop like the daemon does."""

    def __init__(self, hub: StateHub, app: Any) -> None:
        self.hub = hub
        self.app = app
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.loop: asyncio.AbstractEventLoop | None = None
        config = uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="warning",
                                lifespan="off")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        self.loop = asyncio.new_event_loop()
        asyncio.set_event_loop(self.loop)
        self.loop.run_until_complete(self.server.serve())

    def start(self) -> None:
        self.thread.start()
        deadline = time.monotonic() + 10
        while not self.server.started:
            if time.monotonic() > deadline:
                raise RuntimeError("uvicorn did not start within 10 s")
            time.sleep(0.01)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(10)

    def call(self, fn: Any, *args: Any) -> Any:
        """Run ``fn(*args)`` on the server loop and wait for its result."""
        assert self.loop is not None

        async def run() -> Any:
            result = fn(*args)
            if asyncio.iscoroutine(result):
                result = await result
            return result

        return asyncio.run_coroutine_threadsafe(run(), self.loop).result(10)

    def publish(self, state: dict[str, Any], table_id: str | None = None) -> None:
        self.call(self.hub.publish, table_id or state["table_id"], state)


def make_state(**over: Any) -> dict[str, Any]:
    """A match state shaped like docs/architecture.md "Match state JSON"."""
    now = int(time.time() * 1000)
    state: dict[str, Any] = {
        "table_id": "sim-1", "match_id": 1, "ruleset": "cbfm-1toque",
        "teams": {"A": {"name": "Alvorada", "color": "#1040c0"},
                  "B": {"name": "Botafogo", "color": "#202020"}},
        "score": {"A": 0, "B": 0},
        "period": 1, "periods": 2, "status": "running",
        "clock": {"ms": 0, "running": False, "rate": 1.0, "at": now,
                  "length_ms": 1_500_000, "added_ms": 0},
        "lance": {"ms": 15000, "running": False, "rate": 1.0, "at": now, "length_ms": 15000},
        "link": {"connected": True, "last_event_at": now},
        "finished": False,
        "match": {"turn": "A", "shot_asked": None, "expelled": {"A": [], "B": []},
                  "announcements": [], "pending": []},
    }
    for key, value in over.items():
        state[key] = value
    return state




CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def launch_chromium(playwright: Any) -> Any:
    """Debian's headless Chromium driven by Playwright (never a downloaded browser)."""
    return playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
