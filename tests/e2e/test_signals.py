"""Every process a futmesa command starts ends with it, whatever stops it (issue 26).

Each command runs with its own empty TMPDIR; once it is up (its children running, the line
saying it is ready printed) its whole process tree is recorded from /proc (children of
children: orphans are reparented, so the pids are taken before the signal), the signal is
sent to futmesa alone, and the test waits (for the condition, up to 5 s) until none of those
processes is left and the TMPDIR is empty again. SIGINT is Ctrl-C; SIGTERM is what
`timeout`, systemd and a container stop send; SIGHUP a closed terminal; SIGKILL leaves
futmesa no say: its children die by the kernel's parent-death signal and the janitor
process removes its temporary folders.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from futmesa.deploy.probe import probe
from futmesa.sim.table import SimTable
from futmesa.venue.broker import Mosquitto
from futmesa_testkit.liveserver import free_port

pytestmark = pytest.mark.slow
FUTMESA = str(Path(sys.executable).with_name("futmesa"))
# an orphan never goes, so a longer bound costs nothing when the tree stops as it should; 5 s
# was too short for a tournament demo's four tables and broker under load 14 (CI 50, fresh run)
GONE_WITHIN_S = 30.0
START_PATIENCE_S = 120.0  # a busy 2-core machine: waits end as soon as the command is up


# -- the process tree, from /proc ---------------------------------------------------------
def _stat(pid: int) -> tuple[str, int] | None:
    """(state letter, parent pid) of a process, or None when there is no such process."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return fields[0], int(fields[1])


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(
            errors="replace")
    except OSError:
        return ""


def process_tree(root: int) -> dict[int, str]:
    """pid -> command line of `root`'s descendants (not root itself), found by walking the
    parent links of every process in /proc."""
    parents: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            st = _stat(int(entry))
            if st is not None:
                parents.setdefault(st[1], []).append(int(entry))
    found: dict[int, str] = {}
    todo = [root]
    while todo:
        for child in parents.get(todo.pop(), []):
            if child not in found:
                found[child] = _cmdline(child)
                todo.append(child)
    return found


def alive(pid: int) -> bool:
    st = _stat(pid)
    return st is not None and st[0] != "Z"


def _programs(tree: dict[int, str]) -> list[str]:
    """What runs in the tree, by name: socat, micropython, node, mosquitto, i2cmodel, janitor."""
    names = []
    for pid, cmd in tree.items():
        try:  # the program's name (a script's, for .venv/bin/micropython)
            name = Path(f"/proc/{pid}/comm").read_text().strip()
        except OSError:
            name = "?"
        if name.startswith("python") and "janitor_main" in cmd:
            name = "janitor"
        elif name.startswith("python") and "futmesa.sim.i2cmodel" in cmd:
            name = "i2cmodel"
        names.append(name)
    return sorted(names)


