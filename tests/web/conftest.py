"""Fixtures for the web tests: a live server over a fresh hub."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from futmesa.web.testing import LiveServer, serving


@pytest.fixture
def live() -> Iterator[LiveServer]:
    with serving() as server:
        yield server
