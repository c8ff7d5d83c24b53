"""A referee input that reaches the host late is stored at the moment it was pressed.

The phone sends each input with its press time; one delivered after a Wi-Fi drop (queued on
the phone) goes into the log where it was pressed, and the match is rebuilt in that order, so
a shot asked a second before the alarm counts even though it arrived after it (003 Art. 29).
A prompt input keeps the host's arrival order (docs/architecture.md, "Event log").
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from test_daemon_referee import _daemon

import futmesa_wire as W
from futmesa.hub import RefusedError
from futmesa.table import TableDaemon


class ShiftedClock:
    """The host's wall clock moved on by ``shift_ms`` (a minute of play in no time)."""

    def __init__(self, real: Any) -> None:
        self.real = real
        self.shift_ms = 0.0

    def __call__(self) -> float:
        return self.real() + self.shift_ms / 1000


def _to_the_alarm(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[TableDaemon, float]:
    """A period started, a minute of play, then the table's alarm and the period's end;
    returns the daemon and the host time of the alarm."""
    clock = ShiftedClock(time.time)
    monkeypatch.setattr(time, "time", clock)
    daemon = _daemon(tmp_path)
    ts = daemon.link.timesync
    ts.reset(1000, 32)
    now_mono = time.monotonic() * 1000
    ts.add(now_mono - 2, now_mono, 100_000)  # tick 100 000 is "now"

    def device(seq: int, kind: int, a: int, clock_ms: int = 0) -> None:
        daemon.on_event(daemon.info, 1, seq, 100_000, (kind, a, 0, 1, clock_ms, 0))

    daemon.referee("set_up", {"kickoff": "A"}, "ref")
    daemon.referee("start_period", {}, "ref")
    device(1, W.EV_PERIOD_STARTED, 0)
    device(2, W.EV_CLOCK_STARTED, 0)
    daemon.referee("touch", {"side": "A", "disc": 8}, "ref")  # the kick-off (000 Art. 12 §5)
    clock.shift_ms = 60_000  # a minute later
    device(3, W.EV_ALARM, W.BEEP_ALARM, 60_000)
    device(4, W.EV_CLOCK_STOPPED, 2, 60_000)
    device(5, W.EV_PERIOD_OVER, 0, 60_000)
    alarm_at = next(e.occurred_at for e in daemon.store.entries(daemon.match["id"])
                    if e.kind == "alarm")
    return daemon, alarm_at


def test_a_shot_asked_before_the_alarm_counts_though_it_arrives_after(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    daemon, alarm_at = _to_the_alarm(tmp_path, monkeypatch)
    assert daemon.state.to_dict()["status"] == "interval"
    daemon.referee("shot_asked", {"side": "A", "disc": 9}, "ref", pressed_at=alarm_at - 1500)
    rows = daemon.store.entries(daemon.match["id"])
    shot = next(e for e in rows if e.kind == "shot_asked")
    assert shot.occurred_at == pytest.approx(alarm_at - 1500, abs=1)
    order = [e.kind for e in rows]
    assert order.index("shot_asked") < order.index("alarm")
    m = daemon.state.to_dict()
    assert m["status"] != "interval", m["status"]  # the period waits for that last shot
    assert m["status"] == "last_lance"
    assert m["last_lance"]["side"] == "A" and m["shot_asked"]["disc"] == 9
    daemon.store.close()
    again = _daemon(tmp_path)  # a restart's replay reads the same match
    assert again.state.to_dict()["status"] == m["status"]


def test_the_same_shot_without_its_press_time_is_after_the_alarm(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    daemon, _ = _to_the_alarm(tmp_path, monkeypatch)
    # arriving after the alarm, the shot is refused in the words of the interval it falls in
    # (context.refusal_now, walk #45 M9), not "Pedido no alarme": the referee reads why now
    with pytest.raises(RefusedError, match="É o intervalo"):
        daemon.referee("shot_asked", {"side": "A", "disc": 9}, "ref")


def test_a_press_time_is_clamped_to_the_match_and_the_referees_order(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    daemon = _daemon(tmp_path)
    daemon.referee("set_up", {"kickoff": "A"}, "ref")
    opened = daemon.match["created_at"] * 1000
    last_referee = max(e.occurred_at for e in daemon.store.entries(daemon.match["id"])
                       if e.source == "referee")
    # a press "an hour before the match" (a phone clock far off): not before the match, nor
    # before the referee's last input
    daemon.referee("set_up", {"teams": {"A": {"name": "Casa"}}}, "ref",
                   pressed_at=opened - 3_600_000)
    stamp = daemon.store.entries(daemon.match["id"])[-1].occurred_at
    assert stamp >= max(opened, last_referee)
    # a press "in an hour": stored at its arrival, not later
    daemon.referee("set_up", {"teams": {"B": {"name": "Fora"}}}, "ref",
                   pressed_at=time.time() * 1000 + 3_600_000)
    assert daemon.store.entries(daemon.match["id"])[-1].occurred_at <= time.time() * 1000
    assert daemon.state.to_dict()["teams"]["B"]["name"] == "Fora"


def test_an_input_that_commands_the_clock_acts_when_it_arrives(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Start the next period, pressed 5 s ago offline: the table has gone on meanwhile, so it
    is stored (and sent to the table) when it arrives, not back in the past."""
    daemon, alarm_at = _to_the_alarm(tmp_path, monkeypatch)
    daemon.referee("start_period", {}, "ref", pressed_at=alarm_at - 5000)
    rows = daemon.store.entries(daemon.match["id"])
    assert rows[-1].kind == "start_period" and rows[-1].occurred_at >= alarm_at


def test_a_prompt_input_keeps_arrival_order(tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """Pressed 300 ms before it arrived (a phone clock a little behind, a slow request) and
    after a device event: stored after that event, as the host saw them."""
    daemon, alarm_at = _to_the_alarm(tmp_path, monkeypatch)
    now = time.time() * 1000
    daemon.referee("start_period", {}, "ref", pressed_at=now - 300)
    rows = daemon.store.entries(daemon.match["id"])
    assert [e.kind for e in rows][-1] == "start_period"
    assert rows[-1].occurred_at >= alarm_at
