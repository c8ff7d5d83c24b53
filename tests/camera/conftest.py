"""The camera tests' event log with one match in it."""

from __future__ import annotations

from pathlib import Path

import pytest

from futmesa.store import EventLog


@pytest.fixture
def log_with_match(tmp_path: Path) -> tuple[EventLog, int, Path]:
    db = tmp_path / "futmesa.sqlite"
    store = EventLog(db)
    match_id = store.new_match("T1", "cbfm-1toque", {})
    return store, match_id, db
