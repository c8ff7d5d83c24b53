"""The hardware tests read the commands' English source text (the catalogs' msgids): each test
here runs in English, in this process and in the `futmesa` it starts. The Portuguese of the
same lines is checked by tests/i18n (test_cli_sweep.py, test_catalogs.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from futmesa import i18n


@pytest.fixture(autouse=True)
def _english(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("FUTMESA_LANG", "en")
    i18n.set_language("en")
    yield
