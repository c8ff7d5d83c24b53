"""The per-move (lance) timer reaches its sanction from the table, for every ruleset.

Whole system: the real firmware under `micropython` on a pty, the daemon, the SQLite log,
the console API. A player ends its lance with its turn button; the opponent then does
not play. The device keeps counting that lance after the limit and reports every
further expiry, so:

- 000 Art. 26 §1 A (`cbfm-1toque`): the first expiry is the referee's warning, the
  next one a disciplinary foul to confirm;
- 001 Art. XXIX e (`gaucha`): more than 15 s is the technical foul itself, at the first
  expiry, no question (a wrong one is undone by voiding the device's entry);
- 003 Art. 71 §único, Art. 84 (`pastilha-8x2`): the warning, then "cera" (a
  disciplinary foul) to confirm;
- 004 (`mesa-posta`) has no lance timer: nothing happens, however long the wait.

The referee confirms from the console API; the sanction's free kick restarts the
lance for the other side on the device.
"""

from __future__ import annotations

import time
import uuid
from typing import Any

import httpx
import pytest

from futmesa_testkit.livetable import LiveTable

SPEED = 60  # 15 s of device time in 0.25 s


def _state(live: LiveTable) -> dict[str, Any]:
    return httpx.get(live.base_url + "/api/state", timeout=10).json()


def _codes(live: LiveTable) -> list[str]:
    return [a["code"] for a in _state(live)["match"]["announcements"]]


def _expiries(live: LiveTable) -> list[dict[str, Any]]:
    return [e.data for e in live.daemon.store.entries(live.daemon.match["id"])
            if e.kind == "lance_expired" and not e.data.get("warning")]


def console_post(live: LiveTable, kind: str, data: dict[str, Any],
                 author: str = "árbitro") -> dict[str, Any]:
    """POST /api/referee as the console does; on a busy machine the answer may be 202
    ("still being applied"): then poll its result, as the console does."""
    headers = {"Authorization": f"Bearer {live.token}"}
    r = httpx.post(live.base_url + "/api/referee",
                   json={"kind": kind, "data": data, "author": author,
                         "input_id": uuid.uuid4().hex},
                   headers=headers, timeout=20)
    body = r.json()
    if r.status_code == 202:
        url = live.base_url + f"/api/referee/{body['id']}"
        deadline = time.monotonic() + 60
        while body.get("ok") is None and time.monotonic() < deadline:
            time.sleep(0.05)
            body = httpx.get(url, headers=headers, timeout=20).json()
    assert body.get("ok") is True, body
    return body


def _pending(live: LiveTable) -> list[dict[str, Any]]:
    return [p for p in _state(live)["match"]["pending"] if p["kind"] == "lance_timeout"]


@pytest.mark.parametrize(
    ("ruleset", "warned", "foul", "restart"),
    [
        ("cbfm-1toque", True, "disciplinary", "tiro_livre"),
        ("pastilha-8x2", True, "cera", "tiro_livre"),
    ],
)
def test_a_player_who_keeps_delaying_is_sanctioned(
    ruleset: str, warned: bool, foul: str, restart: str
) -> None:
    with LiveTable(speed=SPEED, ruleset=ruleset) as live:
        live.start_match(kickoff="A")
        live.sim.button("turnA")  # A's lance is over: B's lance starts, and B does not play
        live.wait(lambda: bool(_pending(live)), 30, "the lance sanction to be proposed")
        expiries = _expiries(live)
        assert all(e["side"] == "B" for e in expiries), expiries
        counts = [e["count"] for e in expiries]  # more may have come since (a busy machine)
        assert counts == list(range(1, len(counts) + 1)), counts
        assert len(counts) >= (2 if warned else 1), counts
        codes = _codes(live)
        assert ("lance_warning" in codes) is warned, codes
        pending = _pending(live)
        assert len(pending) == 1, "one question, however many further expiries"
        assert pending[0]["side"] == "B" and pending[0]["foul"] == foul

        console_post(live, "confirm", {"target": pending[0]["id"], "accept": True})
        match = _state(live)["match"]
        assert match["restart"]["kind"] == restart and match["restart"]["side"] == "A", match
        key = "technical" if foul == "technical" else foul if foul == "cera" else "disciplinary"
        assert match["fouls"]["B"][key] == 1
        assert match["finished"] is False
        # the free kick gives A a fresh lance on the device
        live.wait(lambda: _state(live)["lance"]["side"] == "A", 20, "A's lance on the device")


