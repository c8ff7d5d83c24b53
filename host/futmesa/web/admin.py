"""The kiosk's admin screen: the addresses a phone opens and the console's QR code.

``/admin`` answers only a browser on the host itself (like ``/console/recover``): the
screen of a Pi with no keyboard shows the referee's QR code there, instead of only in the
journal. ``/admin/info`` gives the same as JSON (with the QR as SVG). ``install_admin``
adds both routes to an app built by ``create_app``; ``app.state.public_url`` may be
changed later.
"""

from __future__ import annotations

from html import escape
from urllib.parse import quote

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from futmesa.i18n import N_, translator
from futmesa.web.access import console_url, qr_svg
from futmesa.web.common import page, request_language

REFUSED = N_("The admin screen only opens on the table's own computer: open it there, or ask "
             "the operator for the referee's link.")
REFUSED_TITLE = N_("Admin screen")


def refusal_page(lang: str) -> HTMLResponse:
    """The /admin refusal as a page a person reads (not JSON), in ``lang``."""
    _ = translator(lang).gettext
    html_lang = "en" if lang == "en" else "pt-BR"
    body = (f'<!doctype html><html lang="{html_lang}"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{escape(_(REFUSED_TITLE))}</title></head>"
            '<body style="font-family:sans-serif;margin:2em;max-width:40em">'
            f"<h1>{escape(_(REFUSED_TITLE))}</h1><p>{escape(_(REFUSED))}</p></body></html>")
    return HTMLResponse(body, status_code=403)


def admin_info(public_url: str, token: str, table: str | None = None) -> dict[str, str]:
    """The addresses for the admin screen; ``table``: one table's, on a host serving several."""
    base = public_url.rstrip("/")
    console = console_url(base, token, table)
    kiosk = f"{base}/?table={quote(table, safe='')}" if table else f"{base}/"
    return {"kiosk": kiosk, "board": f"{base}/?mode=board", "console": console,
            "history": f"{base}/history", "qr_svg": qr_svg(console), "table": table or ""}


def install_admin(app: Starlette, public_url: str) -> None:
    """Add ``/admin`` and ``/admin/info`` to ``app`` (built by ``create_app``)."""

    app.state.public_url = public_url

    async def admin_page(request: Request) -> Response:
        refusal = app.state.gate.refuse_recovery(request)
        if refusal is not None:
            return refusal_page(request_language(request))
        return page("admin.html", request)

    async def info(request: Request) -> Response:
        refusal = app.state.gate.refuse_recovery(request)
        if refusal is not None:
            error = translator(request_language(request)).gettext(REFUSED)
            return JSONResponse({"ok": False, "error": error}, status_code=403)
        table = request.query_params.get("table") or None
        return JSONResponse({"ok": True, **admin_info(app.state.public_url,
                                                       app.state.gate.token_for(table), table)},
                            headers={"Cache-Control": "no-store"})

    app.router.routes[:0] = [Route("/admin", admin_page), Route("/admin/info", info)]
