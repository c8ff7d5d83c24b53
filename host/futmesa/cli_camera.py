"""``--camera SOURCE`` and ``--camera-setting KEY=VALUE`` of ``futmesa serve`` and ``futmesa
demo``: the camera's settings validated before anything starts, errors in one line."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import click

from futmesa.i18n import _

CAMERA_HELP = ("Film the table: sim (the simulated camera), a device such as /dev/video0, a "
               "stream URL (rtsp://…) or a video file; goals get a clip in the match's log "
               "(docs/camera.md).")
SETTING_HELP = ("A camera setting, KEY=VALUE, repeatable (e.g. fps=15, clip_before_s=6); "
                "docs/camera.md lists them.")


def camera_options(source: str | None, pairs: tuple[str, ...]) -> Any:
    """The camera's settings, or None without --camera; click errors saying what to fix."""
    if source is None:
        if pairs:
            raise click.UsageError(_("--camera-setting needs --camera SOURCE"))
        return None
    from futmesa.camera.settings import CameraError, camera_settings
    from futmesa.camera.source import kind_of

    values: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise click.BadParameter(_("'{pair}': write KEY=VALUE, e.g. fps=15").format(
                pair=pair), param_hint="--camera-setting")
        values[key.strip()] = value.strip()
    try:
        kind_of(source)
    except CameraError as exc:
        raise click.BadParameter(str(exc), param_hint="--camera") from None
    try:
        return camera_settings(values, source=source)
    except CameraError as exc:
        raise click.BadParameter(str(exc), param_hint="--camera-setting") from None


async def camera_ready(camera: Any, timeout_s: float = 30.0) -> bool:
    """Wait (at most ``timeout_s``) for the camera's first frames: the demo's first goal then
    has its clip. A camera that does not come is said, and the match goes on without it."""
    if camera is None:
        return False
    deadline = time.monotonic() + timeout_s
    while not camera.working:
        if time.monotonic() > deadline:
            click.echo(_("the camera sent no picture: the match goes on without replays"))
            return False
        await asyncio.sleep(0.05)
    return True
