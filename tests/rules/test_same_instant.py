"""Same-instant calls compare the time every entry carries (`Entry.at`: a device event's tick
mapped to host time by the link, a referee input's host time), not the device's raw ticks or
the log order (003 Art. 29, 000 Art. 12 §6) — as the daemon builds its entries."""

from __future__ import annotations

from futmesa.rules import Engine, Entry, load_ruleset

BASE = 1_764_000_000_000  # host ms when the device's tick counter read 7_000
TICK0 = 7_000


def _run(ruleset: str, shot_at: int) -> list[str]:
    engine = Engine(load_ruleset(ruleset), {"kickoff": "A"})
    state = engine.initial_state()
    entries = [
        Entry(1, "clock_started", {}, "device", 1, 0, TICK0, "SIM", BASE),
        # the kick-off first: no shot from it (000 Art. 12 §5, 003 Art. 34)
        Entry(2, "touch", {"side": "A", "disc": 8}, "referee", 1, 1_000, 0, "ref",
              BASE + 1_000),
        # the referee's input: no device tick, its own host time
        Entry(3, "shot_asked", {"side": "A", "disc": 7}, "referee", 1, shot_at, 0, "ref",
              BASE + shot_at),
        Entry(4, "alarm", {}, "device", 1, 600_000, TICK0 + 600_000, "SIM", BASE + 600_000),
    ]
    for e in entries:
        state, _ = engine.apply(state, e)
    return [a["code"] for a in state.to_dict()["announcements"]]


def test_a_shot_asked_at_the_instant_of_the_alarm_is_no_shot() -> None:
    codes = _run("pastilha-8x2", 599_800)  # 200 ms before the alarm, logged before it
    assert "shot_at_alarm" in codes and "last_lance" not in codes


def test_a_shot_asked_a_second_before_is_played() -> None:
    codes = _run("pastilha-8x2", 599_000)
    assert "last_lance" in codes and "shot_at_alarm" not in codes


def test_cbfm_reads_it_the_same_way() -> None:
    assert "shot_at_alarm" in _run("cbfm-1toque", 599_900)
