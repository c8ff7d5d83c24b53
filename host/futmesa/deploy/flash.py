"""`futmesa flash`: compile the firmware with mpy-cross, copy it and the board file with mpremote,
reboot the board and check the version it reports over the futmesa link.

Steps (each failure raises FlashError saying what to do):
1. check the board file and that the firmware supports the board;
2. check the serial port exists;
3. compile every firmware module except `main.py` to `.mpy` (mpy-cross);
4. if the board already runs futmesa firmware (it answers the futmesa handshake), ask it
   to hand the port back to MicroPython (CMD_REPL: its loop ends, Ctrl-C works again;
   a board with a running watchdog resets into a REPL-only boot) and wait for the port;
   that firmware takes Ctrl-C as data, so mpremote could not interrupt it otherwise;
5. copy the `.mpy` files, `main.py` and the board file (as `board.json`) with one mpremote
   command, then reset the board;
6. open the port with the futmesa link and compare the firmware and protocol versions
   the board reports with the ones just flashed.

`flash_uf2` is the other path, for the Pico: copy the futmesa image (MicroPython with the
whole firmware frozen, `make firmware`) onto the BOOTSEL drive (uf2.py), wait for the board
to come back on USB, then write board.json with steps 4-6 (only that one file is copied).
A board whose running futmesa firmware names another board, or whose MicroPython runs on
another chip than the board file's `mcu`, is refused unless `--force`. Long steps print
"… still …" every 10 s.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from futmesa.hardware.boardfile import Board, BoardFileError, hardware_dir, load_board
from futmesa.i18n import N_, _

REAL_BOARDS = ("pico", "esp32")
ENTRY = "main.py"
HOST_ONLY = ("manifest.py",)  # the freeze manifest is read by MicroPython's build, not the board
# mpy-cross -march per board: wirecrc.py is native code (viper) for the board's CPU
MARCH = {"pico": "armv6m", "esp32": "xtensawin"}


# The reset after the copy. mpremote's own `reset` runs `time.sleep_ms(100); machine.reset()`
# and returns at once: the version check then opens the port and sends its HELLOs while the
# board still sleeps at the REPL, and a HELLO's 0x03 byte is Ctrl-C there, so the reset never
# ran and the board stayed at the REPL (seen on the virtual Pico; a real board has the same
# 100 ms window). Ctrl-C off first: nothing the host sends can cancel the reset.
RESET_CODE = ("import micropython, machine, time; micropython.kbd_intr(-1); "
              "time.sleep_ms(100); machine.reset()")


class FlashError(RuntimeError):
    """Flashing failed; the message says what to do."""


def firmware_dir() -> Path:
    env = os.environ.get("FUTMESA_FIRMWARE_DIR")
    return Path(env) if env else hardware_dir().parent / "firmware"


def _tool(name: str) -> str:
    here = Path(sys.executable).parent / name
    found = shutil.which(name) or (str(here) if here.exists() else None)
    if not found:
        raise FlashError(_(
            "{name} is not installed; run `make setup` (or `.venv/bin/pip install -e "
            "'.[hardware]'`) and try again").format(name=name))
    return found


@dataclass
class FlashPlan:
    board: Board
    port: str
    sources: list[tuple[Path, str]]  # (local file, device path)
    staging: Path
    copies: list[tuple[Path, str]] = field(default_factory=list)  # local file → device path

    def mpremote_args(self, mpremote: str = "mpremote") -> list[str]:
        dirs = sorted({str(Path(r).parent) for _local, r in self.copies} - {"."})
        mkdirs = "".join(f"\ntry:\n os.mkdir({d!r})\nexcept OSError:\n pass" for d in dirs)
        args = [mpremote, "connect", self.port, "exec", "import os" + mkdirs]
        for local, remote in self.copies:
            args += ["+", "fs", "cp", str(local), f":{remote}"]
        args += ["+", "exec", "--no-follow", RESET_CODE]
        return args


def firmware_sources(board_name: str, src: Path | None = None,
                     board: Board | None = None) -> list[tuple[Path, str]]:
    """(local file, path on the device) of everything a board needs, main.py included.

    A board whose goal sensors are VL53L0X also gets Adafruit's driver, its bus-device
    helper and `futmesa_tof` (hardware/micropython/), which runs the driver on
    `machine.I2C` for the board layer (`boards.MachineBoard._start_tof`).
    """
    src = src or firmware_dir()
    if not (src / ENTRY).is_file():
        raise FlashError(_("no firmware found at {src} ({entry} is missing); run futmesa from "
                           "its source tree or set FUTMESA_FIRMWARE_DIR").format(
                               src=src, entry=ENTRY))
    if board_name == "rpi":
        raise FlashError(_("the rpi board file is for Linux SBC mode: the Raspberry Pi reads "
                           "the sensors itself and there is nothing to flash; check it with "
                           "`futmesa doctor --sbc --board rpi`"))
    if board_name not in REAL_BOARDS:
        raise FlashError(_("board {board} cannot be flashed; real boards are {boards} (the sim "
                           "board runs with `futmesa demo`)").format(
                               board=repr(board_name), boards=", ".join(REAL_BOARDS)))
    board_module = src / "boards" / f"{board_name}.py"
    if not board_module.is_file():
        raise FlashError(_("this firmware has no board layer for {board} ({module} is "
                           "missing); update futmesa, or use a board it supports").format(
                               board=repr(board_name), module=board_module))
    files = [(p, p.name) for p in sorted(src.glob("*.py")) if p.name not in HOST_ONLY]
    files += [(src / "boards" / "__init__.py", "boards/__init__.py"),
              (board_module, f"boards/{board_name}.py")]
    if board is not None and any(g["type"] == "vl53l0x" for g in board.goal_sensors):
        files += tof_driver_sources()
    return files


def tof_driver_sources() -> list[tuple[Path, str]]:
    """Adafruit's VL53L0X driver and bus-device helper, and the on-board adapter."""
    try:
        import adafruit_bus_device
        import adafruit_vl53l0x
    except ImportError as exc:
        raise FlashError(_("the VL53L0X driver is not installed on this computer; run "
                           "`.venv/bin/pip install -e '.[hardware]'` and flash again")) from exc
    bd = Path(adafruit_bus_device.__file__).parent
    return [
        (hardware_dir() / "micropython" / "futmesa_tof.py", "futmesa_tof.py"),
        (Path(adafruit_vl53l0x.__file__), "adafruit_vl53l0x.py"),
        (bd / "__init__.py", "adafruit_bus_device/__init__.py"),
        (bd / "i2c_device.py", "adafruit_bus_device/i2c_device.py"),
    ]


