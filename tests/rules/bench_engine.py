"""Benchmark (prints figures, asserts nothing): the rules engine on a long match.

    .venv/bin/python tests/rules/bench_engine.py

A synthetic pastilha-8x2 match of N entries (touches, shots, goals, balls out,
fouls) is applied entry by entry (what the daemon does live), replayed in one go
(what it does at start and after a correction), and corrected at its first
entry (the worst case of a correction). The baseline, measured in the same
process, is a JSON round trip of the final state per entry: the least a daemon
does anyway to publish each new state.
"""

from __future__ import annotations

import json
import time

from futmesa.rules import Engine, Entry, load_ruleset


def synthetic(n: int) -> list[Entry]:
    out = [Entry(1, "clock_started", {}, "device")]
    cycle = [
        ("touch", {"side": "A", "disc": 1}),
        ("touch", {"side": "A", "disc": 2}),
        ("touch", {"side": "B", "disc": 3}),
        ("shot_asked", {"side": "B", "disc": 3}),
        ("touch", {"side": "B", "disc": 3}),
        ("goal_line", {"goal": 0}),
        ("touch", {"side": "A", "disc": 4}),
        ("last_touch", {"side": "A"}),
        ("ball_out", {"zone": 2, "line": "side", "end": 0}),
        ("touch", {"side": "B", "disc": 5}),
        ("foul", {"side": "B", "where": "opponent_half"}),
        ("touch", {"side": "A", "disc": 6}),
    ]
    while len(out) < n:
        kind, data = cycle[len(out) % len(cycle)]
        source = "device" if kind in ("goal_line", "ball_out") else "referee"
        out.append(Entry(len(out) + 1, kind, data, source, 1, len(out) * 500, len(out) * 500))
    return out


def main() -> None:
    engine = Engine(load_ruleset("pastilha-8x2"))
    for n in (500, 2000):
        log = synthetic(n)
        t0 = time.perf_counter()
        state = engine.initial_state()
        for entry in log:
            state, _ = engine.apply(state, entry)
        t_apply = time.perf_counter() - t0
        t0 = time.perf_counter()
        replayed, _ = engine.replay(log)
        t_replay = time.perf_counter() - t0
        t0 = time.perf_counter()
        engine.apply(replayed, Entry(n + 1, "void", {"target": 2}, author="bench"))
        t_void = time.perf_counter() - t0
        t0 = time.perf_counter()
        for _ in log:
            json.loads(json.dumps(state.to_dict()))
        t_base = time.perf_counter() - t0
        print(
            f"{n} entries: apply one by one {t_apply * 1000:.0f} ms "
            f"({t_apply / n * 1e6:.0f} µs/entry), replay {t_replay * 1000:.0f} ms, "
            f"void of entry 2 {t_void * 1000:.0f} ms, "
            f"baseline JSON round trip per entry {t_base * 1000:.0f} ms; "
            f"apply/baseline = {t_apply / t_base:.2f}, replay/baseline = {t_replay / t_base:.2f}, "
            f"score {state.to_dict()['score']}"
        )


if __name__ == "__main__":
    main()
