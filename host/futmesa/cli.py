"""The `futmesa` command: demo, serve, rerun, report, watch, and the hardware commands."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import sys
from pathlib import Path
from typing import Any

import click

from futmesa import __version__, i18n
from futmesa.cli_camera import CAMERA_HELP, SETTING_HELP, camera_options, camera_ready
from futmesa.cli_words import lang_from_argv, localize
from futmesa.health import storage_error_line
from futmesa.i18n import _


def _ruleset_help() -> str:
    from futmesa.rules import ruleset_names

    return ("One of: " + ", ".join(ruleset_names())
            + " (or the ruleset's title, accents optional: gaúcha, \"CBFM 1 Toque\").")


RULESET_HELP = _ruleset_help()
PUBLIC_URL_HELP = ("Address phones open, printed and put in the console QR code "
                   "(default: this computer's address on the local network).")


def _setup_logging(verbose: bool) -> None:
    logging.basicConfig(
        level=logging.DEBUG if verbose else logging.INFO,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        datefmt="%H:%M:%S",
    )
    logging.getLogger("uvicorn.error").setLevel(logging.WARNING)
    # httpx logs every request at INFO ("HTTP Request: GET …"): not for a person's terminal
    for name in ("httpx", "httpcore"):
        logging.getLogger(name).setLevel(logging.WARNING)


def _check_ruleset(name: str) -> str:
    """The ruleset's id from what a person typed (its id or its title, accents optional)."""
    from futmesa.rules import UnknownRuleset, resolve_ruleset

    try:
        return resolve_ruleset(name)
    except UnknownRuleset as exc:
        raise click.BadParameter(str(exc), param_hint="--ruleset") from None


def _load_settings(path: str | None) -> dict[str, Any]:
    """The checked settings file (durations converted to ms), or one line saying what to fix."""
    from futmesa.config import SettingsError, load_settings_file

    if not path:
        return {}
    try:
        return load_settings_file(path)
    except SettingsError as exc:
        raise click.BadParameter(str(exc), param_hint="--settings") from None


def _check_devices(devices: tuple[str, ...]) -> None:
    """Refuse a --device that is not a serial port or that another program holds."""
    from futmesa.portcheck import port_problem

    for device in devices:
        if not device.strip():
            raise click.BadParameter(_(
                "empty: give the table's serial port, e.g. --device /dev/ttyACM0 (a Pico on "
                "USB) or the path `futmesa sim` prints"), param_hint="--device")
        problem = port_problem(device)
        if problem:
            raise click.BadParameter(problem, param_hint="--device")


def db_line(db: str) -> str:
    """The line `serve` prints first: where the event log is (a relative --db is in the
    current folder, which a person may not have in mind)."""
    return f"registro de eventos: {Path(db).resolve()}"


def _check_db(db: str, create: bool) -> None:
    """Refuse an event log in a folder that does not exist, or a file that is not a log."""
    from futmesa.dbcheck import db_problem

    problem = db_problem(db, create=create)
    if problem:
        raise click.BadParameter(problem, param_hint="--db")


def _set_lang(ctx: click.Context, param: click.Parameter, value: str | None) -> None:
    if value:
        localize(cli, value)


@click.group()
@click.version_option(__version__, prog_name="futmesa")
@click.option("-v", "--verbose", is_flag=True, help="Log debugging detail.")
@click.option("--lang", type=click.Choice(["pt_BR", "pt", "en"]), default=None, is_eager=True,
              expose_value=False, callback=_set_lang,
              help="Language of everything printed: pt_BR or en (default: FUTMESA_LANG, else "
                   "the locale, else pt_BR).")
def cli(verbose: bool) -> None:
    """futmesa: match controller for instrumented futebol de mesa tables."""
    _setup_logging(verbose)


@cli.command()
@click.option("--ruleset", default="cbfm-1toque", show_default=True, help=RULESET_HELP)
@click.option("--speed", default=60, show_default=True, type=click.IntRange(1, 5000),
              help="How many times faster than real time the simulated table runs.")
@click.option("--http-port", default=8000, show_default=True, type=click.IntRange(1, 65535),
              help="Port of the web pages (scoreboard, console, history).")
