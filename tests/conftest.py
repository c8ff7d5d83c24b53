"""Suite-wide test ordering, and the live web server fixture the web and browser tests share.

Playwright's sync API keeps an event loop running in the main thread for as
long as its browser fixture lives, and `asyncio.run` refuses to start inside
a running loop. Browser tests therefore run last, after every test that
drives asyncio itself.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from futmesa.web.testing import LiveServer, serving


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    items.sort(key=lambda item: item.get_closest_marker("browser") is not None)


@pytest.fixture
def live() -> Iterator[LiveServer]:
    """The web app over a fresh hub on a live server (127.0.0.1, a free port)."""
    with serving() as server:
        yield server
