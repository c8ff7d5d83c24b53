"""The history list reads kept summaries, and they always equal a fresh replay (issue 13, item 7).

Matches are written to a real SQLite event log the way the daemon writes them; the cached list
(:meth:`MatchLibrary.list_matches`) is compared with the list that replays every match
(:meth:`MatchLibrary.list_matches_replaying`) after every change. The goals follow 000 Art. 12
(a goal counts when the side had asked a shot); the voids follow the corrections of the log.
"""

from __future__ import annotations

import re
import sqlite3
import tempfile
from pathlib import Path
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from futmesa.matchbook import MatchLibrary
from futmesa.matchbook.book import load_state
from futmesa.matchbook.summary import SUMMARY_VERSION
from futmesa.sim.referee_moves import lance_towards
from futmesa.store import EventLog
from futmesa_testkit.liveserver import serving

TEAMS = {"A": {"name": "Alvorada"}, "B": {"name": "Botafogo"}}


class Table:
    """A table writing matches into ``store`` like the daemon (referee inputs, device events)."""

    def __init__(self, store: EventLog, table_id: str = "sim-T1") -> None:
        self.store = store
        self.table_id = table_id
        self.at = 1_780_000_000_000.0

    def add(self, match_id: int, kind: str, data: dict[str, Any], source: str = "referee") -> int:
        self.at += 1000
        return self.store.append_entry(match_id, source, kind, data, 1, 0,
                                       "ref" if source == "referee" else "T1",
                                       occurred_at=self.at)

    def new_match(self) -> int:
        mid = self.store.new_match(self.table_id, "cbfm-1toque", {"teams": TEAMS})
        self.add(mid, "set_up", {"kickoff": "A"})
        self.add(mid, "start_period", {})
        self.add(mid, "period_started", {}, "device")
        self.add(mid, "clock_started", {"reason": 0}, "device")
        return mid

    def goal(self, match_id: int, side: str, asked: bool = True) -> int:
        if asked:
            # only the team with the lance asks (000 Art. 12 §3 A): the lances that bring the
            # ball to it first, as the referee enters them
            for _lance in range(4):
                match = self.store.match(match_id)
                assert match is not None
                state = load_state(match, self.store.entries(match_id)).to_dict()
                move = lance_towards(state, side)
                if move is None:
                    break
                self.add(match_id, *move)
            self.add(match_id, "shot_asked", {"side": side, "disc": 7})
        return self.add(match_id, "goal_line", {"goal": 1 if side == "A" else 0, "held_ms": 40},
                        "device")


def _same(lib: MatchLibrary) -> list[dict[str, Any]]:
    cached = lib.list_matches()
    assert cached == lib.list_matches_replaying()
    return cached


# one step: (which match, what) — a goal for A or B (asked or not), a void of an earlier entry,
# a new match on the table, or a look at the history (which keeps the summaries)
STEP = st.tuples(st.integers(0, 5),
                 st.sampled_from(["goalA", "goalB", "unasked", "void", "new", "look"]),
                 st.integers(0, 50))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(STEP, min_size=1, max_size=40))
