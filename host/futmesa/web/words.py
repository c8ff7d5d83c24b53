"""The browser pages' words, from the same gettext catalogs as the CLI and the súmula.

``/i18n/pt_BR.json`` and ``/i18n/en.json``: msgid (the English source text) -> translation,
built from the catalog when first asked (the .po of a fresh clone, else the compiled .mo).
``/i18n/words.js`` carries both as ``FM_WORDS`` for a page's ``<script>`` ahead of
``common.js``: the kiosk switches language live, so it needs both at once.
"""

from __future__ import annotations

import json
from functools import lru_cache

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from futmesa.i18n import LANGUAGES, catalog_dict, normalize

CACHE = {"Cache-Control": "no-cache"}


@lru_cache(maxsize=4)
def catalog(lang: str) -> dict[str, str]:
    """Every translated msgid of ``lang`` (without click's words: no page shows them)."""
    return {k: v for k, v in catalog_dict(lang).items() if "\x04" not in k}


def words_script() -> str:
    both = {lang: catalog(lang) for lang in LANGUAGES}
    return "var FM_WORDS = " + json.dumps(both, ensure_ascii=False, sort_keys=True) + ";\n"


def word_routes() -> list[Route]:
    async def one(request: Request) -> Response:
        lang = normalize(request.path_params["lang"])
        if lang is None:
            return JSONResponse({"ok": False, "error": "pt_BR, en"}, status_code=404)
        return JSONResponse(catalog(lang), headers=CACHE)

    async def script(request: Request) -> Response:
        return Response(words_script(), media_type="text/javascript; charset=utf-8",
                        headers=CACHE)

    return [Route("/i18n/words.js", script), Route("/i18n/{lang}.json", one)]
