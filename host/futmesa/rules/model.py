"""Value types of the rules engine: log entries, effects and the match state.

An `Entry` is one line of the match log (a device event or a referee input);
an `Effect` is what the engine asks of the outside world (a device command,
an announcement for the scoreboard, a confirmation for the referee's console).
`MatchState` is immutable from the caller's point of view: the engine copies it
before every change.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

DEVICE_KINDS = frozenset(
    {
        "goal_line",
        "ball_out",
        "palheta",
        "clock_started",
        "clock_stopped",
        "period_over",
        "alarm",
        "lance_expired",
        "button",
        "sensor_fault",
        "gap",
        # further wire events (futmesa_wire.EVENT_NAMES) the link stores as entries
        "sensor_ok",
        "boot",
        "period_started",
        "clock_adjusted",
        "time_added",
        "match_over",
        "profile_set",
        "time_up",
        "lance_started",
        "lost",
        # the host's own: a reset table's clock restored, and the match time it did not count
        "clock_restored",
    }
)
CORRECTION_KINDS = frozenset({"void", "amend"})


@dataclass(frozen=True)
class Entry:
    """One line of the match log.

    `period`, `clock_ms` and `ticks` are the device's view of time when the
    entry happened (`ticks` is the device's monotonic millisecond counter);
    `author` and `at` (host wall time, Unix ms) say who entered a referee input
    or correction and when.
    """

    id: int
    kind: str
    data: dict[str, Any] = field(default_factory=dict)
    source: str = "referee"
    period: int = 0
    clock_ms: int = 0
    ticks: int = 0
    author: str = ""
    at: int = 0

    @property
    def is_correction(self) -> bool:
        return self.kind in CORRECTION_KINDS


@dataclass(frozen=True)
class Effect:
    """What the engine asks for: kind is "device", "announce" or "confirm"."""

    kind: str
    data: dict[str, Any] = field(default_factory=dict)


# Lists in the match dict whose items are never changed once added (only appended,
# removed, or the list replaced): a copy shares the items and copies the list. They are
# what grows with a match (its announcements, goals, open questions and correction
# history), so the engine's per-step copy stays small however long the match
# (tests/rules/test_append_only.py holds every scenario to it).
APPEND_ONLY = ("announcements", "goals", "pending", "corrections", "fouls_counted",
               "restarts_taken", "answer_options")


def _json_copy(value: Any) -> Any:
    # the match dict holds only JSON values: much cheaper than copy.deepcopy
    if isinstance(value, dict):
        return {k: _json_copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_json_copy(v) for v in value]
    return value


# id(item) -> (the item, its copy) for the items of the lists that grow (MatchState.to_dict);
# the item is held so its id is not reused; emptied when it grows past _FROZEN_MAX
_FROZEN: dict[int, tuple[Any, Any]] = {}
_FROZEN_MAX = 200_000


def _frozen_copy(item: Any) -> Any:
    kept = _FROZEN.get(id(item))
    if kept is not None and kept[0] is item:
        return kept[1]
    if len(_FROZEN) >= _FROZEN_MAX:
        _FROZEN.clear()
    made = _json_copy(item)
    _FROZEN[id(item)] = (item, made)
    return made


CHECKPOINT_EVERY = 64  # effective entries between two kept copies of the match


def copy_match(m: dict[str, Any]) -> dict[str, Any]:
    """A copy of a match dict that no later change to `m` can reach."""
    return {k: list(v) if k in APPEND_ONLY else _json_copy(v) for k, v in m.items()}


@dataclass
class MatchState:
    """The match as the rules see it.

    `m` is a JSON-ready dict (the ruleset's view of the match); `log` is every
    entry the state was built from, corrections included, so a later
    correction can recompute the whole match from it.
    """

    m: dict[str, Any]
    log: tuple[Entry, ...] = ()
    # how many of the log's effective entries (corrections resolved) `m` holds, and copies of
    # the match after every CHECKPOINT_EVERY of them: a correction or a late entry recomputes
    # from the last one before what it changes, not from the kick-off (engine.py). Never
    # changed once made, so copies of the state share them.
    applied: int = field(default=0, compare=False, repr=False)
    marks: tuple[tuple[int, dict[str, Any]], ...] = field(default=(), compare=False,
                                                          repr=False)
    # (n, the effective entries of log[:n], target id -> the correction deciding it) as the
    # last recomputation found them; the entries stepped since were added at the end, none a
    # correction (engine._effective_of). Never changed once made.
    resolved: tuple[int, list[Entry], dict[int, int]] | None = field(
        default=None, compare=False, repr=False)

    def copy(self) -> MatchState:
        return MatchState(copy_match(self.m), self.log, self.applied, self.marks, self.resolved)

    def to_dict(self, announcements: int | None = None) -> dict[str, Any]:
        """The JSON-ready match state (the `match` part of GET /api/state): every announcement,
        or only the newest ``announcements``. The items of the lists that grow with a match
        are never changed once made (APPEND_ONLY): each is copied once (:data:`_FROZEN`), so a
        state costs its new items, not the whole match, each time it is published; treat
        them as read-only."""
        # keys starting with "_" are private to the engine (e.g. the goalkeeper's secret)
        out = {k: [_frozen_copy(item) for item in v] if k in APPEND_ONLY and isinstance(v, list)
               else copy.deepcopy(v) for k, v in self.m.items()
               if not k.startswith("_") and k != "announcements"}
        said = self.m.get("announcements") or []
        if announcements is not None:
            said = said[-announcements:] if announcements > 0 else []
        out["announcements"] = [_frozen_copy(item) for item in said]
        shootout = out.get("shootout")
        if shootout is not None:
            # the goalkeeper's choice stays secret until the kick is taken (004)
            shootout["keeper_choice_recorded"] = bool(self.m.get("_secret"))
        restart = out.get("restart")
        if restart and restart.get("kind") == "penalti":
            # an in-match penalty's secret choice (004 Pênaltis): only whether it is in
            secret = self.m.get("_secret")
            restart["keeper_choice_recorded"] = bool(secret and secret.get("penalty"))
        out["log_length"] = len(self.log)
        return out
