"""Runs a table daemon and the web views (uvicorn) in one asyncio process."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import uvicorn

from futmesa.camera.record import clip_dir
from futmesa.hub import StateHub
from futmesa.i18n import _
from futmesa.matchbook import MatchLibrary
from futmesa.netaddr import LOCAL_ONLY, public_base_url
from futmesa.store import EventLog
from futmesa.store.tokens import DEFAULT
from futmesa.table import TableDaemon
from futmesa.web.access import TokenGate, access_banner, new_token
from futmesa.web.admin import install_admin
from futmesa.web.app import create_app
from futmesa.web.guard import DEFAULT_MAX_BODY
from futmesa.web.tls import ssl_options

log = logging.getLogger("futmesa.server")


class PortInUseError(RuntimeError):
    pass


def check_port_free(host: str, port: int) -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((host, port))
        except OSError as exc:
            raise PortInUseError(
                _("port {port} on {host} is already in use ({why}): stop the other futmesa, or "
                  "give --http-port another number").format(port=port, host=host,
                                                            why=exc.strerror)
            ) from exc


@dataclass
class Running:
    daemons: list[TableDaemon]
    hub: StateHub
    store: EventLog
    server: uvicorn.Server
    base_url: str
    token: str
    public_url: str = ""  # what a phone on the venue network opens (printed, in the QR)
    gate: TokenGate | None = None  # the referee tokens (one per table when serving several)
    camera: Any = None  # the camera's keeper (futmesa.camera.service), when there is one

    def token_for(self, table: str | None = None) -> str:
        """The referee token of ``table`` (the only or default table when None)."""
        return self.gate.token_for(table) if self.gate is not None else self.token

    @property
    def daemon(self) -> TableDaemon:
        """The first (usually the only) table's daemon."""
        return self.daemons[0]

    def stop(self) -> None:
        self.server.should_exit = True


async def run(
    device: str | list[str],
    db: str | Path,
    ruleset: str,
    settings: dict[str, Any] | None,
    http_host: str = "127.0.0.1",
    http_port: int = 8000,
    on_ready: Callable[[Running], Awaitable[None]] | None = None,
    quiet: bool = False,
    logo_dir: Path | None = None,
    tls_cert: str | Path | None = None,
    tls_key: str | Path | None = None,
    max_body: int = DEFAULT_MAX_BODY,
    venue: Any = None,
    public_url: str | None = None,
    camera: Any = None,
    new_referee_token: bool = False,
) -> None:
    """Serve one table per device until stopped (Ctrl-C, or `Running.stop()` from on_ready).

    With ``tls_cert`` and ``tls_key`` (PEM files) the pages are served over HTTPS;
    ``max_body`` is the largest request body accepted (see futmesa.web.guard).
    ``venue`` (a :class:`futmesa.venue.table_agent.VenueOptions`) puts every table on the
    venue's MQTT broker too (docs/operating.md, "Dia de torneio"); ``camera`` (a
    :class:`futmesa.camera.settings.CameraSettings`) films the first table (docs/camera.md).
    The referee's links are kept with the log (futmesa.store.tokens); ``new_referee_token``
    retires them first, each table then gets a new one.
    """
    devices = [device] if isinstance(device, str) else list(device)
    if len(set(devices)) != len(devices):
        raise ValueError(_("the same --device is given twice"))
    tls = ssl_options(tls_cert, tls_key)  # raises TLSSetupError (a ValueError) with what to do
    check_port_free(http_host, http_port)
    store = EventLog(db)
    hub = StateHub()
    loop = asyncio.get_running_loop()
    token = _kept_token(store, new_referee_token)
    shown_url = public_base_url(http_host, http_port, public_url)
    if tls and not public_url:
        shown_url = "https://" + shown_url.split("://", 1)[1]
    app = create_app(hub, console_token=token, history=MatchLibrary(store), logo_dir=logo_dir,
                     max_body=max_body, public_urls=(shown_url,),
                     clip_dir=clip_dir(db) if camera is not None else None)
    install_admin(app, shown_url)
    config = uvicorn.Config(app, host=http_host, port=http_port, log_level="warning",
                            lifespan="off", ws_ping_interval=5, ws_ping_timeout=5, **tls)
    server = uvicorn.Server(config)
    shown_host = "localhost" if http_host in ("127.0.0.1", "0.0.0.0") else http_host
    base_url = f"{'https' if tls else 'http'}://{shown_host}:{http_port}"

    app.state.gate.default_table = lambda: hub.default_table
    links = RefereeLinks(app.state.gate, store, shown_url, several=len(devices) > 1,
                         quiet=quiet)
    daemons = []
    for d in devices:
        daemon = TableDaemon(store, hub, d, ruleset, settings, loop=loop)
        daemon.on_table = links.first_seen
        daemons.append(daemon)
    running = Running(daemons, hub, store, server, base_url, token, shown_url,
                      app.state.gate)
    for daemon in daemons:
        daemon.start()
    if not quiet:
        _say_where(len(devices), shown_url, token, local=http_host in LOCAL_ONLY
                   and not public_url, renewed=new_referee_token)
    stops = _start_beside(running, venue, camera, Path(db), loop)
    if running.camera is not None:
        _camera_setup(app, running.camera, Path(db))
    task = asyncio.create_task(on_ready(running)) if on_ready else None
    try:
        await server.serve()
    finally:
        for stop in stops:
            await stop()
        await _cancel(task)
        for daemon in daemons:
            daemon.stop()
        store.close()
    if task is not None and task.done() and not task.cancelled() and task.exception():
        raise task.exception()  # type: ignore[misc]


