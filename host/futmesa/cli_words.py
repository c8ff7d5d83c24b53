"""The CLI in the process language: every help text of the `futmesa` command tree and click's
own words ("Usage:", "Error:", "Missing option") from the gettext catalogs.

The help texts stay written in English in the code (the msgids); :func:`localize` swaps each
for its translation, keeping the English to swap again when the language changes. The catalog
template gets them from :func:`help_texts` (tools/catalogs.py), so none is ever missing.
"""

from __future__ import annotations

import inspect
from collections.abc import Iterator
from typing import Any

import click

from futmesa import i18n
from futmesa.i18n import N_

_ORIGINAL = "_futmesa_english"

# the placeholders click writes for a value ("--db FILE"), and its usage line's words
TYPE_NAMES = (N_("integer"), N_("integer range"), N_("float"), N_("float range"))
METAVARS = (N_("TEXT"), N_("INTEGER"), N_("INTEGER RANGE"), N_("FLOAT"), N_("FLOAT RANGE"),
            N_("FILE"), N_("DIRECTORY"), N_("PATH"), N_("BOOLEAN"))
USAGE_WORDS = (N_("[OPTIONS]"), N_("COMMAND [ARGS]..."), N_("required"))  # click: _(extra)


def _clean(text: str) -> str:
    return inspect.cleandoc(text)


def _texts(obj: Any, fields: tuple[str, ...]) -> Iterator[tuple[Any, str, str]]:
    """(object, field, English text) for each text field of a command or parameter."""
    originals: dict[str, str | None] = obj.__dict__.setdefault(_ORIGINAL, {})
    for name in fields:
        if name not in originals:
            value = getattr(obj, name, None)
            originals[name] = _clean(value) if isinstance(value, str) and value.strip() else None
        english = originals[name]
        if english:
            yield obj, name, english


def _default_metavar(param: click.Parameter) -> str | None:
    """The placeholder click would write for ``param`` when it is one of METAVARS."""
    if param.__dict__.get(_ORIGINAL, {}).get("metavar") is not None or param.metavar:
        return None
    if isinstance(param, click.Option) and (param.is_flag or param.count):
        return None
    name = str(param.type.__dict__.get(_ORIGINAL, {}).get("name")
               or getattr(param.type, "name", "") or "").upper()
    if isinstance(param.type, click.types._NumberRangeBase) and not name.endswith(" RANGE"):
        name += " RANGE"
    if isinstance(param.type, click.Path):
        name = "FILE" if not param.type.dir_okay else (
            "DIRECTORY" if not param.type.file_okay else "PATH")
    return name if name in METAVARS and not isinstance(param, click.Argument) else None


def _walk(command: click.Command) -> Iterator[tuple[Any, str, str]]:
    yield from _texts(command, ("help", "short_help", "epilog", "options_metavar"))
    if isinstance(command, click.Group):
        yield from _texts(command, ("subcommand_metavar",))
    for param in command.params:
        yield from _texts(param, ("help",))
        originals = param.__dict__.setdefault(_ORIGINAL, {})
        if "metavar" not in originals:
            originals["metavar"] = _default_metavar(param)
        if originals["metavar"]:
            yield param, "metavar", originals["metavar"]
        if isinstance(param.type, click.Path):  # "File 'x' does not exist." names its kind
            kind = ("file" if not param.type.dir_okay else
                    "directory" if not param.type.file_okay else "path")
            param.type.__dict__.setdefault(_ORIGINAL, {})["name"] = kind
            yield param.type, "name", kind
        elif isinstance(param.type, click.types._NumberParamTypeBase):  # "not a valid integer"
            kind = param.type.__dict__.setdefault(_ORIGINAL, {}).setdefault(
                "name", param.type.name)
            yield param.type, "name", kind
    if isinstance(command, click.Group):
        for sub in command.commands.values():
            yield from _walk(sub)


def help_texts(command: click.Command) -> list[str]:
    """Every help text of the tree, in English (the catalog's msgids; the placeholders and usage
    words are marked in METAVARS and USAGE_WORDS)."""
    return sorted({english for _obj, name, english in _walk(command)
                   if name not in ("metavar", "options_metavar", "subcommand_metavar", "name")})


def localize(command: click.Command, lang: Any = None) -> str:
    """Put the tree's help texts and click's words in ``lang`` (None: the process language,
    ``--lang`` / FUTMESA_LANG / the locale); returns the language set."""
    code = i18n.set_language(lang if lang is not None else i18n.resolve())
    translate = i18n.translator(code).gettext
    for obj, name, english in _walk(command):
        setattr(obj, name, translate(english))
    return code


def lang_from_argv(argv: list[str]) -> str | None:
    """The value of the global ``--lang`` among the options before the subcommand."""
    for i, token in enumerate(argv):
        if token == "--lang" and i + 1 < len(argv):
            return argv[i + 1]
        if token.startswith("--lang="):
            return token.split("=", 1)[1]
        if not token.startswith("-"):
            return None
    return None
