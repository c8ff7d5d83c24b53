"""A shot "para fora" entered before the table's ball out (walk45h-b B8, mesa-posta): the
clock kept running and nothing said what came next. The ball is out of play — in 004 the
clock runs only "com a bola rolando" (A partida) — and the restart comes with the ball out the
table reports ("pela linha de fundo, é escanteio ou tiro de meta, dependendo de quem tocou por
último", 004 Bola fora): the engine says it waits for it, then gives it."""

from __future__ import annotations

from typing import Any

from futmesa.rules import Engine, Entry, load_ruleset


def _run(*steps: tuple[str, dict[str, Any]]) -> tuple[Any, list[Any]]:
    engine = Engine(load_ruleset("mesa-posta"), {"kickoff": "A"})
    state = engine.initial_state()
    effects: list[Any] = []
    for n, (kind, data) in enumerate(steps, 1):
        source = "device" if kind in ("clock_started", "ball_out") else "referee"
        state, effects = engine.apply(state, Entry(n, kind, data, source, 1, n * 1000, n * 1000))
    return state, effects


SHOT = [("clock_started", {}), ("touch", {"side": "A", "disc": 9}),
        ("shot_asked", {"side": "A", "disc": 9}), ("shot_result", {"outcome": "wide"})]


def test_para_fora_stops_the_clock_and_says_what_it_waits_for() -> None:
    state, effects = _run(*SHOT)
    assert {"cmd": "dead_ball"} in [e.data for e in effects if e.kind == "device"]
    assert state.m["clock_running"] is False
    said = [a for a in state.m["announcements"] if a["code"] == "shot_over"][-1]
    assert said["pt"] == ("Chute de Time A, botão 9: para fora — a cobrança vem com a bola "
                          "fora que a mesa registrar (004 Bola fora)"), said["pt"]
    assert said["en"] == ("Shot by Time A, disc 9: wide — the restart comes with the ball out "
                          "the table records (004 Bola fora)"), said["en"]
    assert state.m["restart"] is None or state.m["restart"]["kind"] == "saida"


def test_the_tables_ball_out_then_gives_the_goal_kick() -> None:
    state, _ = _run(*SHOT, ("last_touch", {"side": "A"}),
                    ("ball_out", {"zone": 3, "line": "end", "end": 1}))
    r = state.m["restart"]
    assert (r["kind"], r["side"]) == ("tiro_de_meta", "B")  # the shooter touched it last


def test_after_the_tables_ball_out_para_fora_only_confirms() -> None:
    state, _ = _run(*SHOT[:3], ("last_touch", {"side": "A"}),
                    ("ball_out", {"zone": 3, "line": "end", "end": 1}),
                    ("shot_result", {"outcome": "wide"}))
    said = [a for a in state.m["announcements"] if a["code"] == "shot_over"][-1]
    assert said["pt"] == "Chute de Time A, botão 9: para fora", said["pt"]
    assert (state.m["restart"]["kind"], state.m["restart"]["side"]) == ("tiro_de_meta", "B")