@click.option("--db", type=click.Path(dir_okay=False), default=None,
              help="SQLite event log, kept (default: a file in a temporary folder, removed when "
                   "the demo stops). With --tournament: the desk's file (a new one), the "
                   "tables' event log next to it (NAME-mesas.sqlite).")
@click.option("--exit-when-done", is_flag=True, help="Exit 0 after the final whistle.")
@click.option("--tournament", "tournament", type=int, default=None, metavar="TEAMS",
              help="Play a whole competition instead: TEAMS teams in two groups and a final, "
                   "TEAMS/2 simulated tables, a real mosquitto broker and the venue desk.")
@click.option("--desk-port", default=8100, show_default=True, type=click.IntRange(1, 65535),
              help="With --tournament: the desk's web port (venue board, standings).")
@click.option("--championship", is_flag=True,
              help="Play a championship day instead: two categories sharing six simulated "
                   "tables (Aberto: twelve teams of four clubs in pots, a Swiss phase into "
                   "semi-finals and a final; Sub-18: two groups into Ouro and Prata finals), "
                   "a real mosquitto broker and the venue desk; then the day's spreadsheets.")
@click.option("--exports", type=click.Path(file_okay=False), default="futmesa-campeonato",
              show_default=True,
              help="With --championship: the folder for the day's spreadsheets (XLSX, CSV).")
@click.option("--http-host", default="0.0.0.0", show_default=True,
              help="Interface to serve on (0.0.0.0: every one, so a phone can open the console).")
@click.option("--public-url", default=None, help=PUBLIC_URL_HELP)
@click.option("--board", type=click.Choice(["sim", "pico", "sbc"]), default="sim",
              show_default=True,
              help="sim: the firmware under the MicroPython unix port; pico: the Pico image "
                   "(`make firmware`) on the emulated RP2040, with 2-minute halves; sbc: a "
                   "Raspberry Pi table (the firmware under CPython) on simulated pins, with a "
                   "break-beam and a VL53L0X goal line.")
@click.option("--camera", "camera_source", type=click.Choice(["sim"]), default=None,
              help="sim: a simulated camera films the match; every goal gets its clip in the "
                   "log and on the TV (docs/camera.md).")
def demo(ruleset: str, speed: int, http_port: int, db: str | None, exit_when_done: bool,
         tournament: int | None, desk_port: int, championship: bool, exports: str,
         http_host: str, public_url: str | None, board: str,
         camera_source: str | None) -> None:
    """Play a scripted match on a simulated table into the live scoreboard.

    Every process it starts ends with it, on Ctrl-C, SIGTERM or SIGHUP alike; without
    --db its files are in a temporary folder, removed when it stops."""
    from futmesa import children

    if tournament is not None or championship:
        from futmesa.cli_venue import tournament_demo

        if tournament is not None and championship:
            raise click.UsageError(_("--tournament or --championship, not both"))
        tournament_demo(tournament or 0, speed, http_port, desk_port, exit_when_done, db=db,
                        http_host=http_host, public_url=public_url, championship=championship,
                        exports=exports)
        return
    ruleset = _check_ruleset(ruleset)
    if db:
        _check_db(db, create=True)
    # without --db the event log is in a temporary folder, removed when the demo stops
    workdir = None if db else children.temp_dir("futmesa-demo-")
    db_path = db or str(Path(str(workdir), "match.sqlite"))
    try:
        result = _play_demo(ruleset, speed, http_host, http_port, db_path, exit_when_done,
                            public_url, board, kept=bool(db),
                            camera=camera_options(camera_source, ()))
    except KeyboardInterrupt:
        click.echo(_("stopped"))
        result = {}
    finally:
        if workdir is not None:
            children.remove_temp_dir(workdir)
    if db:
        click.echo(_("event log kept: {db} (futmesa matches --db {db})").format(db=db))
    if "error" in result:
        raise click.ClickException(result["error"])
    if exit_when_done and "final" not in result:
        raise click.ClickException(_("the demo stopped before the final whistle"))


def ruleset_period_ms(ruleset: str) -> int:
    """The length of a half in `ruleset` with no settings file (its document's)."""
    from futmesa.rules import Engine, load_ruleset

    profile = Engine(load_ruleset(ruleset)).initial_state().m["clock_profile"]
    return int(profile["period_ms"])


