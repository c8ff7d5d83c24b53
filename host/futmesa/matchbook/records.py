"""One log entry as the views read it (its sentence, status and the rules' words), and what
that needs from the whole match: the goal each side defended then, what the rules announced."""

from __future__ import annotations

from typing import Any, NamedTuple

from futmesa.matchbook.citations import plain
from futmesa.matchbook.status import EntryStatus, entry_statuses
from futmesa.matchbook.wording import origin, sentence
from futmesa.store import StoredEntry


def meanings(state: dict[str, Any], kinds: dict[int, str]) -> dict[int, list[dict[str, str]]]:
    """What the rules announced for each entry (a goal, a restart…), by entry id.

    An announcement that only restates the entry (its code is the entry's kind) is left out.
    """
    out: dict[int, list[dict[str, str]]] = {}
    for a in state.get("announcements") or []:
        if (isinstance(a, dict) and a.get("code") != "refused"
                and isinstance(a.get("entry"), int)
                and a.get("code") not in (kinds.get(a["entry"]), "correction")):
            out.setdefault(a["entry"], []).append({"pt": str(a.get("pt", "")),
                                                   "en": str(a.get("en", ""))})
    return out


def entry_record(e: StoredEntry, status: EntryStatus | None, teams: dict[str, Any],
                 by_id: dict[int, dict[str, Any]],
                 meaning: list[dict[str, str]] | None = None,
                 ends: dict[str, int] | None = None) -> dict[str, Any]:
    """One entry as the views read it: the stored row, its status, its sentences and meaning."""
    st = status or EntryStatus()
    return {
        "id": e.id, "kind": e.kind, "data": e.data, "source": e.source, "period": e.period,
        "clock_ms": e.clock_ms, "created_at": e.created_at, "occurred_at": e.occurred_at,
        "author": e.author,
        "status": st.to_dict(),
        "voided": st.state in ("voided", "without_effect"),
        "amended_by": st.by if st.state == "amended" else None,
        "ends": ends,  # the goal each side defended then (names goal lines by side)
        "origin": origin(e.source, e.author),
        "origin_en": origin(e.source, e.author, "en"),
        "text": sentence(e.kind, e.data, teams, "pt", period=e.period, targets=by_id, ends=ends),
        "text_en": sentence(e.kind, e.data, teams, "en", period=e.period, targets=by_id,
                            ends=ends),
        # the rules' words, their citations in words: short for screens, full for the súmula
        "meaning": [plain(m["pt"]) for m in meaning or []],
        "meaning_en": [plain(m["en"]) for m in meaning or []],
        "meaning_full": [plain(m["pt"], full=True) for m in meaning or []],
        "meaning_en_full": [plain(m["en"], full=True) for m in meaning or []],
    }


def ends_by_entry(state: dict[str, Any], stored: list[StoredEntry]) -> dict[int, dict[str, int]]:
    """The goal each side defended when each entry was made, from the log's "ends" inputs and
    the engine's "change_ends" announcements (so a goal line is named by its side)."""
    swaps = {a.get("entry") for a in state.get("announcements") or []
             if isinstance(a, dict) and a.get("code") == "change_ends"}
    ends = {"A": 0, "B": 1}
    out: dict[int, dict[str, int]] = {}
    for e in stored:
        out[e.id] = ends
        if e.kind == "ends" and isinstance(e.data, dict) and e.data.get("A") in (0, 1):
            ends = {"A": int(e.data["A"]), "B": 1 - int(e.data["A"])}
        if e.id in swaps:
            ends = {"A": ends["B"], "B": ends["A"]}
    return out


class RecordInputs(NamedTuple):
    """What the records of a log need from the whole match, by entry id: the goal each side
    defended then, its status, the rules' words on it, and each entry as a correction names it."""

    ends: dict[int, dict[str, int]]
    statuses: dict[int, EntryStatus]
    said: dict[int, list[dict[str, str]]]
    by_id: dict[int, dict[str, Any]]


def record_inputs(m: dict[str, Any], stored: list[StoredEntry]) -> RecordInputs:
    """:class:`RecordInputs` of ``stored`` in the match ``m`` (the engine's state)."""
    ends = ends_by_entry(m, stored)
    by_id = {e.id: {"kind": e.kind, "data": e.data, "period": e.period, "ends": ends.get(e.id)}
             for e in stored}
    return RecordInputs(ends, entry_statuses(m.get("corrections") or []),
                        meanings(m, {e.id: e.kind for e in stored}), by_id)
