"""Standings from results and sanctions: points, tie-breaks, walk-overs, Art. 85, XLIII."""

from __future__ import annotations

import pytest

from futmesa.competition.settings import SettingsFileError, parse_settings
from futmesa.competition.standings import standings

S = parse_settings({})


def m(i: int, a: str, b: str, sa: int, sb: int, status: str = "finished",
      winner: str | None = "auto") -> dict:
    if winner == "auto":
        winner = None if sa == sb else ("A" if sa > sb else "B")
    return {"id": i, "stage": "group", "group": "A", "team_a": a, "team_b": b,
            "status": status, "result": {"score_a": sa, "score_b": sb, "winner": winner}}


def order(table: dict) -> list[str]:
    return [r["team"] for r in table["A"]]


def test_points_and_default_tie_breaks() -> None:
    ms = [m(1, "a", "b", 2, 0), m(2, "c", "d", 1, 1), m(3, "a", "c", 0, 1), m(4, "b", "d", 3, 0)]
    t = standings(ms, [], S)
    rows = {r["team"]: r for r in t["A"]}
    assert rows["a"]["points"] == 3 and rows["c"]["points"] == 4 and rows["d"]["points"] == 1
    # a, b level on 3 points and 1 win: goal difference (+1 vs +1) then goals for (2 vs 3)
    assert order(t) == ["c", "b", "a", "d"]


def test_head_to_head_when_it_comes_first() -> None:
    ms = [m(1, "a", "b", 1, 0), m(2, "b", "c", 5, 0), m(3, "c", "a", 1, 0)]
    first = parse_settings({"tie_breaks": ["head_to_head", "goal_difference"]})
    gd = parse_settings({"tie_breaks": ["goal_difference"]})
    assert order(standings(ms, [], gd))[0] == "b"
    # all three level on 3 points and 1-1-1 head-to-head points: goal difference decides
    assert order(standings(ms, [], first))[0] == "b"
    ms2 = [m(1, "a", "b", 1, 0), m(2, "b", "c", 5, 0), m(3, "c", "d", 0, 0), m(4, "a", "d", 0, 1)]
    # a and b both 3 points; b has the better goal difference but a beat b
    assert order(standings(ms2, [], first)).index("a") < order(standings(ms2, [], first)).index("b")
    assert order(standings(ms2, [], gd)).index("b") < order(standings(ms2, [], gd)).index("a")


def test_points_per_result_are_settings() -> None:
    s = parse_settings({"points": {"win": 2, "draw": 1, "loss": 0}})
    rows = {r["team"]: r for r in standings([m(1, "a", "b", 1, 0)], [], s)["A"]}
    assert rows["a"]["points"] == 2


def test_walkover_counts_abandoned_does_not() -> None:
    ms = [m(1, "a", "b", 2, 0, status="walkover"), m(2, "a", "c", 0, 5, status="abandoned")]
    rows = {r["team"]: r for r in standings(ms, [], S)["A"]}
    assert rows["a"]["played"] == 1 and rows["a"]["points"] == 3
    assert "c" not in rows  # its only match was abandoned


def test_loss_of_match_points_001_art_xliii() -> None:
    ms = [m(1, "a", "b", 2, 0), m(2, "a", "c", 1, 1)]
    sanc = [{"team": "a", "kind": "match_points", "match_id": 1, "rule": "001 Art. XLIII"}]
    rows = {r["team"]: r for r in standings(ms, sanc, S)["A"]}
    assert rows["a"]["points"] == 1 and rows["a"]["lost_points"] == 3
    assert rows["b"]["points"] == 0  # the opponent does not get them


def test_disqualification_003_art_85_loses_every_point_and_goes_last() -> None:
    ms = [m(1, "a", "b", 2, 0), m(2, "a", "c", 3, 0), m(3, "b", "c", 0, 1)]
    sanc = [{"team": "a", "kind": "competition_points", "match_id": None, "rule": "003 Art. 85"}]
    t = standings(ms, sanc, S)
    assert order(t)[-1] == "a"
    assert t["A"][-1]["points"] == 0 and t["A"][-1]["disqualified"]


def test_settings_errors_are_one_clear_line() -> None:
    with pytest.raises(SettingsFileError, match="tie_breaks.*desempate desconhecido 'sorteio'"):
        parse_settings({"tie_breaks": ["sorteio"]})
    with pytest.raises(SettingsFileError, match="ruleset.*cbfm-1toque"):
        parse_settings({"ruleset": "futsal"})
    with pytest.raises(SettingsFileError, match="match_settings.*period_ms"):
        parse_settings({"match_settings": {"period_ms": "ten"}})
