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

from futmesa_testkit.liveserver import free_port

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
    assert re.search(r"fim do 1º tempo: Estrela do Norte \d+ × \d+ \S", out), out
    assert re.search(r"fim do 2º tempo: Estrela do Norte \d+ × \d+ \S", out), out
    assert not re.search(r"-> |\bperiod\b|\breferee\b|\bno_foul\b", out), out
    final = re.search(r"PLACAR FINAL: .* (\d+) × (\d+) ", out)
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
    assert f"{final.group(1)} × {final.group(2)}" in listed and "unfinished" not in listed
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


def test_pico_demo_without_the_boot_rom_says_so_in_one_line(tmp_path: Path) -> None:
    """No ../shared/vendor (FUTMESA_VENDOR an empty folder): one line saying which file is
    missing, where it comes from and what to do; no Node.js stack trace (issue 23)."""
    empty = tmp_path / "vendor"
    empty.mkdir()
    proc = subprocess.run(
        [FUTMESA, "demo", "--board", "pico", "--exit-when-done", "--http-host", "127.0.0.1",
         "--http-port", str(free_port())],
        capture_output=True, text=True, timeout=120,
        env={**os.environ, "FUTMESA_VENDOR": str(empty)})
    assert proc.returncode == 1
    errors = [line for line in proc.stderr.splitlines() if line.strip()]
    assert len(errors) == 1, proc.stderr
    line = errors[0]
    assert line.startswith("Erro: falta a ROM de boot do RP2040: ")
    assert str(empty / "rp2040-bootrom-b1.bin") in line
    assert "90b31e108faedfa6bbcfcc33ba05dac61e645108cfbbdc385f8dafc71fde44ae" in line
    assert "FUTMESA_VENDOR" in line
    assert "node:" not in proc.stdout + proc.stderr and "    at " not in proc.stderr


def test_demo_shows_its_progress_with_the_table_clock_and_the_time_left(tmp_path: Path) -> None:
    """Issue 23: `demo --board pico` ran 10 minutes with no word. Every demo prints, at
    least every 10 s, the period, the table's clock against real time and an estimate of
    the time left; here the sim board at speed 100 (25-minute halves in 15 s), through the
    real CLI."""
    proc = subprocess.run(
        [FUTMESA, "demo", "--speed", "100", "--exit-when-done", "--db", str(tmp_path / "m.sqlite"),
         "--http-host", "127.0.0.1", "--http-port", str(free_port())],
        capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    progress = [line for line in proc.stdout.splitlines() if "faltam cerca de" in line]
    assert progress, proc.stdout
    shape = re.compile(r"(\d)º tempo, relógio da mesa (\d+):(\d\d) de 25:00 · tempo real "
                       r"(\d+):(\d\d) \(o relógio da mesa anda a (\d+,\d\d)× o real\) · "
                       r"faltam cerca de (\d+):(\d\d)")
    for line in progress:
        found = shape.search(line)
        assert found, line
        rate = float(found.group(6).replace(",", "."))
        assert rate > 1   # the sim board's clock runs 100× faster than real time
        assert found.group(1) in ("1", "2")
