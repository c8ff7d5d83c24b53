"""Test and benchmark helpers: a real uvicorn server on a free localhost port, sample states.

Used by tests/web, tests/browser and bench/; not by the daemon.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import uvicorn

from futmesa.hub import RefusedError, StateHub
from futmesa.rules.corrections import correctable
from futmesa.web.app import create_app

TOKEN = "test-token-4f2a"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class LiveServer:
    """uvicorn in a thread; ``publish`` runs on the server's event loop like the daemon does."""

    def __init__(self, hub: StateHub, app: Any, port: int | None = None) -> None:
        self.hub = hub
        self.app = app
        self.port = port or free_port()
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


@contextlib.contextmanager
def serving(hub: StateHub | None = None, **app_kwargs: Any) -> Iterator[LiveServer]:
    """The web app over ``hub`` (a new one by default) on a live server, for a ``with``."""
    hub = hub if hub is not None else StateHub()
    server = LiveServer(hub, create_app(hub, console_token=TOKEN, **app_kwargs))
    server.start()
    try:
        yield server
    finally:
        server.stop()


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


def launch_chromium(playwright: Any, locale: str = "pt-BR") -> Any:
    """Debian's headless Chromium driven by Playwright (never a downloaded browser), speaking
    ``locale`` (its Accept-Language: the pages answer in it) as a Brazilian phone would; a page or
    context asked with another ``locale=`` (``"en-US"``) speaks that one."""
    chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    return _SpeakingBrowser(chromium, locale)


class _SpeakingBrowser:
    """A Playwright browser whose new pages and contexts get a default locale."""

    def __init__(self, browser: Any, locale: str) -> None:
        self._browser, self._locale = browser, locale

    def new_context(self, **kwargs: Any) -> Any:
        kwargs.setdefault("locale", self._locale)
        return self._browser.new_context(**kwargs)

    def new_page(self, **kwargs: Any) -> Any:
        kwargs.setdefault("locale", self._locale)
        return self._browser.new_page(**kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._browser, name)


def sample_record(*, name_a: str = "Alvorada", name_b: str = "Botafogo") -> dict[str, Any]:
    """A hand-made stored match (HistoryProvider.match_record shape) with a correction."""
    t0 = 1_780_000_000_000
    state = make_state(
        score={"A": 2, "B": 1},
        teams={"A": {"name": name_a, "color": "#1040c0"},
               "B": {"name": name_b, "color": "#202020"}},
        period=2, status="finished", finished=True,
    )
    state["match"].update({
        "goals": [
            {"side": "A", "disc": 7, "period": 1, "clock_ms": 185_000, "entry": 3},
            {"side": "B", "disc": 3, "period": 1, "clock_ms": 1_201_000, "entry": 6},
            {"side": "A", "disc": 10, "period": 2, "clock_ms": 610_000, "entry": 11},
        ],
        "expelled": {"A": [], "B": [5]},
    })

    def entry(i: int, kind: str, data: dict[str, Any], period: int, clock_ms: int,
              source: str = "referee", **extra: Any) -> dict[str, Any]:
        return {"id": i, "kind": kind, "data": data, "source": source, "period": period,
                "clock_ms": clock_ms, "created_at": t0 + i * 60_000, "author": "Árbitro Silva",
                "voided": False, "amended_by": None,
                "correctable": correctable(kind, "void") and not extra.get("voided"), **extra}

    entries = [
        entry(1, "start", {}, 1, 0),
        entry(2, "shot_asked", {"side": "A", "disc": 7}, 1, 180_000),
        entry(3, "goal_line", {"goal": 1}, 1, 185_000, source="device"),
        entry(4, "shot_asked", {"side": "A", "disc": 9}, 1, 400_000),
        entry(5, "goal_line", {"goal": 1}, 1, 405_000, source="device", voided=True),
        entry(6, "goal_line", {"goal": 0}, 1, 1_201_000, source="device"),
        entry(7, "void", {"target": 5, "reason": "bola não entrou"}, 1, 420_000),
        entry(8, "foul", {"side": "B", "disc": 5, "type": "disciplinar"}, 2, 300_000),
        entry(9, "discipline", {"side": "B", "disc": 5, "action": "expel"}, 2, 301_000),
        entry(10, "substitution", {"side": "A", "out": 4, "in": 12}, 2, 500_000),
        entry(11, "goal_line", {"goal": 0}, 2, 610_000, source="device"),
    ]
    return {
        "match": {"id": 42, "table_id": "sim-1", "ruleset": "cbfm-1toque",
                  "teams": state["teams"], "referee": "Árbitro Silva",
                  "created_at": t0, "ended_at": t0 + 3_600_000,
                  "settings": {"event": "Copa Teste", "competition": "knockout"}},
        "entries": entries,
        "state": state,
    }


