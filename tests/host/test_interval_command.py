"""The interval starts when the rules end the period (walk 45i-b M-b): gaúcha's last lance,
played after the alarm, is still the period (001 Art. XXI §1), and the interval is "entre o
término da primeira fase e o início da segunda" (000 Art. 8 §9). The table's clock went into
its interval at the alarm; the lance's end tells it to count from then."""

from __future__ import annotations

import futmesa_wire as W
from futmesa.rules import Engine, Entry, load_ruleset
from futmesa.table.commands import device_command


def test_the_last_lances_end_starts_the_tables_interval() -> None:
    engine = Engine(load_ruleset("gaucha"), {})
    state = engine.initial_state()
    commands: list[list[int]] = []
    for i, (kind, data, source) in enumerate((
            ("set_up", {"kickoff": "A"}, "referee"),
            ("start_period", {}, "referee"),
            ("clock_started", {"reason": 0}, "device"),
            ("alarm", {"pattern": 2}, "device"),
            ("period_over", {}, "device"),
            ("touch", {"side": "A", "disc": None}, "referee")), start=1):
        state, effects = engine.apply(state, Entry(i, kind, data, source, 1, 1000 * i,
                                                   1000 * i))
        commands.append([c.code for c in map(device_command, effects) if c is not None])
    assert state.to_dict()["status"] == "interval"
    assert W.CMD_INTERVAL not in commands[4]  # the alarm: the last lance, not the interval
    assert W.CMD_INTERVAL in commands[5]  # the last lance played: the interval from now
