"""Suite-wide test ordering.

Playwright's sync API keeps an event loop running in the main thread for as
long as its browser fixture lives, and `asyncio.run` refuses to start inside
a running loop. Browser tests therefore run last, after every test that
drives asyncio itself.
"""

from __future__ import annotations

import pytest


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    items.sort(key=lambda item: item.get_closest_marker("browser") is not None)
