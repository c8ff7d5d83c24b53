"""`futmesa demo --tournament N`: a whole small competition from the draw to the final."""

from __future__ import annotations

import re
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from futmesa.competition.db import CompetitionDB
from futmesa.sim.live import free_port

pytestmark = pytest.mark.slow
FUTMESA = str(Path(sys.executable).with_name("futmesa"))


def test_tournament_demo_plays_groups_and_final_and_stops_everything() -> None:
    proc = subprocess.run(
        [FUTMESA, "demo", "--tournament", "4", "--exit-when-done", "--http-port",
         str(free_port()), "--desk-port", str(free_port())],
        capture_output=True, text=True, timeout=300)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out
    champion = re.search(r"CAMPEÃO / CHAMPION: (.+)", out)
    assert champion, out
    assert "venue board: http://localhost:" in out
    folder = Path(re.search(r"files: (.+)", out).group(1).strip())  # type: ignore[union-attr]
    db = CompetitionDB(folder / "desk.sqlite")
    comp = db.competition()
    matches = db.matches(comp["id"])
    assert [m["stage"] for m in matches] == ["group", "group", "ko"]
    assert all(m["status"] == "finished" for m in matches)
    final = matches[-1]
    winner = final["team_a"] if final["result"]["winner"] == "A" else final["team_b"]
    assert db.team_map()[winner].name == champion.group(1).strip()
    # the broker went away with the demo
    port = int(re.search(r"mqtt://127.0.0.1:(\d+)", out).group(1))  # type: ignore[union-attr]
    with socket.socket() as s:
        assert s.connect_ex(("127.0.0.1", port)) != 0
