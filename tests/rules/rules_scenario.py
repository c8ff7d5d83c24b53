"""Load and run a rules scenario file (YAML): entries in, expected state out.

A scenario names the articles it exercises, the ruleset (default: the name of
its folder) and competition settings, then lists steps. A step is either one
entry written as `kind: {data}` (optional `t:` device ms, used for the
clock, the tick counter and the entry's time `at` — a step without `t` happened
when the previous one did —, and `author:`), or `expect: {...}` checked at that
point. Entry ids are 1, 2, 3… in the order the entries appear, so a correction
or a confirmation names its target by that number.

Expectations: any key of `state.to_dict()` (dicts are matched on the keys
given, lists item by item and values exactly), plus `announce` (the exact list of
announcement codes so far), `pending` (kinds of the pending confirmations) and
`device` (the exact list of device commands emitted so far; a clock correction with its
ms: `adjust +4000`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from futmesa.rules import DEVICE_KINDS, Engine, Entry, load_ruleset

STEP_KEYS = {"t", "author", "period"}
AT_BASE = 1_700_000_000_000  # host ms of device time 0 in a scenario


def load(path: Path) -> dict[str, Any]:
    doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    doc.setdefault("ruleset", path.parent.name)
    doc.setdefault("settings", {})
    assert doc.get("articles"), f"{path.name}: a scenario must name the articles it exercises"
    return doc


def match(expected: Any, actual: Any, where: str) -> list[str]:
    if isinstance(expected, dict) and isinstance(actual, dict):
        errors: list[str] = []
        for key, value in expected.items():
            if key not in actual:
                errors.append(f"{where}.{key}: missing")
            else:
                errors.extend(match(value, actual[key], f"{where}.{key}"))
        return errors
    if isinstance(expected, list) and isinstance(actual, list) and len(expected) == len(actual):
        errors = []
        for i, (x, y) in enumerate(zip(expected, actual, strict=True)):
            errors.extend(match(x, y, f"{where}[{i}]"))
        return errors
    return [] if expected == actual else [f"{where}: expected {expected!r}, got {actual!r}"]


def check(expect: dict[str, Any], state: dict[str, Any], device: list[str], label: str) -> None:
    errors: list[str] = []
    for key, value in expect.items():
        if key == "announce":
            errors += match(value, [a["code"] for a in state["announcements"]], "announce")
        elif key == "pending":
            errors += match(value, [p["kind"] for p in state["pending"]], "pending")
        elif key == "device":
            errors += match(value, device, "device")
        elif key not in state:
            errors.append(f"{key}: not in the state")
        else:
            errors += match(value, state[key], key)
    assert not errors, f"{label}:\n  " + "\n  ".join(errors)


def _command(data: dict[str, Any]) -> str:
    """A device command as a scenario names it: `play_on`; a clock correction with its
    ms (`adjust +4000`); `play_on give_back` (the time since the stop counted)."""
    cmd = str(data["cmd"])
    if cmd == "adjust":
        return f"{cmd} {int(data.get('ms', 0)):+d}"
    if cmd == "play_on" and data.get("give_back"):
        return "play_on give_back"
    return cmd


def run(doc: dict[str, Any], label: str) -> tuple[Engine, list[Entry], dict[str, Any]]:
    engine = Engine(load_ruleset(doc["ruleset"]), doc["settings"])
    state = engine.initial_state()
    entries: list[Entry] = []
    device: list[str] = []
    now = 0
    for n, step in enumerate(doc["steps"], 1):
        if "expect" in step:
            check(step["expect"], state.to_dict(), device, f"{label}, step {n}")
            continue
        kinds = [k for k in step if k not in STEP_KEYS]
        assert len(kinds) == 1, f"{label}, step {n}: one entry kind per step, got {kinds}"
        kind = kinds[0]
        t = int(step.get("t", 0))
        # `at`: when it happened, the time same-instant calls compare; a step without `t`
        # happened when the previous one did (time never goes back)
        now = t if "t" in step else now
        entry = Entry(
            id=len(entries) + 1,
            kind=kind,
            data=dict(step[kind] or {}),
            source="device" if kind in DEVICE_KINDS else "referee",
            period=int(step.get("period", 0)),
            clock_ms=t,
            ticks=t,
            author=str(step.get("author", "")),
            at=AT_BASE + now,
        )
        entries.append(entry)
        state, effects = engine.apply(state, entry)
        device += [_command(e.data) for e in effects if e.kind == "device"]
    final = state.to_dict()
    check(doc.get("expect") or {}, final, device, f"{label}, final")
    return engine, entries, final
