"""Faults the operator must see (issue 13, item 4): the event log cannot be written.

The daemon is the sink of the real link protocol (driven frame by frame with a
recording transport) over a real SQLite file. "Disk full" is SQLite's own
SQLITE_FULL (the file may not grow: `PRAGMA max_page_count`), "read-only" its
SQLITE_READONLY (`PRAGMA query_only`): the same errors a full disk or a
read-only mount give. Before this, the kiosk still said "connected" while the
score silently stopped, and the log got a traceback per frame.
"""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

import futmesa_wire as W
from futmesa.hub import RefusedError, StateHub
from futmesa.link.protocol import LinkProtocol
from futmesa.store import EventLog
from futmesa.table import TableDaemon

from .test_host_link import FakeClock, Recorder, event, hello_ack


class Table:
    """A daemon on a real EventLog, fed by the real link protocol."""

    def __init__(self, tmp_path: Path) -> None:
        self.store = EventLog(tmp_path / "m.sqlite")
        self.hub = StateHub()
        self.daemon = TableDaemon(self.store, self.hub, str(tmp_path / "no-port"), "cbfm-1toque")
        self.transport = Recorder()
        self.link = LinkProtocol(self.daemon, self.transport, clock=FakeClock())
        self.link.opened("test")

    def feed(self, *blocks: bytes) -> None:
        for block in blocks:
            self.link.handle_block(block)

    def connect(self, boot: int = 5, newest: int = 0) -> None:
        self.feed(hello_ack(boot, 0, newest), hello_ack(boot, 1, newest))
        assert self.link.connected

    def health(self) -> dict:
        return self.hub.snapshot()["health"]

    def acks(self) -> list[int]:
        return [f.payload[2] for f in self.transport.sent if f.msg_type == W.MSG_ACK]

    def full(self) -> None:
        pages = self.store._db.execute("PRAGMA page_count").fetchone()[0]
        self.store._db.execute(f"PRAGMA max_page_count={pages}")

    def space_freed(self) -> None:
        self.store._db.execute("PRAGMA max_page_count=1073741823")


@pytest.fixture
def table(tmp_path: Path):
    t = Table(tmp_path)
    yield t
    t.store.close()


def _errors(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.levelno >= logging.ERROR]


def test_disk_full_is_shown_logged_once_and_clears_with_nothing_lost(table, caplog):
    table.connect()
    table.feed(event(5, 1))
    assert table.health() == {"ok": True, "faults": []}
    table.full()
    caplog.clear()
    for seq in range(2, 200):  # events until the file cannot grow, then the device's resends
        table.feed(event(5, min(seq, table.acks()[-1] + 1)))
    stuck = table.acks()[-1]
    assert stuck < 100, "the log never filled up"
    health = table.health()
    assert not health["ok"] and [f["code"] for f in health["faults"]] == ["log_full"]
    assert health["faults"][0]["pt"] == ("log de eventos sem gravação (disco cheio) — placar "
                                         "pausado, nada se perde")
    assert table.hub.snapshot()["link"]["connected"] is True  # the table is there, paused
    errors = _errors(caplog)
    assert len(errors) == 1 and "libere espaço" in errors[0].getMessage()
    assert not any(r.exc_info for r in caplog.records), "no traceback per frame"
    table.space_freed()
    table.feed(event(5, stuck + 1), event(5, stuck + 2))  # the device's resend
    assert table.health() == {"ok": True, "faults": []}
    assert [e.seq for e in table.store.device_events()] == list(range(1, stuck + 3))
    assert any("resolvido" in r.getMessage() for r in caplog.records)


def test_a_read_only_log_still_connects_and_says_so(table, caplog):
    table.store._db.execute("PRAGMA query_only=1")
    table.connect()  # before: the handshake failed and the table never connected
    health = table.health()
    assert [f["code"] for f in health["faults"]] == ["log_read_only"]
    assert "somente leitura" in health["faults"][0]["pt"]
    table.feed(event(5, 1))
    assert table.store.device_events() == [] and table.acks() == []
    assert len(_errors(caplog)) == 1 and "sem gravação" in _errors(caplog)[0].getMessage()
    with pytest.raises(RefusedError) as refused:
        table.daemon.referee("set_up", {"kickoff": "A"}, "ref")
    assert "sem gravação" in str(refused.value)
    table.store._db.execute("PRAGMA query_only=0")  # remounted read-write
    table.feed(event(5, 1))
    assert table.health()["ok"] and [e.seq for e in table.store.device_events()] == [1]
    assert table.daemon.match is not None  # the match opened once it could be written
    assert table.daemon.referee("set_up", {"kickoff": "A"}, "ref")["ok"]
