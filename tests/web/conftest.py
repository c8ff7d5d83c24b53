"""Fixtures for the web tests: a live server over a fresh hub."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from futmesa.hub import StateHub
from futmesa.web.app import create_app
from futmesa.web.testing import TOKEN, LiveServer


@pytest.fixture

def live() -> Iterator[LiveServer]:
    hub = StateHub()
    server = LiveServer(hub, create_app(hub, console_token=TOKEN))
    server.start()
    try:
        yield server
    finally:
        server.stop()