def compile_firmware(files: Sequence[tuple[Path, str]], out: Path,
                     mpy_cross: str | None = None,
                     march: str = MARCH["pico"]) -> list[tuple[Path, str]]:
    """Compile every file but main.py to .mpy in `out`; returns (local, device path) pairs."""
    tool = mpy_cross or _tool("mpy-cross")
    copies: list[tuple[Path, str]] = []
    for source, remote in files:
        if remote == ENTRY:
            dest = out / ENTRY
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, dest)
            copies.append((dest, ENTRY))
            continue
        target = str(Path(remote).with_suffix(".mpy").as_posix())
        dest = out / target
        dest.parent.mkdir(parents=True, exist_ok=True)
        proc = subprocess.run([tool, "-march=" + march, "-o", str(dest), "-s", Path(remote).name,
                               str(source)],
                              capture_output=True, text=True)
        if proc.returncode != 0:
            raise FlashError(_("mpy-cross could not compile {source}:\n{output}\nFix that file "
                               "(it must be valid MicroPython) and flash again.").format(
                                   source=source, output=proc.stderr.strip()))
        copies.append((dest, target))
    return copies


def check_port(port: str) -> None:
    if port.startswith(("/dev/", "/tmp/")) and not os.path.exists(port):
        raise FlashError(_(
            "no board at {port}: plug the board in with a USB cable that carries data, then "
            "run `futmesa doctor` to see which serial ports it finds (on Linux the Pico is "
            "usually /dev/ttyACM0, an ESP32 /dev/ttyUSB0; add yourself to the dialout group "
            "if the port exists but cannot be opened). A new Pico first needs MicroPython: "
            "hold BOOTSEL while plugging it in and copy the MicroPython .uf2 onto it."
        ).format(port=port))
    if port.startswith("/dev/") and not os.access(port, os.R_OK | os.W_OK):
        raise FlashError(_("{port} exists but you may not open it: run `sudo usermod -aG "
                           "dialout $USER`, log out and in again, and retry").format(port=port))


