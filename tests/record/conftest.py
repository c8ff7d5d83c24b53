"""The record tests' table: a real daemon over a real SQLite file, a match played to its end."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from signed_table import SignedTable


@pytest.fixture
def table(tmp_path: Path) -> Iterator[SignedTable]:
    t = SignedTable(tmp_path)
    t.start()
    try:
        t.play()
        yield t
    finally:
        t.stop()
