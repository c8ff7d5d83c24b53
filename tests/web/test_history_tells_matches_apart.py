"""/history on a phone tells matches apart (walk #45 M9): four rows read "Estrela do Norte ×
Botafogo da Mesa" alike — the rules and the table were in columns a phone hides, and nothing
said which súmula the referee had signed. Each row's line under it (shown on every screen) now
names the rules, the table and whether the referee signed."""

from __future__ import annotations

import re
from pathlib import Path

from futmesa.matchbook import MatchLibrary
from futmesa.store import EventLog
from futmesa.web.history import render_history

TEAMS = {"A": {"name": "Estrela do Norte"}, "B": {"name": "Botafogo da Mesa"}}


def _match(store: EventLog, ruleset: str, table: str, *, signed: bool) -> int:
    mid = store.new_match("sim-T1", ruleset, {"teams": TEAMS, "table_name": table})
    at = 1_780_000_000_000.0
    entries = [("set_up", {"kickoff": "A"}, "referee"), ("start_period", {}, "referee"),
               ("period_started", {}, "device")]
    if signed:
        entries.append(("signature", {"role": "referee", "name": "Ana", "signs": "0" * 64,
                                      "image": "data:image/png;base64,iVBORw0KGgo="}, "referee"))
    for kind, data, source in entries:
        at += 1000
        store.append_entry(mid, source, kind, data, 1, 0,
                           "ref" if source == "referee" else "T1", occurred_at=at)
    store.end_match(mid)
    return mid


def test_each_row_names_its_rules_table_and_signature(tmp_path: Path) -> None:
    store = EventLog(tmp_path / "m.sqlite")
    cbfm = _match(store, "cbfm-1toque", "Mesa Walk", signed=True)
    gaucha = _match(store, "gaucha", "Mesa 2", signed=False)
    page = render_history(MatchLibrary(store).list_matches(), "pt")

    def under(mid: int) -> str:
        found = re.search(rf'<tr class="how" id="how-{mid}">(.*?)</tr>', page, re.S)
        assert found, page
        return re.sub(r"<[^>]+>", " ", found.group(1))

    assert "CBFM — Regra 1 Toque" in under(cbfm) and "Mesa Walk" in under(cbfm)
    assert "assinada pelo árbitro" in under(cbfm)
    assert "Regra Gaúcha" in under(gaucha) and "Mesa 2" in under(gaucha)
    assert "sem a assinatura do árbitro" in under(gaucha)
    assert "assinada pelo árbitro" not in under(gaucha)
