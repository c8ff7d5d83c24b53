"""Matching a person's words against the ones the program knows, and finding them in a file.

``fold`` compares without accents, capitals or punctuation ("Mata-Mata" = "mata mata");
``suggest`` gives the "você quis dizer …?" for a misspelt key or value; ``json_lines``
finds the line of every key of a JSON text, so a problem pydantic reports at a location
(``("teams", "A", "colour")``) can be shown at the line the organiser wrote it on.
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Iterable
from typing import Any

from futmesa.rules.registry import fold  # the rules are pure: the one fold lives there

__all__ = ["fold", "json_lines", "line_of", "suggest"]

_SPACE = re.compile(r"[ \t\n\r]*")


def suggest(given: object, known: Iterable[str]) -> str | None:
    """The known word closest to ``given`` (compared folded), or None when none is close."""
    labels = {fold(k): k for k in known}
    close = difflib.get_close_matches(fold(str(given)), list(labels), n=1, cutoff=0.6)
    return labels[close[0]] if close else None


def json_lines(text: str) -> dict[tuple[Any, ...], int]:
    """The line (from 1) of every key and list item of a valid JSON text, by its path;
    {} when the text cannot be walked (the caller then shows no line number)."""
    out: dict[tuple[Any, ...], int] = {}
    decoder = json.JSONDecoder()

    def line(pos: int) -> int:
        return text.count("\n", 0, pos) + 1

    def skip(pos: int) -> int:
        match = _SPACE.match(text, pos)
        return match.end() if match else pos

    def value(pos: int, path: tuple[Any, ...]) -> int:
        pos = skip(pos)
        out.setdefault(path, line(pos))
        opener = text[pos:pos + 1]
        if opener not in ("{", "["):
            return decoder.raw_decode(text, pos)[1]
        closer = "}" if opener == "{" else "]"
        pos = skip(pos + 1)
        index = 0
        while not text.startswith(closer, pos):
            if opener == "{":
                key, end = json.decoder.scanstring(text, pos + 1)  # type: ignore[attr-defined]
                out[path + (key,)] = line(pos)
                pos = value(skip(end) + 1, path + (key,))
            else:
                pos = value(pos, path + (index,))
                index += 1
            pos = skip(pos)
            if text.startswith(",", pos):
                pos = skip(pos + 1)
        return pos + 1

    try:
        value(0, ())
    except (ValueError, IndexError, RecursionError):
        return {}
    return out


def line_of(lines: dict[tuple[Any, ...], int], loc: tuple[Any, ...]) -> int | None:
    """The line of ``loc``, or of its nearest enclosing key found in ``lines``."""
    for cut in range(len(loc), 0, -1):
        if loc[:cut] in lines:
            return lines[loc[:cut]]
    return None
