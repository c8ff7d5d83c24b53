"""The console's live log (matchbook/live_log.py, issue 32 §4 and §6): a console that asks
for what changed after every entry holds, at every moment, the log a replay of the stored
match gives; and what it receives grows as the match, not as its square."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from futmesa.matchbook import MatchBook, MatchLibrary
from futmesa.matchbook.entries import to_entry
from futmesa.sim.referee_moves import lance_towards
from futmesa.store import EventLog
from futmesa.web.console import live_log_view, log_view

# what the two paths may tell apart: the store's clock, the chain's proof
COMPARED = ("id", "kind", "data", "source", "period", "clock_ms", "text", "status", "voided",
            "meaning", "origin", "status_text", "correctable", "fields", "ends", "facts",
            "fact_lines", "interval", "folded", "undo")


class Console:
    """A console polling the live log after every change, as web/static/console/log.js."""

    def __init__(self) -> None:
        self.epoch: str | None = None
        self.rev = 0
        self.by_id: dict[int, dict[str, Any]] = {}
        self.order: list[int] = []
        self.received = 0  # bytes of JSON
        self.closed = False

    def poll(self, book: MatchBook) -> None:
        body = live_log_view(book.live_log, self.epoch, str(self.rev), "pt")
        self.received += len(json.dumps(body))
        if body["full"]:
            self.by_id, self.order = {}, []
        for e in body["entries"]:
            if e["id"] not in self.by_id:
                self.order.append(e["id"])
            self.by_id[e["id"]] = e
        if "order" in body:
            self.order = list(body["order"])
        self.epoch, self.rev, self.closed = body["epoch"], body["rev"], body["closed"]

    def log(self) -> list[dict[str, Any]]:
        return [{k: self.by_id[i].get(k) for k in COMPARED} for i in self.order]


def replayed_log(store: EventLog, match_id: int) -> tuple[list[dict[str, Any]], bool]:
    view = log_view(MatchLibrary(store).match_record(match_id), "pt")
    return [{k: e.get(k) for k in COMPARED} for e in view["entries"]], view["closed"]


class Table:
    """A match stored and applied as the table daemon does: the log first, then the book."""

    def __init__(self, path: Path) -> None:
        self.store = EventLog(path)
        match_id = self.store.new_match("t1", "cbfm-1toque", {})
        match = self.store.match(match_id)
        assert match is not None
        self.book = MatchBook.opened(self.store, match)
        self.t = 1_000_000.0

    def put(self, kind: str, data: dict[str, Any], source: str = "referee",
            at: float | None = None) -> int:
        self.t += 500
        entry_id = self.store.append_entry(self.book.id, source, kind, data, 1, int(self.t) % 10**6,
                                           "ref" if source == "referee" else "dev",
                                           occurred_at=at or self.t)
        stored = next(e for e in self.store.entries(self.book.id) if e.id == entry_id)
        if source == "referee" and self.book.timeline.placed_before_device(stored.occurred_at):
            self.book.replay()  # as the daemon: an input placed back in time is replayed
        else:
            self.book.apply(to_entry(stored))
        return entry_id


def test_a_console_holds_the_replayed_log_after_every_change(tmp_path: Path) -> None:
    table, console = Table(tmp_path / "m.sqlite"), Console()
    table.put("set_up", {"kickoff": "A", "teams": {"A": {"name": "Casa"},
                                                   "B": {"name": "Fora"}}})
    table.put("start_period", {})
    table.put("clock_started", {"reason": 0}, "device")
    side, goals = "A", []
    for goal in range(1, 10):
        for _ in range(3):
            move = lance_towards(table.book.state.m, side)
            if move is not None:
                table.put(*move)
                console.poll(table.book)
        table.put("shot_asked", {"side": side, "disc": 9})
        other = "B" if side == "A" else "A"
        goals.append(table.put("goal_line", {"goal": table.book.state.m["ends"][other]},
                               "device"))
        if goal == 3:
            table.put("void", {"target": goals[-1]})  # a correction: statuses change
        if goal == 6:
            # pressed a second before the goal it reached the host after: placed back in time
            table.put("pause", {}, at=table.t - 1_000)
        console.poll(table.book)
        assert (console.log(), console.closed) == replayed_log(table.store, table.book.id), goal
        side = other
    assert any(e["status"]["state"] == "voided" for e in console.log())
    # a console that comes in late (or from another epoch, after a restart) gets it whole
    late = Console()
    late.epoch = "another"
    late.rev = 10**6
    late.poll(table.book)
    assert late.log() == console.log()


def test_what_a_console_receives_grows_as_the_match(tmp_path: Path) -> None:
    """Bytes per entry over a match of N entries and of about 4N (each with a void every
    fifth goal): the same per entry, give or take, where the whole log after every entry
    grew as N² (4× per entry)."""

    def per_entry(goals: int, name: str) -> float:
        table, console = Table(tmp_path / name), Console()
        table.put("set_up", {"kickoff": "A"})
        table.put("start_period", {})
        table.put("clock_started", {"reason": 0}, "device")
        side = "A"
        for goal in range(1, goals + 1):
            move = lance_towards(table.book.state.m, side)
            if move is not None:
                table.put(*move)
                console.poll(table.book)
            table.put("shot_asked", {"side": side, "disc": 9})
            console.poll(table.book)
            other = "B" if side == "A" else "A"
            scored = table.put("goal_line", {"goal": table.book.state.m["ends"][other]},
                               "device")
            console.poll(table.book)
            if goal % 5 == 0:
                table.put("void", {"target": scored})
                console.poll(table.book)
            side = other
        return console.received / len(table.store.entries(table.book.id))

    short, long = per_entry(10, "short.sqlite"), per_entry(40, "long.sqlite")
    print(f"bytes per entry: {short:.0f} at 10 goals, {long:.0f} at 40 goals "
          f"({long / short:.2f}×)")
    assert long / short < 1.5, (short, long)


def test_a_long_log_comes_as_its_newest_entries_and_older_pages(tmp_path: Path) -> None:
    """A console that opens a long match gets the newest ``limit`` entries and how many are
    older; asking ``before=`` the oldest it holds, a page at a time, it ends with the whole
    log, in order, as a replay gives it."""
    table = Table(tmp_path / "m.sqlite")
    table.put("set_up", {"kickoff": "A"})
    table.put("start_period", {})
    for _ in range(23):
        table.put("pause", {})
        table.put("resume", {})
    whole, _closed = replayed_log(table.store, table.book.id)
    first = live_log_view(table.book.live_log, None, "0", "pt", limit="10")
    assert first["full"] and first["older"] == len(whole) - 10
    held = {e["id"]: e for e in first["entries"]}
    order, older = first["order"], first["older"]
    pages = 0
    while older:
        oldest = next(i for i in order if i in held)
        page = live_log_view(table.book.live_log, first["epoch"], None, "pt", limit="10",
                             before=str(oldest))
        assert page["page"] and len(page["entries"]) == min(10, older)
        held.update({e["id"]: e for e in page["entries"]})
        older, pages = page["older"], pages + 1
    assert pages == 4
    assert [{k: held[i].get(k) for k in COMPARED} for i in order] == whole
    # a page before an entry the log does not hold is empty, not an error
    assert live_log_view(table.book.live_log, None, None, "pt", before="999999")["entries"] == []


def test_a_broken_or_hostile_query_gets_a_whole_answer_never_an_error(tmp_path: Path) -> None:
    """``since``, ``limit``, ``before`` and ``epoch`` as a phone, a stale tab or a hand-typed
    address may send them: each answered (the whole log, or an empty page), within bounds."""
    from futmesa.web.console import LOG_PAGE_MOST

    table = Table(tmp_path / "m.sqlite")
    table.put("set_up", {"kickoff": "A"})
    whole = len(live_log_view(table.book.live_log, None, "0", "pt")["entries"])
    huge = "9" * 400
    for since in ("-1", "1e9", "٤", huge, "", "1_0"):
        body = live_log_view(table.book.live_log, "<script>", since, "pt")
        assert body["full"] and len(body["entries"]) == whole, since
    for limit in ("0", "-5", "abc", huge, "99999999999"):
        body = live_log_view(table.book.live_log, None, "0", "pt", limit=limit)
        assert 1 <= len(body["entries"]) <= LOG_PAGE_MOST, limit
    for before in ("x", huge, "-3", "0"):
        body = live_log_view(table.book.live_log, None, None, "pt", limit="10", before=before)
        assert "entries" in body and len(body["entries"]) <= whole, before
