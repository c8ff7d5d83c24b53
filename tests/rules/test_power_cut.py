"""The table's power cut as the rules see it: its clock restored (the host's `clock_restored`)
and the referee's "Sim: adiantar o relógio" (`clock_catch_up`), walk50c M3 and L1."""

from __future__ import annotations

from typing import Any

import pytest

from futmesa.rules import Effect, Engine, Entry, load_ruleset


def _restored(ruleset: str, played: list[Entry]) -> list[Effect]:
    """The effects of the table's clock restored after `played` (a period under way)."""
    engine = Engine(load_ruleset(ruleset))
    state, _ = engine.replay([
        Entry(1, "set_up", {"kickoff": "A"}),
        Entry(2, "start_period", {}),
        Entry(3, "clock_started", {"reason": 0}, source="device", period=1),
        *played,
    ])
    _, effects = engine.apply(state, Entry(
        99, "clock_restored", {"lost_ms": 21_000}, source="system", period=1))
    return effects


def _lance(effects: list[Effect]) -> list[dict[str, Any]]:
    return [e.data for e in effects if e.kind == "device" and "lance" in str(e.data.get("cmd"))]


KICKED_OFF = [Entry(4, "touch", {"side": "A", "disc": 6}),
              Entry(5, "touch", {"side": "A", "disc": 9}),
              Entry(6, "lance_started", {"side": "B"}, source="device", period=1)]


# the Pastilha's possession goes on for up to 8 touches (003 Art. 47): the lance is still A's
@pytest.mark.parametrize(("ruleset", "side"), [
    ("gaucha", "B"), ("cbfm-1toque", "B"), ("pastilha-8x2", "A")])
def test_the_lance_of_the_team_on_turn_counts_again_after_a_power_cut(
        ruleset: str, side: str) -> None:
    assert _lance(_restored(ruleset, KICKED_OFF)) == [{"cmd": "lance_restart", "side": side}]


def test_no_lance_before_the_kick_off_nor_in_a_match_without_lance_time() -> None:
    assert _lance(_restored("gaucha", [])) == []  # the kick-off starts the first lance
    assert _lance(_restored("mesa-posta", [Entry(4, "touch", {"side": "A"})])) == []


def _caught_up(ruleset: str) -> dict[str, Any]:
    engine = Engine(load_ruleset(ruleset))
    state, _ = engine.replay([
        Entry(1, "set_up", {"kickoff": "A"}),
        Entry(2, "start_period", {}),
        Entry(3, "clock_started", {"reason": 0}, source="device", period=1),
    ])
    _, effects = engine.apply(state, Entry(4, "clock_catch_up", {"ms": 21_000}))
    return next(e.data for e in effects if e.kind == "announce")


def test_the_clock_advanced_cites_the_periods_length_or_nothing() -> None:
    # a power cut is in no rule document: the advance keeps the period's length, cited where
    # the document has it; the Gaúcha excerpt has none — before, it cited XXI §1, the last lance
    assert _caught_up("cbfm-1toque")["rule"] == "000 Art. 8 §9"
    said = _caught_up("gaucha")
    assert said["code"] == "clock_caught_up" and said["rule"] == "", said
    assert "Art." not in said["pt"], said