def plan_flash(board_name: str, port: str, staging: Path, src: Path | None = None,
               mpy_cross: str | None = None) -> FlashPlan:
    try:
        board = load_board(board_name)
    except BoardFileError as exc:
        raise FlashError(str(exc)) from exc
    files = firmware_sources(board.name, src, board)
    check_port(port)
    copies = compile_firmware(files, staging, mpy_cross, MARCH[board.name])
    board_json = staging / "board.json"
    shutil.copyfile(board.path, board_json)
    copies.append((board_json, "board.json"))
    return FlashPlan(board=board, port=port, sources=files, staging=staging, copies=copies)


def expected_versions(src: Path | None = None) -> tuple[str, int]:
    """Firmware version string and protocol version of the firmware about to be flashed."""
    import futmesa_wire as W

    return ".".join(str(n) for n in W.FIRMWARE_VERSION), int(W.PROTO_VERSION)


ERASE_HINT = N_("erase the board (Pico: hold BOOTSEL while plugging it in and copy "
                "flash_nuke.uf2, then the MicroPython .uf2; ESP32: esptool.py erase_flash and "
                "write MicroPython again), then run this command again")  # shown with _()


def release_board(port: str, timeout_s: float = 2.0, ack_timeout_s: float = 4.0) -> object | None:
    """Ask futmesa firmware answering on `port` to return to the REPL (CMD_REPL).

    Returns its DeviceInfo once it acknowledged, None when nothing answers the futmesa
    handshake (a board with plain MicroPython: mpremote reaches it directly). Raises
    FlashError when the firmware answers but does not hand the port over.
    """
    from concurrent.futures import TimeoutError as FutureTimeout

    import futmesa_wire as W
    from futmesa.deploy.probe import _ProbeSink
    from futmesa.link import HostLink

    if not os.path.exists(port):
        return None
    sink = _ProbeSink()
    link = HostLink(port, sink)
    link.start()
    try:
        if not sink.got_info.wait(timeout_s):
            return None
        info = sink.info
        what = _("{port} runs futmesa firmware {version} ({board})").format(
            port=port, version=getattr(info, "firmware", "?"), board=getattr(info, "board", "?"))
        try:
            result = link.command(W.CMD_REPL).result(timeout=ack_timeout_s)
        except (TimeoutError, FutureTimeout) as exc:
            raise FlashError(_(
                "{what} but it did not acknowledge the request to hand the port to mpremote "
                "within {seconds} s: close any other program using the port (futmesa serve, "
                "Thonny, screen), unplug and replug the board and flash again; if it still does "
                "not answer, {erase}").format(what=what, seconds=f"{ack_timeout_s:g}",
                                              erase=_(ERASE_HINT))) from exc
        if result == W.ACK_UNKNOWN:
            raise FlashError(_("{what}, which is too old to hand the port to mpremote (it "
                               "ignores Ctrl-C and the REPL command): {erase}").format(
                                   what=what, erase=_(ERASE_HINT)))
        if result not in (W.ACK_OK, W.ACK_DUPLICATE):
            raise FlashError(_("{what} but it refused to hand the port to mpremote (result "
                               "{result}): unplug and replug the board and flash again").format(
                                   what=what, result=result))
        return info
    finally:
        link.stop()