def _play_demo(ruleset: str, speed: int, http_host: str, http_port: int, db_path: str,
               exit_when_done: bool, public_url: str | None, board: str,
               kept: bool, camera: Any = None) -> dict[str, Any]:
    """Start the simulated table and the daemon, play the scripted match; the table is
    stopped however this ends (the final whistle, Ctrl-C, SIGTERM, SIGHUP, an error)."""
    from futmesa import server
    from futmesa.sim import SimTable, SimTableError
    from futmesa.sim.demo_match import FULL_HALF_MS, DemoError, play

    result: dict[str, Any] = {}
    settings: dict[str, Any] | None = None
    period_ms, pace = FULL_HALF_MS, float(speed)
    sim: Any = None
    try:
        try:
            if board == "pico":
                from futmesa.sim.vpico import VirtualPico

                # a blank flash: the image is written, and writes its board file at first boot
                flash = Path(db_path).with_name("pico-flash.img")
                sim = VirtualPico(flash_file=flash)
                period_ms, pace = 120_000, 0.05
                settings = {"period_ms": period_ms, "interval_ms": 20_000}
                click.echo(_("the virtual Pico: the RP2040 is emulated, slower than real time"))
                if kept:
                    click.echo(_("the virtual Pico's flash: {path} (kept)").format(path=flash))
            elif board == "sbc":
                from futmesa.sbc.table import SbcTable

                period_ms = ruleset_period_ms(ruleset)
                # goal line 0 a break-beam, goal line 1 a VL53L0X (Adafruit's driver, fake bus)
                sim = SbcTable(speed=speed, goal_sensor="mixed")
                click.echo(_("a Raspberry Pi table on simulated pins: the firmware's own loop "
                             "under CPython; goal line 0 a break-beam, goal line 1 a VL53L0X"))
            else:
                # the script is scaled to the ruleset's own half (003: 10 min, 004: 1 min)
                period_ms = ruleset_period_ms(ruleset)
                sim = SimTable(speed=speed)
            sim.start()
        except SimTableError as exc:
            raise click.ClickException(str(exc)) from exc

        async def scripted(running: server.Running) -> None:
            click.echo(_("event log: {path}").format(path=db_path) + ("" if kept else _(
                " (temporary: removed when the demo stops; --db FILE keeps it)")))
            try:
                await camera_ready(running.camera)  # the first goal gets its clip too
                final = await play(running, sim, pace, click.echo, period_ms=period_ms)
            except DemoError as exc:
                result["error"] = str(exc)
                running.stop()
                return
            result["final"] = final
            teams, score = final.get("teams", {}), final.get("score", {})
            name_a = teams.get("A", {}).get("name", "A")
            name_b = teams.get("B", {}).get("name", "B")
            click.echo(_("FINAL SCORE: {team_a} {goals_a} × {goals_b} {team_b}").format(
                team_a=name_a, goals_a=score.get("A", 0), goals_b=score.get("B", 0),
                team_b=name_b))
            tally = ((final.get("match") or {}).get("shootout") or {}).get("tally")
            if tally:  # a level knockout decided on penalties (003 Art. 28, 004)
                click.echo(_("PENALTIES: {team_a} {goals_a} × {goals_b} {team_b}").format(
                    team_a=name_a, goals_a=tally.get("A", 0), goals_b=tally.get("B", 0),
                    team_b=name_b))
            if exit_when_done:
                running.stop()
            else:
                click.echo(_("the scoreboard is still at {url}/ — Ctrl-C to stop").format(
                    url=running.public_url or running.base_url))

        try:
            asyncio.run(server.run(sim.host_port, db_path, ruleset, settings,
                                   http_host=http_host, http_port=http_port,
                                   on_ready=scripted, public_url=public_url, camera=camera))
        except server.PortInUseError as exc:
            raise click.ClickException(str(exc)) from exc
    finally:
        if sim is not None:
            sim.stop()
    return result


@cli.command()
@click.option("--speed", default=1, show_default=True, type=click.IntRange(1, 5000),
              help="How many times faster than real time the table's clock runs.")
@click.option("--goal-sensor", type=click.Choice(["beam", "tof"]), default="beam",
              show_default=True, help="Goal-line sensor type of the simulated board.")
