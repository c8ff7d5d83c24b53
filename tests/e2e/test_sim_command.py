"""`futmesa sim`: a simulated table on a pty that `futmesa serve` (or doctor) can use."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from futmesa.deploy.probe import probe
from futmesa_testkit.clubtable import ClubTable

FUTMESA = str(Path(sys.executable).with_name("futmesa"))


def test_sim_prints_a_port_a_daemon_can_use_and_takes_inputs() -> None:
    proc = subprocess.Popen([FUTMESA, "sim", "--speed", "10"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        assert proc.stdout is not None and proc.stdin is not None
        first = proc.stdout.readline()  # blocks until the table is up (or the command fails)
        assert first.startswith("mesa simulada Mesa "), first  # the suite reads Portuguese
        port = first.split(" em ", 1)[1].strip()
        hint = proc.stdout.readline().strip()
        assert hint == f"conecte o daemon: futmesa serve --device {port}"
        result = probe(port, timeout_s=30)  # the futmesa handshake, as serve does it
        assert result.info.board == "sim"
        proc.stdin.write("palheta B\n")
        proc.stdin.flush()
    finally:
        proc.terminate()
        out, _ = proc.communicate(timeout=30)
    assert proc.returncode == 0, out
    assert not os.path.exists(port)  # the pty went away with the table


def test_two_sims_are_two_tables() -> None:
    """Issue 45 (blind walk, medium 5): every `futmesa sim` was SIM00001, so two on one host
    merged into one "Mesa 1"; each takes the first free number, and one asked for that another
    sim holds is refused with what to do."""
    procs = []
    try:
        firsts = []
        for _ in range(2):
            proc = subprocess.Popen([FUTMESA, "sim", "--speed", "10"], stdin=subprocess.PIPE,
                                    stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            procs.append(proc)
            assert proc.stdout is not None
            firsts.append(proc.stdout.readline())
        ids = [line.split("(id ", 1)[1].split(")", 1)[0] for line in firsts]
        assert len(set(ids)) == 2 and all(i.startswith("SIM") for i in ids), firsts
        ports = {line.split(" em ", 1)[1].strip() for line in firsts}
        assert len(ports) == 2, firsts
        number = int(ids[0][3:])
        clash = subprocess.run([FUTMESA, "sim", "--table", str(number)], capture_output=True,
                               text=True, timeout=60, stdin=subprocess.DEVNULL)
        assert clash.returncode != 0
        assert f"a mesa {number} já é simulada por outro futmesa sim" in clash.stderr, clash.stderr
    finally:
        for proc in procs:
            proc.terminate()
            proc.communicate(timeout=30)


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL], ids=["stopped", "killed"])
def test_a_sim_started_again_keeps_its_path_and_serve_reconnects(tmp_path: Path,
                                                                  sig: int) -> None:
    """Issue 45 (blind walk, M4): a power cut at the simulated table, `futmesa sim` stopped
    (or killed) and started again with the same --table, gave a new pty path, and the
    `futmesa serve --device` left running waited on the old one for ever. A real table keeps
    /dev/ttyACM0: the sim prints the same path again (a killed sim's stale link replaced), and
    serve connects to the table again by itself, its match still open."""
    with ClubTable(tmp_path, "gaucha", {"half_minutes": 5}) as club:
        match_id = club.state()["match_id"]
        club.power_cut(sig)
        assert club.power_back() == club.device, club.output()
        club.wait(lambda: club.state().get("link", {}).get("connected"), 90,
                  "the daemon connected to the table again")
        assert club.state()["match_id"] == match_id
