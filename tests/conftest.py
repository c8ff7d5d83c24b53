"""Suite-wide test ordering, and the live web server fixture the web and browser tests share.

Playwright's sync API keeps an event loop running in the main thread for as
long as its browser fixture lives, and `asyncio.run` refuses to start inside
a running loop. Browser tests therefore run last, after every test that
drives asyncio itself.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator

import pytest

# the suite reads Portuguese whatever the machine's locale (LANG=en_US… would make it English);
# subprocesses inherit it. A test wanting English says so (--lang en, FUTMESA_LANG=en).
os.environ["FUTMESA_LANG"] = "pt_BR"

from futmesa_testkit.liveserver import LiveServer, serving  # noqa: E402


def _drives_the_session_browser(item: pytest.Item) -> bool:
    """A test that takes the session's Chromium (the `browser` fixture, directly or through
    `page`) is a browser test whether or not its file says so: it is marked here."""
    return "browser" in getattr(item, "fixturenames", ())


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if _drives_the_session_browser(item) and item.get_closest_marker("browser") is None:
            item.add_marker(pytest.mark.browser)
    items.sort(key=lambda item: item.get_closest_marker("browser") is not None)


@pytest.fixture(autouse=True)
def _portuguese_again() -> Iterator[None]:
    """A CLI test run with `--lang en` in this process leaves the next one in pt_BR."""
    yield
    from futmesa import i18n

    if i18n.language() != "pt_BR":
        cli = sys.modules.get("futmesa.cli")
        if cli is not None:
            cli.localize(cli.cli, "pt_BR")
        else:
            i18n.set_language("pt_BR")


@pytest.fixture
def live() -> Iterator[LiveServer]:
    """The web app over a fresh hub on a live server (127.0.0.1, a free port)."""
    with serving() as server:
        yield server


@pytest.fixture
def english() -> Iterator[None]:
    """Run a test in English, in this process and in the `futmesa` it starts: for the tests
    that read the hardware commands' English source text (tests/hardware, tests/pico); the
    Portuguese of the same lines is checked by tests/i18n."""
    from futmesa import i18n

    mp = pytest.MonkeyPatch()
    mp.setenv("FUTMESA_LANG", "en")
    i18n.set_language("en")
    try:
        yield
    finally:
        mp.undo()  # and _portuguese_again puts the process back in pt_BR
