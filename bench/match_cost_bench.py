"""What one match costs as it grows: per entry, at two lengths, with their ratio (issue 32 §6).

A cbfm-1toque match is played through the rules engine the way a referee and the table make
it: the lances that bring the ball to the shooter, the shot asked, the goal on the line, and a
correction (the goal voided) every tenth goal, the questions it raises left open. At two
lengths (default about 160 and 2,500 entries; ``--quick``: about 80 and 640) the figures per
entry are:

- replay (what the daemon does at start), per entry;
- the restart check (``MatchBook.replay_checked``: the replay, then the same log applied
  entry by entry, corrections included, compared), per entry;
- the baseline, measured beside them: a JSON round trip of one entry's state change, the
  least a daemon does per entry anyway;
- one live step (the daemon applying the newest entry) and a void of the newest goal (a
  correction recomputes the match from its last checkpoint), each whole;
- the state the daemon publishes after a step (``MatchState.to_dict`` and ``state_json``),
  whole;
- what a console receives of ``/api/log`` when it asks after every entry, per entry: the
  match stored in a real SQLite file and applied through its ``MatchBook``, the console
  asking for what changed since the revision it holds (matchbook/live_log.py).

The "growth" column is the long length's figure over the short one's: 1.0 per entry is a
match whose cost grows as its length, no faster; 1.0 whole is a step that costs the same
at any point of the match. The bench checks that it measured both
lengths (the entries it built) and that the replay and the step-by-step state agree.
"""

from __future__ import annotations

import argparse
import gc
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from futmesa.matchbook import LinkView, MatchBook, state_json
from futmesa.matchbook.live import ANNOUNCEMENTS_SHOWN
from futmesa.rules import Engine, Entry
from futmesa.sim.referee_moves import lance_towards
from futmesa.store import EventLog
from futmesa.web.console import live_log_view
from futmesa_testkit.entry_builder import EntryBuilder


def play(goals_wanted: int) -> tuple[Engine, Any, list[Entry]]:
    """A match of `goals_wanted` goals, a void every tenth, built entry by entry."""
    match = EntryBuilder()
    put = match.put
    match.kick_off()
    side = "A"
    for goal in range(1, goals_wanted + 1):
        for _ in range(6):
            move = lance_towards(match.state.m, side)
            if move is None:
                break
            put(*move)
        put("shot_asked", {"side": side, "disc": 9})
        other = "B" if side == "A" else "A"
        scored = put("goal_line", {"goal": match.state.m["ends"][other]}, "device")
        if goal % 10 == 0:
            put("void", {"target": scored.id})
        side = other
    return match.engine, match.state, match.log


def published(state: Any) -> dict[str, Any]:
    """The state every view reads after a step (what the daemon publishes to the hub)."""
    return state_json(table_id="t1", match_id=1, ruleset="cbfm-1toque",
                      match=state.to_dict(ANNOUNCEMENTS_SHOWN),
                      status=None, status_wall_ms=0.0, profile=None, table_name="Mesa 1",
                      link=LinkView(connected=True, reason="", last_event_at=0.0, bad_frames=0,
                                    device=None, firmware=None, board=None, tick_rate=None,
                                    clock_rate=None, reset=None, sensor_faults={}))


def console_bytes(log: list[Entry]) -> float:
    """Bytes of ``/api/log`` a console receives over the match, per entry, asking after each."""
    with tempfile.TemporaryDirectory() as folder:
        store = EventLog(Path(folder) / "m.sqlite")
        match_id = store.new_match("t1", "cbfm-1toque", {})
        match = store.match(match_id)
        assert match is not None
        book = MatchBook.opened(store, match)
        epoch, rev, received = None, 0, 0
        for e in log:
            entry_id = store.append_entry(match_id, e.source, e.kind, e.data, e.period,
                                          e.clock_ms, e.author, ticks=e.ticks, occurred_at=e.at)
            assert entry_id == e.id, "a fresh file numbers the entries as the match did"
            book.apply(e)
            body = live_log_view(book.live_log, epoch, str(rev), "pt")
            received += len(json.dumps(body))
            epoch, rev = body["epoch"], body["rev"]
        assert len(book.live_log.since(None, 0)["entries"]) == len(log), "the console's log"
        store.close()
        return received / len(log)


