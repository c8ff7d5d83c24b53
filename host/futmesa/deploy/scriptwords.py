"""Sentences for the files the installers write (install.sh, README.txt), from the catalogs
in the process language: a sentence for a double-quoted shell string has the shell's special
characters escaped before the values (already shell words, such as ``"$f"``) go in."""

from __future__ import annotations

from futmesa.i18n import _

_SHELL_SPECIAL = ("\\", '"', "$", "`")


def sh_words(msgid: str, **values: object) -> str:
    """``msgid`` translated, safe inside ``echo "…"``, with ``values`` put in as they are."""
    text = _(msgid)
    for ch in _SHELL_SPECIAL:
        text = text.replace(ch, "\\" + ch)
    return text.format(**values)