def test_summaries_equal_a_fresh_replay(steps: list[tuple[int, str, int]]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        store = EventLog(Path(tmp) / "m.sqlite")
        lib = MatchLibrary(store)
        table = Table(store)
        ids = [table.new_match()]
        written: dict[int, list[int]] = {ids[0]: []}
        for which, what, pick in steps:
            mid = ids[which % len(ids)]
            if what in ("goalA", "goalB", "unasked"):
                side = "B" if what == "goalB" else "A"
                written[mid].append(table.goal(mid, side, asked=what != "unasked"))
            elif what == "void" and written[mid]:
                target = written[mid][pick % len(written[mid])]
                written[mid].append(table.add(mid, "void", {"target": target}))
            elif what == "new":
                store.end_match(ids[-1])
                ids.append(table.new_match())
                written[ids[-1]] = []
            else:
                _same(lib)
        _same(lib)
        store.close()


def test_a_correction_updates_the_summary(tmp_path: Path) -> None:
    store = EventLog(tmp_path / "m.sqlite")
    lib, table = MatchLibrary(store), Table(store)
    mid = table.new_match()
    goal = table.goal(mid, "A")
    assert _same(lib)[0]["score"] == {"A": 1, "B": 0}
    table.add(mid, "void", {"target": goal, "reason": "bola na trave"})
    row = _same(lib)[0]
    assert row["score"] == {"A": 0, "B": 0}
    assert row["summary"]["counts"]["corrections"] == 1


def _tamper(db: Path, sql: str) -> None:
    con = sqlite3.connect(db)
    with con:
        con.execute(sql)
    con.close()


def _one_goal_listed(tmp_path: Path) -> tuple[Path, MatchLibrary, Table, int]:
    """A match with Alvorada's goal in a new log, listed once (its summary kept): the log's
    file, the library, the table and the match."""
    db = tmp_path / "m.sqlite"
    store = EventLog(db)
    lib, table = MatchLibrary(store), Table(store)
    mid = table.new_match()
    table.goal(mid, "A")
    lib.list_matches()
    return db, lib, table, mid


def test_a_kept_summary_is_read_not_replayed(tmp_path: Path) -> None:
    """Proof the list does not replay an unchanged match: a doctored summary shows through."""
    db, lib, table, mid = _one_goal_listed(tmp_path)
    _tamper(db, "UPDATE match_summaries SET summary="
                "json_set(summary, '$.score.A', 7)")
    assert lib.list_matches()[0]["score"]["A"] == 7
    table.goal(mid, "B")  # the match's entries changed: its summary is rebuilt
    assert _same(lib)[0]["score"] == {"A": 1, "B": 1}


def test_a_stale_summary_version_is_rebuilt(tmp_path: Path) -> None:
    db, lib, _, _ = _one_goal_listed(tmp_path)
    # a summary made by older code, with what that code thought the score was
    _tamper(db, "UPDATE match_summaries SET version='0/0.0.1',"
                " summary=json_set(summary, '$.score.A', 7)")
    assert _same(lib)[0]["score"] == {"A": 1, "B": 0}
    con = sqlite3.connect(db)
    assert con.execute("SELECT version FROM match_summaries").fetchall() == [(SUMMARY_VERSION,)]
    con.close()
    # a damaged summary is rebuilt too
    _tamper(db, "UPDATE match_summaries SET summary='{not json'")
    assert _same(lib)[0]["score"] == {"A": 1, "B": 0}


def test_a_read_only_log_still_lists_its_matches(tmp_path: Path) -> None:
    db = tmp_path / "m.sqlite"
    store = EventLog(db)
    table = Table(store)
    table.goal(table.new_match(), "B")
    store.close()
    ro = EventLog(db)
    ro._db.execute("PRAGMA query_only=ON")  # writes fail like on a read-only file
    assert MatchLibrary(ro).list_matches()[0]["score"] == {"A": 0, "B": 1}


def test_history_pages_equal_slices_of_the_whole_list(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """A page reads only its own matches, yet says the same (a match replaced by a newer one
    on the next page included); the page links to the older matches."""
    from futmesa.web import history as web_history

    store = EventLog(tmp_path / "m.sqlite")
    lib = MatchLibrary(store)
    tables = [Table(store, "sim-T1"), Table(store, "sim-T2")]
    for i in range(8):
        table = tables[i % 3 % 2]
        mid = table.new_match()
        table.goal(mid, "AB"[i % 2])
        if i < 6:
            store.end_match(mid)
    whole = lib.list_matches_replaying()
    assert [m["id"] for m in whole] == list(range(8, 0, -1))
    assert lib.list_matches(3) == whole[:3]
    assert lib.list_matches(3, before=6) == whole[3:6]
    assert lib.list_matches(10, before=3) == whole[6:]
    assert any(m["ending"]["code"] == "replaced" for m in whole[3:6])

    monkeypatch.setattr(web_history, "PAGE", 3)
    with serving(history=lib) as live, httpx.Client(base_url=live.url, timeout=30) as web:
        seen: list[str] = []
        url: str | None = "/history?lang=en"
        while url:
            page = web.get(url)
            assert page.status_code == 200
            seen += re.findall(r'<a href="/report/(\d+)">', page.text)
            more = re.search(r'<a href="(/history\?before=\d+&amp;lang=en)">Older', page.text)
            url = more.group(1).replace("&amp;", "&") if more else None
        assert seen == [str(i) for i in range(8, 0, -1)]
        assert web.get("/history?before=99999999999999999999999").status_code == 200
