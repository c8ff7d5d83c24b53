"""What a correction changes on the table: the device commands that bring the table's clock
and lance timer in line with the match as recomputed after a void or an amendment.

A correction re-runs the match from the log, but what the device did is a fact of the log:
the clock it stopped on a ball-out stays stopped in the recomputed match even when the
referee voids that ball-out. So after every correction the engine compares the match before
and after it and asks the device for what no longer agrees (issue 30, family 4):

- a ball-in-play clock (004 "o relógio só corre com a bola rolando") that stands still for
  a dead ball the match no longer has (the voided ball-out, the goal-line trip voided as a
  false trip) gets back the time it stood still: still stopped, with the ball in play and
  no restart waiting, it runs again counting the time since its stop as played
  (`play_on give_back`: the device knows when it stopped); already running again, the
  stretch from its stop to its restart in the device's own milliseconds (`adjust`);
- the lance timer counts for the side whose turn it now is (`lance_restart`), except where no
  lance is being played (`lance_questions.held`: a goal question, a kick-off after a goal):
  a correction that brings that back (a voided goal restored) stops it (`lance_stop`), and
  one that ends it (the goal voided) leaves it stopped until the next lance starts it.
"""

from __future__ import annotations

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
    if rules.clock_mode == "ball-in-play" and playing:
        stop = _lost_stop(new.log, correction, {e.id for e in effective})
        if stop is not None:
            stopped, restarted = stop
            waiting = bool(nm["restart"] and not nm["restart"].get("taken"))
            if restarted is None and not waiting and not nm["pending"]:
                # the device counts the time since its stop as played, then runs (it knows
                # when it stopped; it confirms with clock_adjusted and clock_started)
                effects.append(Effect("device", {"cmd": "play_on", "give_back": True}))
            elif restarted is not None:
                given = ticks_diff(restarted.ticks, stopped.ticks)
                if 0 < given <= _LONGEST_STOP_MS:
                    effects.append(Effect("device", {"cmd": "adjust", "ms": given}))
    if rules.lance_ms and playing:
        effects.extend(_lance(rules, om, nm))
    return effects


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
    """When the correction took out of the match a device event on which the ball-in-play
    clock stopped itself: (the device's stop, the device entry that ended the stretch or
    None while it still stands). None when the correction took out no such event."""
    target = correction.data.get("target")
    if correction.kind != "void" or not isinstance(target, int) or target in effective:
        return None
    at = next((i for i, e in enumerate(log) if e.id == target), None)
    if at is None or log[at].source != "device" or log[at].kind not in _STOPPING:
        return None
    stopped: Entry | None = None
    for e in log[at + 1:]:
        if e.source != "device":
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


def _reason(entry: Entry) -> int | None:
    reason = entry.data.get("reason")
    return reason if isinstance(reason, int) and not isinstance(reason, bool) else None
