"""The referee's pause and resume: device commands, refused when they make no sense."""

from __future__ import annotations

import pytest

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


# ---- the lance while the referee has play stopped (issue 45, gaúcha) -----------------------
def _kicked_off(ruleset: str) -> tuple[Engine, object]:
    """`ruleset`'s match under way, its kick-off taken: the lance is B's, its timer running."""
    engine = Engine(load_ruleset(ruleset))
    state, _ = engine.replay([
        Entry(1, "set_up", {"kickoff": "A"}),
        Entry(2, "start_period", {}),
        Entry(3, "clock_started", {"reason": 0}, source="device", period=1),
        Entry(4, "touch", {"side": "A", "disc": 6}),
        Entry(5, "touch", {"side": "A", "disc": 9}),
        Entry(6, "lance_started", {"side": "B"}, source="device", period=1),
    ])
    return engine, state


def _overrun(engine: Engine, state: object, first: int) -> tuple[object, list]:
    """The table reports B's lance run out, then run out again (the warning, the sanction)."""
    said = []
    for i, count in enumerate((1, 2)):
        state, effects = engine.apply(state, Entry(
            first + i, "lance_expired", {"side": "B", "warning": False, "count": count},
            source="device", period=1))
        said += effects
    return state, said


@pytest.mark.parametrize("ruleset", ["gaucha", "cbfm-1toque", "pastilha-8x2"])
@pytest.mark.parametrize("confirmed", [True, False], ids=["stopped", "stopping"])
def test_a_lance_run_out_while_the_referee_stopped_play_is_no_foul(
        ruleset: str, confirmed: bool) -> None:
    """The referee stopped play (to correct the Registro): a lance the table reports run out
    now — once the clock stopped, or between his tap and the table's confirmation — is the
    referee's time, not the técnico's "demorar mais de quinze segundos para efetuar um lance"
    (001 Art. XXIX e); "Não haverá falta com o 'relógio parado'" (003 Art. 74 e); the device's
    lance waits while its clock is stopped (firmware/lance.py). Issue 45: it became the
    technical foul (001), or the foul question (000, 003)."""
    engine, state = _kicked_off(ruleset)
    state, _ = engine.apply(state, Entry(7, "pause", {}))
    if confirmed:
        state, _ = engine.apply(state, Entry(8, "clock_stopped", {"reason": 0},
                                            source="device", period=1))
    before = state.to_dict()
    state, said = _overrun(engine, state, 9)
    m = state.to_dict()
    assert not [p for p in m["pending"] if p["kind"] == "lance_timeout"]
    assert "lance_over" not in _codes(said) and "lance_warning" not in _codes(said)
    assert (m["fouls"], m["restart"]) == (before["fouls"], before["restart"])


def test_gaucha_lance_starts_afresh_when_the_referee_resumes_play() -> None:
    """001 Art. XXIX e counts the técnico's own delay in playing his lance: the time play
    stood stopped by the referee is not his, so the lance he is on counts its 15 s afresh
    when the referee gives play back."""
    engine, state = _kicked_off("gaucha")
    state, _ = engine.apply(state, Entry(7, "pause", {}))
    state, _ = engine.apply(state, Entry(8, "clock_stopped", {"reason": 0},
                                        source="device", period=1))
    _, effects = engine.apply(state, Entry(9, "resume", {}))
    restarts = [e.data for e in effects if e.data.get("cmd") == "lance_restart"]
    assert _codes(effects).index("resume") < _codes(effects).index("lance_restart")
    assert restarts == [{"cmd": "lance_restart", "side": "B"}]


def test_a_lance_run_out_after_play_resumed_counts_again() -> None:
    """Once play runs again (the table's clock_started) the lance time counts as before."""
    engine, state = _kicked_off("gaucha")
    for i, (kind, data, source) in enumerate((
            ("pause", {}, "referee"), ("clock_stopped", {"reason": 0}, "device"),
            ("resume", {}, "referee"), ("clock_started", {"reason": 0}, "device"),
            ("lance_started", {"side": "B"}, "device"))):
        state, _ = engine.apply(state, Entry(7 + i, kind, data, source=source, period=1))
    _, said = _overrun(engine, state, 20)
    assert "lance_over" in _codes(said)