def _start_beside(running: Running, venue: Any, camera: Any, db: Path,
                  loop: asyncio.AbstractEventLoop) -> list[Callable[[], Awaitable[None]]]:
    """What runs beside the tables: the venue's broker link, the camera; their stops."""
    stops: list[Callable[[], Awaitable[None]]] = []
    if venue is not None:
        from futmesa.venue.table_agent import VenueTables

        venue_tables = VenueTables(venue, running)
        venue_task = asyncio.create_task(venue_tables.run())

        async def stop_venue() -> None:
            venue_task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await venue_task
            venue_tables.stop()
        stops.append(stop_venue)
    if camera is not None:
        running.camera = _start_camera(running, camera, db, loop)

        async def stop_camera() -> None:
            await asyncio.to_thread(running.camera.stop)
        stops.append(stop_camera)
    return stops


def _start_camera(running: Running, settings: Any, db: Path,
                  loop: asyncio.AbstractEventLoop) -> Any:
    """The camera over the first table: its faults are that table's, its clips go into the
    log and, as the table's ``replay``, to the kiosk (docs/camera.md)."""
    from futmesa.camera.service import CameraService
    from futmesa.table.aside import take_aside

    table = running.daemon

    def on_clip(done: dict[str, Any]) -> None:
        try:  # the match takes the clip in (the console's log, corrections citing it)
            table.queue.run(take_aside, table, int(done["entry"]))
        except Exception as exc:  # noqa: BLE001 — a clip never stops the camera's keeper
            log.warning(_("camera: clip entry %s not taken in by the table (%s)"), done["entry"],
                        exc)
        if table.table_id is not None and done.get("cue") != "ball_out":  # the TV replays goals
            loop.call_soon_threadsafe(running.hub.annotate, table.table_id, "replay",
                                      replay_of(done))

    said = {"no_calibration": False}

    def on_judged(done: dict[str, Any]) -> None:  # the ball's path → the camera's proposal
        try:
            made = table.queue.run(proposal_now, table, done)
        except Exception as exc:  # noqa: BLE001 — a proposal never stops the camera's keeper
            log.warning(_("camera: no proposal from clip entry %s (%s)"), done["entry"], exc)
            return
        if made.get("unavailable"):
            if said["no_calibration"]:
                return  # "câmera sem calibração" is said once
            said["no_calibration"] = True
        if made and table.table_id is not None:
            made["url"] = replay_of(done).get("url")
            loop.call_soon_threadsafe(running.hub.annotate, table.table_id, "proposal", made)

    def has_camera(table_id: str) -> None:  # the console offers "Rever" on this table
        loop.call_soon_threadsafe(running.hub.annotate, table_id, "camera", True)

    def first_seen(table_id: str) -> None:
        has_camera(table_id)
        if seen is not None:
            seen(table_id)

    seen, table.on_table = table.on_table, first_seen
    if table.table_id is not None:
        has_camera(table.table_id)

    cam = CameraService(settings.source, settings, db, running.store, health=table.health,
                        on_clip=on_clip, on_judged=on_judged)
    cam.start()
    return cam


