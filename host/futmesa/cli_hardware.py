"""Hardware commands of the `futmesa` CLI: flash, doctor, calibrate, kiosk-setup, drawings.

`register(cli)` adds them to the main click group (host/futmesa/cli.py).
Every failure is a `click.ClickException` whose message says what to do.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from futmesa.hardware.boardfile import BoardFileError, board_names, load_board
from futmesa.i18n import _, ngettext

BOARD_HELP = "Board file name in hardware/boards (pico, esp32) or a path to your own."


@click.command()
@click.option("--board", required=True, help=BOARD_HELP)
@click.option("--port", required=True, help="Serial port of the board, e.g. /dev/ttyACM0.")
@click.option("--timeout", default=15.0, show_default=True,
              help="Seconds to wait for the board to answer after the reset.")
@click.option("--uf2", "use_uf2", is_flag=True,
              help="Pico: copy the futmesa image onto the BOOTSEL drive (hold BOOTSEL while "
                   "plugging the Pico in), then write the board file.")
@click.option("--image", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="With --uf2: the image [build/firmware/futmesa-pico.uf2, `make firmware`].")
@click.option("--drive", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="With --uf2: the BOOTSEL drive's folder [found among the mounted drives].")
@click.option("--wait", "wait_s", default=60.0, show_default=True,
              help="With --uf2: seconds to wait for the BOOTSEL drive.")
@click.option("--force", is_flag=True,
              help="Flash even when the board says it is another board (rewired on purpose).")
def flash(board: str, port: str, timeout: float, use_uf2: bool, image: Path | None,
          drive: Path | None, wait_s: float, force: bool) -> None:
    """Put the firmware and the board file on the board and check the version it reports.

    Without --uf2: compile the firmware and copy it with mpremote onto a board running
    stock MicroPython (Pico or ESP32). With --uf2 (Pico): write the futmesa image, then
    the board file.
    """
    from futmesa.deploy.flash import FlashError, flash_uf2
    from futmesa.deploy.flash import flash as do_flash

    if not use_uf2 and (image is not None or drive is not None):
        raise click.UsageError(_("--image and --drive go with --uf2"))
    try:
        if use_uf2:
            flash_uf2(board, port, image=image, drive=drive, wait_drive_s=wait_s,
                      timeout_s=timeout, echo=click.echo)
        else:
            do_flash(board, port, timeout_s=timeout, echo=click.echo, force=force)
    except FlashError as exc:
        raise click.ClickException(str(exc)) from exc


@click.command("kiosk-setup")
@click.option("--out", required=True, type=click.Path(file_okay=False, path_type=Path),
              help="Folder to write the files into.")
@click.option("--user", default="pi", show_default=True, help="Raspberry Pi user.")
@click.option("--workdir", default=None, help="futmesa checkout on the Pi [/home/USER/futmesa].")
@click.option("--device", default="/dev/futmesa-table", show_default=True,
              help="Serial port of the table's board (the udev rule creates the default).")
@click.option("--ruleset", default="cbfm-1toque", show_default=True,
              help="Ruleset the Pi's daemon plays (checked now).")
@click.option("--http-port", default=8000, show_default=True, type=click.IntRange(1, 65535),
              help="Port of the Pi's web pages.")
@click.option("--settings", "settings_path", default=None,
              type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="Competition settings file (checked now, copied for the Pi).")
@click.option("--logos", "logo_dir", default=None,
              type=click.Path(exists=True, file_okay=False, path_type=Path),
              help="Folder of club logos (copied for the Pi).")
@click.option("--no-qr", is_flag=True,
              help="Open the scoreboard at once, not the console QR until the match starts.")
@click.option("--sbc", is_flag=True,
              help="The sensors are wired to this Pi's header (no microcontroller): the unit "
                   "runs `serve --sbc`, and systemd restarts it if its loop stops.")
@click.option("--force", is_flag=True, help="Overwrite files already in --out.")
def kiosk_setup(out: Path, user: str, workdir: str | None, device: str, ruleset: str,
                http_port: int, settings_path: Path | None, logo_dir: Path | None,
                no_qr: bool, sbc: bool, force: bool) -> None:
    """Write systemd units and the Chromium kiosk launcher for a Raspberry Pi scoreboard."""
    from futmesa.config import SettingsError, load_settings_file
    from futmesa.deploy.kiosk import KioskConfig, write_kiosk
    from futmesa.rules import UnknownRuleset, resolve_ruleset

    try:  # a mistake found here, not at every boot of the Pi
        ruleset = resolve_ruleset(ruleset)
    except UnknownRuleset as exc:
        raise click.BadParameter(str(exc), param_hint="--ruleset") from None
    if settings_path is not None:
        try:
            load_settings_file(settings_path)
        except SettingsError as exc:
            raise click.BadParameter(str(exc), param_hint="--settings") from None
    wd = workdir or f"/home/{user}/futmesa"
    cfg = KioskConfig(user=user, workdir=wd, futmesa=f"{wd}/.venv/bin/futmesa", device=device,
                      ruleset=ruleset, db=f"{wd}/futmesa.sqlite", http_port=http_port,
                      settings=settings_path is not None, logos=logo_dir is not None,
                      show_qr=not no_qr, sbc=sbc)
    try:
        paths = write_kiosk(out, cfg, force=force, settings=settings_path, logos=logo_dir)
    except (FileExistsError, OSError) as exc:
        raise click.ClickException(str(exc)) from exc
    for p in paths:
        click.echo(p)
    click.echo(_("copy {out} to the Pi and run: sudo ./install.sh").format(out=out))


@click.command()
@click.option("--check", is_flag=True, help="Only check that hardware/drawings is up to date.")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Folder to write into [hardware/drawings].")
def drawings(check: bool, out: Path | None) -> None:
    """Regenerate the wiring and placement drawings from the board files."""
    from futmesa.hardware import drawings as gen

    try:
        if check:
            bad = gen.stale(out)
            if bad:
                raise click.ClickException(
                    _("drawings out of date: {files}; run `futmesa drawings` and commit them")
                    .format(files=", ".join(bad)))
            click.echo(_("the drawings are up to date"))
            return
        for p in gen.write_all(out):
            click.echo(p)
    except BoardFileError as exc:
        raise click.ClickException(str(exc)) from exc


@click.command()
@click.option("--port", default=None, help="Serial port; default: find the board on USB.")
@click.option("--serial", "serial_number", default=None,
              help="USB serial number of the board to find (when several are plugged in).")
@click.option("--board", default=None, help="Check against this board file instead of the "
              "one the board names.")
@click.option("--watch", "watch_s", default=0.0, show_default=True,
              help="Then print live sensor events for this many seconds.")
@click.option("--timeout", default=5.0, show_default=True,
              help="Seconds to wait for the board to answer.")
@click.option("--sbc", is_flag=True, help="The sensors are wired to this Raspberry Pi: start "
              "the firmware's loop on its pins and check it as a board on USB.")
@click.option("--state", "sbc_state", type=click.Path(file_okay=False), default="futmesa-mesa",
              show_default=True, help="With --sbc: the table's state folder (as `serve --sbc`).")
@click.option("--simulated-pins", is_flag=True, hidden=True,
              help="With --sbc: simulated pins (tests).")
def doctor(port: str | None, serial_number: str | None, board: str | None, watch_s: float,
           timeout: float, sbc: bool, sbc_state: str, simulated_pins: bool) -> None:
    """Find the board, show firmware and protocol versions and each sensor's state."""
    from futmesa.deploy.doctor import run_doctor
    from futmesa.deploy.probe import ProbeError

    pi = _pi_table(board or "rpi", sbc_state, simulated_pins) if sbc else None
    try:
        fails = run_doctor(pi.host_port if pi else port, serial_number, timeout_s=timeout,
                           watch_s=watch_s, board=board or ("rpi" if pi else None),
                           echo=click.echo)
    except ProbeError as exc:
        raise click.ClickException(str(exc)) from exc
    finally:
        if pi is not None:
            pi.stop()
    if fails:
        raise click.ClickException(ngettext(
            "{count} problem found: do what each FAIL line says, then run `futmesa doctor` "
            "again",
            "{count} problems found: do what each FAIL line says, then run `futmesa doctor` "
            "again", fails).format(count=fails))
    click.echo(_("no problems found"))


