"""A new match's set-up is dated before its 1st period, at 00:00 — never with the clock the
table still showed from the match before (walk #45 H5: "Mesa configurada" nº 1 at "2º 02:00")."""

from __future__ import annotations

from futmesa.store import EventLog
from futmesa_testkit.livetable import LiveTable


def _profile_set(live: LiveTable) -> tuple[int, int] | None:
    rows = live.daemon.store.entries(live.daemon.match["id"])
    return next(((e.period, e.clock_ms) for e in rows if e.kind == "profile_set"), None)


def _into_the_interval(live: LiveTable) -> int:
    live.start_match()
    live.wait(lambda: live.daemon.status.in_interval, 90, "the interval")
    return int(live.daemon.match["id"])


def test_a_new_match_from_the_console_is_set_up_before_its_first_period() -> None:
    # 003 Art. 27 a: pastilha's 5-minute halves (5 s here); then cbfm's 25 minutes (000 Art. 8)
    with LiveTable(speed=60, ruleset="pastilha-8x2-clube") as live:
        old = _into_the_interval(live)
        live.daemon.new_match("cbfm-1toque")
        live.wait(lambda: live.daemon.match["id"] != old and _profile_set(live) is not None,
                  60, "the new match's set-up entry")
        assert _profile_set(live) == (0, 0)


def test_a_new_match_opened_when_the_table_connects_is_set_up_before_its_first_period() -> None:
    with LiveTable(speed=60, ruleset="pastilha-8x2-clube") as live:
        old = _into_the_interval(live)
        live.stop_host()
        EventLog(live.db).end_match(old)  # the match was over; futmesa serves another ruleset
        live.ruleset = "cbfm-1toque"
        live.start_host()
        live.wait(lambda: live.daemon.match is not None and live.daemon.match["id"] != old
                  and _profile_set(live) is not None, 60, "the new match's set-up entry")
        assert _profile_set(live) == (0, 0)