def wait_for_port(port: str, settle_s: float, timeout_s: float = 10.0) -> None:
    """After CMD_REPL: let a board that resets into its REPL come back on USB."""
    import time

    time.sleep(settle_s)
    deadline = time.monotonic() + timeout_s
    while not os.path.exists(port):
        if time.monotonic() > deadline:
            raise FlashError(_("{port} did not come back within {seconds} s after the board "
                               "left its loop: unplug and replug it, then flash again (mpremote "
                               "will find MicroPython's REPL)").format(
                                   port=port, seconds=f"{timeout_s:g}"))
        time.sleep(0.1)


def flash(board_name: str, port: str, *, verify: Callable[[str, float], object] | None = None,
          timeout_s: float = 15.0, echo: Callable[[str], None] = print,
          run: Callable[..., subprocess.CompletedProcess[str]] = subprocess.run,
          detect: Callable[[str], object | None] = release_board,
          settle_s: float = 2.0, force: bool = False,
          progress_every_s: float = 10.0, copy_timeout_s: float = 120.0) -> None:
    """Flash `board_name` firmware to the board on `port` and check it comes back.

    `detect` hands a board running futmesa firmware back to its REPL (release_board)
    and returns what it was, or None when no futmesa firmware answers. A board whose
    running firmware or MicroPython says it is another board is refused unless `force`.
    """
    with tempfile.TemporaryDirectory(prefix="futmesa-flash-") as tmp:
        plan = plan_flash(board_name, port, Path(tmp))
        echo(_("compiled {n} modules with mpy-cross").format(n=len(plan.copies) - 2))
        _copy_with_mpremote(plan, echo, run, detect, settle_s, force=force,
                            progress_every_s=progress_every_s, copy_timeout_s=copy_timeout_s)
    _check_versions(plan.board.name, port, verify, timeout_s, echo, progress_every_s)


def _copy_with_mpremote(plan: FlashPlan, echo: Callable[[str], None],
                        run: Callable[..., subprocess.CompletedProcess[str]],
                        detect: Callable[[str], object | None], settle_s: float, *,
                        force: bool = False, progress_every_s: float = 10.0,
                        check_board: bool = True, copy_timeout_s: float = 120.0) -> None:
    """Hand a board running futmesa back to its REPL, copy plan.copies, reset it.

    With `check_board`, a board whose running firmware or MicroPython says it is another
    board is refused unless `force`.
    """
    port = plan.port
    # futmesa firmware on the USB port takes Ctrl-C as data, so mpremote would wait forever
    # for a prompt: ask the firmware to leave its loop first
    running = detect(port)
    if running is not None:
        echo(_("{port} ran futmesa firmware {version} ({board}); it handed the port back to "
               "MicroPython").format(port=port, version=getattr(running, "firmware", "?"),
                                     board=getattr(running, "board", "?")))
        if check_board:
            check_same_board(getattr(running, "board", None), plan.board.name, port, force)
        wait_for_port(port, settle_s)
    if check_board:
        check_platform(plan.board, port, run, force)
    args = plan.mpremote_args(_tool("mpremote"))
    limit = _("2 minutes") if copy_timeout_s == 120 else f"{copy_timeout_s:g} s"
    echo(_("copying {n} file(s) to {port} with mpremote (up to {limit}) …").format(
        n=len(plan.copies), port=port, limit=limit))
    try:
        with progress(echo, _("copying"), progress_every_s):
            proc = run(args, capture_output=True, text=True, timeout=copy_timeout_s)
    except subprocess.TimeoutExpired as exc:
        raise FlashError(_("mpremote did not finish within {seconds} s on {port}: unplug and "
                           "replug the board and flash again").format(
                               seconds=f"{copy_timeout_s:g}", port=port)) from exc
    if proc.returncode != 0:
        raise FlashError(_(
            "mpremote could not copy the firmware to {port}:\n{output}\nIs MicroPython on the "
            "board? Close any other program using the port (futmesa serve, Thonny, screen), "
            "then retry. If the board runs futmesa firmware that did not leave its loop, unplug "
            "and replug it and flash again; if that keeps failing, {erase}."
        ).format(port=port, output=(proc.stderr or proc.stdout).strip(), erase=_(ERASE_HINT)))


