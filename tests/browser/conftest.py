"""Browser fixtures: real headless Chromium (Debian's, via Playwright) against a live server."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from futmesa.hub import StateHub
from futmesa_testkit.liveserver import CHROMIUM, LiveServer, ScriptedTable, launch_chromium, serving

OUTPUT = Path(__file__).resolve().parents[2] / "test-output"


# a page's wait without its own timeout: Playwright's 30 s is too short for a 2-core CI box
# running the suite beside a browser (a wait returns as soon as its condition holds)
PATIENT_MS = 90_000


class _PatientBrowser:
    """The session's Chromium: every page and context it opens waits PATIENT_MS by default."""

    def __init__(self, browser: Any) -> None:
        self._browser = browser

    def __getattr__(self, name: str) -> Any:
        return getattr(self._browser, name)

    def new_context(self, *args: Any, **kwargs: Any) -> Any:
        context = self._browser.new_context(*args, **kwargs)
        context.set_default_timeout(PATIENT_MS)
        return context

    def new_page(self, *args: Any, **kwargs: Any) -> Any:
        page = self._browser.new_page(*args, **kwargs)
        page.set_default_timeout(PATIENT_MS)
        return page


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not os.path.exists(CHROMIUM):
        pytest.fail(f"{CHROMIUM} is missing: run `make system-deps` "
                    "(scripts/install-system-deps.sh installs Debian's chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = launch_chromium(p)
        try:
            yield _PatientBrowser(b)
        finally:
            b.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.js_errors = errors
    try:
        yield pg
    finally:
        context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


@pytest.fixture
def output_dir() -> Path:
    OUTPUT.mkdir(exist_ok=True)
    return OUTPUT


@pytest.fixture
def table_server() -> Iterator[tuple[LiveServer, ScriptedTable]]:
    """A live server whose hub is fed by a scripted stand-in for the daemon (with a log)."""
    hub = StateHub()
    table = ScriptedTable(hub)
    with serving(hub, history=table) as server:
        yield server, table
