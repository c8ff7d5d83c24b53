"""Organisers' files as spreadsheets and editors write them: the encoding, the separator,
and spreadsheet formulas kept out of every CSV the project writes.

Excel on a Brazilian Windows saves "CSV" in cp1252 with ``;`` between columns, or as
"Unicode text" in UTF-16; LibreOffice and editors write UTF-8 with or without a BOM.
:func:`decode` reads all of them; :func:`sniff_delimiter` picks ``;``, ``,`` or a tab from
the header line; :func:`cell` neutralises a text a spreadsheet would run as a formula.
"""

from __future__ import annotations

import codecs
from pathlib import Path

from futmesa.i18n import _

MAX_FILE_BYTES = 4 * 1024 * 1024  # a day's teams or settings are a few kilobytes
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


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


def sniff_delimiter(text: str) -> str:
    """``;``, ``,`` or a tab: whichever the header line has most of (``,`` on a tie)."""
    header = text.lstrip("\ufeff").split("\n", 1)[0]
    counts = {d: header.count(d) for d in (",", ";", "\t")}
    best = max(counts, key=lambda d: (counts[d], d == ","))
    return best if counts[best] else ","


def cell(value: object) -> object:
    """A value for a CSV cell a spreadsheet will open: a text starting like a formula
    (``=``, ``+``, ``-``, ``@``, tab, carriage return) gets a leading apostrophe, so it is
    shown, never run. Numbers are left as they are."""
    if isinstance(value, str) and value.startswith(FORMULA_START):
        return "'" + value
    return value


def uncell(value: str) -> str:
    """The inverse of :func:`cell` for a text read back from a CSV this project wrote."""
    if value.startswith("'") and value[1:2] and value[1] in "=+-@":
        return value[1:]
    return value
