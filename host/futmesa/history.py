"""Match history for the views: stored matches and their súmula records, rebuilt from the log."""

from __future__ import annotations

from typing import Any

from futmesa.rules import Engine, load_ruleset
from futmesa.store import EventLog, StoredEntry


def _corrections(entries: list[StoredEntry]) -> tuple[set[int], dict[int, int]]:
    voided: set[int] = set()
    amended_by: dict[int, int] = {}
    for e in entries:
        target = e.data.get("target")
        if e.kind == "void" and isinstance(target, int):
            voided.add(target)
        elif e.kind == "amend" and isinstance(target, int):
            amended_by[target] = e.id
    return voided, amended_by


class History:
    """Implements the web views' HistoryProvider on the SQLite event log."""

    def __init__(self, store: EventLog) -> None:
        self.store = store

    def list_matches(self) -> list[dict[str, Any]]:
        out = []
        for match in self.store.list_matches():
            state = self._final_state(match)
            header = self._match_header(match)
            if state.get("teams"):
                header["teams"] = state["teams"]  # names set at the table override settings
            out.append({**header, "score": state.get("score"),
                        "finished": state.get("finished", False)})
        return out

    def _match_header(self, match: dict[str, Any]) -> dict[str, Any]:
        settings = match["settings"]
        return {
            "id": match["id"], "table_id": match["table_id"], "ruleset": match["ruleset"],
            "teams": settings.get("teams", {}), "referee": match.get("referee", ""),
            "created_at": match["created_at"], "ended_at": match["ended_at"],
            "settings": settings,
        }

    def _final_state(self, match: dict[str, Any]) -> dict[str, Any]:
        from futmesa.daemon import to_entry

        engine = Engine(load_ruleset(match["ruleset"]), match["settings"])
        state, _ = engine.replay([to_entry(e) for e in self.store.entries(match["id"])])
        return state.to_dict()

    def match_record(self, match_id: int) -> dict[str, Any]:
        match = self.store.match(match_id)
        if match is None:
            raise KeyError(f"no match {match_id} in {self.store.path}")
        entries = self.store.entries(match_id)
        voided, amended_by = _corrections(entries)
        state = self._final_state(match)
        header = self._match_header(match)
        if state.get("teams"):
            header["teams"] = state["teams"]
        return {
            "match": header,
            "entries": [
                {"id": e.id, "kind": e.kind, "data": e.data, "source": e.source,
                 "period": e.period, "clock_ms": e.clock_ms, "created_at": e.created_at,
                 "author": e.author, "voided": e.id in voided, "amended_by": amended_by.get(e.id)}
                for e in entries
            ],
            "state": {"score": state.get("score"), "period": state.get("period"),
                      "finished": state.get("finished"), "teams": state.get("teams"),
                      "ruleset": match["ruleset"], "match": state},
        }
