"""The `futmesa` command: demo, serve, rerun, report, watch, and the hardware commands."""

from __future__ import annotations

import asyncio
import json
import logging
import sys
import tempfile
from pathlib import Path
from typing import Any

import click

from futmesa import __version__

RULESET_HELP = "cbfm-1toque, gaucha, pastilha-8x2 or mesa-posta"


def _setup_logging(verbose: bool) -> None:
    logging.basicConfig(
        level=logging.DEBUG if verbose else logging.INFO,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        datefmt="%H:%M:%S",
    )
    logging.getLogger("uvicorn.error").setLevel(logging.WARNING)


def _check_ruleset(name: str) -> str:
    from futmesa.rules import load_ruleset

    try:
        load_ruleset(name)
    except KeyError as exc:
        msg = str(exc.args[0] if exc.args else exc)
        raise click.BadParameter(msg, param_hint="--ruleset") from exc
    return name


def _load_settings(path: str | None) -> dict[str, Any]:
    if not path:
        return {}
    try:
        data = json.loads(Path(path).read_text())
    except (OSError, json.JSONDecodeError) as exc:
        raise click.BadParameter(f"cannot read {path}: {exc}", param_hint="--settings") from exc
    if not isinstance(data, dict):
        raise click.BadParameter(f"{path} must hold a JSON object", param_hint="--settings")
    return data


@click.group()
@click.version_option(__version__, prog_name="futmesa")
@click.option("-v", "--verbose", is_flag=True, help="Log debugging detail.")
def cli(verbose: bool) -> None:
    """futmesa: match controller for instrumented futebol de mesa tables."""
    _setup_logging(verbose)


@cli.command()
@click.option("--ruleset", default="cbfm-1toque", show_default=True, help=RULESET_HELP)
@click.option("--speed", default=60, show_default=True, type=click.IntRange(1, 5000),
              help="How many times faster than real time the simulated table runs.")
@click.option("--http-port", default=8000, show_default=True, type=click.IntRange(1, 65535))
@click.option("--db", type=click.Path(dir_okay=False), default=None,
              help="SQLite event log (default: a new file in a temporary folder).")
@click.option("--exit-when-done", is_flag=True, help="Exit 0 after the final whistle.")
@click.option("--board", type=click.Choice(["sim", "pico"]), default="sim", show_default=True,
              help="sim: the firmware under the MicroPython unix port; pico: the Pico image "
                   "(`make firmware`) on the emulated RP2040, with 2-minute halves.")
def demo(ruleset: str, speed: int, http_port: int, db: str | None, exit_when_done: bool,
         board: str) -> None:
    """Play a scripted match on a simulated table into the live scoreboard."""
    from futmesa import server
    from futmesa.sim import SimTable, SimTableError
    from futmesa.sim.demo_match import FULL_HALF_MS, DemoError, play

    _check_ruleset(ruleset)
    db_path = db or str(Path(tempfile.mkdtemp(prefix="futmesa-demo-")) / "match.sqlite")
    result: dict[str, Any] = {}

    def say(text: str) -> None:
        click.echo(text)

    settings: dict[str, Any] | None = None
    period_ms, pace = FULL_HALF_MS, float(speed)
    try:
        if board == "pico":
            from futmesa.sim.vpico import VirtualPico

            # a blank flash: the image is written, and writes its board file at first boot
            sim = VirtualPico(flash_file=Path(db_path).with_name("pico-flash.img"))
            period_ms, pace = 120_000, 0.05
            settings = {"period_ms": period_ms, "interval_ms": 20_000}
            click.echo("the virtual Pico: the RP2040 is emulated, slower than real time")
        else:
            sim = SimTable(speed=speed)
        sim.start()
    except SimTableError as exc:
        raise click.ClickException(str(exc)) from exc

    async def scripted(running: server.Running) -> None:
        click.echo(f"event log: {db_path}")
        try:
            final = await play(running, sim, pace, say, period_ms=period_ms)
        except DemoError as exc:
            result["error"] = str(exc)
            running.stop()
            return
        result["final"] = final
        teams, score = final.get("teams", {}), final.get("score", {})
        name_a = teams.get("A", {}).get("name", "A")
        name_b = teams.get("B", {}).get("name", "B")
        click.echo(f"FINAL SCORE: {name_a} {score.get('A', 0)} x {score.get('B', 0)} {name_b}")
        if exit_when_done:
            running.stop()
        else:
            click.echo(f"still serving the scoreboard at {running.base_url}/ — Ctrl-C to stop")

    try:
        asyncio.run(server.run(sim.host_port, db_path, ruleset, settings, http_port=http_port,
                               on_ready=scripted))
    except server.PortInUseError as exc:
        raise click.ClickException(str(exc)) from exc
    except KeyboardInterrupt:
        click.echo("stopped")
    finally:
        sim.stop()
    if "error" in result:
        raise click.ClickException(result["error"])
    if exit_when_done and "final" not in result:
        raise click.ClickException("the demo stopped before the final whistle")


@cli.command()
@click.option("--device", "devices", required=True, multiple=True,
              help="Serial port of a table (e.g. /dev/ttyACM0); repeat for several tables.")
@click.option("--ruleset", default="cbfm-1toque", show_default=True, help=RULESET_HELP)
@click.option("--db", type=click.Path(dir_okay=False), default="futmesa.sqlite",
              show_default=True, help="SQLite event log.")
