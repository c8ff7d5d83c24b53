"""serve's log names a table by its name (walk45h-b, low: "nova partida 1 na Mesa 2" though
table_name was "Mesa Azul"): a new match and a resumed one, on a real SQLite log."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from futmesa.store import EventLog
from futmesa.table.opening import open_match


def test_the_log_says_the_tables_name(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    store = EventLog(tmp_path / "m.sqlite")
    settings = {"table_name": "Mesa Azul", "teams": {"A": {"name": "X"}, "B": {"name": "Y"}}}
    with caplog.at_level(logging.INFO, logger="futmesa.table"):
        open_match(store, "mesa-2", "cbfm-1toque", settings)
        open_match(store, "mesa-2", "cbfm-1toque", settings)  # its open match, resumed
    said = [r.getMessage() for r in caplog.records if r.name == "futmesa.table"]
    assert len(said) == 2 and all("Mesa Azul" in s and "Mesa 2" not in s for s in said), said
