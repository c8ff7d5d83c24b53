"""One summary per stored match, so the history list does not replay every match on each request.

A summary (teams, score, how the rules ended it, counts, first and last entry) is derived data:
the log stays the only truth. It is kept in the store's ``match_summaries`` table with the
number of entries and the newest entry id it was made from, and :data:`SUMMARY_VERSION`.
:func:`summaries_for` rebuilds, by replaying, only the matches whose entries changed since
(a new event, a correction) or whose summary was made by code of another version; everything
else is read back as is. Bump :data:`SUMMARY_VERSION` whenever a change alters what a summary
holds or how the rules score a stored match.
"""

from __future__ import annotations

from importlib import metadata
from typing import Any

from futmesa.matchbook.signing import closed
from futmesa.store import EventLog, StoredEntry


def _package_version() -> str:
    try:
        return metadata.version("futmesa")
    except metadata.PackageNotFoundError:
        return "unknown"


# this module's summary layout / the futmesa release (a new release may score matches anew)
# 3: `signed`; 4: the rules' own fouls listed; 5: a penalty's goal named so (walk 50a L4);
# 6: no question withdrawn in the account (walk52b L5); 7: minutes in added time ("3'+1"),
# an answer placed at the event it decides (walk52b L1, L2)
SUMMARY_VERSION = f"7/{_package_version()}"
FACT_KEYS = ("kind", "when", "when_en", "text", "text_en", "struck")


def summarize(state: dict[str, Any], stored: list[StoredEntry],
              facts: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """The summary of one match from its replayed state (``MatchState.to_dict()``), its log
    and its account (matchbook/account.py: the facts the history lists, as the súmula)."""
    result = state.get("result") if isinstance(state.get("result"), dict) else {}
    return {
        "account": [{k: f.get(k) for k in FACT_KEYS} for f in facts or []],
        "teams": state.get("teams") or {},
        "score": state.get("score"),
        "period": state.get("period"),
        "finished": bool(state.get("finished", False)),
        "signed": closed(stored),  # the referee's signature closes the match (signing.py)
        "result": {"reason": (result or {}).get("reason")},
        "counts": {
            "entries": len(stored),
            "device": sum(1 for e in stored if e.source == "device"),
            "referee": sum(1 for e in stored if e.source == "referee"),
            "corrections": sum(1 for e in stored if e.kind in ("void", "amend")),
            "gaps": sum(1 for e in stored if e.kind == "gap"),
        },
        "first_at": min((e.occurred_at for e in stored), default=None),
        "last_at": max((e.occurred_at for e in stored), default=None),
    }


def summaries_for(store: EventLog, matches: list[dict[str, Any]],
                  build: Any) -> dict[int, dict[str, Any]]:
    """Each match's summary: the stored one if still valid, else ``build(match)`` (then kept).

    ``build(match)`` replays the match and returns its summary, or None when the match cannot
    be loaded (such a match is never cached: it is reported as it is, each time).
    """
    ids = [int(m["id"]) for m in matches]
    marks = store.entry_marks(ids)
    kept = store.summaries(ids)
    out: dict[int, dict[str, Any]] = {}
    fresh: list[tuple[int, str, int, int, dict[str, Any]]] = []
    for match in matches:
        mid = int(match["id"])
        count, last = marks.get(mid, (0, 0))
        old = kept.get(mid)
        if old is not None and old[:3] == (SUMMARY_VERSION, count, last):
            out[mid] = old[3]
            continue
        summary = build(match)
        if summary is None:
            continue
        out[mid] = summary
        fresh.append((mid, SUMMARY_VERSION, count, last, summary))
    store.put_summaries(fresh)
    return out