# -- running a command and stopping it ---------------------------------------------------
class Command:
    """A futmesa command in its own TMPDIR, its output in a file (never a full pipe)."""

    def __init__(self, args: list[str], tmp_path: Path, stdin: int | None = None) -> None:
        self.tmpdir = tmp_path / "tmp"
        self.tmpdir.mkdir()
        if os.geteuid() == 0:  # as on a real /tmp: the broker's own user may pass through
            for folder in (self.tmpdir, *self.tmpdir.parents):
                if folder == Path("/tmp"):
                    break
                folder.chmod(folder.stat().st_mode | 0o001)
        self.log = tmp_path / "output.txt"
        # the lines these tests wait for are read in English (the language is tested in
        # tests/i18n); TMPDIR: the command's own, to find what it leaves behind
        env = dict(os.environ, TMPDIR=str(self.tmpdir), PYTHONUNBUFFERED="1", FUTMESA_LANG="en")
        with self.log.open("w") as out:
            self.proc = subprocess.Popen([FUTMESA, *args], stdout=out, stderr=subprocess.STDOUT,
                                         stdin=stdin, env=env)

    @property
    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def wait_until_up(self, ready_line: str, programs: list[str]) -> dict[int, str]:
        """Wait until the output has `ready_line` and the tree runs (at least) `programs`;
        returns the tree."""
        deadline = time.monotonic() + START_PATIENCE_S
        while True:
            tree = process_tree(self.proc.pid)
            running = _programs(tree)
            if ready_line in self.output and all(running.count(p) >= programs.count(p)
                                                 for p in set(programs)):
                return tree
            assert self.proc.poll() is None, f"the command stopped:\n{self.output}"
            assert time.monotonic() < deadline, (
                f"not up after {START_PATIENCE_S:.0f} s (running: {running}):\n{self.output}")
            time.sleep(0.05)

    def stop_with(self, sig: signal.Signals, tree: dict[int, str]) -> int:
        """Send `sig` to futmesa alone; return its exit status once it and every process of
        its tree are gone and its TMPDIR is empty (each within GONE_WITHIN_S)."""
        os.kill(self.proc.pid, sig)
        deadline = time.monotonic() + GONE_WITHIN_S
        while True:
            code = self.proc.poll()
            left = {pid: cmd for pid, cmd in tree.items() if alive(pid)}
            leftover = sorted(p.name for p in self.tmpdir.iterdir())
            if code is not None and not left and not leftover:
                return code
            if time.monotonic() > deadline:
                raise AssertionError(
                    f"{GONE_WITHIN_S:.0f} s after {sig.name}: futmesa "
                    f"{'still running' if code is None else f'exited {code}'}, processes left "
                    f"{left}, temporary files left {leftover}\n{self.output}")
            time.sleep(0.05)

    def kill_all(self) -> None:
        """After a failure: leave nothing running."""
        tree = process_tree(self.proc.pid)
        for pid in [self.proc.pid, *tree]:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        self.proc.wait(timeout=10)


def run_and_stop(args: list[str], tmp_path: Path, sig: signal.Signals, ready_line: str,
                 programs: list[str], stdin: int | None = None) -> tuple[int, str]:
    cmd = Command(args, tmp_path, stdin=stdin)
    try:
        tree = cmd.wait_until_up(ready_line, programs)
        code = cmd.stop_with(sig, tree)
    finally:
        if cmd.proc.poll() is None:
            cmd.kill_all()
    return code, cmd.output


def _clean_exit(sig: signal.Signals, code: int, output: str) -> None:
    """Ctrl-C, SIGTERM and SIGHUP end the command the same clean way; SIGKILL is -9."""
    if sig == signal.SIGKILL:
        assert code == -signal.SIGKILL
    else:
        # 0: the command caught it ("stopped"); 130 or click's "Aborted!" (1): as Ctrl-C
        assert code in (0, 130) or (code == 1 and output.rstrip().endswith("Aborted!")), (
            f"exit status {code} after {sig.name}:\n{output}")
        assert "Traceback" not in output, output


STOPS = [signal.SIGINT, signal.SIGTERM, signal.SIGHUP]
ALL_STOPS = [*STOPS, signal.SIGKILL]
LOCAL = ["--http-host", "127.0.0.1"]


# -- the commands that start children ------------------------------------------------------
@pytest.mark.parametrize("sig", ALL_STOPS, ids=lambda s: s.name)
def test_demo_with_the_sim_board(sig: signal.Signals, tmp_path: Path) -> None:
    code, out = run_and_stop(["demo", "--http-port", str(free_port()), *LOCAL], tmp_path, sig,
                             "event log:", ["janitor", "micropython", "socat"])
    _clean_exit(sig, code, out)
    assert "temporary: removed when the demo stops" in out


def test_demo_with_a_named_db_keeps_it_and_says_so(tmp_path: Path) -> None:
    db = tmp_path / "kept.sqlite"
    code, out = run_and_stop(["demo", "--db", str(db), "--http-port", str(free_port()),
                              *LOCAL], tmp_path, signal.SIGTERM, "event log:",
                             ["micropython", "socat"])
    _clean_exit(signal.SIGTERM, code, out)
    assert db.exists() and f"event log kept: {db}" in out


