"""A first run that explains itself (issue 23, item 3), through the real `futmesa` command:
a table's port that is not there yet, where the event log goes, `watch`'s first lines."""

from __future__ import annotations

import os
import pty
import select
import subprocess
import sys
from pathlib import Path

import httpx

from futmesa.sim.table import SimTable
from futmesa_testkit.liveserver import free_port
from futmesa_testkit.waiting import wait_for

FUTMESA = str(Path(sys.executable).with_name("futmesa"))


def _state(port: int) -> dict | None:
    try:
        return httpx.get(f"http://127.0.0.1:{port}/api/state", timeout=1).json()
    except httpx.HTTPError:
        return None


def _serve(port_path: Path, db: Path, http_port: int, cwd: Path, out: Path) -> subprocess.Popen:
    return subprocess.Popen(
        [FUTMESA, "serve", "--device", str(port_path), "--db", str(db),
         "--http-port", str(http_port), "--http-host", "127.0.0.1"],
        cwd=cwd, stdout=out.open("w"), stderr=subprocess.STDOUT, text=True)


def test_serve_says_a_missing_port_in_one_line_waits_for_it_and_writes_only_db(
        tmp_path: Path) -> None:
    here = tmp_path / "here"          # the folder the organiser types the command in
    logs = tmp_path / "logs"
    here.mkdir()
    logs.mkdir()
    device = tmp_path / "ttyUSB9"     # no such port: the table is not plugged in yet
    db = logs / "copa.sqlite"
    out = tmp_path / "serve.out"
    http_port = free_port()
    proc = _serve(device, db, http_port, here, out)
    try:
        state = wait_for(lambda: _state(http_port), 60, "the web pages", every=0.1)
        assert state["link"]["connected"] is False
        wait_for(lambda: "não existe" in out.read_text(), 60, "the missing-port line", every=0.1)
        with SimTable(speed=10) as sim:
            os.symlink(sim.host_port, device)   # the USB plug: the port appears
            wait_for(lambda: (_state(http_port) or {}).get("link", {}).get("connected"),
                     60, "the link to the table that appeared", every=0.1)
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    text = out.read_text()
    before_plug = text.split(f"{device} aberta")[0]  # (after the sim stops, the port is gone)
    missing = [line for line in before_plug.splitlines() if "não existe" in line]
    assert len(missing) == 1, text
    assert str(device) in missing[0] and "esperando" in missing[0]
    assert "Traceback" not in text and "não foi possível abrir" not in text
    assert f"registro de eventos: {db}" in text
    assert list(here.iterdir()) == []                 # nothing in the current folder
    assert sorted(p.name for p in logs.iterdir() if not p.name.endswith(("-wal", "-shm"))) \
        == ["copa.sqlite"]


def test_serve_default_db_is_the_current_folder_and_says_so(tmp_path: Path) -> None:
    out = tmp_path / "serve.out"
    here = tmp_path / "here"
    here.mkdir()
    http_port = free_port()
    proc = _serve(tmp_path / "ttyUSB9", Path("futmesa.sqlite"), http_port, here, out)
    try:
        wait_for(lambda: _state(http_port), 60, "the web pages", every=0.1)
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    assert f"registro de eventos: {here / 'futmesa.sqlite'}" in out.read_text()
    assert (here / "futmesa.sqlite").exists()


def test_watch_prints_no_http_request_log_line(tmp_path: Path) -> None:
    http_port = free_port()
    serve_out = tmp_path / "serve.out"
    proc = _serve(tmp_path / "ttyUSB9", tmp_path / "m.sqlite", http_port, tmp_path, serve_out)
    master, slave = pty.openpty()   # a terminal, as a person runs it (rich draws only there)
    seen = b""
    watcher = None
    try:
        wait_for(lambda: _state(http_port), 60, "the web pages", every=0.1)
        watcher = subprocess.Popen(
            [FUTMESA, "watch", "--url", f"http://127.0.0.1:{http_port}"],
            stdin=slave, stdout=slave, stderr=slave, env={**os.environ, "COLUMNS": "100"})

        def drawn() -> bool:
            nonlocal seen
            if select.select([master], [], [], 0.2)[0]:
                seen += os.read(master, 65536)
            # the scoreboard's frame: check_server's request (the one httpx logged) came first
            return "╭" in seen.decode(errors="replace") or watcher.poll() is not None

        wait_for(drawn, 60, "the terminal scoreboard", every=0.1)
        assert watcher.poll() is None, seen
    finally:
        if watcher is not None:
            watcher.terminate()
            watcher.wait(timeout=30)
        os.close(slave)
        os.close(master)
        proc.terminate()
        proc.wait(timeout=30)
    text = seen.decode(errors="replace")
    assert "HTTP Request" not in text and " INFO " not in text, text
