"""`futmesa serve` restarted on a log whose current match cannot be loaded (issue 13, item 1).

The bad match row is written straight into the SQLite file; the real firmware runs on a pty.
The table must connect, a fresh match must start, device events must be stored in it, and
``/history`` must list the bad match as "não carregável" instead of answering 500.
"""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import httpx

from futmesa.sim.table import SimTable
from futmesa_testkit.liveserver import free_port

FUTMESA = str(Path(sys.executable).with_name("futmesa"))
TABLE = "sim-SIM00001"


def _serve(sim: SimTable, db: Path, port: int) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [FUTMESA, "serve", "--device", sim.host_port, "--db", str(db),
         "--http-port", str(port), "--http-host", "127.0.0.1"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def _until(port: int, ok: object, timeout: float = 60) -> dict:
    deadline = time.monotonic() + timeout
    state: dict = {}
    while time.monotonic() < deadline:
        try:
            state = httpx.get(f"http://127.0.0.1:{port}/api/state", timeout=2).json()
            if ok(state):  # type: ignore[operator]
                return state
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    raise AssertionError(f"condition not reached; last state {state}")


def _goal_lines(db: Path, match_id: int) -> int:
    con = sqlite3.connect(db)
    try:
        return int(con.execute("SELECT COUNT(*) FROM entries WHERE match_id=? AND"
                               " kind='goal_line'", (match_id,)).fetchone()[0])
    finally:
        con.close()


def test_restart_on_an_unloadable_current_match(tmp_path: Path) -> None:
    db = tmp_path / "m.sqlite"
    with SimTable(speed=10) as sim:
        port = free_port()
        proc = _serve(sim, db, port)
        try:
            first = _until(port, lambda s: s.get("link", {}).get("connected"))
        finally:
            proc.terminate()
            proc.communicate(timeout=30)
        # the table's current match, as a damaged file or another futmesa version left it
        con = sqlite3.connect(db)
        with con:
            con.execute("UPDATE matches SET ended_at=? WHERE id=?", (time.time(),
                                                                     first["match_id"]))
            bad = int(con.execute(
                "INSERT INTO matches(table_id, ruleset, settings, referee, created_at)"
                " VALUES (?,?,?,?,?)", (TABLE, "cbfm-1toque", '{"period_ms": 90000.5',
                                        "", time.time())).lastrowid or 0)
        con.close()

        port = free_port()
        proc = _serve(sim, db, port)
        try:
            state = _until(port, lambda s: s.get("link", {}).get("connected")
                           and (s.get("match_id") or 0) > bad)
            sim.goal(1)  # a device event reaches the new match
            deadline = time.monotonic() + 60
            while _goal_lines(db, state["match_id"]) < 1:
                assert time.monotonic() < deadline, sim.output_tail()
                time.sleep(0.1)
            page = httpx.get(f"http://127.0.0.1:{port}/history", timeout=30)
            assert page.status_code == 200 and "não carregável" in page.text
        finally:
            proc.terminate()
            out, _ = proc.communicate(timeout=30)
    assert f"a partida {bad} da mesa {TABLE} não pode ser carregada" in out, out
    assert "não carregável" in out and "Traceback" not in out, out
