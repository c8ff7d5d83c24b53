"""A console that opens a long match (a phone joining late, a reload) gets the log's newest 200
entries and a "Registros anteriores (N)" button at its end; a tap brings the next page. A real
daemon over a real SQLite log, the real web app, the phone console at 390×844."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from phone_console import PHONE, open_phone, watched

import futmesa_wire as W

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "record"))
from signed_table import SignedTable  # noqa: E402

from futmesa_testkit.liveserver import TOKEN  # noqa: E402

pytestmark = pytest.mark.browser

WAIT_MS = 60_000
PALHETA = 220  # the table's palheta moved 220 times, beside the set-up


@pytest.fixture
def table(tmp_path: Path) -> Iterator[SignedTable]:
    t = SignedTable(tmp_path)
    t.start()
    try:
        d = t.daemon
        d.referee("set_up", {"kickoff": "A", "teams": {"A": {"name": "Alvorada"},
                                                       "B": {"name": "Botafogo"}}}, "ref")
        for i in range(PALHETA):
            t.device(W.EV_PALHETA, 2 * (i % 2), period=0)  # the palheta, back and forth
        yield t
    finally:
        t.stop()


def test_a_long_log_opens_on_its_newest_entries_and_pages_back(
        table: SignedTable, browser: Any, output_dir: Path) -> None:
    total = len(table.store.entries(table.match_id))
    assert total > 200
    ctx, page = open_phone(browser, table.live.url + f"/console?table=sim-T1&token={TOKEN}")
    errors = page.js_errors
    try:
        page.click("[data-sheet=sheet-log]")
        page.wait_for_selector("#log-older", timeout=WAIT_MS)
        assert page.locator("#log li[data-id]").count() == 200
        assert page.text_content("#log-older") == f"Registros anteriores ({total - 200})"
        page.locator("#log-older").scroll_into_view_if_needed()
        page.screenshot(path=str(output_dir / "console-log-older-phone.png"))
        page.click("#log-older")
        page.wait_for_function(f"document.querySelectorAll('#log li[data-id]').length === "
                               f"{total}", timeout=WAIT_MS)
        assert page.locator("#log-older").count() == 0
        # the oldest at the bottom, the newest on top, as the log reads
        ids = [int(i) for i in page.eval_on_selector_all(
            "#log li[data-id]", "els => els.map(e => e.dataset.id)")]
        assert ids == sorted(ids, reverse=True)
        # a new entry arrives as one more at the top, the older pages kept
        table.device(W.EV_PALHETA, 0, period=0)
        page.wait_for_function(f"document.querySelectorAll('#log li[data-id]').length === "
                               f"{total + 1}", timeout=WAIT_MS)
        assert errors == []
    finally:
        ctx.close()


def test_the_log_is_asked_for_its_match_one_request_at_a_time(
        table: SignedTable, browser: Any) -> None:
    """CI of stop 51: a phone opening a long match asked for the log before it knew the match,
    then again, wholly, once the match's state came; the second whole log could land after
    "Registros anteriores" had brought the older page, and dropped it (the button pulled from
    under the tap, the older entries never shown). Every request names its match, and the
    next goes when the one before has been answered, so answers land in the order asked."""
    asked: list[str] = []
    flying = {"now": 0, "most": 0}

    def through(route: Any) -> None:
        asked.append(route.request.url)
        flying["now"] += 1
        flying["most"] = max(flying["most"], flying["now"])
        route.continue_()

    def done(request: Any) -> None:
        if "/api/log" in request.url:
            flying["now"] -= 1

    ctx = browser.new_context(**PHONE)
    ctx.route("**/api/log*", through)
    ctx.on("requestfinished", done)
    ctx.on("requestfailed", done)
    page = watched(ctx.new_page())
    try:
        page.goto(table.live.url + f"/console?table=sim-T1&token={TOKEN}")
        page.click("[data-sheet=sheet-log]")
        page.wait_for_selector("#log-older", timeout=WAIT_MS)
        page.click("#log-older")
        table.device(W.EV_PALHETA, 0, period=0)  # a new entry while the older page comes
        total = len(table.store.entries(table.match_id))
        page.wait_for_function(f"document.querySelectorAll('#log li[data-id]').length === "
                               f"{total}", timeout=WAIT_MS)
        assert asked and all(f"match={table.match_id}" in url for url in asked), asked
        assert flying["most"] == 1, f"{flying['most']} requests for the log at once: {asked}"
        assert page.js_errors == []
    finally:
        ctx.close()