class ScriptedTable:
    """A stand-in for the daemon in view tests: keeps a log, recomputes a state, publishes it.

    Create it on the server's loop (``live.call(ScriptedTable, live.hub)``).

    It only knows ``goal {side}``, ``shot_asked {side, disc}``, ``void {target}``,
    ``amend {target, data}``, ``start_period``, ``added_time {ms}`` and ``clock_kept {ms}`` (the
    power cut's "Não"); anything else is refused with the reason,
    like the real engine would.
    """

    def __init__(self, hub: StateHub, table_id: str = "sim-1") -> None:
        self.hub = hub
        self.table_id = table_id
        self.entries: list[dict[str, Any]] = []
        self.running = False
        self.status = "running"  # the period the made-up state shows (make_state's)
        hub.set_referee_handler(table_id, self.handle)
        hub.publish(table_id, self.state())

    def state(self) -> dict[str, Any]:
        score = {"A": 0, "B": 0}
        for e in self.entries:
            if e["kind"] == "goal" and not e["voided"]:
                score[e["data"]["side"]] += 1
        st = make_state(table_id=self.table_id, score=score)
        st["clock"]["running"] = self.running
        st["status"] = self.status
        return st

    def at_interval(self) -> None:
        """The match between two periods, where «Iniciar período» is offered (call it on the
        server's loop: ``live.call(table.at_interval)``)."""
        self.status = "interval"
        self.hub.publish(self.table_id, self.state())

    # HistoryProvider, so the console's log and the súmula routes have something to show
    def list_matches(self, limit: int | None = None,
                     before: int | None = None) -> list[dict[str, Any]]:
        st = self.state()
        return [{"id": 1, "table_id": self.table_id, "ruleset": st["ruleset"],
                 "teams": st["teams"], "score": st["score"], "created_at": 0}]

    def match_record(self, match_id: int) -> dict[str, Any]:
        if match_id != 1:
            raise KeyError(match_id)
        st = self.state()
        return {"match": {"id": 1, "table_id": self.table_id, "ruleset": st["ruleset"],
                          "teams": st["teams"], "referee": "", "created_at": 0,
                          "ended_at": None, "settings": {}},
                "entries": [dict(e) for e in self.entries], "state": st}

    async def handle(self, kind: str, data: dict[str, Any], author: str,
                     pressed_at: float | None = None) -> dict[str, Any]:
        if kind == "start_period":
            self.running, self.status = True, "running"
        elif kind in ("added_time", "clock_kept"):
            if not isinstance(data.get("ms"), int) or data["ms"] <= 0:
                raise RefusedError(f"{kind} needs a positive 'ms'")
        elif kind in ("goal", "shot_asked"):
            if data.get("side") not in ("A", "B"):
                raise RefusedError(f"{kind} needs side A or B")
        elif kind in ("void", "amend"):
            target = next((e for e in self.entries if e["id"] == data.get("target")), None)
            if target is None:
                raise RefusedError(f"there is no entry #{data.get('target')} to correct")
            if kind == "void":
                target["voided"] = True
            else:
                target["data"] = dict(data.get("data") or {})
        else:
            raise RefusedError(f"unknown action {kind!r}")
        entry = {"id": len(self.entries) + 1, "kind": kind, "data": data, "author": author,
                 "voided": False, "source": "referee", "amended_by": None, "period": 1,
                 "clock_ms": 1000 * len(self.entries), "created_at": int(time.time() * 1000),
                 "pressed_at": pressed_at,
                 # what the engine lets the referee correct (matchbook/records.py)
                 "correctable": correctable(kind, "void")}
        if kind == "amend":
            target["amended_by"] = entry["id"]
        self.entries.append(entry)
        self.hub.publish(self.table_id, self.state())
        return {"entry": entry["id"]}
