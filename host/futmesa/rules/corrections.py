"""Corrections: turn the full match log into the list of entries the rules apply.

A referee may void or amend an earlier fact of the match (:func:`correctable`), and void a
correction (its undo); the table's clock and housekeeping rows, a period's start, a signature
and an answer whose question was voided are not corrected (refused, and ignored on replay).
Nothing is erased: the log keeps every entry, and the effective list is
recomputed from it. For each target the latest correction wins (a void of a
correction cancels that correction; an amend after a void brings the entry
back with the amended data).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, NamedTuple

from futmesa.i18n import N_

from .context import Refused
from .model import CORRECTION_KINDS, Entry

# the rows that are no fact of the match to void or correct: the table's clock and
# housekeeping, the referee's go for a period (walk #45g G4), the signatures (reopen instead)
FIXED_KINDS = frozenset({
    "start_period", "period_started", "period_over", "alarm", "time_up", "time_added",
    "match_over", "clock_started", "clock_stopped", "clock_adjusted", "profile_set", "boot",
    "sensor_ok", "gap", "lost", "lance_started", "signature", "reopen", "clock_restored"})


# what an amendment of an entry may carry beyond what the entry logged: a goal's row takes its
# scorer's disc, read as the asked shot's (goals.ball_in_goal) — so a goal's botão is corrected
# on the goal's row, never only on the Chute pedido row (walk45h-b B5)
AMEND_ADDS: dict[str, tuple[str, ...]] = {"goal_line": ("disc",), "goal_by_hand": ("disc",)}


def amend_adds(kind: str) -> tuple[str, ...]:
    """The fields an amendment of an entry of ``kind`` may add to its data (:data:`AMEND_ADDS`)."""
    return AMEND_ADDS.get(kind, ()) if correctable(kind, "amend") else ()


# the answers that count the goal their question asked about (goals.GOAL_ANSWERS)
GOAL_COUNTING_ANSWERS = frozenset({"own_goal", "shot_asked", "counts"})


def correctable(kind: str, how: str = "void", goal_answered: bool = False) -> bool:
    """Whether an entry of ``kind`` may be corrected by ``how`` ("void" / "amend"): a
    correction is undone by a void of it, never amended. ``goal_answered``: the entry is the
    sensor's row of a goal the referee's answer counted (:func:`answered_goal`): that goal is
    voided or corrected on the answer's row, the one that says it — never two rows offering
    Anular for one goal (walk45j-b 12)."""
    if kind in FIXED_KINDS or goal_answered:
        return False
    return how == "void" or kind not in CORRECTION_KINDS


def answered_goal(log: Sequence[Entry], target: int) -> int | None:
    """The answer (its id) in effect that counted the goal the question on entry ``target``
    asked about, else None."""
    return next((e.id for e in reversed(effective_entries(list(log)))
                 if e.kind == "confirm" and _target(e) == target
                 and e.data.get("choice") in GOAL_COUNTING_ANSWERS
                 and not e.data.get("voided")), None)


def _target(entry: Entry) -> int | None:
    target = entry.data.get("target")
    return target if isinstance(target, int) and not isinstance(target, bool) else None


def effective_entries(log: tuple[Entry, ...] | list[Entry]) -> list[Entry]:
    """The entries the rules apply, with voids and amendments resolved."""
    return resolve(log)[0]


def resolved(log: Sequence[Entry]) -> Resolved:
    """The whole log's corrections resolved (:class:`Resolved`), in one pass for the entries
    and one for the history."""
    effective, deciding = resolve(log)
    return Resolved(effective, deciding, correction_history(log, deciding))


def resolve(log: tuple[Entry, ...] | list[Entry]) -> tuple[list[Entry], dict[int, int]]:
    """(the entries the rules apply, target id -> id of the correction deciding it): one pass
    for both what a correction changes and its history (:func:`correction_history`)."""
    active, deciding = _resolve(log)
    kinds = {e.id: e.kind for e in log}
    voided = {target: by for target, by in deciding.items() if kinds.get(by) == "void"}
    effective = []
    for e in log:
        current = active.get(e.id)
        # an answer to a question whose entry is voided went with its question (_moot): the
        # rules never see it again, so it is never refused on the replay ("Não há confirmação
        # pendente…" left as the newest thing said after a voided goal, walk 45h-a A5); an
        # answer entered after that void never had its question: refused live, and so on the
        # replay (live == replay)
        asked = _asked(current) if current is not None else None
        if current is not None and not current.is_correction and not (
                asked in voided and current.id < voided[asked]):
            effective.append(current)
    return effective, deciding


def _resolve(log: tuple[Entry, ...] | list[Entry]) -> tuple[dict[int, Entry], dict[int, int]]:
    """(entries still active, as amended; target id -> id of the correction deciding it)."""
    ids = {e.id: e for e in log}
    decided: dict[int, tuple[str, Entry]] = {}
    active: dict[int, Entry] = {}
    for entry in reversed(log):  # a correction only ever targets an earlier entry
        verdict = decided.get(entry.id)
        if verdict is not None and verdict[0] == "void":
            kept = _voided_form(entry, verdict[1])
            if kept is not None:
                active[entry.id] = kept
            continue
        current = entry
        if verdict is not None:  # amended: the latest amendment's data (and kind) win
            current = _amended(entry, verdict[1])
        active[entry.id] = current
        if current.is_correction and _valid(current, ids, log):
            decided.setdefault(_target(current) or 0, (current.kind, current))
    return active, {target: verdict[1].id for target, verdict in decided.items()}


def _voided_form(entry: Entry, void: Entry) -> Entry | None:
    """What a voided entry leaves in the match: a disallowed goal (:func:`_disallows_goal`),
    a voided answer to a question (the rules say what that leaves: goals.on_confirm — a goal
    the answer counted is no goal, without asking again), or nothing (None)."""
    if _disallows_goal(entry, void):
        return replace(entry, data={**entry.data, "disallowed": True})
    if entry.kind == "confirm":
        return replace(entry, data={**entry.data, "voided": True})
    return None


def _disallows_goal(entry: Entry, void: Entry) -> bool:
    """A void of a goal disallows it: a goal-line trip the device saw, or the goal the referee
    entered by hand (the sensor did not see it) — the ball went into the goal, so the entry
    stays in the match as "no goal": the asked shot it ended is over and the defence restarts
    (goals.disallowed_goal), never a shot left pending for a later ball, nor a period the
    alarm closed reopened for it (walk46a H1). `false_trip: true` on the void says the ball
    never went in — the device's trip was false, or the referee's «Gol de … (o sensor não
    viu)» was a wrong tap: the entry is dropped, play goes on as before it (no restart for
    the defence; a ball-in-play clock that stopped on it gets its time back, resync.py:
    walk50a H1)."""
    if void.data.get("false_trip"):
        return False
    return entry.kind == "goal_by_hand" or (entry.kind == "goal_line"
                                            and entry.source == "device")


def _valid(correction: Entry, by_id: Mapping[int, Entry], log: Sequence[Entry]) -> bool:
    target = _target(correction)
    if target is None or target not in by_id or target >= correction.id:
        return False
    entry = by_id[target]
    if not correctable(entry.kind, correction.kind) or _moot(entry, log, correction.id):
        return False
    return correction.kind != "amend" or isinstance(correction.data.get("data"), dict)


def _asked(entry: Entry) -> int | None:
    """The entry an answer (``confirm``) answers, else None."""
    return _target(entry) if entry.kind == "confirm" else None


def _moot(entry: Entry, log: Sequence[Entry], upto: int | None = None) -> bool:
    """Whether ``entry`` is an answer to a question whose entry a void had taken out (before
    entry ``upto``; all the log when None): the question was withdrawn, the answer with it
    ("Quem dá a saída?" after its goal was voided, walk #45g G3)."""
    asked = _asked(entry)
    if asked is None:
        return False
    end = len(log) if upto is None else next(
        (i for i, e in enumerate(log) if e.id >= upto), len(log))
    if not any(e.kind == "void" and _target(e) == asked for e in log[:end]):
        return False
    prefix = list(log[:end])
    _, deciding = _resolve(prefix)
    by = deciding.get(asked)
    return by is not None and any(e.id == by and e.kind == "void" for e in prefix)


def cites(msgid: str, values: Mapping[str, Any]) -> dict[str, Any]:
    """What a view needs to say again words naming the corrected entry (``target``, a stored
    id) with the number the match's Registro gives it (matchbook/numbers.py: the engine stays
    in ids, the view numbers them): ``{"cites": {"msgid": …, "values": …}}`` for an
    announcement; {} when ``target`` is no entry id (nothing to number)."""
    target = values.get("target")
    if not isinstance(target, int) or isinstance(target, bool):
        return {}
    return {"cites": {"msgid": msgid, "values": dict(values)}}


def correction_problem(log: tuple[Entry, ...], correction: Entry) -> Refused | None:
    """Why a correction cannot apply to this log (a ``Refused``, said, not raised), or None."""
    target = _target(correction)
    if target is None or _from_end(log, target) is None:
        # no number said: the console sends the entry the referee picked from his Registro,
        # so one not in this match is another match's (a console left on the last one)
        return Refused(N_("That entry is not in this match: there is nothing to correct"))
    if correction.kind == "amend" and not isinstance(correction.data.get("data"), dict):
        return Refused(N_("An amendment needs 'data'"))
    entry = log[_from_end(log, target) or 0]
    if entry.is_correction and correction.kind == "amend":
        return Refused(N_("A correction is not corrected: undo it (void it) and make a new one"))
    if not correctable(entry.kind, correction.kind):
        return Refused(N_("Entry {target} is no fact to correct (the clock, a period's start, "
                          "a signature): set the clock with Relógio; reopen to change a "
                          "signature"), target=target)
    if entry.kind == "goal_line" and answered_goal(log, target) is not None:
        return Refused(N_("Entry {target} is the sensor's sight of a goal your answer counted: "
                          "void or correct the goal on that answer's row"), target=target)
    if _moot(entry, log):
        return Refused(N_("Entry {target} answered a question whose entry was voided: it has "
                          "no effect to correct (undo that void first)"), target=target)
    if correction.kind == "amend" and _bad_disc(entry, correction.data["data"]):
        return Refused(N_("A disc's number is 0 to 99"))  # else the goal itself is refused
    return None


def _bad_disc(entry: Entry, data: dict[str, Any]) -> bool:
    """Whether an amendment's ``disc`` is no disc's number (0–99) nor none: "" read "botão "
    everywhere (walk45i-b M-b), 150 refused the goal on replay. A value the entry logged
    (the goalkeeper's "GK" of a ``positions``) stays as it was."""
    named = data.get("disc")
    if named is None or ("disc" not in amend_adds(entry.kind) and named == entry.data.get("disc")):
        return False
    return not isinstance(named, int) or isinstance(named, bool) or not 0 <= named <= 99


def _amended(entry: Entry, amend: Entry) -> Entry:
    data: Any = amend.data.get("data")
    kind = amend.data.get("kind")
    return replace(
        entry,
        data=dict(data) if isinstance(data, dict) else entry.data,
        kind=kind if isinstance(kind, str) and kind else entry.kind,
    )


def correction_history(log: tuple[Entry, ...] | list[Entry],
                       deciding: dict[int, int] | None = None) -> list[dict[str, Any]]:
    """Every correction in the log, with who made it and when (for the súmula).

    ``in_effect`` says whether it is the correction that decides its target now: false when
    it was voided itself, or a later correction of the same entry replaced it. ``deciding``:
    what :func:`resolve` found, when the caller has it.
    """
    by_id = {e.id: e for e in log}
    if deciding is None:
        _, deciding = _resolve(log)
    out: list[dict[str, Any]] = []
    for e in log:
        if not e.is_correction or not _valid(e, by_id, log):
            continue  # a correction of nothing (refused when entered) is not history
        target = _target(e)
        original = by_id.get(target) if target is not None else None
        out.append(_record(e, original, target is not None and deciding.get(target) == e.id))
    return out


def _record(e: Entry, original: Entry | None, in_effect: bool) -> dict[str, Any]:
    """One correction as the history says it."""
    return {
        "id": e.id,
        "kind": e.kind,
        "target": _target(e),
        "target_kind": original.kind if original else None,
        "data": e.data.get("data") if e.kind == "amend" else None,
        "author": e.author,
        "at": e.at,
        "reason": e.data.get("reason", ""),
        "in_effect": in_effect,
    }


def _from_end(items: Sequence[Entry], entry_id: int) -> int | None:
    """The index of the entry ``entry_id`` in ``items``, looked for from the end (a correction
    is about a recent entry, as a rule), or None."""
    for i in range(len(items) - 1, -1, -1):
        if items[i].id == entry_id:
            return i
    return None


class Resolved(NamedTuple):
    """A log's corrections resolved: the entries the rules apply, who decides each target,
    the history; ``same``: how many effective entries are those of the log before it."""

    effective: list[Entry]
    deciding: dict[int, int]
    history: list[dict[str, Any]]
    same: int | None = None


def resolve_newest(log: Sequence[Entry], before: list[Entry], deciding: dict[int, int],
                   history: list[dict[str, Any]]) -> Resolved | None:
    """:func:`resolve` for a log whose newest entry is a correction, from what the log before
    it resolved to (``before``, ``deciding``, ``history``), without going through the whole
    log again: the correction decides its target, nothing else changes. None where that does
    not hold (it corrects a correction, or an entry a void had taken out): resolve it all."""
    correction = log[-1]
    target = _target(correction)
    at = _from_end(log, target) if target is not None else None
    if at is None or target is None or target >= correction.id \
            or (correction.kind == "amend" and not isinstance(correction.data.get("data"), dict)):
        return Resolved(before, deciding, history, len(before))  # a correction of nothing
    original = log[at]
    if not correctable(original.kind, correction.kind) or _moot(original, log):
        return Resolved(before, deciding, history, len(before))  # refused: changes nothing
    if original.is_correction:
        return None
    prev = deciding.get(target)
    j = _from_end(log, prev) if prev is not None else None
    if correction.kind == "amend" and j is not None and log[j].kind == "void":
        return None  # the void took its question's answers out: they come back, resolve it all
    i = _from_end(before, target)
    if i is None:
        return None
    if correction.kind == "void":
        form = _voided_form(original, correction)
    else:
        form = _amended(original, correction)
    after = before[i + 1:]
    if correction.kind == "void":  # its question's answers go with it (as in resolve)
        after = [e for e in after if _asked(e) != target]
    effective = [*before[:i], *([form] if form is not None else []), *after]
    replaced = [{**h, "in_effect": False} if h["target"] == target and h["in_effect"] else h
                for h in history]
    return Resolved(effective, {**deciding, target: correction.id},
                    [*replaced, _record(correction, original, True)], i)
