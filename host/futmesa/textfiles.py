"""One reader for every file a person writes: the text, whatever editor saved it, and its JSON.

Excel on a Brazilian Windows saves in cp1252 or as "Unicode text" (UTF-16); LibreOffice
and editors write UTF-8 with or without a BOM: :func:`read_text` reads all of them, refusing
a file too big or missing in one line. :func:`read_json` adds the JSON, with one wording for
a mistake in any such file (the settings, a competition's settings, a board file): the file,
its line and column, and what JSON does not take. The callers turn
:class:`OrganiserFileError` into their own error (SettingsError, BoardFileError…).
"""

from __future__ import annotations

import codecs
import json
from pathlib import Path
from typing import Any

from futmesa.i18n import _, json_parser_message

MAX_FILE_BYTES = 4 * 1024 * 1024  # a day's teams or settings are a few kilobytes


class OrganiserFileError(ValueError):
    """A file that cannot be read at all; one line saying what to do."""


def decode(raw: bytes, where: str | None = None) -> str:
    """The text of an organiser's file: UTF-8 (with or without BOM), UTF-16 (BOM, or the
    zero bytes of plain Latin text), else cp1252/Latin-1 (every byte is a character)."""
    where = where or _("the file")
    if raw.startswith(codecs.BOM_UTF8):
        raw = raw[len(codecs.BOM_UTF8):]
    elif raw.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        try:
            return raw.decode("utf-16")
        except UnicodeDecodeError:
            raise OrganiserFileError(_("{where}: damaged UTF-16; save it again as "
                                       "CSV UTF-8").format(where=where)) from None
    elif len(raw) >= 4 and raw.count(0) * 3 >= len(raw):
        # UTF-16 without a BOM: every other byte of Latin text is zero
        codec = "utf-16-le" if raw[1] == 0 else "utf-16-be"
        try:
            return raw.decode(codec)
        except UnicodeDecodeError:
            raise OrganiserFileError(_("{where}: damaged UTF-16; save it again as "
                                       "CSV UTF-8").format(where=where)) from None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        pass
    try:
        return raw.decode("cp1252")
    except UnicodeDecodeError:
        return raw.decode("latin-1")  # the five bytes cp1252 leaves undefined


def read_text(path: str | Path) -> str:
    """An organiser's file as text, or OrganiserFileError with one line."""
    p = Path(path)
    try:
        size = p.stat().st_size
        if size > MAX_FILE_BYTES:
            raise OrganiserFileError(_("{path}: {size} KiB is too big for this file (at most "
                                       "{most} MiB)").format(path=p, size=size // 1024,
                                                             most=MAX_FILE_BYTES // 1024 // 1024))
        raw = p.read_bytes()
    except FileNotFoundError:
        raise OrganiserFileError(_("{path}: file not found").format(path=p)) from None
    except IsADirectoryError:
        raise OrganiserFileError(_("{path}: a folder, not a file").format(path=p)) from None
    except OSError as exc:
        raise OrganiserFileError(_("{path}: could not be read ({problem})").format(
            path=p, problem=exc.strerror)) from None
    return decode(raw, str(p))


def read_json(path: str | Path) -> tuple[str, Any]:
    """(the text, its JSON) of a file a person wrote, or OrganiserFileError with one line."""
    p = Path(path)
    text = read_text(p).lstrip("\ufeff")
    try:
        return text, json.loads(text)
    except json.JSONDecodeError as exc:
        raise OrganiserFileError(_(
            "{path}: invalid JSON at line {line}, column {column} ({problem}); JSON takes no "
            "comments and no trailing comma").format(
                path=p, line=exc.lineno, column=exc.colno,
                problem=json_parser_message(exc.msg))) from None
    except RecursionError:
        raise OrganiserFileError(_("{path}: the JSON is nested too deeply").format(
            path=p)) from None
