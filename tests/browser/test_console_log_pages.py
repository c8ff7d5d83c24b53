"""A console that opens a long match (a phone joining late, a reload) gets the log's newest 200
entries and a "Registros anteriores (N)" button at its end; a tap brings the next page. A real
daemon over a real SQLite log, the real web app, the phone console at 390×844."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from phone_console import open_phone

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
