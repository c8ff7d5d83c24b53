"""Re-flashing a board that runs futmesa: CMD_REPL hands the port back before mpremote runs.

Against the simulated board (the real firmware under `micropython` on a pty): the command is
acknowledged and the firmware leaves its loop (the sim process exits cleanly with a LOG
line; a real board returns to its REPL). mpremote itself needs a real board and is faked.
"""

import shutil
import subprocess
import time
from contextlib import contextmanager
from pathlib import Path
from types import SimpleNamespace

import pytest

import futmesa_wire as W
from futmesa.deploy import flash as fl
from futmesa.deploy.probe import probe
from futmesa.sim.table import FIRMWARE_DIR, SimTable

REPL_LOG = "LOG leaving the loop for the REPL (host request): the simulated board exits"


def boot_sim(firmware_dir=FIRMWARE_DIR):
    table = SimTable(speed=1, goal_sensor="tof", firmware_dir=firmware_dir)
    table.start()
    probe(table.host_port, timeout_s=10, want_status=False)
    return table


def wait_exit(table, timeout_s=5.0):
    deadline = time.monotonic() + timeout_s
    while table.alive and time.monotonic() < deadline:
        time.sleep(0.02)
    return table.firmware.poll() if table.firmware else None


def firmware_with_pico(tmp_path, patch=None):
    """A copy of the firmware (optionally with app.py patched) that also has a pico layer."""
    src = tmp_path / "fw"
    shutil.copytree(fl.firmware_dir(), src, ignore=shutil.ignore_patterns("*.egg-info"))
    if not (src / "boards" / "pico.py").exists():
        (src / "boards" / "pico.py").write_text("class PicoBoard:\n    name = 'pico'\n")
    if patch:
        app = src / "app.py"
        old, new = patch
        text = app.read_text()
        assert old in text
        app.write_text(text.replace(old, new))
    return src


def test_repl_command_is_acked_and_the_sim_exits_with_a_log_line():
    table = boot_sim()
    try:
        info = fl.release_board(table.host_port)
        assert info is not None and info.board == "sim"
        assert wait_exit(table) == 0, table.output_tail()
        assert REPL_LOG in table.lines
    finally:
        table.stop()


def test_release_board_finds_nothing_on_a_silent_port(tmp_path):
    # a board with plain MicroPython (or nothing) does not answer futmesa's handshake:
    # mpremote can reach it directly
    import os

    master, slave = os.openpty()
    try:
        assert fl.release_board(os.ttyname(slave), timeout_s=1.2) is None
    finally:
        os.close(master)
        os.close(slave)


def test_flash_hands_the_board_over_before_mpremote_runs(tmp_path, monkeypatch):
    monkeypatch.setenv("FUTMESA_FIRMWARE_DIR", str(firmware_with_pico(tmp_path)))
    table = boot_sim()
    try:
        calls = []

        def fake_mpremote(args, **kw):
            # by the time mpremote runs, the firmware has acknowledged and left its loop
            calls.append((args, table.alive, list(table.lines)))
            return subprocess.CompletedProcess(args, 0, "", "")

        lines = []
        want = ".".join(map(str, W.FIRMWARE_VERSION))
        good = SimpleNamespace(firmware=want, proto=W.PROTO_VERSION, board="pico")
        # the sim firmware says "sim": --force, as for a board rewired on purpose
        fl.flash("pico", table.host_port, run=fake_mpremote, verify=lambda p, t: good,
                 echo=lines.append, settle_s=0.3, force=True)
        assert len(calls) == 1
        args, alive, sim_lines = calls[0]
        assert Path(args[0]).name == "mpremote" and args[2] == table.host_port
        assert not alive and REPL_LOG in sim_lines
        assert table.firmware.returncode == 0
        assert f"{table.host_port} ran futmesa firmware {want} (sim); it handed the port back " \
               "to MicroPython" in lines
        assert lines[-1].startswith("ok: pico on ")
    finally:
        table.stop()


@contextmanager
def refused_flash(tmp_path, monkeypatch, patch):
    """Flash a sim board running a patched firmware; yields (error message, table)."""
    fw = firmware_with_pico(tmp_path, patch)
    monkeypatch.setenv("FUTMESA_FIRMWARE_DIR", str(fw))
    table = boot_sim(fw)
    try:
        called = []
        with pytest.raises(fl.FlashError) as err:
            fl.flash("pico", table.host_port, run=lambda a, **k: called.append(a),
                     echo=lambda s: None, settle_s=0)
        assert called == []  # mpremote was never started
        yield str(err.value), table
    finally:
        table.stop()


def test_old_firmware_without_the_repl_command_is_told_to_erase(tmp_path, monkeypatch):
    with refused_flash(tmp_path, monkeypatch, ("        if code == W.CMD_REPL:",
                                               "        if code == -1:")) as (msg, table):
        assert "runs futmesa firmware 0.1.0 (sim), which is too old" in msg
        assert "flash_nuke.uf2" in msg
        assert table.alive  # it kept running its match loop


def test_firmware_that_never_acknowledges_is_a_clear_error(tmp_path, monkeypatch):
    # the handshake works but the loop hangs on the command: no acknowledgement comes
    with refused_flash(tmp_path, monkeypatch, ("        if code == W.CMD_REPL:\n",
                                               "        if code == W.CMD_REPL:\n"
                                               "            time.sleep(30)\n")) as (msg, _):
        assert "did not acknowledge the request to hand the port to mpremote" in msg
        assert "unplug and replug" in msg
