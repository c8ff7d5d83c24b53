"""The referee's pause and resume: device commands, refused when they make no sense."""

from __future__ import annotations

from futmesa.rules import Engine, Entry, load_ruleset


def _running_match() -> tuple[Engine, object]:
    engine = Engine(load_ruleset("cbfm-1toque"))
    state, _ = engine.replay([
        Entry(1, "set_up", {"kickoff": "A"}),
        Entry(2, "start_period", {}),
        Entry(3, "clock_started", {"reason": 0}, source="device", period=1),
    ])
    return engine, state


def _codes(effects) -> list[str]:
    return [e.data.get("cmd") or e.data.get("code") for e in effects]


def test_pause_sends_the_device_command() -> None:
    engine, state = _running_match()
    _, effects = engine.apply(state, Entry(4, "pause", {}))
    assert "pause" in _codes(effects) and "refused" not in _codes(effects)


def test_resume_while_running_is_refused() -> None:
    engine, state = _running_match()
    _, effects = engine.apply(state, Entry(4, "resume", {}))
    assert "refused" in _codes(effects) and "resume" not in _codes(effects)


def test_pause_then_stopped_then_resume() -> None:
    engine, state = _running_match()
    state, _ = engine.apply(state, Entry(4, "pause", {}))
    state, _ = engine.apply(state, Entry(5, "clock_stopped", {"reason": 0}, source="device"))
    _, effects = engine.apply(state, Entry(6, "resume", {}))
    assert "resume" in _codes(effects)


def test_pause_before_kickoff_is_refused() -> None:
    engine = Engine(load_ruleset("cbfm-1toque"))
    state = engine.initial_state()
    _, effects = engine.apply(state, Entry(1, "pause", {}))
    assert "refused" in _codes(effects)
