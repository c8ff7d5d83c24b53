"""Organisers' files as spreadsheets and editors write them: the encoding, the separator,
and spreadsheet formulas kept out of every CSV the project writes.

Excel on a Brazilian Windows saves "CSV" in cp1252 with ``;`` between columns, or as
"Unicode text" in UTF-16; LibreOffice and editors write UTF-8 with or without a BOM.
:func:`decode` (futmesa.textfiles, the one reader of every file a person writes) reads all of
them; :func:`sniff_delimiter` picks ``;``, ``,`` or a tab from
the header line; :func:`cell` neutralises a text a spreadsheet would run as a formula.
"""

from __future__ import annotations

from futmesa.textfiles import MAX_FILE_BYTES, OrganiserFileError, decode, read_text

__all__ = ["MAX_FILE_BYTES", "OrganiserFileError", "cell", "decode", "file_part", "read_text",
           "sniff_delimiter", "uncell"]

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


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


def file_part(text: str, empty: str = "x", most: int = 60) -> str:
    """A piece of a file name any system takes: ASCII letters and digits (accents dropped),
    every other run of characters one "-"; ``empty`` when nothing is left."""
    import unicodedata

    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    dashed = "".join(ch if ch.isalnum() else "-" for ch in ascii_text)
    return "-".join(p for p in dashed.split("-") if p)[:most] or empty


def uncell(value: str) -> str:
    """The inverse of :func:`cell` for a text read back from a CSV this project wrote."""
    if value.startswith("'") and value[1:2] and value[1] in "=+-@":
        return value[1:]
    return value