def _check_versions(board_name: str, port: str, verify: Callable[[str, float], object] | None,
                    timeout_s: float, echo: Callable[[str], None],
                    progress_every_s: float = 10.0) -> None:
    want_fw, want_proto = expected_versions()
    echo(_("board reset; waiting for firmware {version} to answer …").format(version=want_fw))
    with progress(echo, _("waiting for the board"), progress_every_s):
        info = (verify or _probe_versions)(port, timeout_s)
    fw = getattr(info, "firmware", None)
    proto = getattr(info, "proto", None)
    board_seen = getattr(info, "board", None)
    if fw != want_fw or proto != want_proto:
        raise FlashError(_("the board reports firmware {version} protocol {proto}, expected "
                           "{want_version} protocol {want_proto}: flash again; if it persists, "
                           "wipe the board's files with `mpremote rm -r :` and flash again")
                         .format(version=fw, proto=proto, want_version=want_fw,
                                 want_proto=want_proto))
    if board_seen and board_seen != board_name:
        raise FlashError(_("the board says it is {seen}, not {wanted}: flash with --board "
                           "{seen_name} or check board.json on the device").format(
                               seen=repr(board_seen), wanted=repr(board_name),
                               seen_name=board_seen))
    echo(_("ok: {board} on {port} runs firmware {version}, protocol {proto}").format(
        board=board_name, port=port, version=fw, proto=proto))


MCU_PLATFORMS = {"RP2040": "rp2", "ESP32": "esp32"}  # board file "mcu" -> sys.platform


def check_same_board(running: str | None, wanted: str, port: str, force: bool) -> None:
    """Refuse to put one board's firmware on a board whose firmware says it is another."""
    if running and running != wanted and not force:
        raise FlashError(_(
            "the board on {port} runs futmesa firmware for {running}, not {wanted}: flash with "
            "--board {running_name}; if you really rewired it as {wanted}, add --force (unplug "
            "and replug the board to get its old firmware back meanwhile)").format(
                port=port, running=repr(running), wanted=repr(wanted), running_name=running))


def check_platform(board: Board, port: str, run: Callable[..., Any], force: bool) -> None:
    """Ask MicroPython on the board which chip it runs on; refuse another board's firmware."""
    want = MCU_PLATFORMS.get(str(board.data.get("mcu", "")))
    if want is None or force:
        return
    try:
        proc = run([_tool("mpremote"), "connect", port, "exec",
                    "import sys; print('platform=' + sys.platform)"],
                   capture_output=True, text=True, timeout=30)
    except (subprocess.TimeoutExpired, OSError):
        return  # the copy step reports a board that does not answer
    seen = next((line.split("=", 1)[1].strip() for line in (proc.stdout or "").splitlines()
                 if line.startswith("platform=")), None)
    if seen and seen != want:
        raise FlashError(_(
            "the board on {port} is a {seen} chip, but the {board} board file is for {mcu} "
            "({want}): pass the right --board, or --force to copy anyway").format(
                port=port, seen=seen, board=repr(board.name), mcu=board.data.get("mcu"),
                want=want))


@contextmanager
def progress(echo: Callable[[str], None], what: str, every_s: float) -> Iterator[None]:
    """Print "… still {what} (N s)" every `every_s` seconds while the block runs."""
    import threading
    import time

    done = threading.Event()
    started = time.monotonic()

    def tick() -> None:
        while not done.wait(every_s):
            echo("  " + _("… still {what} ({seconds} s)").format(
                what=what, seconds=f"{time.monotonic() - started:.0f}"))

    ticker = threading.Thread(target=tick, name="flash-progress", daemon=True)
    ticker.start()
    try:
        yield
    finally:
        done.set()
        ticker.join()


