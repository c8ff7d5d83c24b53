"""Rule citations as people cite rules: "000 Art. 8 §10" -> "Regra CBFM 1 Toque, Art. 8 §10".

The rules engine cites the rule documents by their file number (``/work/shared/rules``:
000 CBFM 1 Toque, 001 Regra Gaúcha, 003 Pastilha 8x2, 004 "A mesa está posta"). Every view
reads citations through this one module, so a file number never reaches a person:
``cite()`` for one citation, ``plain()`` for a sentence that carries citations inside it.
The short form is for the TV and the console, the full form for the súmula. 004 has no
articles: its sections are cited by their titles, quoted ("A mesa está posta, «Faltas»").
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from futmesa.matchbook.numbers import renumbered

# file number -> (short name, full name)
DOCUMENTS: dict[str, tuple[str, str]] = {
    "000": ("CBFM 1 Toque", "Regra CBFM 1 Toque"),
    "001": ("Regra Gaúcha", "Regra Gaúcha (LGFM)"),
    "003": ("Pastilha 8x2", "Regra Pastilha 8x2 (FEFUMERJ / CBFM)"),
    "004": ("A mesa está posta", "Regra «A mesa está posta»"),
}

# a file number at the start of a citation: followed by an article, a rule, or a section title
_CITATION = re.compile(r"(?<![\w.])(00[0-9])(?:\s+(?=[A-ZÀ-Ú§])|(?=\)|$|[,;]))")
# the documents with no articles, cited by their sections' titles (004 "A partida"): the title
# is quoted, «A partida», so it never reads as part of the document's name ("A mesa está
# posta, A partida": walk45i-b, low); it ends where the citation does
TITLED = ("004",)
_TITLE = re.compile(r"(?<![\w.])(" + "|".join(TITLED) + r")\s+([^\s):;,][^):;,\n]*?)"
                    r"(?=\s*(?:[):;,\n]|$))")


def _document(number: str, full: bool) -> str:
    names = DOCUMENTS.get(number)
    if names is None:
        return "Regra"
    return names[1] if full else names[0]


def cite(rule: Any, *, full: bool = False) -> str:
    """One citation in words: ``cite("000 Art. 8 §10")`` -> "CBFM 1 Toque, Art. 8 §10"."""
    if not isinstance(rule, str) or not rule.strip():
        return ""
    return plain(rule.strip(), full=full)


def plain(text: Any, *, full: bool = False) -> str:
    """A text with every file-number citation in it put in words (the rest unchanged)."""
    if not isinstance(text, str):
        return "" if text is None else str(text)
    return _plain(text, full)


@lru_cache(maxsize=4096)  # the same announcements are read on every published state
def _plain(text: str, full: bool) -> str:

    def name(m: re.Match[str]) -> str:
        doc = _document(m.group(1), full)
        rest = text[m.end():]
        if not rest or rest[0] in "),;":
            return doc
        return f"{doc}, "  # "…, Art. 8 §10" (004's sections: _TITLE, "…, «Sua vez»")

    text = _TITLE.sub(lambda m: f"{_document(m.group(1), full)}, «{m.group(2)}»", text)
    return _CITATION.sub(name, text)


def announcement(item: Any, *, full: bool = False,
                 rows: Mapping[Any, Mapping[str, Any]] | None = None) -> Any:
    """An engine announcement with its texts and citation in words (a new dict); given the
    match's entries by id (``rows``, each with its ``no``), an entry it names is said by its
    number in the match (numbers.renumbered), never its stored id."""
    if not isinstance(item, dict):
        return plain(item, full=full) if isinstance(item, str) else item
    out = dict(renumbered(item, rows))
    for key in ("pt", "en", "question", "text"):
        if isinstance(out.get(key), str):
            out[key] = plain(out[key], full=full)
    if isinstance(out.get("rule"), str):
        out["rule"] = cite(out["rule"], full=full)
    return out
