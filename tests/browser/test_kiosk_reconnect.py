"""Kiosk reconnection in real headless Chromium, the socket held by the test.

The page's WebSocket is routed to the test (Playwright's route_web_socket), so the test
decides when a connection opens, stays silent, drops or sends its first state; the
page's timers run on a clock the test moves. What a TV must do when its Wi-Fi drops:
come back, wait for the host's first message, and not show old news again.
"""

from __future__ import annotations

import json
import re
import time
from typing import Any

import pytest

from futmesa_testkit.liveserver import LiveServer, make_state

pytestmark = pytest.mark.browser

UP = "window.futmesaKiosk.conn.up"
# the page's sockets, counted by the test (an init script, before the page's own code):
# connections opened, and times the page itself asked one to close
COMEBACKS = "window.socketsOpened"
CLOSED = "window.closesAsked"
COUNT_SOCKETS = """
window.socketsOpened = 0;
window.closesAsked = 0;
const Real = WebSocket;
window.WebSocket = class extends Real {
  constructor(...args) {
    super(...args);
    this.addEventListener("open", () => { window.socketsOpened += 1; });
  }
  close(...args) {
    window.closesAsked += 1;
    return super.close(...args);
  }
};
"""
CAUGHT_UP = "!window.futmesaAnnouncements.catchUp"  # the new connection's first state taken
SHOWN = "!document.getElementById('announce').classList.contains('hidden')"


def run_until(page: Any, condition: str, what: str, step_ms: int = 250) -> None:
    """Move the page's clock in small steps until the condition holds (real time bounded)."""
    deadline = time.monotonic() + 60
    while not page.evaluate(condition):
        assert time.monotonic() < deadline, what
        page.clock.run_for(step_ms)


def send_state(page: Any, ws: Any, state: dict[str, Any]) -> None:
    now = page.evaluate("Date.now()")
    ws.send(json.dumps({"type": "state", "state": state, "now": now}))


def test_a_new_connection_waits_for_its_first_message_and_old_news_stays_old(
        live: LiveServer, page: Any) -> None:
    sockets: list[Any] = []

    def opened(ws: Any) -> None:
        sockets.append(ws)

    page.route_web_socket(re.compile(r"/ws"), opened)  # no host: the test answers
    st = make_state()
    st["match"]["announcements"] = [{"id": 1, "code": "x", "pt": "gol anulado", "en": "x"}]
    page.add_init_script(COUNT_SOCKETS)
    page.clock.install()
    page.goto(live.url + "/")
    page.wait_for_function(f"{UP} && {COMEBACKS} === 1")
    page.clock.pause_at(page.evaluate("Date.now()") / 1000 + 0.1)
    shown_at = page.evaluate("Date.now()")
    send_state(page, sockets[0], st)
    page.wait_for_function("document.getElementById('announce').textContent === 'gol anulado'")

    # the host goes silent: past 16 s the kiosk closes the connection and opens a new one
    run_until(page, f"{COMEBACKS} === 2 && {UP}", "the kiosk never opened a second connection")
    assert len(sockets) == 2 and page.evaluate(CLOSED) == 1
    # the new connection gets its own 16 s for a first message: it is not closed at once
    # for the silence of the one before
    page.clock.run_for(6_000)
    assert page.evaluate(CLOSED) == 1, "the new connection was closed before its 16 s"
    assert page.evaluate(UP) and page.evaluate(COMEBACKS) == 2 and len(sockets) == 2

    # it drops before any state came; the next one brings the same match, nothing new
    sockets[1].close()
    run_until(page, f"{COMEBACKS} === 3 && {UP}", "the kiosk never opened a third connection")
    send_state(page, sockets[2], st)
    page.wait_for_function(CAUGHT_UP)
    # the announcement is the one first shown (30 s from then), not shown again from now
    assert page.evaluate("Date.now()") - shown_at < 30_000
    page.clock.run_for(int(shown_at + 30_500 - page.evaluate("Date.now()")))
    assert not page.evaluate(SHOWN)