def flash_uf2(board_name: str, port: str, *, image: Path | None = None,
              drive: Path | None = None, wait_drive_s: float = 60.0,
              wait_port_s: float = 30.0, verify: Callable[[str, float], object] | None = None,
              timeout_s: float = 15.0, echo: Callable[[str], None] = print,
              run: Callable[..., subprocess.CompletedProcess[str]] = subprocess.run,
              detect: Callable[[str], object | None] | None = None,
              settle_s: float = 2.0,
              volumes: Callable[[], list[Path]] | None = None) -> None:
    """Put the futmesa Pico image on the board in BOOTSEL mode, then its board file.

    1. the board file must be a Pico's (the image is built for the RP2040 only);
    2. the image must be a complete RP2040 UF2 (`make firmware`);
    3. the BOOTSEL drive: `drive`, or the one mounted Pico drive (waits up to
       wait_drive_s for it);
    4. copy the image (progress every 25 %); the Pico writes it and reboots;
    5. wait up to wait_port_s for `port` to come back (USB CDC), then write board.json
       with mpremote and check the versions the board reports.
    """
    from futmesa.deploy import uf2

    try:
        board = load_board(board_name)
    except BoardFileError as exc:
        raise FlashError(str(exc)) from exc
    if board.name != "pico":
        raise FlashError(_("the futmesa image is for the Raspberry Pi Pico (RP2040) only; a "
                           "{board} board takes the firmware on a stock MicroPython: `futmesa "
                           "flash --board {name} --port PORT`").format(
                               board=board.name, name=board_name))
    image = image or uf2.default_image()
    try:
        blocks = uf2.check_image(image)
        if drive is not None:
            uf2.check_drive(drive)
        else:
            drive = uf2.wait_for_drive(wait_drive_s, echo, volumes or uf2.mounted_volumes)
        echo(_("copying {image} ({kb} KB of flash) to the Pico's BOOTSEL drive {drive} …")
             .format(image=image.name, kb=blocks * 256 // 1024, drive=drive))
        uf2.copy_image(image, drive, echo)
    except uf2.UF2Error as exc:
        raise FlashError(str(exc)) from exc
    echo(_("image copied; the Pico restarts into futmesa. Waiting up to {seconds} s for "
           "{port} …").format(seconds=f"{wait_port_s:g}", port=port))
    _wait_new_port(port, wait_port_s)
    with tempfile.TemporaryDirectory(prefix="futmesa-flash-") as tmp:
        board_json = Path(tmp) / "board.json"
        shutil.copyfile(board.path, board_json)
        plan = FlashPlan(board=board, port=port, sources=[], staging=Path(tmp),
                         copies=[(board_json, "board.json")])
        echo(_("writing the board file {name} as board.json").format(name=board.path.name))
        # the image is still booting (first boot writes its default board file): be patient
        _copy_with_mpremote(plan, echo, run, detect or _patient_release, settle_s,
                            check_board=False)  # the image is the Pico's
    _check_versions(board.name, port, verify, timeout_s, echo)


def _patient_release(port: str) -> object | None:
    return release_board(port, timeout_s=10.0)


def _wait_new_port(port: str, timeout_s: float) -> None:
    import time

    deadline = time.monotonic() + timeout_s
    while not os.path.exists(port):
        if time.monotonic() > deadline:
            raise FlashError(_("{port} did not appear within {seconds} s after the image was "
                               "copied: check the cable (a data cable, not a charge-only one) "
                               "and the port name (`futmesa doctor` lists the ports), then run "
                               "`futmesa flash --board pico --port PORT` to write the board "
                               "file").format(port=port, seconds=f"{timeout_s:g}"))
        time.sleep(0.2)


def _probe_versions(port: str, timeout_s: float) -> object:
    from futmesa.deploy.probe import ProbeError, probe

    try:
        return probe(port, timeout_s=timeout_s).info
    except ProbeError as exc:
        raise FlashError(_("the firmware was copied but the board did not answer: {problem}")
                         .format(problem=exc)) from exc
