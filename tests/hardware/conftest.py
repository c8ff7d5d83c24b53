"""The hardware tests read the commands' English source text (the catalogs' msgids): each test
here runs in English (the `english` fixture of tests/conftest.py). The Portuguese of the same
lines is checked by tests/i18n (test_cli_sweep.py, test_catalogs.py)."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _english(english: None) -> None:
    """Every hardware test in English."""