@click.option("--settings", "settings_path", type=click.Path(dir_okay=False), default=None,
              help="JSON file with competition settings (teams, colours, half length...).")
@click.option("--http-host", default="0.0.0.0", show_default=True)
@click.option("--http-port", default=8000, show_default=True, type=click.IntRange(1, 65535))
@click.option("--logos", "logo_dir", type=click.Path(exists=True, file_okay=False), default=None,
              help="Folder of club logos (PNG/SVG named after the team, e.g. gremio-f-c.png).")
def serve(devices: tuple[str, ...], ruleset: str, db: str, settings_path: str | None,
          http_host: str, http_port: int, logo_dir: str | None) -> None:
    """Run the daemon against a real board (or a pty path)."""
    from futmesa import server

    _check_ruleset(ruleset)
    settings = _load_settings(settings_path)
    try:
        asyncio.run(server.run(list(devices), db, ruleset, settings, http_host=http_host,
                               http_port=http_port,
                               logo_dir=Path(logo_dir) if logo_dir else None))
    except (server.PortInUseError, ValueError) as exc:
        raise click.ClickException(str(exc)) from exc
    except KeyboardInterrupt:
        click.echo("stopped")


@cli.command()
@click.argument("match_id", type=int)
@click.option("--ruleset", required=True, help=RULESET_HELP)
@click.option("--db", type=click.Path(exists=True, dir_okay=False), default="futmesa.sqlite",
              show_default=True)
def rerun(match_id: int, ruleset: str, db: str) -> None:
    """Re-run a stored match under another ruleset and show what would differ."""
    from futmesa.daemon import to_entry
    from futmesa.rules.rerun import rerun_diff
    from futmesa.store import EventLog

    _check_ruleset(ruleset)
    store = EventLog(db)
    match = store.match(match_id)
    if match is None:
        raise click.ClickException(f"no match {match_id} in {db}: see `futmesa matches --db {db}`")
    entries = [to_entry(e) for e in store.entries(match_id)]
    lines = rerun_diff(entries, match["settings"], match["ruleset"], ruleset)
    click.echo(f"match {match_id}: {match['ruleset']} -> {ruleset}")
    for line in lines or ["no difference"]:
        click.echo(f"  {line}")


@cli.command()
@click.option("--db", type=click.Path(exists=True, dir_okay=False), default="futmesa.sqlite",
              show_default=True)
def matches(db: str) -> None:
    """List the stored matches."""
    from futmesa.history import History
    from futmesa.store import EventLog

    for m in History(EventLog(db)).list_matches():
        score = m.get("score") or {}
        teams = m.get("teams") or {}
        click.echo(f"{m['id']:>4}  {m['ruleset']:<13} {m['table_id']:<16} "
                   f"{teams.get('A', {}).get('name', 'A')} {score.get('A', 0)} x "
                   f"{score.get('B', 0)} {teams.get('B', {}).get('name', 'B')}"
                   f"{'' if m.get('finished') else '  (unfinished)'}")


@cli.command()
@click.argument("match_id", type=int)
@click.option("--db", type=click.Path(exists=True, dir_okay=False), default="futmesa.sqlite",
              show_default=True)
@click.option("--pdf", "pdf_path", type=click.Path(dir_okay=False), default=None)
@click.option("--html", "html_path", type=click.Path(dir_okay=False), default=None)
@click.option("--csv", "csv_path", type=click.Path(dir_okay=False), default=None)
@click.option("--json", "json_path", type=click.Path(dir_okay=False), default=None)
def report(match_id: int, db: str, pdf_path: str | None, html_path: str | None,
           csv_path: str | None, json_path: str | None) -> None:
    """Write the súmula (official match report) of a stored match."""
    from futmesa import report as rep
    from futmesa.history import History
    from futmesa.store import EventLog

    try:
        record = History(EventLog(db)).match_record(match_id)
    except KeyError as exc:
        raise click.ClickException(str(exc.args[0])) from exc
    if not any((pdf_path, html_path, csv_path, json_path)):
        pdf_path = f"sumula-{match_id}.pdf"
    if pdf_path:
        rep.render_pdf(record, pdf_path)
        click.echo(f"wrote {pdf_path}")
    if html_path:
        Path(html_path).write_text(rep.render_html(record), encoding="utf-8")
        click.echo(f"wrote {html_path}")
    if csv_path:
        Path(csv_path).write_text(rep.render_csv(record), encoding="utf-8")
        click.echo(f"wrote {csv_path}")
    if json_path:
        Path(json_path).write_text(rep.render_json(record), encoding="utf-8")
        click.echo(f"wrote {json_path}")


@cli.command()
@click.option("--url", default="http://localhost:8000", show_default=True,
              help="Address of a running futmesa daemon.")
def watch(url: str) -> None:
    """A terminal scoreboard for a setup with no screen browser."""
    from futmesa import watch as watch_mod

    try:
        asyncio.run(watch_mod.watch(url))
    except KeyboardInterrupt:
        pass


def _register_hardware() -> None:
    try:
        from futmesa import cli_hardware
    except ImportError:
        return
    cli_hardware.register(cli)


_register_hardware()


def main() -> None:
    try:
        cli()
    except KeyboardInterrupt:
        sys.exit(130)
