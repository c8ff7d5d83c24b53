"""What the screens count the interval from, and the event "Mais" shows (issue 45 §9, §14):
the table notes when its clock went into the interval, and the state every view reads carries
that moment (clock.interval_at) and the match settings' event."""

from __future__ import annotations

from pathlib import Path

import futmesa_wire as W
from futmesa.link.messages import Profile, Status
from futmesa.matchbook import LinkView, MatchBook, state_json
from futmesa.matchbook.entries import to_entry
from futmesa.rules import Engine, load_ruleset
from futmesa.store import EventLog
from futmesa.table.clock import TableClock

PROFILE = Profile(2, 0, 0, 0, 180_000, 120_000, 0, 15_000, 0)


def status(flags: int, clock_ms: int = 180_000) -> Status:
    return Status(ticks=1000, period=1, flags=flags, palheta=0, lance_side=0,
                  clock_ms=clock_ms, period_ms=180_000, added_ms=0, lance_ms=15_000,
                  lance_len_ms=15_000, newest=1, acked=1)


def test_the_table_notes_when_its_clock_went_into_the_interval() -> None:
    clock = TableClock()
    clock.heard_status(status(W.ST_RUNNING, 170_000), 1_000.0)
    assert clock.interval_at is None
    clock.heard_status(status(W.ST_INTERVAL), 5_000.0)
    clock.heard_status(status(W.ST_INTERVAL), 9_000.0)  # later reports: the same start
    assert clock.interval_at == 5_000.0
    clock.heard_status(status(W.ST_RUNNING, 0), 130_000.0)  # the second half
    assert clock.interval_at is None


def test_the_state_carries_the_interval_start_and_the_event() -> None:
    m = Engine(load_ruleset("cbfm-1toque"), {"interval_ms": 120_000}).initial_state().to_dict()
    link = LinkView(connected=True, reason="ok")
    st = state_json(table_id="sim-1", match_id=1, ruleset="cbfm-1toque", match=m,
                    status=status(W.ST_INTERVAL), status_wall_ms=9_000.0, profile=PROFILE,
                    link=link, interval_at=5_000.4, event="Copa do Clube 2026")
    assert st["clock"]["interval_at"] == 5_000
    assert st["match"]["clock_profile"]["interval_ms"] == 120_000  # how long it lasts
    assert st["event"] == "Copa do Clube 2026"
    # out of the interval no start is published (a stale one would count on)
    playing = state_json(table_id="sim-1", match_id=1, ruleset="cbfm-1toque", match=m,
                         status=status(W.ST_RUNNING), status_wall_ms=9_000.0, profile=PROFILE,
                         link=link, interval_at=5_000.0)
    assert playing["clock"]["interval_at"] is None and playing["event"] == ""


def test_a_restarted_host_counts_the_interval_on_from_the_stored_period_end() -> None:
    """A host restarted in the interval first hears the table already in it: it dates the
    interval from the entry that ended the period (the log), not from its own first status."""
    clock = TableClock()
    clock.heard_status(status(W.ST_INTERVAL), 90_000.0, began=lambda: 30_000.0)
    assert clock.interval_at == 30_000.0
    later = TableClock()  # a log that says nothing (or a time ahead of now): heard time
    later.heard_status(status(W.ST_INTERVAL), 90_000.0, began=lambda: None)
    assert later.interval_at == 90_000.0
    ahead = TableClock()
    ahead.heard_status(status(W.ST_INTERVAL), 90_000.0, began=lambda: 95_000.0)
    assert ahead.interval_at == 90_000.0


def test_the_book_dates_its_interval_from_the_entry_that_ended_the_period(
        tmp_path: Path) -> None:
    store = EventLog(tmp_path / "m.sqlite")
    match_id = store.new_match("t1", "cbfm-1toque", {})
    match = store.match(match_id)
    assert match is not None
    book = MatchBook.opened(store, match)
    at = 1_000_000.0
    for kind, data, source in (("set_up", {"kickoff": "A"}, "referee"),
                               ("start_period", {}, "referee"),
                               ("clock_started", {"reason": 0}, "device"),
                               ("period_over", {}, "device")):
        at += 5_000
        entry_id = store.append_entry(match_id, source, kind, data, 1, 0, "t",
                                      occurred_at=at)
        book.apply(to_entry(next(e for e in store.entries(match_id) if e.id == entry_id)))
        if kind != "period_over":
            assert book.interval_began() is None, kind
    assert book.state.m["status"] == "interval"
    assert book.interval_began() == at  # the period_over's time, the countdown's start
    reopened = MatchBook.opened(store, match)  # as after a restart
    assert reopened.interval_began() == at


def test_the_interval_counts_from_the_last_lances_end_not_the_alarm(tmp_path: Path) -> None:
    """Walk 45i-b M-b: gaúcha's alarm at 06:07:59, the last lance played to 06:08:27 (001 Art.
    XXI §1: still the period), and the screens counted the interval from the alarm: 00:30 of
    its minute left. It counts from the period's end (000 Art. 8 §9 "entre o término da
    primeira fase e o início da segunda")."""
    store = EventLog(tmp_path / "m.sqlite")
    match_id = store.new_match("t1", "gaucha", {})
    match = store.match(match_id)
    assert match is not None
    book = MatchBook.opened(store, match)
    clock = TableClock()
    at = 1_000_000.0
    for kind, data, source, step in (("set_up", {"kickoff": "A"}, "referee", 1_000),
                                     ("start_period", {}, "referee", 1_000),
                                     ("clock_started", {"reason": 0}, "device", 1_000),
                                     ("alarm", {"pattern": 2}, "device", 60_000),
                                     ("period_over", {}, "device", 0),
                                     ("touch", {"side": "A", "disc": None}, "referee", 28_000)):
        at += step
        entry_id = store.append_entry(match_id, source, kind, data, 1, 0, "t",
                                      occurred_at=at)
        book.apply(to_entry(next(e for e in store.entries(match_id) if e.id == entry_id)))
        if kind == "period_over":  # the table's clock is in its interval from the alarm
            alarm = at
            clock.heard_status(status(W.ST_INTERVAL), alarm, began=book.interval_began)
            assert book.state.m["status"] == "last_lance"
            assert clock.interval_start(book.interval_began()) == alarm
    assert book.state.m["status"] == "interval"
    assert book.interval_began() == at == alarm + 28_000
    assert clock.interval_start(book.interval_began()) == at  # the last lance's end