@pytest.mark.pico
def test_demo_with_the_virtual_pico(tmp_path: Path) -> None:
    """One signal: the emulator (node) with its I2C model (python) under it."""
    code, out = run_and_stop(["demo", "--board", "pico", "--http-port", str(free_port()),
                              *LOCAL], tmp_path, signal.SIGTERM, "event log:",
                             ["i2cmodel", "janitor", "node", "socat"])
    _clean_exit(signal.SIGTERM, code, out)


@pytest.mark.parametrize("sig", ALL_STOPS, ids=lambda s: s.name)
def test_tournament_demo(sig: signal.Signals, tmp_path: Path) -> None:
    """The broker is the child issue 26 found orphaned after a SIGTERM. 8 teams once (four
    tables), 4 teams for the other signals."""
    teams = 8 if sig == signal.SIGTERM else 4
    code, out = run_and_stop(
        ["demo", "--tournament", str(teams), "--http-port", str(free_port()),
         "--desk-port", str(free_port()), *LOCAL], tmp_path, sig, "Ctrl-C to stop",
        ["janitor", "mosquitto", *["micropython", "socat"] * (teams // 2)])
    _clean_exit(sig, code, out)


@pytest.mark.parametrize("sig", ALL_STOPS, ids=lambda s: s.name)
def test_sim(sig: signal.Signals, tmp_path: Path) -> None:
    code, out = run_and_stop(["sim", "--speed", "10"], tmp_path, sig, "Ctrl-C stops the table",
                             ["janitor", "micropython", "socat"], stdin=subprocess.PIPE)
    _clean_exit(sig, code, out)


# -- the commands that start none: they still stop cleanly on each signal -------------------
@pytest.mark.parametrize("sig", STOPS, ids=lambda s: s.name)
def test_serve(sig: signal.Signals, tmp_path: Path) -> None:
    port = free_port()
    code, out = run_and_stop(["serve", "--device", str(tmp_path / "ttyACM9"), "--db",
                              str(tmp_path / "m.sqlite"), "--http-port", str(port), *LOCAL],
                             tmp_path, sig, "scoreboard (TV)", [])
    _clean_exit(sig, code, out)


@pytest.fixture(scope="module")
def broker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Mosquitto]:
    with Mosquitto(tmp_path_factory.mktemp("broker"), ["t1"]) as b:
        yield b


@pytest.mark.parametrize("sig", STOPS, ids=lambda s: s.name)
def test_desk(sig: signal.Signals, tmp_path: Path, broker: Mosquitto) -> None:
    creds = broker.folder / "credentials" / "desk.json"
    code, out = run_and_stop(["desk", "--db", str(tmp_path / "desk.sqlite"), "--broker",
                              broker.url, "--credentials", str(creds), "--http-port",
                              str(free_port()), *LOCAL], tmp_path, sig,
                             "desk connected to the venue broker", [])
    _clean_exit(sig, code, out)


@pytest.fixture(scope="module")
def sim_board() -> Iterator[SimTable]:
    with SimTable(speed=1, goal_sensor="tof") as table:
        probe(table.host_port, timeout_s=60, want_status=False)
        yield table


@pytest.mark.parametrize("sig", STOPS, ids=lambda s: s.name)
def test_doctor_watching_a_simulated_board(sig: signal.Signals, tmp_path: Path,
                                           sim_board: SimTable) -> None:
    code, out = run_and_stop(["doctor", "--port", sim_board.host_port, "--watch", "600",
                              "--timeout", "30"], tmp_path, sig, "watching", [])
    _clean_exit(sig, code, out)


@pytest.mark.parametrize("sig", STOPS, ids=lambda s: s.name)
def test_calibrate_waiting_at_its_prompt(sig: signal.Signals, tmp_path: Path,
                                         sim_board: SimTable) -> None:
    code, out = run_and_stop(["calibrate", "--board", "sim", "--port", sim_board.host_port,
                              "--out", str(tmp_path / "cal.json"), "--timeout", "30"],
                             tmp_path, sig, "then press Enter", [], stdin=subprocess.PIPE)
    _clean_exit(sig, code, out)


def test_demo_that_fails_after_starting_its_table_leaves_nothing(tmp_path: Path) -> None:
    """Its own failure (here: the web port is taken, found after the table started) stops
    the table too; every child had the TMPDIR in its arguments, so none may be left."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        cmd = Command(["demo", "--http-port", str(port), *LOCAL], tmp_path)
        try:
            code = cmd.proc.wait(timeout=START_PATIENCE_S)
        finally:
            if cmd.proc.poll() is None:
                cmd.kill_all()
    assert code == 1 and f"port {port}" in cmd.output, cmd.output
    assert "Traceback" not in cmd.output, cmd.output
    deadline = time.monotonic() + GONE_WITHIN_S
    while True:
        left = [pid for pid in map(int, filter(str.isdigit, os.listdir("/proc")))
                if str(cmd.tmpdir) in _cmdline(pid) and alive(pid)]
        leftover = list(cmd.tmpdir.iterdir())
        if not left and not leftover:
            break
        assert time.monotonic() < deadline, (left, leftover, cmd.output)
        time.sleep(0.05)


# -- the children's own watchdogs -------------------------------------------------------------
def test_the_sim_firmware_stops_when_its_control_channel_closes() -> None:
    with SimTable(speed=10) as table:
        table.sync()
        firmware = table.firmware
        assert firmware is not None and firmware.stdin is not None
        firmware.stdin.close()  # what the kernel does when the process driving it dies
        firmware.wait(timeout=GONE_WITHIN_S)
        table.firmware = None
        assert firmware.returncode == 0
        assert any("control channel closed" in line for line in table.lines), table.lines


@pytest.mark.pico
def test_the_emulator_stops_when_its_parent_is_gone(tmp_path: Path) -> None:
    """No parent-death signal here: node is started by a shell, which is SIGKILLed while the
    test keeps node's stdin open; the harness sees its parent pid change and ends, and its
    I2C model and FIFO folder go with it."""
    from futmesa.sim.vpico import BOARD_FILE, BOOTROM, VPICO_DIR, find_image

    tmp = tmp_path / "tmp"
    tmp.mkdir()
    node = ["node", str(VPICO_DIR / "harness.js"), "--rom", str(BOOTROM), "--image",
            str(find_image()), "--flash-file", str(tmp_path / "flash.img"), "--port",
            str(tmp_path / "device.tty"), "--board", str(BOARD_FILE), "--i2c-model",
            f"{sys.executable} -m futmesa.sim.i2cmodel"]
    shell = subprocess.Popen(["sh", "-c", 'exec 3<&0; "$@" <&3 & wait', "sh", *node],
                             stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL, cwd=str(VPICO_DIR),
                             env=dict(os.environ, TMPDIR=str(tmp)))
    try:
        deadline = time.monotonic() + START_PATIENCE_S
        while True:  # node up, with its I2C model
            tree = process_tree(shell.pid)
            if sorted(_programs(tree)) == ["i2cmodel", "node"]:
                break
            assert shell.poll() is None and time.monotonic() < deadline, _programs(tree)
            time.sleep(0.05)
        shell.kill()
        shell.wait()
        deadline = time.monotonic() + GONE_WITHIN_S
        while any(alive(pid) for pid in tree) or list(tmp.iterdir()):
            assert time.monotonic() < deadline, (
                f"left: {[tree[p] for p in tree if alive(p)]}, {list(tmp.iterdir())}")
            time.sleep(0.05)
    finally:
        for pid in process_tree(shell.pid):
            os.kill(pid, signal.SIGKILL)
        if shell.poll() is None:
            shell.kill()
        assert shell.stdin is not None
        shell.stdin.close()
