"""The article map: every article and paragraph of the four rule documents (read from the files
in ../shared/rules, not from memory) and the rows of docs/rulesets.md that cover them.

A document's paragraphs are named as the tables cite them: ``Art. 12`` (the article's own
text, with its lettered items), ``Art. 12 §1``, ``Art. 20 §único``; 001's Roman articles as
``Art. XXIII §9`` (its repeated numbers, XLVI and XLVIIII, count once: a row for the number
covers them all); 004's sections by their titles (``Sua vez``). A row's first cell covers:
``Art. 12`` (the article's own text), ``Art. 12 §1``, ``§1–§3`` ranges, ``Arts. 2–5`` (the
articles' own texts), lists joined by ``,`` or ``;`` that carry the article on
(``Art. 8 §1–§2, §4–§8``), and lettered items (``Art. 23 II D``: the article's own text).
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT.parent / "shared" / "rules"
DOC = ROOT / "docs" / "rulesets.md"
CAPUT = ""  # the article's own text (before its first paragraph)

ROMAN = {"I": 1, "V": 5, "X": 10, "L": 50}


def document(number: str) -> str:
    return next(RULES.glob(f"{number}_*.txt")).read_text(encoding="utf-8")


def _para(text: str) -> str:
    """"1^o", "1º", "10", "ÚNICO", "único" -> "1", "10", "único"."""
    text = unicodedata.normalize("NFC", text).strip().lower()
    if text.startswith("ún") or text.startswith("un"):
        return "único"
    digits = re.match(r"\d+", text)
    return digits.group(0) if digits else text


def paragraphs(number: str) -> list[tuple[str, str]]:
    """(article, paragraph) of a document in order; paragraph CAPUT for the article's text."""
    out: list[tuple[str, str]] = []
    if number == "004":
        lines = [x.strip() for x in document(number).splitlines()]
        # a section title: a short line between blank lines, followed by text
        for i, line in enumerate(lines[2:], 2):
            if line and len(line) < 30 and not lines[i - 1] and i + 2 < len(lines) \
                    and not lines[i + 1] and lines[i + 2]:
                out.append((line, CAPUT))
        return out
    art = None
    for raw in document(number).splitlines():
        line = raw.strip()
        if number == "001":
            m = re.match(r"Artigo\s+([IVXL]+)\b", line)
        else:
            m = re.match(r"Art\.\s*(\d+)", line)
        if m:
            art = m.group(1)
            if (art, CAPUT) not in out:
                out.append((art, CAPUT))
            continue
        if art is None:
            continue
        p = re.match(r"(?:§\s*([\w^º°]+)|Par[áa]grafo\s+[ÚUúu]nico)", line, re.I)
        if p:
            para = _para(p.group(1) or "único")
            if (art, para) not in out:
                out.append((art, para))
    return out


def _range(a: str, b: str) -> list[str]:
    if a.isdigit() and b.isdigit():
        return [str(n) for n in range(int(a), int(b) + 1)]
    return [a, b]


def _span(number: str, first: str, last: str) -> list[str]:
    """The articles from `first` to `last`, in the document's order (001 numbers its last
    articles its own way: XLVI twice, XLVIIII three times, XLX…)."""
    order = list(dict.fromkeys(a for a, _p in paragraphs(number)))
    if first in order and last in order:
        return order[order.index(first):order.index(last) + 1]
    return _range(first, last)


def covered(cell: str, number: str, every: dict[str, set[str]] | None = None
            ) -> set[tuple[str, str]]:
    """The (article, paragraph) pairs a row's first cell names; ``(all §)`` after an article
    or a range of them covers their paragraphs too (``every``: each article's paragraphs)."""
    if number == "004":
        return {(t.strip(), CAPUT) for t in cell.split(",")}
    out: set[tuple[str, str]] = set()
    art: str | None = None
    art_word = r"[IVXL]+" if number == "001" else r"\d+"
    for item in re.split(r"[;,]", cell.replace("(obs.)", "")):
        item = item.strip()
        if not item:
            continue
        if item.endswith("(all §)"):
            item = item.removesuffix("(all §)").strip()
            for a, _p in covered(item, number):
                out |= {(a, para) for para in (every or {}).get(a, set())}
        m = re.match(rf"(?:Arts?\.\s*)?({art_word})\s*[–-]\s*({art_word})$", item)
        if m:
            out |= {(a, CAPUT) for a in _span(number, m.group(1), m.group(2))}
            art = m.group(2)
            continue
        m = re.match(rf"Arts?\.\s*({art_word})(?:\s*[–-]\s*({art_word}))?(.*)$", item)
        if m:
            first, last, rest = m.group(1), m.group(2), m.group(3)
            arts = _span(number, first, last) if last else [first]
            art = arts[-1]
            if not rest.strip().startswith("§"):
                out |= {(a, CAPUT) for a in arts}
                continue
            item = rest.strip()
        else:
            m = re.match(rf"({art_word})\b(.*)$", item)
            if m and not item.startswith("§"):
                art = m.group(1)
                rest = m.group(2).strip()
                if not rest.startswith("§"):
                    out.add((art, CAPUT))
                    continue
                item = rest
        if art is None:
            continue
        p = re.match(r"§\s*([\wúÚ]+)(?:\s*[–-]\s*§?\s*([\wúÚ]+))?", item)
        if p:
            a, b = _para(p.group(1)), _para(p.group(2)) if p.group(2) else None
            for para in (_range(a, b) if b else [a]):
                out.add((art, para))
        else:
            out.add((art, CAPUT))  # lettered items ("II D", "A–D") or "caput"
    return out


def table_rows(number: str) -> list[list[str]]:
    """The cells of each row of the document's table in docs/rulesets.md."""
    text = DOC.read_text(encoding="utf-8")
    section = re.search(rf"^## {number} — .*?(?=^## |\Z)", text, re.S | re.M)
    assert section, f"docs/rulesets.md has no section for {number}"
    rows = []
    for line in section.group(0).splitlines():
        if line.startswith("| ") and not line.startswith("| article") and "---" not in line:
            rows.append([c.strip() for c in line.strip().strip("|").split(" | ")])
    return rows


def missing(number: str) -> list[str]:
    """The document's paragraphs no row names, as citations."""
    every: dict[str, set[str]] = {}
    for art, para in paragraphs(number):
        every.setdefault(art, set()).add(para)
    have: set[tuple[str, str]] = set()
    for row in table_rows(number):
        have |= covered(row[0], number, every)
    out = []
    for art, para in paragraphs(number):
        if (art, para) not in have:
            out.append(f"{art}" if number == "004" else
                       f"Art. {art}" + (f" §{para}" if para else ""))
    return out
