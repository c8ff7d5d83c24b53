"""The hardware tests read the commands' English source text (the catalogs' msgids): each test
here runs in English (the `english` fixture of tests/conftest.py). The Portuguese of the same
lines is checked by tests/i18n (test_cli_sweep.py, test_catalogs.py). ``port``: a pseudo-terminal
for a board's serial port."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest


@pytest.fixture(autouse=True)
def _english(english: None) -> None:
    """Every hardware test in English."""


@pytest.fixture
def port() -> Iterator[str]:
    """A pseudo-terminal's name, as a board's serial port (closed after the test)."""
    master, slave = os.openpty()
    yield os.ttyname(slave)
    os.close(master)
    os.close(slave)
