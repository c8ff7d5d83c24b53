"""The virtual Pico: the real MicroPython RPI_PICO image on the rp2040js emulator, like SimTable.

`VirtualPico` has SimTable's interface (start/stop, plug/unplug, reset, send,
goal, ball_out, palheta, button, buzzer_log, lines, output_tail), so the demo
and the tests drive it exactly as they drive the unix-port sim board. The
board is tools/vpico/harness.js under node: the USB CDC is bridged to one end
of a socat pty pair (the host opens the other, as it opens /dev/ttyACM0), its
stdin is the sim board's control channel, driving the real pins of
hardware/boards/pico.json, and its stdout the observation channel (`BUZ`,
`LED`, `EV`, `RESET`, `TIME`, `LOG`; docs/architecture.md). The board's flash
(firmware, littlefs with board.json and the state) is a file in the work
directory, kept across resets and runs.

The emulator runs the RP2040 at a fraction of real time (about 0.4x on a quiet
machine, less on a busy one): the device's clock rate, as the host measures
it, is far from 1.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from futmesa import children
from futmesa.i18n import _
from futmesa.sim.table import SimTable, SimTableError, buzzer_change

ROOT = Path(__file__).resolve().parents[3]
VPICO_DIR = ROOT / "tools" / "vpico"
# FUTMESA_VENDOR overrides, as for `make firmware` (a git worktree has no ../shared)
VENDOR_DIR = Path(os.environ.get("FUTMESA_VENDOR") or ROOT.parent / "shared" / "vendor")
BOOTROM = VENDOR_DIR / "rp2040-bootrom-b1.bin"
BOOTROM_SHA256 = "90b31e108faedfa6bbcfcc33ba05dac61e645108cfbbdc385f8dafc71fde44ae"
BOARD_FILE = ROOT / "hardware" / "boards" / "pico.json"
IMAGE_CANDIDATES = (ROOT / "build" / "firmware" / "futmesa-pico.bin",
                    ROOT / "build" / "rp2" / "firmware.bin")


def find_node() -> str:
    exe = shutil.which("node")
    if exe is None:
        raise SimTableError(_("the `node` command was not found: run `make setup` (it "
                              "installs Debian's nodejs and the emulator)"))
    if not (VPICO_DIR / "node_modules" / "rp2040js").is_dir():
        raise SimTableError(_("the RP2040 emulator is not installed: run `make setup` (it "
                              "runs `npm ci` in tools/vpico)"))
    return exe


def bootrom_missing_line(path: Path) -> str:
    """The one line said when the RP2040 boot ROM is not where the virtual Pico looks."""
    return _("the RP2040 boot ROM is missing: {path} (rp2040-bootrom-b1.bin, 16 KiB, sha256 "
             "{sha256}; built from raspberrypi/pico-bootrom 00a4a191, the same bytes the "
             "rp2040js demo carries; there is no download): copy it to that folder or point "
             "FUTMESA_VENDOR=FOLDER to where it is (docs/firmware.md, \"Sources\")").format(
                 path=path, sha256=BOOTROM_SHA256)


def find_bootrom() -> Path:
    """The boot ROM in FUTMESA_VENDOR (read now) or ../shared/vendor; SimTableError saying
    what is missing and where it comes from otherwise."""
    folder = Path(os.environ.get("FUTMESA_VENDOR") or ROOT.parent / "shared" / "vendor")
    path = folder / "rp2040-bootrom-b1.bin"
    if not path.is_file():
        raise SimTableError(bootrom_missing_line(path))
    return path


def find_image() -> Path:
    for p in IMAGE_CANDIDATES:
        if p.exists():
            return p
    raise SimTableError(_("no Pico firmware image: run `make firmware` (it builds "
                          "build/firmware/futmesa-pico.uf2 and .bin)"))


class VirtualPico(SimTable):
    """One virtual Pico table. Use as a context manager, or call start()/stop()."""

    def __init__(self, workdir: str | Path | None = None, image: str | Path | None = None,
                 board_file: str | Path = BOARD_FILE, flash_file: str | Path | None = None,
                 bootsel_dir: str | Path | None = None, start_bootsel: bool = False,
                 uid: str = "E66038B7132F5A2B") -> None:
        super().__init__(speed=1, workdir=workdir, uid=uid)
        self.image = Path(image) if image else None
        self.board_file = Path(board_file)
        self.flash_file = Path(flash_file) if flash_file else self.dir / "flash.img"
        self.bootsel_dir = Path(bootsel_dir) if bootsel_dir else None
        self.start_bootsel = start_bootsel
        self.events: list[tuple[int, int, int]] = []  # EV lines: what the device emitted
        self.resets: list[str] = []
        self.led_log: list[tuple[float, int]] = []
        self.led_edges: list[tuple[int, int]] = []  # (device µs, level) of each LED change
        self._cond = threading.Condition(self._lock)

    # -- lifecycle ------------------------------------------------------------------
    def boot(self) -> None:
        """Power the board up: start the emulator (the flash file persists across boots)."""
        cmd = [find_node(), str(VPICO_DIR / "harness.js"), "--rom", str(find_bootrom()),
               "--flash-file", str(self.flash_file), "--port", self.device_port,
               "--board", str(self.board_file), "--uid", self.uid,
               "--i2c-model", f"{sys.executable} -m futmesa.sim.i2cmodel"]
        if self.image is not None:
            cmd += ["--image", str(self.image)]
        elif not self.flash_file.exists():
            cmd += ["--image", str(find_image())]
        if self.bootsel_dir is not None:
            cmd += ["--bootsel", str(self.bootsel_dir)]
            if self.start_bootsel:
                cmd += ["--start-bootsel"]
        self.image = None  # written once: later boots run what the flash holds
        # node dies with futmesa (futmesa.children), and itself ends when its stdin closes or
        # its parent changes; its I2C model ends when node's pipe to it closes
        self.firmware = children.start(
            cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            cwd=str(VPICO_DIR),
        )
        self._reader = threading.Thread(target=self._read_stdout, args=(self.firmware,),
                                        daemon=True)
        self._reader.start()

    def reset(self) -> None:
        """Press the reset button (the flash is kept)."""
        self.send("reset")

    def kill_firmware(self) -> None:
        fw, self.firmware = self.firmware, None
        if fw and fw.poll() is None:
            fw.send_signal(signal.SIGTERM)  # the harness saves the flash file first
            try:
                fw.wait(timeout=10)
            except subprocess.TimeoutExpired:
                fw.kill()
                fw.wait(timeout=5)

    # -- the board's inputs -------------------------------------------------------------
    def tof(self, sensor: int, mm: int) -> None:
        self.send(f"tof {sensor} {mm}")

    def i2c(self, sensor: int, dead: bool) -> None:
        self.send(f"i2c {sensor} {'dead' if dead else 'ok'}")

    def device_ms(self, timeout: float = 30) -> int:
        """The emulated chip's own clock (ms since the harness started)."""
        return int(self.ask("time", "TIME ", timeout).split()[1])

    def ask(self, line: str, prefix: str, timeout: float = 30) -> str:
        with self._lock:
            start = len(self.lines)
        self.send(line)
        return self.wait_line(prefix, timeout, start)

    # -- what the board shows ---------------------------------------------------------------
    def _read_stdout(self, proc: subprocess.Popen[bytes]) -> None:
        assert proc.stdout is not None
        for raw in proc.stdout:
            line = raw.decode(errors="replace").rstrip("\n")
            with self._cond:
                self.lines.append(line)
                buzz = buzzer_change(line)
                if buzz is not None:
                    self.buzzer_log.append((time.monotonic(), *buzz))
                elif line.startswith("EV "):
                    _word, boot, seq, kind = line.split()
                    self.events.append((int(boot), int(seq), int(kind)))
                elif line.startswith("RESET "):
                    self.resets.append(line.split()[1])
                elif line.startswith("LED "):
                    words = line.split()
                    self.led_log.append((time.monotonic(), int(words[1])))
                    if len(words) > 2:
                        self.led_edges.append((int(words[2]), int(words[1])))
                self._cond.notify_all()

    def wait_line(self, prefix: str, timeout: float = 30, start: int = 0) -> str:
        """The first line from index `start` on that starts with prefix (waits for it)."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                for line in self.lines[start:]:
                    if line.startswith(prefix):
                        return line
                left = deadline - time.monotonic()
                if left <= 0 or not self.alive:
                    raise SimTableError(_("the virtual Pico did not say {prefix} within {seconds} "
                                          "s:\n{output}").format(
                                              prefix=repr(prefix), seconds=f"{timeout:.0f}",
                                              output=self.output_tail()))
                self._cond.wait(min(left, 0.5))

    # -- setting a board up --------------------------------------------------------------
    def repl(self, code: str, timeout: float = 120) -> str:
        """Run code at the board's REPL through mpremote (the board must be at its REPL)."""
        mpremote = Path(sys.executable).with_name("mpremote")
        proc = subprocess.run([str(mpremote), "connect", self.host_port, "exec", code],
                              capture_output=True, text=True, timeout=timeout)
        if proc.returncode != 0:
            raise SimTableError(_("mpremote failed: {output}").format(
                output=proc.stdout + proc.stderr))
        return proc.stdout


def provision(flash_file: Path, board_file: Path = BOARD_FILE, image: Path | None = None,
              timeout: float = 300) -> None:
    """Write a fresh flash image holding the firmware and board.json (the board is not booted
    into futmesa yet): the image boots to its REPL without a board file, mpremote copies it."""
    with tempfile.TemporaryDirectory(prefix="futmesa-vpico-") as tmp:
        pico = VirtualPico(workdir=tmp, image=image or find_image(), board_file=board_file,
                           flash_file=Path(tmp) / "flash.img")
        with pico:
            deadline = time.monotonic() + timeout
            text = board_file.read_text()
            while True:
                try:
                    pico.repl(f"f=open('board.json','w');f.write({text!r});f.close()", 90)
                    break
                except (SimTableError, subprocess.TimeoutExpired):
                    if time.monotonic() > deadline:
                        raise
            pico.ask("save", "SAVED", 60)
            shutil.copyfile(pico.flash_file, flash_file)


__all__ = ["VirtualPico", "provision", "find_image", "SimTableError"]
