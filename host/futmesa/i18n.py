"""The words a person reads, from the gettext catalogs in ``locale/`` (Brazilian Portuguese by
default, English as an option).

msgids are the English source text; ``locale/pt_BR/LC_MESSAGES/futmesa.po`` holds the
Portuguese and ``locale/en/…`` the English. The process language comes from ``--lang``, then
``FUTMESA_LANG``, then the locale (``LC_ALL``, ``LC_MESSAGES``, ``LANG``), else pt_BR:
``_()``/``ngettext()`` speak it. Text made for one given language (a súmula in English while
the process speaks Portuguese, a web page per request) uses ``translator(lang).gettext``.

The ``.mo`` files are compiled at install (``make setup`` runs ``pybabel compile``); when one is
missing or older than its ``.po`` the ``.po`` is read with Babel, so a fresh clone works.
Click's own words ("Usage:", "Error:", "Missing option") go through the same catalog.
"""

from __future__ import annotations

import gettext
import io
import os
import sys
from functools import lru_cache
from pathlib import Path
from typing import Any

DOMAIN = "futmesa"
LOCALE_DIR = Path(__file__).parent / "locale"
DEFAULT = "pt_BR"
LANGUAGES = ("pt_BR", "en")

_current = DEFAULT  # set from resolve() below, once it is defined


def normalize(lang: Any) -> str | None:
    """A language code as the catalogs name it: "pt", "pt-BR", "pt_BR.UTF-8" -> "pt_BR";
    "en", "en_US" -> "en"; anything else (or "C", "POSIX") -> None."""
    if not isinstance(lang, str) or not lang.strip():
        return None
    code = lang.strip().split(".")[0].split("@")[0].replace("-", "_").lower()
    if code.startswith("pt"):
        return "pt_BR"
    if code.startswith("en"):
        return "en"
    return None


def short(lang: Any) -> str:
    """The two-letter form the views take as ``lang`` ("pt" or "en")."""
    return "en" if normalize(lang) == "en" else "pt"


def resolve(cli_lang: str | None = None) -> str:
    """The process language: ``--lang``, then FUTMESA_LANG, then the locale, else pt_BR."""
    for value in (cli_lang, os.environ.get("FUTMESA_LANG")):
        found = normalize(value)
        if found:
            return found
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(var)
        if value:
            return normalize(value) or DEFAULT  # the first one set decides, as in C
    return DEFAULT


def _catalog_bytes(lang: str) -> bytes | None:
    """The compiled catalog for ``lang``: its .mo when up to date, else compiled from the .po."""
    folder = LOCALE_DIR / lang / "LC_MESSAGES"
    po, mo = folder / f"{DOMAIN}.po", folder / f"{DOMAIN}.mo"
    if mo.exists() and (not po.exists() or mo.stat().st_mtime >= po.stat().st_mtime):
        return mo.read_bytes()
    if not po.exists():
        return None
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with po.open("rb") as f:
        catalog = read_po(f, locale=lang, domain=DOMAIN)
    out = io.BytesIO()
    write_mo(out, catalog)
    return out.getvalue()


_current = resolve()


def translator(lang: Any = None) -> gettext.NullTranslations:
    """The translations for one language (``lang`` in any form ``normalize`` takes; None: the
    process language). Unknown languages get pt_BR."""
    return _translations(normalize(lang) or (_current if lang is None else DEFAULT))


@lru_cache(maxsize=8)
def _translations(code: str) -> gettext.NullTranslations:
    data = _catalog_bytes(code)
    if data is None:
        return gettext.NullTranslations()
    return gettext.GNUTranslations(io.BytesIO(data))


def set_language(lang: Any) -> str:
    """Make ``lang`` the process language (for ``_``, ``ngettext`` and click); returns it."""
    global _current
    _current = normalize(lang) or DEFAULT
    _bind_click()
    return _current


def language() -> str:
    """The process language ("pt_BR" or "en")."""
    return _current


def _(msgid: str) -> str:
    """``msgid`` (English source text) in the process language."""
    return translator(_current).gettext(msgid)


def ngettext(singular: str, plural: str, n: int) -> str:
    return translator(_current).ngettext(singular, plural, n)


def pgettext(context: str, msgid: str) -> str:
    return translator(_current).pgettext(context, msgid)


def _bind_click() -> None:
    """Click translates its words with the stdlib's ``gettext`` imported into each module; point
    those names at this catalog (which carries click's msgids too)."""
    for name, module in list(sys.modules.items()):
        if not (name == "click" or name.startswith("click.")) or module is None:
            continue
        if getattr(module, "_", None) is not None and callable(module._):
            module._ = _  # type: ignore[attr-defined]
        if getattr(module, "ngettext", None) is not None:
            module.ngettext = ngettext  # type: ignore[attr-defined]


def jinja_callables(lang: Any) -> dict[str, Any]:
    """``gettext``/``ngettext``/``_`` for a Jinja2 render in ``lang`` (the i18n extension)."""
    t = translator(lang)

    def gettext_(message: str, **values: Any) -> str:
        text = t.gettext(message)
        return text % values if values else text

    def ngettext_(singular: str, plural: str, n: int, **values: Any) -> str:
        return t.ngettext(singular, plural, n) % {"num": n, **values}

    return {"gettext": gettext_, "ngettext": ngettext_, "_": gettext_}


def catalog_dict(lang: Any) -> dict[str, str]:
    """Every msgid -> translation of ``lang`` (the browser pages' JSON catalog)."""
    t = translator(lang)
    catalog = getattr(t, "_catalog", {})
    return {k: v for k, v in catalog.items() if isinstance(k, str) and k and v}


def N_(msgid: str) -> str:  # noqa: N802 - the gettext convention
    """Mark ``msgid`` for the catalog where it is defined; translated where it is shown."""
    return msgid


def NP_(context: str, msgid: str) -> tuple[str, str]:  # noqa: N802 - gettext convention
    """Mark ``msgid`` with a context (a word that means two things in Portuguese); the pair
    is translated where it is shown, with ``translator(lang).pgettext(*pair)``."""
    return context, msgid


# Python's JSON parser says what is wrong in English ("Expecting value"): its fixed phrases,
# for a sentence that quotes it (an organiser's settings file)
JSON_PARSER_PHRASES = (
    N_("Expecting value"), N_("Expecting property name enclosed in double quotes"),
    N_("Expecting ',' delimiter"), N_("Expecting ':' delimiter"), N_("Extra data"),
    N_("Unterminated string starting at"), N_("Invalid control character at"),
    N_("Invalid \\escape"), N_("Invalid \\uXXXX escape"),
    N_("Illegal trailing comma before end of object"),
    N_("Illegal trailing comma before end of array"),
)


def json_parser_message(msg: str) -> str:
    """``json.JSONDecodeError.msg`` in the process language ("Expecting value" -> "falta um
    valor"); an unknown phrase stays as it is."""
    return _(msg) if msg in JSON_PARSER_PHRASES else msg
