"""The camera's calibration from the phone (docs/camera.md, "Calibration"): the newest
picture of the table (``GET /api/camera/frame``, JPEG) and the four corners the referee or
organiser tapped on it (``POST /api/camera/calibration``, the console's token). The views
never import the camera: the server hands in what reads the picture and what saves the
corners (a refusal comes back as one line of words)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from futmesa.i18n import _
from futmesa.web.common import error

Frame = Callable[[], bytes | None]
Save = Callable[[dict[str, Any]], str | None]  # None when saved, else why not, in words


def install_camera_setup(app: Starlette, frame: Frame, save: Save) -> None:
    """Add the calibration's two routes to ``app`` (built by ``create_app``)."""

    async def newest(request: Request) -> Response:
        data = await asyncio.to_thread(frame)
        if not data:
            return error(503, _("the camera has no picture now (disconnected or starting): "
                                "check its cable and try again"))
        return Response(data, media_type="image/jpeg", headers={"Cache-Control": "no-store"})

    async def calibrate(request: Request) -> Response:
        refusal = app.state.gate.refuse(request)
        if refusal is not None:
            return error(*refusal)
        try:
            body = await request.json()
        except ValueError:
            body = None
        if not isinstance(body, dict):
            return error(400, _("send the picture's width and height and the four corners"))
        why = await asyncio.to_thread(save, body)
        if why:
            return error(400, why)
        return JSONResponse({"ok": True})

    app.router.routes[:0] = [Route("/api/camera/frame", newest),
                             Route("/api/camera/calibration", calibrate, methods=["POST"])]
