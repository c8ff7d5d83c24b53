"""How long the read side takes for a long match: record, súmula model, HTML, PDF, CSV, JSON.

A stored match of N goals (each a shot asked, a lance start and a goal-line trip) with a
correction every tenth goal is written to a real SQLite log; the figures are the time to
build the record (replay + entry statuses + sentences), the súmula model and each
rendering, with the engine's bare replay of the same log, in the same process, as the
baseline ("× replay").
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path
from typing import Any

from _timing import timed

from futmesa import report
from futmesa.matchbook import MatchLibrary, build, engine_for, replay_match
from futmesa.store import EventLog

GOALS = 150


def make_match(store: EventLog, goals: int = GOALS) -> int:
    match_id = store.new_match("sim-B1", "cbfm-1toque", {"kickoff": "A"}, "Árbitro Bench")
    t = 1_780_000_000_000.0

    def add(source: str, kind: str, data: dict[str, Any], clock: int) -> int:
        nonlocal t
        t += 1000
        return store.append_entry(match_id, source, kind, data, 1, clock, "bench",
                                  occurred_at=t)

    add("referee", "set_up", {"kickoff": "A"}, 0)
    add("referee", "start_period", {}, 0)
    add("device", "period_started", {}, 0)
    add("device", "clock_started", {"reason": 0}, 0)
    for i in range(goals):
        side = "A" if i % 2 == 0 else "B"
        ends = {"A": 0, "B": 1}  # the demo's ends do not change inside one period
        add("referee", "shot_asked", {"side": side, "disc": 1 + i % 11}, i * 1000)
        add("device", "lance_started", {"side": side}, i * 1000 + 10)
        goal = add("device", "goal_line", {"goal": ends["B" if side == "A" else "A"],
                                           "held_ms": 40}, i * 1000 + 20)
        if i % 10 == 9:
            add("referee", "void", {"target": goal, "reason": "revisão"}, i * 1000 + 30)
    return match_id


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--goals", type=int, default=GOALS)
    ap.add_argument("--quick", action="store_true", help="a short run (make test): 20 goals")
    args = ap.parse_args()
    goals = 20 if args.quick else args.goals
    with tempfile.TemporaryDirectory(prefix="futmesa-sumula-bench-") as tmp:
        store = EventLog(Path(tmp) / "bench.sqlite")
        match_id = make_match(store, goals)
        library = MatchLibrary(store)
        match = store.match(match_id)
        assert match is not None
        stored = store.entries(match_id)
        record = library.match_record(match_id)
        model = build(record)
        base = timed(lambda: replay_match(engine_for(match), stored))
        figures = {
            "record (replay, statuses, sentences)": timed(lambda: library.match_record(match_id)),
            "súmula model": timed(lambda: build(record)),
            "HTML": timed(lambda: report.render_html(record)),
            "CSV": timed(lambda: report.render_csv(record)),
            "JSON": timed(lambda: report.render_json(record)),
            "PDF": timed(lambda: report.pdf_bytes(record), repeat=3),
        }
        pages = report.pdf_bytes(record).count(b"/Type /Page\n") or "?"
        store.close()
    print(f"match of {len(stored)} entries ({goals} goal-line trips, "
          f"{len(model.table('goals').rows)} goals counted), "  # type: ignore[union-attr]
          f"PDF of {pages} pages")
    print(f"  {'engine replay (baseline)':<38} {base:8.1f} ms")
    for name, ms in figures.items():
        print(f"  {name:<38} {ms:8.1f} ms   {ms / base:5.1f} × replay")
    return 0


if __name__ == "__main__":
    sys.exit(main())