def test_more_than_15_s_is_the_technical_foul_in_gaucha() -> None:
    """001 Art. XXIX e: "Constitui falta técnica: ... demorar mais de quinze segundos para
    efetuar um lance" — the device's first expiry is the foul, with no warning and no question;
    the lance passes to the favoured side on the device."""
    with LiveTable(speed=SPEED, ruleset="gaucha") as live:
        live.start_match(kickoff="A")
        live.sim.button("turnA")  # A's lance is over: B's lance starts, and B does not play
        live.wait(lambda: _state(live)["match"]["fouls"]["B"]["technical"] >= 1, 30,
                  "B's technical foul")
        codes = _codes(live)
        assert "lance_warning" not in codes and "lance_over" in codes, codes
        assert _pending(live) == []
        first = next(e for e in _expiries(live) if e["side"] == "B")
        assert first["count"] == 1, first
        live.wait(lambda: _state(live)["lance"]["side"] == "A", 20, "A's lance on the device")


def test_no_lance_timer_in_mesa_posta() -> None:
    """004 states no per-move timer: a long wait brings no expiry and no sanction."""
    with LiveTable(speed=SPEED, ruleset="mesa-posta") as live:
        live.start_match(kickoff="A")
        live.referee("touch", {"side": "A", "disc": 9})  # the kick-off: the clock runs
        live.wait(lambda: live.daemon.status.running, 30, "the clock to run from the kick-off")
        live.sim.button("turnA")
        start = live.daemon.status.clock_ms
        live.wait(lambda: live.daemon.status.clock_ms - start > 45_000, 30,
                  "45 s of match time")
        assert _expiries(live) == []
        assert _pending(live) == []
        assert _state(live)["lance"]["running"] is False


def test_no_lance_runs_between_a_goal_and_its_kick_off() -> None:
    """No lance is played between a goal and its kick-off: the teams re-arrange (000 Art. 6,
    003 Art. 70) and the referee answers who kicks off. In gaúcha, where the overrun IS the
    technical foul (001 Art. XXIX e), the device must not run out then: its lance timer is
    stopped at the goal, sends no expiry while the question waits nor after its answer, and
    runs again from the kick-off taken (walk45h-a A1)."""
    with LiveTable(speed=10, ruleset="gaucha") as live:  # 15 s of device time in 1.5 s
        live.start_match(kickoff="A")
        live.give_lance("A")
        live.referee("shot_asked", {"side": "A", "disc": 9})
        live.sim.goal(live.match()["ends"]["B"])
        live.wait(lambda: any(p["kind"] == "kickoff_side" for p in live.match()["pending"]),
                  30, "the goal and its kick-off question")
        goal = max(e.id for e in live.daemon.store.entries(live.daemon.match["id"])
                   if e.kind == "goal_line")
        live.wait(lambda: not _state(live)["lance"]["running"], 20, "the lance timer stopped")

        def after_goal() -> list[dict[str, Any]]:
            return [e.data for e in live.daemon.store.entries(live.daemon.match["id"])
                    if e.kind == "lance_expired" and e.id > goal]

        def wait_match_ms(ms: int, what: str) -> None:
            start = live.daemon.status.clock_ms
            live.wait(lambda: live.daemon.status.clock_ms - start > ms, 60, what)

        wait_match_ms(35_000, "35 s of match time with the question open")
        assert after_goal() == []
        question = next(p for p in live.match()["pending"] if p["kind"] == "kickoff_side")
        console_post(live, "confirm", {"target": question["id"], "choice": "B"})
        wait_match_ms(35_000, "35 s of match time before the kick-off")
        assert after_goal() == []
        fouls = live.match()["fouls"]
        assert fouls["A"]["technical"] == 0 and fouls["B"]["technical"] == 0, fouls
        assert _state(live)["lance"]["running"] is False
        live.referee("touch", {"side": "B", "disc": 9})  # the kick-off taken: a lance again
        live.wait(lambda: live.match()["fouls"]["B"]["technical"] >= 1, 30,
                  "the kick-off's lance to run out")
        assert [e["side"] for e in after_goal()][:1] == ["B"]
