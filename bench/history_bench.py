"""What the history list costs after a season: kept summaries against replaying every match.

A real SQLite event log gets N stored matches (default 2,000; ``--matches N``), each a short
game of 40 entries (shots asked, lance starts, goal-line trips, a correction), written the way
the daemon writes them but in one transaction per match. In the same process the figures are:

- the list replaying every match (``MatchLibrary.list_matches_replaying``, the path before
  summaries — the baseline);
- the first list after the season (no summaries kept yet: every match is replayed once and
  its summary kept);
- the list with the summaries kept (``MatchLibrary.list_matches``);
- the list after one new entry in the match being played (only that match is replayed);
- the first history page (``list_matches(100)``), summaries kept;
- ``GET /history`` (a page of 100) over a live server (uvicorn, the real app), summaries kept.

The same figures at N/10 matches show how each grows with the season.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

import httpx
from _timing import timed

from futmesa.matchbook import MatchLibrary
from futmesa.store import EventLog
from futmesa_testkit.liveserver import serving

T0 = 1_780_000_000_000.0
TEAMS = {"A": {"name": "Alvorada"}, "B": {"name": "Botafogo"}}


def fill(store: EventLog, n: int) -> None:
    """N matches of 40 entries each on four tables (the newest of each table still open)."""
    t = T0
    for m in range(n):
        table = f"sim-B{m % 4}"
        with store.transaction() as db:
            mid = int(db.execute(
                "INSERT INTO matches(table_id, ruleset, settings, referee, created_at, ended_at)"
                " VALUES (?,?,?,?,?,?)",
                (table, "cbfm-1toque", json.dumps({"teams": TEAMS, "kickoff": "A"}),
                 "Árbitro Bench", t / 1000, None)).lastrowid or 0)
            db.execute("UPDATE matches SET ended_at=? WHERE table_id=? AND id<? AND"
                       " ended_at IS NULL", (t / 1000, table, mid))
            rows: list[tuple[Any, ...]] = []

            def add(source: str, kind: str, data: dict[str, Any], clock: int,
                    mid: int = mid, rows: list[tuple[Any, ...]] = rows) -> None:
                nonlocal t
                t += 1000
                rows.append((mid, source, kind, json.dumps(data), 1, clock, 0,
                             "bench", t / 1000, t))

            add("referee", "set_up", {"kickoff": "A"}, 0)
            add("referee", "start_period", {}, 0)
            add("device", "period_started", {}, 0)
            add("device", "clock_started", {"reason": 0}, 0)
            for i in range(12):
                side = "A" if (i + m) % 3 else "B"
                add("referee", "shot_asked", {"side": side, "disc": 1 + i % 11}, i * 1000)
                add("device", "lance_started", {"side": side}, i * 1000 + 10)
                add("device", "goal_line", {"goal": 1 if side == "A" else 0, "held_ms": 40},
                    i * 1000 + 20)
            db.executemany(
                "INSERT INTO entries(match_id, source, kind, data, period, clock_ms, ticks,"
                " author, created_at, occurred_at) VALUES (?,?,?,?,?,?,?,?,?,?)", rows)
            last = int(db.execute("SELECT MAX(id) FROM entries").fetchone()[0])
            db.execute(
                "INSERT INTO entries(match_id, source, kind, data, period, clock_ms, ticks,"
                " author, created_at, occurred_at) VALUES (?,?,?,?,?,?,?,?,?,?)",
                (mid, "referee", "void", json.dumps({"target": last, "reason": "revisão"}),
                 1, 12_000, 0, "bench", t / 1000 + 1, t + 1000))


def measure(n: int, repeat_replay: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory(prefix="futmesa-history-bench-") as tmp:
        store = EventLog(Path(tmp) / "bench.sqlite")
        fill(store, n)
        lib = MatchLibrary(store)
        figures = {"replaying every match (baseline)":
                   timed(lib.list_matches_replaying, repeat_replay)}
        figures["first list (summaries built)"] = timed(lib.list_matches, 1)
        assert lib.list_matches() == lib.list_matches_replaying()
        figures["whole list, summaries kept"] = timed(lib.list_matches, 5)
        figures["a page of 100, summaries kept"] = timed(lambda: lib.list_matches(100), 5)
        newest = store.list_matches()[0]["id"]

        def one_more() -> None:
            store.append_entry(newest, "referee", "shot_asked", {"side": "A", "disc": 3},
                               1, 13_000, "bench")
            lib.list_matches()
        figures["whole list after a new entry"] = timed(one_more, 5)
        with serving(history=lib) as live, httpx.Client(base_url=live.url, timeout=120) as web:
            assert web.get("/history").status_code == 200
            figures["GET /history (page of 100)"] = timed(lambda: web.get("/history"), 5)
        store.close()
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=2000)
    parser.add_argument("--quick", action="store_true", help="a short run (make test): 100")
    args = parser.parse_args()
    if args.quick:
        args.matches = 100
    small = max(1, args.matches // 10)
    few, many = measure(small, 3), measure(args.matches, 2)
    base = many["replaying every match (baseline)"]
    print(f"history list over {small} and {args.matches} stored matches of 40 entries "
          f"(median ms; ratio against replaying every match, same process)")
    print(f"  {'':<36} {small:>8} {args.matches:>9}   growth   × replay")
    for name, ms in many.items():
        print(f"  {name:<36} {few[name]:8.1f} {ms:9.1f}   {ms / few[name]:5.1f}×   "
              f"{ms / base:6.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
