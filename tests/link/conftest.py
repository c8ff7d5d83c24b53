"""Fixtures for the link tests: a real EventLog, a simulated table, a HostLink on its pty, and a
link protocol fed frames by hand (``rig``)."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from futmesa.link import HostLink
from futmesa.store import EventLog

from .harness import RecordingSink, make_sim

logging.getLogger("futmesa.link").setLevel(logging.INFO)


@pytest.fixture
def store(tmp_path: Path) -> Iterator[EventLog]:
    log = EventLog(tmp_path / "events.sqlite")
    yield log
    log.close()


@pytest.fixture
def sink(store: EventLog) -> RecordingSink:
    return RecordingSink(store)


def new_link(port: str, sink: RecordingSink, **kw: object) -> HostLink:
    link = HostLink(port, sink, **kw)  # type: ignore[arg-type]
    link.start()
    return link


@pytest.fixture
def sim_factory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator:
    monkeypatch.setenv("FUTMESA_TRACE_EVENTS", "1")  # the firmware prints its ground truth
    sims = []

    def make(**kw: object):
        sub = tmp_path / f"t{len(sims)}"
        sub.mkdir()
        sim = make_sim(sub, **kw)
        sims.append(sim)
        return sim

    yield make
    for sim in sims:
        sim.stop()


@pytest.fixture
def links() -> Iterator[list[HostLink]]:
    made: list[HostLink] = []
    yield made
    for link in made:
        link.stop()


@pytest.fixture
def rig(tmp_path: Path) -> Iterator[Any]:
    """The link protocol over a real EventLog, fed frames by hand (test_host_link.Rig)."""
    from .test_host_link import Rig

    r = Rig(tmp_path)
    yield r
    r.store.close()
