"""A table whose clock is behind the log: it came back with no state of its own (a fresh
board, a Pico whose flash state is absent, a new `futmesa sim`) at period 0 while the log has
periods played. The log is the truth: the clock is restored from it (issue 45, walk 45j-b H3).

- in the interval after period P: the table is set to period P+1 at 00:00, stopped, so the
  referee's start of the next period starts it (its events stamped P+1, not period 1);
- in period P (running, or its time up awaiting a dead ball): the table is set to period P at
  the newest clock known of that period — the table's own, as the host last heard it before
  the reset (its last status, counted on to the link's loss: where the TV stood; walk 49a
  H2), or the log's newest device entry's, or a later referee entry's (each is stamped with
  the table's clock when stored; one made while the table was away, with the clock the
  screens stood at: walk50b M1) —, with the added time the log gave it, running again if
  the log says it ran — as the board restores itself from flash; the match time it did not
  count, from that point to its return, is offered to the referee (reset.py). A host that
  was restarted too knows only the log.

A last lance after the alarm is left as it is (the period ends by the rules, not the clock)."""

from __future__ import annotations

from typing import Any

import futmesa_wire as W
from futmesa.link import Status
from futmesa.rules.model import Entry, MatchState
from futmesa.rules.timekeeping import CLOCK_STAMPED
from futmesa.table.commands import DeviceCommand


class Restored:
    """What the restore sets: its commands, and the period and clock it restores."""

    def __init__(self, commands: list[DeviceCommand], period: int, clock_ms: int,
                 running: bool, since: float, cap_ms: int = 0) -> None:
        self.commands = commands
        self.period = period
        self.clock_ms = clock_ms
        self.running = running
        self.since = since  # host Unix ms of the log's newest stamped entry it restores
        self.cap_ms = cap_ms  # the period's length with its added time


def behind(status: Status, m: dict[str, Any]) -> bool:
    """The table's clock is behind the match the log holds."""
    if m.get("finished") or m.get("phase") == "shootout" or m.get("status") in (
            "not_started", "last_lance"):
        return False
    return 0 < int(m.get("period") or 0) and status.period < int(m["period"])


def restore(status: Status, state: MatchState,
            known: tuple[int, int, float] | None = None) -> Restored | None:
    """The commands that bring a table behind the log back to it; None when it is not behind.
    ``known``: (period, clock ms, host Unix ms) of the table's running clock as the host last
    heard it before its reset (reset.ResetWatch.known_clock) — newer than the log's newest
    entry, it is the restore point (walk 49a H2)."""
    m = state.m
    if not behind(status, m):
        return None
    period = int(m["period"])
    if m["status"] == "interval":
        profile = m["clock_profile"]
        if period >= int(profile["periods"]) + int(profile.get("extra_periods") or 0):
            return None
        return Restored([DeviceCommand(W.CMD_SET_CLOCK, a=period + 1, x=0)], period + 1, 0,
                        False, 0.0)
    last = _newest_clock(state.log, period)
    clock_ms, since = (last.clock_ms, float(last.at)) if last is not None else (0, 0.0)
    # a referee's entry newer than the table's last known clock was made while it was away:
    # it reads the clock the screens stood at — that one, standing since the loss
    # (TableClock.at_ms, walk50b M1)
    away = last is not None and last.source == "referee"
    if known is not None and known[0] == period and (known[2] > since or away):
        _period, clock_ms, since = known
    commands = [DeviceCommand(W.CMD_SET_CLOCK, a=period, x=clock_ms)]
    if int(m.get("added_ms") or 0) > 0:
        commands.append(DeviceCommand(W.CMD_ADD_TIME, x=int(m["added_ms"])))
    running = bool(m.get("clock_running")) and m["status"] == "running"
    if running:
        commands.append(DeviceCommand(W.CMD_RESUME))
    profile = m["clock_profile"]
    length = int(profile["extra_ms"] if period > int(profile["periods"]) else profile["period_ms"])
    return Restored(commands, period, clock_ms, running, since,
                    length + int(m.get("added_ms") or 0))


def _newest_clock(log: tuple[Entry, ...], period: int) -> Entry | None:
    """The log's newest entry of `period` stamped with the table's clock: a device event, or a
    referee's entry — stamped with the table's clock when stored (table/referee.py; while the
    table is away, at the clock the screens stand at): the best the log knows (walk 47a H1).
    Of the newest entries reading one clock, the first: the clock stood there from it on (the
    referee's entries while the table was off, walk50b M1)."""
    newest: Entry | None = None
    for e in reversed(log):
        if e.period != period or not (
                e.source == "referee" or e.source == "device" and e.kind in CLOCK_STAMPED):
            continue
        if newest is not None and e.clock_ms != newest.clock_ms:
            break
        newest = e
    return newest