@click.command()
@click.option("--board", required=True, help=BOARD_HELP)
@click.option("--sbc", is_flag=True, help="The sensors are wired to this Raspberry Pi (the "
              "thresholds are kept in its state folder, as a Pico keeps them on flash).")
@click.option("--state", "sbc_state", type=click.Path(file_okay=False), default="futmesa-mesa",
              show_default=True, help="With --sbc: the table's state folder (as `serve --sbc`).")
@click.option("--port", default=None, help="Serial port of a microcontroller board.")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Where to write the calibrated board file [./BOARD-calibrated.json].")
@click.option("--balls", default=3, show_default=True, type=click.IntRange(1, 20),
              help="Test balls to verify each goal line with.")
@click.option("--timeout", default=3.0, show_default=True, type=click.FloatRange(0.5, 3600),
              help="Seconds to wait for each answer of a board on --port (more for a slow "
              "or busy board, e.g. the virtual Pico).")
def calibrate(board: str, sbc: bool, port: str | None, out: Path | None, balls: int,
              timeout: float, sbc_state: str) -> None:
    """Measure each goal sensor empty and with the ball in, set and verify thresholds."""
    from futmesa.deploy.calibrate import (
        CalibrateError,
        link_source,
        run_calibration,
    )
    from futmesa.hardware.boardfile import load_board

    pi = None
    try:
        b = load_board(board)
        if not sbc and not port:
            raise CalibrateError(_("say where the sensors are: --sbc (wired to this Raspberry "
                                   "Pi) or --port PORT (a microcontroller board)"))
        if sbc:
            pi = _pi_table(board, sbc_state, False)
            source = link_source(pi.host_port, board, timeout_s=timeout)
        else:
            assert port is not None
            source = link_source(port, board, timeout_s=timeout)
        target = out or Path(f"{b.name}-calibrated.json")
        try:
            run_calibration(source, b, target,
                            prompt=lambda msg: click.prompt(msg, default="", show_default=False,
                                                            prompt_suffix=" "),
                            echo=click.echo, balls=balls)
        finally:
            stop = getattr(source, "stop", None)
            if stop is not None:
                stop()
            if pi is not None:
                pi.stop()
    except (CalibrateError, BoardFileError) as exc:
        raise click.ClickException(str(exc)) from exc
    if sbc:
        click.echo(_("kept in {state}: `futmesa serve --sbc --state {state}` uses them").format(
            state=sbc_state))
    else:
        click.echo(_("keep {target}: `futmesa flash --board {target} --port {port}` puts the "
                     "same thresholds on a replacement board").format(target=target, port=port))


def _pi_table(board: str, state: str, simulated: bool) -> Any:
    """The firmware's loop on this Raspberry Pi's pins, started for doctor / calibrate."""
    from futmesa.sbc.serve import PiTable
    from futmesa.sim.table import SimTableError

    try:
        load_board(board)
    except BoardFileError as exc:
        raise click.ClickException(str(exc)) from exc
    pi = PiTable(board, state, simulated=simulated)
    try:
        pi.start()
    except SimTableError as exc:
        pi.stop()
        raise click.ClickException(str(exc)) from exc
    return pi


COMMANDS = [flash, doctor, calibrate, kiosk_setup, drawings]


def register(cli: click.Group) -> None:
    for cmd in COMMANDS:
        cli.add_command(cmd)


def known_boards() -> list[str]:
    return board_names()
