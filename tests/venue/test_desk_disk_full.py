"""Issue 37, the desk's side: its database on a real small filesystem that fills up, over a
real mosquitto and a real ``futmesa desk`` process.

Before: a result the desk could not store made it try to store a refusal, which failed
too, and that exception restarted its MQTT loop on every resend (32 tracebacks in 40 s);
the board said "sem conexão com o broker" and showed every table "desconectada", and an
organiser's command printed a Python traceback. Now the board and ``/api/venue`` name the
desk's disk, the broker stays connected, the result stays unacknowledged (the table keeps
it and sends it again), the log says it once, the organiser's command answers in one line,
and once space is freed the result is stored once.
"""

from __future__ import annotations

import json
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from futmesa.venue.broker import Mosquitto
from futmesa_testkit.smalldisk import SmallDisk
from futmesa_testkit.venue import FUTMESA, wait_for

from .test_rogue_table import SETTINGS, TEAMS, DeskProcess, FakeTable


@pytest.fixture
def desk_on_small_disk(tmp_path: Path) -> Iterator[tuple[Mosquitto, DeskProcess, SmallDisk, Path]]:
    disk = SmallDisk(tmp_path / "desk-disk")
    db = disk.path / "desk.sqlite"
    broker = Mosquitto(tmp_path / "broker", ["mesa-1", "mesa-2"])
    broker.start()
    (tmp_path / "teams.csv").write_text(TEAMS)
    (tmp_path / "settings.json").write_text(json.dumps(SETTINGS))
    subprocess.run([FUTMESA, "competition", "new", "--db", str(db), "--teams",
                    str(tmp_path / "teams.csv"), "--settings", str(tmp_path / "settings.json")],
                   check=True, capture_output=True, timeout=60)
    desk = DeskProcess(tmp_path, broker, db=db)
    try:
        wait_for(lambda: desk.venue()["connected"], 30, "the desk to connect")
        yield broker, desk, disk, db
    finally:
        desk.stop()
        broker.stop()
        disk.close()


def _faults(desk: DeskProcess) -> list[str]:
    return [f["code"] for f in desk.venue().get("faults", [])]


def test_a_full_desk_disk_is_named_as_the_desks_and_loses_nothing(desk_on_small_disk: Any
                                                                  ) -> None:
    broker, desk, disk, db = desk_on_small_disk
    mesa1, mesa2 = FakeTable(broker, "mesa-1"), FakeTable(broker, "mesa-2")
    try:
        wait_for(lambda: mesa1.assigned.get("competition_match")
                 and mesa2.assigned.get("competition_match"), 20, "a match for each table")
        cm1, cm2 = mesa1.assigned["competition_match"], mesa2.assigned["competition_match"]
        assert _faults(desk) == []

        disk.fill(db)
        result = mesa1.result(1, cm1, 2, 1)
        mesa1.send(result)
        wait_for(lambda: "desk_full" in _faults(desk), 10, "the board to name the desk's disk")
        venue = desk.venue()
        said = venue["faults"][0]["pt"]
        assert said.startswith("disco da mesa de controle cheio"), said
        assert venue["connected"] is True  # not a broker outage
        assert all(t["online"] for t in venue["tables"])  # no table shown "desconectada"
        assert not venue.get("refused"), "the desk's own disk is not the table's fault"
        for _ in range(5):  # the table resends until acknowledged
            mesa1.send(result)
            time.sleep(0.3)
        assert "mesa-1:1" not in mesa1.acked  # not stored, so not acknowledged
        assert desk.venue()["connected"] is True

        # the organiser's command on the full disk: one line, what to do, no traceback
        out = subprocess.run([FUTMESA, "competition", "walkover", str(cm2), "B", "--confirm",
                              "--db",
                              str(db)], capture_output=True, text=True, timeout=60)
        assert out.returncode != 0
        lines = out.stderr.strip().splitlines()
        assert len(lines) == 1 and "Traceback" not in out.stderr, out.stderr
        assert lines[0].startswith("Erro:") and "cheio" in lines[0] and "Libere espaço" in \
            lines[0], lines[0]

        disk.free()
        t0 = time.monotonic()
        wait_for(lambda: (mesa1.send(result), mesa1.acked.get("mesa-1:1"))[1], 20,
                 "the result once space is freed")
        stored_after = time.monotonic() - t0
        wait_for(lambda: _faults(desk) == [], 10, "the desk's fault to clear")
        match = desk.match(cm1)
        assert (match["status"], match["score"]) == ("finished", "2 × 1")
        assert desk.competition()["played"] == 1  # stored once, though sent many times
        out = subprocess.run([FUTMESA, "competition", "walkover", str(cm2), "B", "--confirm",
                              "--db",
                              str(db)], capture_output=True, text=True, timeout=60)
        assert out.returncode == 0, out.stderr
        print(f"\nresult stored {stored_after:.2f} s after the space was freed")
    finally:
        mesa1.stop()
        mesa2.stop()
    log = desk.log.read_text()
    assert "Traceback" not in log, log
    assert "laço MQTT" not in log and "sem conexão" not in log, log
    said = [line for line in log.splitlines() if "disco da mesa de controle cheio" in line]
    assert len(said) == 2 and "ERROR" in said[0] and "resolvido" in said[1], log  # once each
