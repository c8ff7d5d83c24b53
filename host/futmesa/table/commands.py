"""A rule effect → the device command that carries it out (pure: no link, no state)."""

from __future__ import annotations

import logging
from typing import Any, NamedTuple

import futmesa_wire as W
from futmesa.i18n import _
from futmesa.rules import Effect

log = logging.getLogger("futmesa.table")

# device commands the rules (or the console) may ask for, by effect name
DEVICE_COMMANDS: dict[str, int] = {
    "start": W.CMD_START,
    "pause": W.CMD_PAUSE,
    "resume": W.CMD_RESUME,
    "adjust": W.CMD_ADJUST,
    "add_time": W.CMD_ADD_TIME,
    "beep": W.CMD_BEEP,
    "lance_restart": W.CMD_LANCE,
    "lance_stop": W.CMD_LANCE,
    "play_on": W.CMD_PLAY_ON,
    "new_period": W.CMD_NEW_PERIOD,
    "set_clock": W.CMD_SET_CLOCK,
    "new_match": W.CMD_NEW_MATCH,
    "dead_ball": W.CMD_DEAD_BALL,
    # the rules ended the period (a last lance after the alarm): the interval counts from now
    "end_period": W.CMD_INTERVAL,
}
BEEPS = {"warning": W.BEEP_WARNING, "alarm": W.BEEP_ALARM, "goal": W.BEEP_GOAL,
         "prewarn": W.BEEP_PREWARN}
SIDES = {"A": 0, "B": 1}


class DeviceCommand(NamedTuple):
    """One CMD frame's fields (docs/protocol.md)."""

    code: int
    a: int = 0
    b: int = 0
    x: int = 0


def _fields(cmd: str, d: dict[str, Any]) -> dict[str, int]:
    if cmd == "beep":
        return {"a": BEEPS.get(str(d.get("pattern", "warning")), W.BEEP_WARNING)}
    if cmd in ("lance_restart", "lance_stop"):
        return {"a": SIDES.get(str(d.get("side")), 2), "b": 1 if cmd == "lance_stop" else 0}
    if cmd in ("adjust", "add_time"):
        return {"x": int(d.get("ms", d.get("delta_ms", 0)))}
    if cmd == "play_on":
        # give_back: the dead ball the clock stopped on was voided (rules/resync.py)
        return {"a": 1 if d.get("give_back") else 0}
    if cmd == "set_clock":
        return {"a": int(d.get("period", 1)), "x": int(d.get("ms", 0))}
    return {}


def device_command(effect: Effect) -> DeviceCommand | None:
    """The command for a ``device`` effect; None for any other effect and for a command this
    version does not know (logged). The period's end is the interval's start: the device
    ends a period itself, on the pass its time runs out, and counts its interval from there;
    when the rules end it later (a last lance played after the alarm, 001 Art. XXI §1) the
    interval counts from then (000 Art. 8 §9; walk 45i-b M-b) — a device not in its interval
    refuses it, harmlessly."""
    if effect.kind != "device":
        return None
    cmd = str(effect.data.get("cmd", ""))
    code = DEVICE_COMMANDS.get(cmd)
    if code is None:
        log.warning(_("the ruleset asked for an unknown device command %r"), cmd)
        return None
    return DeviceCommand(code, **_fields(cmd, effect.data))