def timed(fn: Callable[[], Any], repeat: int) -> float:
    """Median seconds of `repeat` runs, the garbage collector held off while they run (as
    Python's timeit does: a collection's cost grows with everything the process holds, not
    with the step measured)."""
    runs = []
    gc.collect()
    gc.disable()
    try:
        for _ in range(repeat):
            t0 = time.perf_counter()
            fn()
            runs.append(time.perf_counter() - t0)
    finally:
        gc.enable()
    return statistics.median(runs)


def measure(goals: int, repeat: int) -> tuple[int, dict[str, float]]:
    """(entries, µs per entry of each figure)."""
    engine, state, log = play(goals)
    n = len(log)
    replayed, _ = engine.replay(log)
    assert replayed.to_dict() == state.to_dict(), "replay and step-by-step disagree"
    newest_goal = next(e for e in reversed(log) if e.kind == "goal_line"
                       and not any(v.data.get("target") == e.id for v in log))
    # the step the match takes next: the lance the referee makes after the last goal
    kind, data = lance_towards(state.m, "A") or lance_towards(state.m, "B") or ("pause", {})
    later = Entry(n + 1, kind, data, "referee", 1, n * 500 + 250, n * 500 + 250,
                  at=1_000_000 + n * 500 + 250)
    assert not any(e.kind == "announce" and e.data.get("code") == "refused"
                   for e in engine.apply(state, later)[1]), "the live step is refused"
    void = Entry(n + 1, "void", {"target": newest_goal.id}, "referee",
                 at=1_000_000 + n * 500 + 250)

    def restart_check() -> None:
        full, _ = engine.replay(log)
        stepped = engine.initial_state()
        for entry in full.log:
            stepped, _ = engine.apply(stepped, entry)
        assert stepped.to_dict() == full.to_dict()

    per_entry = {
        "replay": timed(lambda: engine.replay(log), repeat) / n,
        "restart check": timed(restart_check, repeat) / n,
        "baseline: JSON round trip of a state change": timed(
            lambda: json.loads(json.dumps(state.m["goals"][-1:])), repeat * 50),
    }
    live = timed(lambda: engine.apply(state, later), repeat * 20)
    voided = timed(lambda: engine.apply(state, void), repeat * 5)
    figures = {f"{k} (per entry)": v * 1e6 for k, v in per_entry.items()}
    figures["one live step (whole)"] = live * 1e6
    figures["a void of the newest goal (whole)"] = voided * 1e6
    figures["the state published after a step (whole)"] = timed(
        lambda: published(state), repeat * 5) * 1e6
    figures["/api/log bytes to a console asking after each entry (per entry)"] = \
        console_bytes(log)
    return n, figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--goals", type=int, default=1100, help="goals of the long match")
    parser.add_argument("--quick", action="store_true", help="a short run (make test)")
    args = parser.parse_args()
    long_goals = 280 if args.quick else args.goals
    short_goals = max(20, long_goals // 16)
    (n_short, short), (n_long, long) = measure(short_goals, 5), measure(long_goals, 3)
    assert n_long >= 8 * n_short, f"measured {n_short} and {n_long} entries, not two lengths"
    print(f"one cbfm-1toque match at {n_short} and {n_long} entries, a void every tenth goal "
          f"(µs, median; growth = long / short)")
    print(f"  {'':<46} {n_short:>8} {n_long:>8}   growth")
    for name, value in long.items():
        print(f"  {name:<46} {short[name]:8.2f} {value:8.2f}   {value / short[name]:5.2f}×")
    base = long["baseline: JSON round trip of a state change (per entry)"]
    print(f"  replay per entry / baseline at {n_long} entries: "
          f"{long['replay (per entry)'] / base:.1f}×")
    return 0


if __name__ == "__main__":
    sys.exit(main())