def _camera_setup(app: Any, cam: Any, db: Path) -> None:
    """The phone's calibration (docs/camera.md): the newest picture, the four corners tapped
    on it saved beside the event log through the calibration's model."""
    from futmesa.camera.calibration import calibration, calibration_path
    from futmesa.camera.settings import CameraError
    from futmesa.web.camera_setup import install_camera_setup

    def save(data: dict[str, Any]) -> str | None:
        try:
            calibration(data).save(calibration_path(db))
        except CameraError as exc:
            return str(exc)
        return None

    install_camera_setup(app, cam.newest_frame, save)


def proposal_now(table: Any, done: dict[str, Any]) -> dict[str, Any]:
    """On the table's queue: the camera's judged clip against the question the rules ask now
    (``matchbook/proposals.py``); {} when it has nothing to say."""
    from futmesa.matchbook.proposals import proposals

    book = table.book
    if book is None or book.id != done["match_id"]:
        return {}
    m = book.state.m
    names = {side: str(m["teams"][side]["name"]) for side in ("A", "B")}
    clip = int(done["entry"])  # taken in before it is judged (on_clip, the same queue)
    number = (book.live_log.rows().get(clip) or {}).get("no")
    return proposals(list(m["pending"]), done["facts"], int(done["shows"]), m["ends"], names,
                     clip, m.get("restart"), table.inputs.would_take, clip_no=number)


def replay_of(done: dict[str, Any]) -> dict[str, Any]:
    """A new clip as the table's ``replay``: its url and one frame's ms (the console's frame
    step), or, when none could be made, why (``absent``, no url)."""
    replay = {"entry": done["entry"], "shows": done["shows"], "match_id": done["match_id"]}
    if "file" not in done:
        return {**replay, "url": None, "absent": done.get("absent") or "camera_lost"}
    frames = int(done.get("frames") or 0)
    span = float(done.get("to_ms", 0)) - float(done.get("from_ms", 0))
    frame_ms = span / (frames - 1) if frames > 1 and span > 0 else 1000 / 30
    return {**replay, "url": "/clips/" + done["file"], "frame_ms": round(frame_ms, 1)}


async def _cancel(task: asyncio.Task[Any] | None) -> None:
    if task is not None and not task.done():
        task.cancel()
        try:
            await task
        except (asyncio.CancelledError, Exception):  # noqa: BLE001 - shutting down
            pass


def _kept_token(store: EventLog, renew: bool) -> str:
    """The host's referee token, kept with the log (with ``renew``, every earlier one of the
    log retired first: ``serve --new-referee-token``)."""
    if renew:
        store.retire_referee_tokens()
    return store.referee_token(DEFAULT, new_token)


def _say_where(tables: int, shown_url: str, token: str, local: bool,
               renewed: bool = False) -> None:
    """Where the scoreboard and the referee's console are (a QR for the phone); ``renewed``:
    every earlier console link was just retired."""
    if renewed:
        print(_("new referee links: every earlier console link of this event log no longer "
                "works"), flush=True)
    if tables > 1:
        print(_("{count} tables: each table's scoreboard and referee console (its own link) "
                "are shown when the table connects").format(count=tables), flush=True)
    else:
        print(access_banner(shown_url, token, qr=True), flush=True)
    if local:
        print(_("only this computer can open these pages; for the referee's phone serve on "
                "every interface (--http-host 0.0.0.0)"), flush=True)


class RefereeLinks:
    """The referee's link (and its QR), printed once and taped to the table, commands every
    match played there ("Nova partida" keeps it) and outlives a restart of ``futmesa serve``:
    it is kept with the event log (futmesa.store.tokens). With several tables, each table
    gets its own token when it first connects: one table's link never commands another.
    ``serve --new-referee-token`` retires a link that leaked. A table's link is printed
    (with its QR) unless quiet."""

    def __init__(self, gate: Any, store: EventLog, shown_url: str, several: bool,
                 quiet: bool) -> None:
        self.gate = gate
        self.gate.retired = store.retired_referee_tokens()  # told they were replaced
        self.store = store
        self.shown_url = shown_url
        self.several = several
        self.quiet = quiet

    def show(self, table: str | None, token: str) -> None:
        if not self.quiet:
            print(access_banner(self.shown_url, token, qr=True, table=table), flush=True)

    def first_seen(self, table: str) -> None:
        """A table's id is first known: on a host serving several, its own token."""
        if self.several and table not in self.gate.tables:
            self.gate.tables[table] = self.store.referee_token(table, new_token)
            self.show(table, self.gate.tables[table])
