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


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not os.path.exists(CHROMIUM):
        pytest.fail(f"{CHROMIUM} is missing: run `make system-deps` "
                    "(scripts/install-system-deps.sh installs Debian's chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = launch_chromium(p)
        try:
            yield b
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