@click.option("--table", "number", type=click.IntRange(1, 99), default=None,
              help="Number of this simulated table (its id SIM0000N, 'Mesa N', and its "
                   "device path …/futmesa-sim-…/mesa-N.tty); default: the first one no other "
                   "futmesa sim on this computer is using.")
def sim(speed: int, goal_sensor: str, number: int | None) -> None:
    """A simulated table on a pseudo-terminal: prints its path for `serve --device`, the same
    path every time the same table starts again (as a real table keeps /dev/ttyACM0), so a
    `serve` left running connects to it again by itself."""
    from futmesa.sim.command import run_sim
    from futmesa.sim.ids import TableIdInUse
    from futmesa.sim.table import SimTableError

    try:
        run_sim(speed, goal_sensor, echo=lambda text: click.echo(text, nl=True), number=number)
    except (SimTableError, TableIdInUse) as exc:
        raise click.ClickException(str(exc)) from exc


@cli.command()
@click.option("--device", "devices", multiple=True,
              help="Serial port of a table (e.g. /dev/ttyACM0); repeat for several tables.")
@click.option("--ruleset", default="cbfm-1toque", show_default=True, help=RULESET_HELP)
@click.option("--db", type=click.Path(dir_okay=False), default="futmesa.sqlite",
              show_default=True, help="SQLite event log, created if missing (a relative path "
              "is in the current folder).")
@click.option("--settings", "settings_path", type=click.Path(dir_okay=False), default=None,
              help="JSON file with competition settings (teams, colours, half length...).")
@click.option("--http-host", default="0.0.0.0", show_default=True,
              help="Interface to serve on (0.0.0.0: every one, so a phone can open the console; "
                   "127.0.0.1: this computer only).")
@click.option("--http-port", default=8000, show_default=True, type=click.IntRange(1, 65535),
              help="Port of the web pages (scoreboard, console, history).")
@click.option("--logos", "logo_dir", type=click.Path(exists=True, file_okay=False), default=None,
              help="Folder of club logos (PNG/SVG named after the team, e.g. gremio-f-c.png).")
@click.option("--tls-cert", type=click.Path(dir_okay=False), default=None,
              help="Serve HTTPS with this certificate (PEM); needs --tls-key.")
@click.option("--tls-key", type=click.Path(dir_okay=False), default=None,
              help="The certificate's private key (PEM, no passphrase).")
@click.option("--max-body-kib", default=64, show_default=True, type=click.IntRange(1, 65536),
              help="Largest request body accepted, in KiB (bigger ones get 413).")
@click.option("--public-url", default=None, help=PUBLIC_URL_HELP)
@click.option("--venue-broker", default=None,
              help="Venue MQTT broker (mqtt://HOST:PORT): publish to the desk, take its matches.")
@click.option("--venue-credentials", type=click.Path(dir_okay=False), default=None,
              help="This table's credentials file from `futmesa venue broker-config`.")
@click.option("--sbc", is_flag=True,
              help="The sensors are wired to this Raspberry Pi: run the firmware's loop here "
                   "(docs/install.md, \"Raspberry Pi\") instead of reading a --device.")
@click.option("--board", "sbc_board", default="rpi", show_default=True,
              help="With --sbc: the board file (a name in hardware/boards, or a path).")
@click.option("--state", "sbc_state", type=click.Path(file_okay=False), default=None,
              help="With --sbc: the table's state folder (its flash: clock checkpoint, boot "
                   "id, calibration); default: next to --db (futmesa-mesa/).")
@click.option("--camera", "camera_source", default=None, metavar="SOURCE", help=CAMERA_HELP)
@click.option("--camera-setting", "camera_pairs", multiple=True, metavar="KEY=VALUE",
              help=SETTING_HELP)
@click.option("--new-referee-token", is_flag=True,
              help="Retire every referee console link kept in --db (a leaked link, a lost "
                   "printed QR): each table gets a new one, printed with its QR; the old ones "
                   "are refused. Without it, the links outlive a restart.")
@click.option("--simulated-pins", is_flag=True, hidden=True,
              help="With --sbc: simulated pins driven by control lines on stdin (tests).")
