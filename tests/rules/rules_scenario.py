"""Load and run a rules scenario file (YAML): entries in, expected state out.

A scenario names the articles it exercises, the ruleset (default: the name of
its folder) and competition settings, then lists steps. A step is either one
entry written as `kind: {data}` (optional `t:` device ms, used for the
clock, the tick counter and the entry's time `at` — a step without `t` happened
when the previous one did —, `clock_ms:` the device's match clock when it differs from
`t` — a 004 clock that runs only while the ball rolls —, and `author:`), or `expect: {...}`
checked at that point. Entry ids are 1, 2, 3… in the order the entries appear, so a correction
or a confirmation names its target by that number.

Expectations: any key of `state.to_dict()` (dicts are matched on the keys
given, lists item by item and values exactly), plus `announce` (the exact list of
announcement codes so far), `pending` (kinds of the pending confirmations) and
`device` (the exact list of device commands emitted so far; a clock correction with its
ms: `adjust +4000`), `announce_includes` (codes that must be among the announcements, in
that order, others between them allowed), `pending_items` (the pending confirmations
themselves, matched on the keys given) and `restarts` (every restart called so far that
is still in force after the corrections, in order, each matched on the keys given, e.g.
`[{kind: lateral, side: B}]`, or `kind_prefix: lateral` for any kind that begins so;
with the scenario's `restarts_from: N`, those from entry N on, the one in force then
included: a blind case that starts in mid-match after entries that set it up; and
`restarts_ignore: [saida]` leaves those kinds out once it has begun; `restarts_superseded:
drop`, a restart replaced before it was taken by the referee's next input on the same dead
ball), and
`refused_entries` (the ids of the logged entries the rules refuse as the log now stands,
in order: after a correction, the later entries it made invalid — a blind case's
`voided_by_correction`).

A step may say `refused: true` (the rules must refuse that entry, leaving the match as it
was; `refused: "<words>"`: and the English reason says them) or `accepted: true` (they
must take it). `run(..., blind=True)` is how the blind cases run
(tests/rules/test_blind_cases.py): there every referee entry must be accepted unless its
step says `refused`, and a refused entry is not logged, as the table's daemon does not
log an input the rules refuse (its id is still used up, so the ids stay the entry
steps' numbers).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from futmesa.rules import DEVICE_KINDS, Engine, Entry, load_ruleset
from futmesa.rules.corrections import effective_entries
from futmesa.rules.ordering import in_time_order

STEP_KEYS = {"t", "clock_ms", "author", "period", "refused", "accepted", "note"}
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


def includes(expected: list[Any], actual: list[Any], where: str) -> list[str]:
    """`expected` found in `actual` in the same order (other items between them allowed)."""
    rest = iter(actual)
    missing = [item for item in expected if not any(item == x for x in rest)]
    return [f"{where}: {missing!r} not among (in order) {actual!r}"] if missing else []


def _kind_prefix(expected: list[Any], actual: list[dict[str, Any]]) -> list[Any]:
    """A restart expected as `kind_prefix: lateral` matches any kind that begins so
    (gaucha's lateral_cedida / lateral_cavada, where a blind case says only "lateral")."""
    out: list[Any] = []
    for i, item in enumerate(expected):
        if isinstance(item, dict) and "kind_prefix" in item:
            item = dict(item)
            prefix = str(item.pop("kind_prefix"))
            kind = str(actual[i].get("kind", "")) if i < len(actual) else ""
            item["kind"] = kind if kind.startswith(prefix) else f"{prefix}…"
        out.append(item)
    return out


def check(expect: dict[str, Any], state: dict[str, Any], device: list[str], label: str,
          restarts: list[dict[str, Any]] | None = None) -> None:
    errors: list[str] = []
    for key, value in expect.items():
        if key == "announce":
            errors += match(value, [a["code"] for a in state["announcements"]], "announce")
        elif key == "announce_includes":
            errors += includes(value, [a["code"] for a in state["announcements"]], key)
        elif key == "pending_items":
            errors += match(value, state["pending"], key)
        elif key == "restarts":
            errors += match(_kind_prefix(value, restarts or []), restarts, key)
        elif key == "pending":
            errors += match(value, [p["kind"] for p in state["pending"]], "pending")
        elif key == "refused_entries":
            errors += match(value, sorted({a["entry"] for a in state["announcements"]
                                           if a["code"] == "refused"}), key)
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


def restart_history(engine: Engine, entries: list[Entry], since: int | None = None,
                    ignore: tuple[str, ...] = (),
                    superseded: bool = False) -> list[dict[str, Any]]:
    """Every restart the rules called, in order, for the entries still in force after the
    corrections (a restart is new when its kind or side changes, or it follows one taken).
    `since` (a scenario's `restarts_from`: the entry a blind case starts at, after the
    entries that set its match up): only the restart in force before that entry, if not
    taken, and those called from it on; `ignore` (`restarts_ignore`): kinds left out once
    the case has begun (e.g. the kick-offs after goals, when the case lists only set pieces);
    `superseded` (`restarts_superseded: drop`): a restart the referee's next input replaced
    on the same dead ball before it was taken, no lance played since (the lateral a sensor's
    ball out called, made a two-touch kick by the referee's tap) is not listed, only what
    replaced it."""
    state = engine.initial_state()
    called: list[dict[str, Any]] = []
    stale = None  # a restart taken before `since`, still the match's last one
    played = False  # a lance since the last restart listed
    for entry in in_time_order(effective_entries(entries)):
        if since is not None and entry.id >= since:
            now = state.m.get("restart")
            called = [dict(now)] if now and not now.get("taken") else []
            stale = (now.get("kind"), now.get("side")) if now and now.get("taken") else None
            since = None
        state, _ = engine.apply(state, entry)
        played = played or entry.kind in ("touch", "shot_asked")
        now = state.m.get("restart")
        same = bool(now and called and (now.get("kind"), now.get("side"))
                    == (called[-1].get("kind"), called[-1].get("side")))
        if now and now.get("kind") in ignore and since is None:
            if same:
                called[-1] = dict(now)
            continue
        if stale and now and now.get("taken") and (now.get("kind"), now.get("side")) == stale:
            continue
        stale = None
        last = called[-1] if called else None
        if now and (last is None or not same or (last.get("taken") and not now.get("taken"))):
            if superseded and last is not None and not last.get("taken") and not played:
                called[-1] = dict(now)  # replaced on the same dead ball before it was taken
                continue
            called.append(dict(now))
            played = False
        elif now and last is not None:
            called[-1] = dict(now)
    return called


def _entry(step: dict[str, Any], n: int, now: int, label: str) -> Entry:
    """Step `n`'s entry (id `n`); `now`: when the step happened (device ms)."""
    kinds = [k for k in step if k not in STEP_KEYS]
    assert len(kinds) == 1, f"{label}: one entry kind per step, got {kinds}"
    kind = kinds[0]
    t = int(step.get("t", 0))
    return Entry(
        id=n,
        kind=kind,
        data=dict(step[kind] or {}),
        source="device" if kind in DEVICE_KINDS else "referee",
        period=int(step.get("period", 0)),
        clock_ms=int(step.get("clock_ms", t)),
        ticks=t,
        author=str(step.get("author", "")),
        at=AT_BASE + now,
    )


UNCHANGED_BY_REFUSAL = ("announcements", "log_length")


def _refusal(step: dict[str, Any], entry: Entry, effects: list[Any], before: dict[str, Any],
             after: dict[str, Any], blind: bool, label: str) -> bool:
    """Check the step's `refused` / `accepted` (in a blind case every referee entry is
    `accepted` unless it says `refused`); whether the rules refused the entry."""
    said = [e.data for e in effects if e.kind == "announce" and e.data.get("code") == "refused"
            and e.data.get("entry") == entry.id]
    refused = bool(said)
    if step.get("refused"):
        assert refused, f"{label}: {entry.kind} should be refused, the rules took it"
        if isinstance(step["refused"], str):  # the reason's words (English), a part of them
            assert step["refused"] in str(said[0].get("en")), (
                f"{label}: refused as {said[0].get('en')!r}, not for {step['refused']!r}")
        changed = [k for k in after if k not in UNCHANGED_BY_REFUSAL and after[k] != before.get(k)]
        assert not changed, f"{label}: {entry.kind} refused but the match changed: {changed}"
    elif step.get("accepted") or (blind and entry.source == "referee"):
        assert not refused, f"{label}: {entry.kind} refused: {said[0].get('en')}"
    return refused


def run(doc: dict[str, Any], label: str,
        blind: bool = False) -> tuple[Engine, list[Entry], dict[str, Any]]:
    engine = Engine(load_ruleset(doc["ruleset"]), doc["settings"])
    state = engine.initial_state()
    entries: list[Entry] = []
    device: list[str] = []
    now = n_entry = 0
    for n, step in enumerate(doc["steps"], 1):
        if "expect" in step:
            restarts = (restart_history(engine, entries, doc.get("restarts_from"),
                                    tuple(doc.get("restarts_ignore", ())),
                                    doc.get("restarts_superseded") == "drop")
                        if "restarts" in step["expect"] else None)
            check(step["expect"], state.to_dict(), device, f"{label}, step {n}", restarts)
            continue
        # `at`: when it happened, the time same-instant calls compare; a step without `t`
        # happened when the previous one did (time never goes back)
        now = int(step["t"]) if "t" in step else now
        n_entry += 1
        entry = _entry(step, n_entry, now, f"{label}, step {n}")
        before = state
        state, effects = engine.apply(state, entry)
        refused = _refusal(step, entry, effects, before.to_dict(), state.to_dict(), blind,
                           f"{label}, step {n}")
        if refused and blind:
            state = before  # the daemon does not log an input the rules refuse
            continue
        entries.append(entry)
        device += [_command(e.data) for e in effects if e.kind == "device"]
    final = state.to_dict()
    restarts = (restart_history(engine, entries, doc.get("restarts_from"),
                                tuple(doc.get("restarts_ignore", ())),
                                doc.get("restarts_superseded") == "drop")
                if "restarts" in (doc.get("expect") or {}) else None)
    check(doc.get("expect") or {}, final, device, f"{label}, final", restarts)
    return engine, entries, final
