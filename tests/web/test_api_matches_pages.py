"""``/api/matches`` is paged like ``/history``: a page is a slice of the whole list, a first call
after a season builds only that page's summaries, and ``next`` walks to the oldest match.

The whole list used to come back on every call (405 KB at 500 matches, and the first call after
a start replayed every match whose summary was missing).
"""

from __future__ import annotations

from pathlib import Path

import httpx

from futmesa.matchbook import MatchLibrary
from futmesa.store import EventLog
from futmesa_testkit.liveserver import serving

TEAMS = {"A": {"name": "Alvorada"}, "B": {"name": "Botafogo"}}


def _season(store: EventLog, matches: int) -> None:
    at = 1_780_000_000_000.0
    for i in range(matches):
        mid = store.new_match("sim-T1", "cbfm-1toque", {"teams": TEAMS})
        for kind, data, source in (("set_up", {"kickoff": "A"}, "referee"),
                                   ("start_period", {}, "referee"),
                                   ("period_started", {}, "device"),
                                   ("clock_started", {"reason": 0}, "device"),
                                   ("shot_asked", {"side": "AB"[i % 2], "disc": 7}, "referee"),
                                   ("goal_line", {"goal": 1 - i % 2, "held_ms": 40}, "device")):
            at += 1000
            store.append_entry(mid, source, kind, data, 1, 0,
                               "ref" if source == "referee" else "T1", occurred_at=at)
        store.end_match(mid)


def test_api_matches_pages_walk_the_whole_list_and_build_only_their_summaries(
        tmp_path: Path) -> None:
    store = EventLog(tmp_path / "m.sqlite")
    _season(store, 12)
    lib = MatchLibrary(store)
    with serving(history=lib) as live, httpx.Client(base_url=live.url, timeout=60) as web:
        first = web.get("/api/matches", params={"limit": 5})
        assert first.status_code == 200
        body = first.json()
        assert [m["id"] for m in body["matches"]] == [12, 11, 10, 9, 8]
        # only this page (and the one match that tells an older page exists) was replayed
        assert sorted(store.summaries(list(range(1, 13)))) == [7, 8, 9, 10, 11, 12]
        seen = [m["id"] for m in body["matches"]]
        url = body["next"]
        while url:
            page = web.get(url).json()
            assert 0 < len(page["matches"]) <= 5
            seen += [m["id"] for m in page["matches"]]
            url = page["next"]
        assert seen == list(range(12, 0, -1))
        whole = lib.list_matches_replaying()
        assert web.get("/api/matches", params={"before": 8, "limit": 3}).json()["matches"] \
            == whole[5:8]
        # the default page is /history's (100), and a silly limit is not an error
        assert len(web.get("/api/matches").json()["matches"]) == 12
        assert web.get("/api/matches", params={"limit": "99999999"}).status_code == 200
        assert web.get("/api/matches", params={"limit": "x"}).json()["older"] is None