def serve(devices: tuple[str, ...], ruleset: str, db: str, settings_path: str | None,
          http_host: str, http_port: int, logo_dir: str | None, tls_cert: str | None,
          tls_key: str | None, max_body_kib: int, venue_broker: str | None,
          venue_credentials: str | None, public_url: str | None, sbc: bool, sbc_board: str,
          sbc_state: str | None, camera_source: str | None, camera_pairs: tuple[str, ...],
          new_referee_token: bool, simulated_pins: bool) -> None:
    """Run the daemon against a real board (or a pty path), or a Raspberry Pi's own pins."""
    from futmesa import server

    ruleset = _check_ruleset(ruleset)
    settings = _load_settings(settings_path)
    camera = camera_options(camera_source, camera_pairs)
    if sbc == bool(devices):
        raise click.UsageError(_("say where the table is: --device PORT (a Pico on USB) or "
                                 "--sbc (the sensors on this Raspberry Pi's header)"))
    _check_devices(devices)
    _check_db(db, create=True)
    from futmesa.cli_venue import venue_options

    venue = venue_options(venue_broker, venue_credentials)
    click.echo(db_line(db))
    pi = _start_pi_table(sbc_board, sbc_state, db, simulated_pins) if sbc else None
    if pi is not None:
        devices = (pi.host_port,)
    try:
        asyncio.run(server.run(list(devices), db, ruleset, settings, http_host=http_host,
                               http_port=http_port,
                               logo_dir=Path(logo_dir) if logo_dir else None,
                               tls_cert=tls_cert, tls_key=tls_key,
                               max_body=max_body_kib * 1024, venue=venue,
                               public_url=public_url, camera=camera,
                               new_referee_token=new_referee_token))
    except (server.PortInUseError, ValueError) as exc:
        raise click.ClickException(str(exc)) from exc
    except KeyboardInterrupt:
        click.echo(_("stopped"))
    finally:
        if pi is not None:
            pi.stop()


def _start_pi_table(board: str, state: str | None, db: str, simulated: bool) -> Any:
    """`serve --sbc`: the firmware's loop on this Pi's pins, in a process of its own."""
    from futmesa.hardware.boardfile import BoardFileError, load_board
    from futmesa.sbc.serve import PiTable, default_state_dir
    from futmesa.sim.table import SimTableError

    try:
        load_board(board)
    except BoardFileError as exc:
        raise click.BadParameter(str(exc), param_hint="--board") from exc
    folder = Path(state) if state else default_state_dir(db)
    click.echo(_("Raspberry Pi table: board {board}, state folder {folder}; this computer "
                 "keeps the official time").format(board=board, folder=folder))
    pi = PiTable(board, folder, simulated=simulated)
    try:
        pi.start()
    except SimTableError as exc:
        pi.stop()
        raise click.ClickException(str(exc)) from exc
    return pi


@cli.command()
@click.argument("match_id", type=int)
@click.option("--ruleset", required=True, help=RULESET_HELP)
@click.option("--db", type=click.Path(exists=True, dir_okay=False), default="futmesa.sqlite",
              show_default=True, help="SQLite event log written by futmesa serve.")
@click.option("--lang", type=click.Choice(["pt", "en"]), default=None,
              help="Language of the lines printed (default: the language of --lang before the "
                   "command).")
def rerun(match_id: int, ruleset: str, db: str, lang: str | None) -> None:
    """Re-run a stored match under another ruleset and show what would differ."""
    from futmesa.matchbook import UnloadableMatch
    from futmesa.matchbook.rerun import rerun as rerun_match
    from futmesa.store import EventLog

    lang = lang or i18n.short(i18n.language())
    _ = i18n.translator(lang).gettext  # noqa: F811 - the lines in --lang's language
    ruleset = _check_ruleset(ruleset)
    _check_db(db, create=False)
    store = EventLog(db)
    match = store.match(match_id)
    if match is None:
        raise click.ClickException(_("no match {id} in {db}: see `futmesa matches --db {db}`")
                                   .format(id=match_id, db=db))
    try:
        result = rerun_match(match, store.entries(match_id), ruleset, lang)
    except UnloadableMatch as exc:
        raise click.ClickException(
            _("match {id} cannot be replayed: {why}; its log is kept as it is").format(
                id=match_id, why=exc.pt if lang == "pt" else exc.en)) from exc
    click.echo(result.title)
    for line in result.differences or [result.nothing]:
        click.echo(f"  {line}")


