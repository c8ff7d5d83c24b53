"""Each match's entries numbered from 1: the number a person reads ("Registro nº 3").

The store numbers entries across all matches (ids, the hash chain and the API targets stay
those); every view and every citation of an entry ("anula o registro nº 3", the súmula's
Nº, the console's Registro) says the entry's place in its own match's log instead, derived
here and only here (walk45h-b B9: match 2's Registro began at nº 77). The rules' own words
that name an entry (a correction's announcement, a correction refused: "O registro nº 140 não
é um fato a corrigir") are made with its stored id and said again here (``renumbered``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from futmesa.rules.context import words


def numbered(ids: Iterable[int]) -> dict[int, int]:
    """Each entry id of one match -> its number in that match (1, 2, … in log order)."""
    return {entry_id: n for n, entry_id in enumerate(sorted(ids), 1)}


def number_of(entry_id: Any, rows: Mapping[Any, Mapping[str, Any]] | None) -> str:
    """The match's number of the entry ``entry_id`` as a person reads it, from ``rows`` (the
    match's entries by id, each carrying its ``no``); "?" for an entry not in the match."""
    if rows is None and isinstance(entry_id, int):
        return str(entry_id)  # no match at hand to number it in: the entry as stored
    row = (rows or {}).get(entry_id) if entry_id is not None else None
    no = (row or {}).get("no")
    return str(no) if isinstance(no, int) else "?"


def with_numbers(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A match's entries (records) each with its ``no``: a hand-made or older record, made
    before records carried it, numbered here the same way."""
    if all(isinstance(e.get("no"), int) for e in entries):
        return entries
    numbers = numbered(e["id"] for e in entries if isinstance(e.get("id"), int))
    return [{**e, "no": numbers.get(e.get("id"))} for e in entries]  # type: ignore[arg-type]


def renumbered(item: Any, rows: Mapping[Any, Mapping[str, Any]] | None) -> Any:
    """An engine announcement that names an entry by its stored id (its ``cites``, made by
    rules/corrections.cites) said again with the entry's number in the match, from ``rows``
    (the match's entries by id, each with its ``no``); any other item as it is."""
    said = item.get("cites") if isinstance(item, dict) else None
    if rows is None or not isinstance(said, dict) or not isinstance(said.get("values"), dict):
        return item
    raw = said.get("msgid")  # an NP_ pair comes back from JSON as a list
    msgid: str | tuple[str, str] = (str(raw[0]), str(raw[1])) if isinstance(
        raw, (list, tuple)) else str(raw)
    values = {**said["values"], "target": number_of(said["values"].get("target"), rows)}
    out = {k: v for k, v in item.items() if k != "cites"}
    return {**out, "pt": words("pt_BR", msgid, values), "en": words("en", msgid, values)}
