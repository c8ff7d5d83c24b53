"""004 «Pênaltis» (mesa-posta): the goalkeeper chooses in secret, and a correction of his
choice keeps the secret (walk51a H1). Voided or corrected from the referee's console before
the kick, the choice's corner was said in the answer, on the TV's correction line and in the
public /api/state; the correction form offered the choice as free text reading «secreta»,
which, sent unchanged, overwrote the real choice. Through POST /api/referee to a real daemon
over a real SQLite log."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from test_corrections_api import Table, console_log

import futmesa_wire as W

CORNERS = ("direit", "esquerd", "meio", "right", "left", "middle")


@pytest.fixture
def penalty(tmp_path: Path) -> Iterator[Table]:
    """mesa-posta, 1st half under way, a penalty for B: A's goalkeeper chooses first."""
    t = Table(tmp_path)
    t.start()
    t.referee("new_match", {"ruleset": "mesa-posta"})
    t.referee("set_up", {"kickoff": "A", "teams": {"A": {"name": "Democrata"},
                                                   "B": {"name": "Cruzeiro do Sul"}}})
    t.referee("start_period", {})
    t.device(W.EV_PERIOD_STARTED)
    t.device(W.EV_CLOCK_STARTED)
    t.referee("foul", {"side": "A", "where": "box"})
    assert t.daemon.state_json()["match"]["restart"]["kind"] == "penalti"
    try:
        yield t
    finally:
        t.stop()


def public_state(t: Table) -> str:
    return httpx.get(t.live.url + "/api/state", timeout=20).text


def said_of(answer: dict[str, Any]) -> str:
    return " ".join(str(v) for v in (answer.get("said") or {}).values())


def assert_no_corner(*texts: str) -> None:
    for text in texts:
        low = text.lower()
        assert not any(c in low for c in CORNERS), text


def test_voiding_the_secret_choice_before_the_kick_says_no_corner(penalty: Table) -> None:
    penalty.referee("keeper_choice", {"side": "A", "choice": "right"})
    choice = penalty.newest_entry()
    answer = penalty.referee("void", {"target": choice, "reason": "de novo"})
    assert_no_corner(said_of(answer), public_state(penalty))
    log = console_log(penalty)
    assert_no_corner(str(log[penalty.newest_entry()]))
    # the goalkeeper chooses again
    assert penalty.daemon.state_json()["match"]["restart"]["keeper_choice_recorded"] is False


def test_correcting_the_secret_choice_before_the_kick_is_refused_in_words(
        penalty: Table) -> None:
    penalty.referee("keeper_choice", {"side": "A", "choice": "right"})
    choice = penalty.newest_entry()
    r = penalty.post("/api/referee", {"kind": "amend", "input_id": "amend-secret-1", "data": {
        "target": choice, "data": {"side": "A", "choice": "left"}, "reason": "confere"}})
    body = r.json()
    assert not body.get("ok"), body
    assert "goleiro" in str(body.get("error")), body
    assert_no_corner(str(body), public_state(penalty))
    assert penalty.newest_entry() == choice  # nothing logged: his choice stands
    assert penalty.daemon.state_json()["match"]["restart"]["keeper_choice_recorded"] is True
    row = console_log(penalty)[choice]
    assert_no_corner(str(row))