@cli.command()
@click.option("--db", type=click.Path(exists=True, dir_okay=False), default="futmesa.sqlite",
              show_default=True, help="SQLite event log written by futmesa serve.")
def matches(db: str) -> None:
    """List the stored matches."""
    from futmesa.matchbook import MatchLibrary
    from futmesa.matchbook.live import names_of
    from futmesa.matchbook.wording import ruleset_title
    from futmesa.store import EventLog

    _check_db(db, create=False)
    for m in MatchLibrary(EventLog(db)).list_matches():
        score = m.get("score") or {}
        teams = m.get("teams") or {}
        ending = (m.get("ending") or {}).get(i18n.short(i18n.language()), "")
        # what people call them, never the ids ("cbfm-1toque", "sim-SIM00001")
        # each match's own table: its settings' name, else "Mesa N" from its id
        rules, table = ruleset_title(m["ruleset"]), names_of(m["table_id"], m.get("settings"))
        if not m.get("loadable", True):
            click.echo(f"{m['id']:>4}  {rules:<22} {table:<10} {ending}")
            continue
        click.echo(f"{m['id']:>4}  {rules:<22} {table:<10} "
                   f"{teams.get('A', {}).get('name', 'A')} {score.get('A', 0)} × "
                   f"{score.get('B', 0)} {teams.get('B', {}).get('name', 'B')}"
                   f"{'' if m.get('finished') else f'  ({ending})'}")


@cli.command()
@click.argument("match_id", type=int)
@click.option("--db", type=click.Path(exists=True, dir_okay=False), default="futmesa.sqlite",
              show_default=True, help="SQLite event log written by futmesa serve.")
@click.option("--pdf", "pdf_path", type=click.Path(dir_okay=False), default=None,
              help="Write the súmula as PDF (A4) [default: sumula-MATCH.pdf].")
@click.option("--html", "html_path", type=click.Path(dir_okay=False), default=None,
              help="Write the súmula as an HTML page.")
@click.option("--csv", "csv_path", type=click.Path(dir_okay=False), default=None,
              help="Write the súmula as CSV: every table, fields split by ';' "
                   "(a spreadsheet in Portuguese opens it).")
@click.option("--json", "json_path", type=click.Path(dir_okay=False), default=None,
              help="Write the whole match record as JSON.")
@click.option("--lang", type=click.Choice(["pt", "en"]), default=None,
              help="Language of the súmula (default: the language of --lang before the "
                   "command).")
@click.option("--verify-url", "verify_base", default=None,
              help="Address of the futmesa host whose page checks this súmula, as futmesa "
                   "serve printed it (http://ADDRESS:PORT), for its QR code; without it the "
                   "súmula names no address and says how to check it on the host.")
@click.option("--timekeeping", is_flag=True,
              help="Every lance-timer row in the event log (lance started, warnings, "
                   "expiries); by default they are folded away, said in a note under the "
                   "table.")
