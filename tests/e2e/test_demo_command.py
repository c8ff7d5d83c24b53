"""The README's main job: `futmesa demo` plays both halves into the scoreboard and stops cleanly."""

from __future__ import annotations

import os
import re
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from futmesa.web.testing import free_port

FUTMESA = str(Path(sys.executable).with_name("futmesa"))


def _children(pid: int) -> list[int]:
    out = subprocess.run(["ps", "-o", "pid=", "--ppid", str(pid)], capture_output=True,
                         text=True).stdout
    return [int(p) for p in out.split()]


def test_demo_plays_both_halves_and_exits(tmp_path: Path) -> None:
    db = tmp_path / "m.sqlite"
    proc = subprocess.run(
        # speed 200: a half lasts 7.5 s, long enough for the scripted referee to keep up
        # with the clock on a busy machine (at 600 a late goal fell after the final whistle)
        [FUTMESA, "demo", "--speed", "200", "--exit-when-done", "--db", str(db),
         "--http-port", str(free_port())],
        capture_output=True, text=True, timeout=600,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    out = proc.stdout
    # the address a phone on the network opens (issue 14), not localhost
    assert re.search(r"console do árbitro +: http://[^/\s]+:\d+/console\?token=", out), out
    # each period's end names the sides (issue 23), and the whole output is Portuguese
    assert re.search(r"fim do 1º tempo: Estrela do Norte \d+ x \d+ \S", out), out
    assert re.search(r"fim do 2º tempo: Estrela do Norte \d+ x \d+ \S", out), out
    assert not re.search(r"-> |\bperiod\b|\breferee\b|\bno_foul\b", out), out
    final = re.search(r"PLACAR FINAL: .* (\d+) x (\d+) ", out)
    assert final, out
    with sqlite3.connect(db) as conn:
        kinds = dict(conn.execute(
            "SELECT kind, COUNT(*) FROM device_events GROUP BY kind").fetchall())
        seqs = [r[0] for r in conn.execute("SELECT seq FROM device_events ORDER BY id")]
        ended = conn.execute("SELECT ended_at FROM matches").fetchone()[0]
    assert kinds["period_over"] == 2 and kinds["match_over"] == 1
    assert kinds["goal_line"] >= 4 and kinds["ball_out"] >= 2
    assert seqs == list(range(1, len(seqs) + 1)), "events lost or duplicated"
    assert ended is not None
    # the printed final score is the score the log replays to
    assert int(final.group(1)) + int(final.group(2)) == kinds["goal_line"]

    # the stored match, from the command line: list, súmula, re-run under another ruleset
    def cli(*args: str) -> str:
        run = subprocess.run([FUTMESA, *args, "--db", str(db)], capture_output=True, text=True,
                             timeout=120)
        assert run.returncode == 0, run.stdout + run.stderr
        return run.stdout

    listed = cli("matches")
    assert f"{final.group(1)} x {final.group(2)}" in listed and "unfinished" not in listed
    pdf = tmp_path / "sumula.pdf"
    cli("report", "1", "--pdf", str(pdf), "--csv", str(tmp_path / "s.csv"))
    assert pdf.read_bytes().startswith(b"%PDF") and (tmp_path / "s.csv").stat().st_size > 0
    assert "refeita com A mesa está posta" in cli("rerun", "1", "--ruleset", "mesa-posta")


def test_ctrl_c_stops_every_process_it_started(tmp_path: Path) -> None:
    proc = subprocess.Popen(
        [FUTMESA, "demo", "--speed", "60", "--db", str(tmp_path / "m.sqlite"),
         "--http-port", str(free_port())],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    try:
        assert proc.stdout is not None
        deadline = time.monotonic() + 60
        for line in proc.stdout:
            if "1º tempo começou" in line or time.monotonic() > deadline:
                break
        children = _children(proc.pid)
        assert len(children) >= 2, "expected socat and micropython to be running"
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
    for pid in children:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            continue
        status = Path(f"/proc/{pid}/status")
        assert not status.exists() or "zombie" in status.read_text(), f"child {pid} survived"
