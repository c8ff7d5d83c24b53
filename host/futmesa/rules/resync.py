"""What a correction changes on the table: the device commands that bring the table's clock
and lance timer in line with the match as recomputed after a void or an amendment.

A correction re-runs the match from the log, but what the device did is a fact of the log:
the clock it stopped on a ball-out stays stopped in the recomputed match even when the
referee voids that ball-out. So after every correction the engine compares the match before
and after it and asks the device for what no longer agrees (issue 30, family 4):

- a ball-in-play clock (004 "o relógio só corre com a bola rolando") that stands still for
  a dead ball the match no longer has (the voided ball-out, the goal-line trip voided as a
  false trip, or a dead ball only the referee saw — a restart he gave, a foul — that he
  voids: the host's `dead_ball` stopped it, walk46b H1) gets back the time it stood still:
  still stopped, with the ball in play and no restart waiting, it runs again counting the
  time since its stop as played (`play_on give_back`: the device knows when it stopped);
  already running again, the stretch from its stop to its restart in the device's own
  milliseconds (`adjust`). A void that says the ball stayed dead all along (`keep_clock:
  true`: it was another dead ball, a foul entered next) gives nothing back: the clock stays
  as it is (walk49a M3). Before it, the engine publishes which entry's void would give the
  stopped clock its time back and since when it stands (`void_gives_back`), so the console
  asks the referee in the correction form;
- the lance timer counts for the side whose turn it now is (`lance_restart`), except where no
  lance is being played (`lance_questions.held`: a goal question, a kick-off after a goal):
  a correction that brings that back (a voided goal restored) stops it (`lance_stop`), and
  one that ends it (the goal voided) leaves it stopped until the next lance starts it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from futmesa_wire import ticks_diff  # the device's ms counter, as the firmware counts it

from . import lance_questions
from .model import Effect, Entry, MatchState

# the device's clock_stopped reasons (matchbook/entries.py CLOCK_STOPPED_REASONS)
_DEAD_BALL = 1
# the device events on which a ball-in-play clock stops itself (firmware/app.py)
_STOPPING = ("ball_out", "goal_line")
# a stretch longer than this is not a dead ball's (another boot, a counter that wrapped)
_LONGEST_STOP_MS = 60 * 60_000


def after_correction(rules: Any, old: MatchState, new: MatchState, correction: Entry,
                     effective: list[Entry]) -> list[Effect]:
    """The device commands that follow from `correction` (already applied in `new`)."""
    om, nm = old.m, new.m
    effects: list[Effect] = []
    if nm["finished"]:
        return effects
    playing = nm["status"] in ("running", "last_lance", "awaiting_dead_ball")
    if rules.clock_mode == "ball-in-play" and playing and not correction.data.get("keep_clock"):
        stop = _lost_stop(new.log, correction, {e.id for e in effective})
        if stop is not None:
            stopped, restarted = stop
            waiting = bool(nm["restart"] and not nm["restart"].get("taken"))
            if restarted is None and not waiting and not nm["pending"]:
                # the device counts the time since its stop as played, then runs (it knows
                # when it stopped; it confirms with clock_adjusted and clock_started); `ms`,
                # that time by the host's clock, is for the referee's result line only
                since = correction.at - stopped.at
                effects.append(Effect("device", {"cmd": "play_on", "give_back": True, **(
                    {"ms": since} if 0 < since <= _LONGEST_STOP_MS else {})}))
            elif restarted is not None:
                given = ticks_diff(restarted.ticks, stopped.ticks)
                if 0 < given <= _LONGEST_STOP_MS:
                    effects.append(Effect("device", {"cmd": "adjust", "ms": given}))
    if rules.lance_ms and playing:
        effects.extend(_lance(rules, om, nm))
    return effects


def void_gives_back(rules: Any, state: MatchState,
                    effective: Callable[[], list[Entry]]) -> dict[str, int] | None:
    """The entry whose void would give the ball-in-play clock, standing stopped on it now, the
    time since its stop (`after_correction`'s `play_on give_back`), and the host time of that
    stop: {"entry", "stopped_at"}; None for any other clock, a clock running, a match not being
    played. The console warns with it before the void is sent (walk49a M3)."""
    m = state.m
    if rules.clock_mode != "ball-in-play" or m.get("finished") \
            or m.get("status") not in ("running", "last_lance", "awaiting_dead_ball"):
        return None
    log = state.log
    at = next((i for i in range(len(log) - 1, -1, -1) if log[i].source == "device" and (
        log[i].kind in _STOPPING or log[i].kind in ("clock_started", "clock_stopped"))), None)
    if at is None or log[at].kind != "clock_stopped" or _reason(log[at]) != _DEAD_BALL:
        return None
    # the entry the stop followed: the newest before it but a correction (already voided,
    # the stop's cause is no other entry: walk49a M3's void that kept the clock stopped)
    cause = next((e for e in reversed(log[:at]) if not e.is_correction), None)
    if cause is None or not _may_stop(cause):
        return None
    ids = {e.id for e in effective()}  # only for a clock standing stopped: not every step
    if cause.id not in ids:
        return None
    void = Entry(id=-1, kind="void", data={"target": cause.id})
    if _lost_stop(log, void, ids - {cause.id}) != (log[at], None):
        return None
    return {"entry": cause.id, "stopped_at": log[at].at}


def _lance(rules: Any, om: dict[str, Any], nm: dict[str, Any]) -> list[Effect]:
    """The lance timer after a correction: stopped where no lance is being played now,
    restarted for a turn the correction moved (walk45h-a A2)."""
    if lance_questions.held(rules, nm):
        if lance_questions.held(rules, om):
            return []
        return [Effect("device", {"cmd": "lance_stop", "side": nm.get("turn")})]
    if (lance_questions.held(rules, om) or not nm.get("turn") or nm["turn"] == om.get("turn")
            or nm["pending"]):
        return []
    return [Effect("device", {"cmd": "lance_restart", "side": nm["turn"]})]


def _lost_stop(log: tuple[Entry, ...], correction: Entry,
               effective: set[int]) -> tuple[Entry, Entry | None] | None:
    """When the correction took out of the match an entry on which the ball-in-play clock
    stopped (`_may_stop`; a referee's input only if the device's stop followed it before any
    other input of his): (the device's stop, the device entry that ended the stretch or None
    while it still stands). None when the correction took out no such entry."""
    target = correction.data.get("target")
    if correction.kind != "void" or not isinstance(target, int) or target in effective:
        return None
    at = next((i for i, e in enumerate(log) if e.id == target), None)
    if at is None or not _may_stop(log[at]):
        return None
    stopped: Entry | None = None
    for e in log[at + 1:]:
        if e.source != "device":
            if stopped is None and log[at].source != "device" and e.id in effective:
                return None  # another input of the referee's came first: the stop may be his
            continue
        if stopped is None:
            if e.kind == "clock_stopped" and _reason(e) == _DEAD_BALL:
                stopped = e
            elif e.kind in _STOPPING or e.kind in ("clock_started", "clock_stopped"):
                return None  # the clock did not stop on it (it was not running)
        elif e.kind == "clock_started" or e.kind in _STOPPING or e.kind == "clock_stopped":
            # started again, or a real dead ball (or the period's end) took over from it
            return stopped, e
    return None if stopped is None else (stopped, None)


def _may_stop(entry: Entry) -> bool:
    """Whether the ball-in-play clock may have stopped on `entry`: the device's own dead ball
    (a ball-out, a goal-line trip), or any input of the referee's, on which the host sends
    `dead_ball` where the ball is dead (core.dead_ball: a restart, a foul); the device's
    confirmation, `clock_stopped` for a dead ball, follows it."""
    return entry.kind in _STOPPING if entry.source == "device" else entry.source == "referee"


def _reason(entry: Entry) -> int | None:
    reason = entry.data.get("reason")
    return reason if isinstance(reason, int) and not isinstance(reason, bool) else None