def report(match_id: int, db: str, pdf_path: str | None, html_path: str | None,
           csv_path: str | None, json_path: str | None, lang: str | None,
           verify_base: str | None, timekeeping: bool) -> None:
    """Write the súmula (official match report) of a stored match."""
    from futmesa import report as rep
    from futmesa.matchbook import MatchLibrary, UnloadableMatch
    from futmesa.netaddr import public_base_url
    from futmesa.store import EventLog

    lang = lang or i18n.short(i18n.language())
    _check_db(db, create=False)
    try:
        record = MatchLibrary(EventLog(db)).match_record(match_id)
    except UnloadableMatch as exc:
        raise click.ClickException(
            _("match {id} {ending}; its log is kept: open it with the futmesa version that "
              "wrote it").format(id=match_id, ending=exc.ending()[i18n.short(i18n.language())])
        ) from None
    except KeyError as exc:
        raise click.ClickException(str(exc.args[0])) from exc
    # the QR code and "Verifique em" name the host's verification page, as on the web súmula,
    # only when its address is given: never a guessed one (the súmula then says how to check)
    if verify_base:
        base = public_base_url("0.0.0.0", 8000, verify_base)
        record = {**record, "verify_url": f"{base}/verificar/{match_id}"}
    else:
        record = {**record, "verify_url": "", "verify_db": Path(db).name}
        if pdf_path or html_path or not (csv_path or json_path):
            click.echo(_("The súmula names no verification address (its QR code needs the "
                         "host's): it says how to check it on the host; to print the address "
                         "and its QR code, write it again with --verify-url "
                         "http://ADDRESS:PORT"))
    if not any((pdf_path, html_path, csv_path, json_path)):
        pdf_path = f"sumula-{match_id}.pdf"
    outputs = [(o, p) for o, p in (("--pdf", pdf_path), ("--html", html_path),
                                   ("--csv", csv_path), ("--json", json_path)) if p]
    for option, out in outputs:
        folder = Path(out).parent
        if not folder.is_dir():
            raise click.BadParameter(
                _("the folder {folder} does not exist: create it first, or write the file "
                  "somewhere else").format(folder=folder), param_hint=option)
    try:
        for path in rep.export(record, pdf=pdf_path, html_path=html_path, csv_path=csv_path,
                               json_path=json_path, lang=lang, timekeeping=timekeeping):
            click.echo(_("wrote {path}").format(path=path))
    except OSError as exc:
        raise click.ClickException(
            _("cannot write the súmula ({why}): check the folder's permissions and free space")
            .format(why=exc.strerror)) from None


@cli.command()
@click.argument("match_id", type=int, required=False)
@click.option("--db", type=click.Path(dir_okay=False), default=None,
              help="SQLite event log to check [default: futmesa.sqlite, unless --sumula].")
@click.option("--sumula", "sumula_path", type=click.Path(exists=True, dir_okay=False),
              default=None, help="A JSON súmula (futmesa report --json) to check against "
              "itself, and against --db when given.")
def verify(match_id: int | None, db: str | None, sumula_path: str | None) -> None:
    """Check the hash chain of every match (or MATCH), or a JSON súmula; exit 1 when
    something does not match, naming the first entry that does not."""
    from futmesa import verify as check

    if sumula_path is None:
        db = db or "futmesa.sqlite"
    if db is not None:
        _check_db(db, create=False)
    if sumula_path is not None:
        ok, lines = check.verify_sumula(sumula_path, db)
    else:
        assert db is not None
        ok, lines = check.verify_db(db, match_id)
    for line in lines:
        click.echo(line)
    if not ok:
        sys.exit(1)


@cli.command()
@click.option("--url", default="http://localhost:8000", show_default=True,
              help="Address of a running futmesa daemon.")
@click.option("--table", "table", default=None,
              help="Which table of a host that serves several: its number (2), its name "
                   "(\"Mesa 2\") or its id; default: the host's first table.")
def watch(url: str, table: str | None) -> None:
    """A terminal scoreboard for a setup with no screen browser."""
    from futmesa import watch as watch_mod

    problem = watch_mod.check_server(url)
    if problem:
        raise click.ClickException(problem)
    table_id = None
    if table:
        table_id, problem = watch_mod.find_table(url, table)
        if problem:
            raise click.ClickException(problem)
    try:
        asyncio.run(watch_mod.watch(url, table=table_id))
    except KeyboardInterrupt:
        pass


def _register_hardware() -> None:
    try:
        from futmesa import cli_hardware
    except ImportError:
        return
    cli_hardware.register(cli)


_register_hardware()


def _register_venue() -> None:
    from futmesa import cli_venue

    cli_venue.register(cli)


_register_venue()
localize(cli)  # FUTMESA_LANG, else the locale, else pt_BR; `--lang` and main() set it again


def main() -> None:
    from futmesa.children import stop_on_signals

    stop_on_signals()  # SIGTERM and SIGHUP stop every command as Ctrl-C does
    localize(cli, lang_from_argv(sys.argv[1:]))  # before click reads --help or an error
    try:
        cli()
    except KeyboardInterrupt:
        sys.exit(130)
    except (sqlite3.Error, OSError) as exc:  # a full disk, a read-only file: one line
        line = storage_error_line(exc)
        if line is None:
            raise
        click.echo(_("Error: {reason}").format(reason=line), err=True)
        sys.exit(1)
