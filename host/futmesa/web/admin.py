"""The kiosk's admin screen: the addresses a phone opens and the console's QR code.

``/admin`` answers only a browser on the host itself (like ``/console/recover``): the
screen of a Pi with no keyboard shows the referee's QR code there, instead of only in the
journal. ``/admin/info`` gives the same as JSON (with the QR as SVG). ``install_admin``
adds both routes to an app built by ``create_app``; ``app.state.public_url`` may be
changed later.
"""

from __future__ import annotations

import io
from urllib.parse import quote

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Route

from futmesa.web.access import console_url

REFUSED = ("a tela de administração só abre no próprio computador da mesa / the admin "
           "screen only opens on the host machine itself")


def qr_svg(text: str) -> str:
    import segno

    out = io.BytesIO()
    segno.make(text, error="m").save(out, kind="svg", border=2, xmldecl=False, omitsize=True,
                                     svgns=True, dark="#000", light="#fff")
    return out.getvalue().decode()


def admin_info(public_url: str, token: str, table: str | None = None) -> dict[str, str]:
    """The addresses for the admin screen; ``table``: one table's, on a host serving several."""
    base = public_url.rstrip("/")
    console = console_url(base, token, table)
    kiosk = f"{base}/?table={quote(table, safe='')}" if table else f"{base}/"
    return {"kiosk": kiosk, "board": f"{base}/?mode=board", "console": console,
            "history": f"{base}/history", "qr_svg": qr_svg(console), "table": table or ""}


def install_admin(app: Starlette, public_url: str) -> None:
    """Add ``/admin`` and ``/admin/info`` to ``app`` (built by ``create_app``)."""
    from futmesa.web.app import STATIC_DIR

    app.state.public_url = public_url

    async def admin_page(request: Request) -> Response:
        refusal = app.state.gate.refuse_recovery(request)
        if refusal is not None:
            return JSONResponse({"ok": False, "error": REFUSED}, status_code=403)
        return FileResponse(STATIC_DIR / "admin.html", headers={"Cache-Control": "no-cache"})

    async def info(request: Request) -> Response:
        refusal = app.state.gate.refuse_recovery(request)
        if refusal is not None:
            return JSONResponse({"ok": False, "error": REFUSED}, status_code=403)
        table = request.query_params.get("table") or None
        return JSONResponse({"ok": True, **admin_info(app.state.public_url,
                                                       app.state.gate.token_for(table), table)},
                            headers={"Cache-Control": "no-store"})

    app.router.routes[:0] = [Route("/admin", admin_page), Route("/admin/info", info)]
