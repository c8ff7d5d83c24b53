"""The rules engine: pure (state, entry) -> (state, effects), and replay.

`Engine.apply` never mutates its inputs. A correction (`void` / `amend`) is
applied by recomputing the match from the log (see corrections.py), so
`replay(log)` is the single source of truth and applying entries one by one
gives exactly the same state. Entries are applied in the order things happened
(ordering.py): a referee input that reached the log after device events it happened
before is put back in its place and the match recomputed.

A recomputation starts from the last checkpoint (a copy of the match every
CHECKPOINT_EVERY effective entries, kept in the state) before the first entry
it changes, so a correction of a recent entry costs the same at any point of the
match: a match's cost grows as its length (bench/match_cost_bench.py).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from futmesa.i18n import N_

from . import lance_questions
from .base import Ruleset
from .closings import after_end_signal, closed_period, closing, undone_by, with_closings
from .context import Ctx, Refused, refusal_now, words
from .corrections import (
    Resolved,
    cites,
    correction_problem,
    effective_entries,
    resolve_newest,
    resolved,
)
from .model import CHECKPOINT_EVERY, Effect, Entry, MatchState, copy_match
from .ordering import in_time_order, insert_position
from .possession import possession, settle
from .resync import after_correction, void_gives_back
from .timekeeping import note_clock


class Engine:
    """Applies a ruleset to a match log."""

    def __init__(
        self, ruleset: Ruleset | type[Ruleset], settings: dict[str, Any] | None = None
    ) -> None:
        if isinstance(ruleset, type):
            cls, base_settings = ruleset, {}
        else:
            cls, base_settings = type(ruleset), ruleset.settings
        self.settings: dict[str, Any] = {**base_settings, **(settings or {})}
        self.ruleset: Ruleset = cls(self.settings)

    def initial_state(self) -> MatchState:
        state = MatchState(self.ruleset.initial_match(), ())
        self._publish(state)  # as a replay publishes it: a replay of no entry is this state
        return state

    def apply(self, state: MatchState, entry: Entry) -> tuple[MatchState, list[Effect]]:
        """The state after `entry`, and what the engine asks the outside world to do."""
        if entry.is_correction:
            at = insert_position(state.log, entry)  # at the end but for an input made earlier
            log = (*state.log[:at], entry, *state.log[at:])
            found = None
            # made after the end signal, the period closed: it stays so (closings.py)
            newest = at == len(state.log)
            closed = None
            if newest and after_end_signal(log, at):
                undone = undone_by(log, at)  # an undo finds the period as its correction did
                closed = (closed_period(state.m) if undone is None
                          else self._closed_before(log, undone))
            if at == len(state.log) and state.resolved is not None:
                # the newest entry: only what it corrects changes (corrections.resolve_newest)
                found = resolve_newest(log, self._effective_of(state), state.resolved[2],
                                       state.m.get("corrections") or [])
            if found is not None and closed is not None:
                found = found._replace(effective=[*found.effective, closing(entry, closed)])
            found = found or self._resolved(log, {entry.id: closed} if newest else None)
            new, effective = self._recompute(state, log, found)
            target = entry.data.get("target")
            problem = correction_problem(state.log, entry)
            if problem:
                # logged (replay ignores it too) but it changes nothing: say why
                return new, [
                    Effect(
                        "announce",
                        {
                            "code": "refused",
                            "pt": problem.pt,
                            "en": problem.en,
                            "rule": "",
                            "entry": entry.id,
                            **cites(problem.msgid, problem.values),
                        },
                    )
                ]
            said = {  # (by its author, by the referee when no author is logged)
                "void": (N_("Entry {target} voided by {author}"),
                         N_("Entry {target} voided by referee")),
                "amend": (N_("Entry {target} amended by {author}"),
                          N_("Entry {target} amended by referee")),
            }[entry.kind][0 if entry.author else 1]
            values = {"target": target, "author": entry.author} if entry.author else {
                "target": target}
            return new, [
                Effect(
                    "announce",
                    {
                        "code": "correction",
                        "pt": words("pt_BR", said, values),
                        "en": words("en", said, values),
                        "entry": entry.id,
                        **cites(said, values),
                    },
                ),
                # what the device did on the corrected entries, brought in line (resync.py)
                *after_correction(self.ruleset, state, new, entry, effective),
            ]
        pos = insert_position(state.log, entry)
        if pos < len(state.log):
            # a referee input that happened before device events already applied (it reached
            # the log late): the match is recomputed with it in its place
            return self._late(state, (*state.log[:pos], entry, *state.log[pos:]), entry)
        new = state.copy()
        new.log = (*state.log, entry)
        effects = self._step(new, entry, before=state.m)  # `state` is untouched: no 2nd copy
        self._count(new)
        self._publish(new)
        return new, effects

    def _late(
        self, old: MatchState, log: tuple[Entry, ...], entry: Entry
    ) -> tuple[MatchState, list[Effect]]:
        """The match recomputed from `log` (`entry` inserted where it happened), and what
        changed: the entry's own effects, then the new announcements and questions of the
        entries after it; no device command of those is repeated (the device acted on them)."""
        shown = {(a.get("entry"), a.get("code")) for a in old.m["announcements"]}
        found = self._resolved(log)
        effective = found.effective
        state = self._resumed(old, effective)
        effects: list[Effect] = []
        after = False
        for e in effective[state.applied:]:
            step = self._step(state, e)
            self._count(state)
            if e.id == entry.id:
                effects.extend(step)
                after = True
            elif after:
                effects.extend(
                    fx for fx in step
                    if fx.kind == "confirm"
                    or (fx.kind == "announce"
                        and (fx.data.get("entry"), fx.data.get("code")) not in shown)
                )
        state.log = log
        state.m["corrections"] = found.history
        state.resolved = (len(log), effective, found.deciding)
        self._publish(state)
        return state, effects

    def replay(self, entries: Iterable[Entry]) -> tuple[MatchState, list[Effect]]:
        """The state built from a whole log (corrections resolved first)."""
        log = tuple(in_time_order(entries))
        state = self.initial_state()
        return state, self._run(state, self._resolved(log), log)

    def _resolved(self, log: tuple[Entry, ...],
                  known: dict[int, int | None] | None = None) -> Resolved:
        """:func:`corrections.resolved`, with the closing step of each correction made after a
        period's end signal that found the period closed (closings.py). ``known``: correction
        id -> the period closed when it was made (None: none), where the caller knows it; the
        others are found from the log before them, each once."""
        found = resolved(log)
        memo = {} if known is None else known

        def closed(i: int) -> int | None:
            entry = log[i]
            if entry.id not in memo:
                undone = undone_by(log, i)  # an undo finds the period as its correction did
                memo[entry.id] = (self._closed_before(log, i, memo) if undone is None
                                  else closed(undone) if after_end_signal(log, undone)
                                  else None)
            return memo[entry.id]

        return found._replace(effective=with_closings(log, found.effective, closed))

    def _closed_before(self, log: tuple[Entry, ...], i: int,
                       memo: dict[int, int | None] | None = None) -> int | None:
        """The period the match had closed just before ``log[i]`` (closings.closed_period)."""
        if not after_end_signal(log, i):
            return None
        before = self.initial_state()
        self._run(before, self._resolved(log[:i], memo), log[:i])
        return closed_period(before.m)

    def _recompute(self, old: MatchState, log: tuple[Entry, ...],
                   found: Resolved) -> tuple[MatchState, list[Entry]]:
        """The state of `log` (`old`'s log with a correction added, its corrections `found`),
        recomputed from `old`'s last checkpoint before the first effective entry the
        correction changes; and the effective entries of `log`."""
        state = self._resumed(old, found.effective, found.same)
        self._run(state, found, log)
        return state, found.effective

    def _run(self, state: MatchState, found: Resolved, log: tuple[Entry, ...]) -> list[Effect]:
        """Apply the effective entries `state` does not hold yet; `state` becomes `log`'s."""
        effective = found.effective
        effects: list[Effect] = []
        for entry in effective[state.applied:]:
            effects.extend(self._step(state, entry))
            self._count(state)
        state.log = log
        state.m["corrections"] = found.history
        state.resolved = (len(log), effective, found.deciding)
        self._publish(state)
        return effects

    def _resumed(self, old: MatchState, effective: list[Entry],
                 same: int | None = None) -> MatchState:
        """A state to apply `effective[state.applied:]` to: a copy of `old`'s last checkpoint
        whose entries `effective` still begins with (`same` of them, when known), else the
        kick-off."""
        if same is None:
            same = 0
            for a, b in zip(self._effective_of(old), effective, strict=False):
                if a is not b and a != b:
                    break
                same += 1
        marks = tuple(mark for mark in old.marks if mark[0] <= same)
        if not marks:
            return self.initial_state()
        applied, m = marks[-1]
        return MatchState(copy_match(m), (), applied, marks)

    @staticmethod
    def _effective_of(state: MatchState) -> list[Entry]:
        """`state.log`'s effective entries: those its last recomputation found, and the entries
        stepped since (each added at the end, none a correction: all effective)."""
        if state.resolved is None:
            return effective_entries(state.log)
        known, effective, _deciding = state.resolved
        return effective + list(state.log[known:])

    @staticmethod
    def _count(state: MatchState) -> None:
        """One more effective entry applied to `state.m`: a checkpoint every CHECKPOINT_EVERY."""
        state.applied += 1
        if state.applied % CHECKPOINT_EVERY == 0:
            state.marks = (*state.marks, (state.applied, copy_match(state.m)))

    def _publish(self, state: MatchState) -> None:
        """What the state says beside the match itself, for the console: who may play now and
        the referee's inputs that apply (computed once per published state, not per step of a
        replay)."""
        state.m["possession"] = possession(self.ruleset, state.m)
        if self.ruleset.clock_mode == "ball-in-play":  # the other clocks run regardless
            state.m["void_gives_back"] = void_gives_back(
                self.ruleset, state, lambda: self._effective_of(state))

    def _step(self, state: MatchState, entry: Entry,
              before: dict[str, Any] | None = None) -> list[Effect]:
        """Apply one effective entry to `state.m`; a refused input leaves it as it was
        (`before`: an untouched copy of it, when the caller has one)."""
        ctx = Ctx(state.m, entry)
        note_clock(state.m, entry)  # the device's clock, as its event stamps it
        handler = getattr(self.ruleset, "on_" + entry.kind, None)
        if handler is None:
            if entry.source == "referee":
                ctx.announce(
                    "refused",
                    N_("Unknown entry '{kind}': see docs/rulesets.md"),
                    kind=entry.kind,
                )
            return ctx.effects  # device/system events without a rule meaning are only logged
        m = state.m
        saved = copy_match(m) if before is None else None
        turn_before = m.get("turn")
        fouls_before = fouls_now(m)
        try:
            handler(ctx)
            settle(self.ruleset, ctx)  # turn is the vez (possession.py): one state, one answer
            taken_at(m, entry)
            if m.get("turn") != turn_before:
                # the entry the vez passed at: what was said before it of the lance of the
                # team that had it is no longer the state of play (the console's "Vez:" line,
                # walk45i-a M2: "Vez: Alvorada » 10 s: Botafogo, jogue imediatamente")
                m["turn_at"] = entry.id
            lance_questions.upkeep(self.ruleset, ctx, turn_before)  # lance question, new vez
            counted_by(m, fouls_before, entry.id)
        except Refused as refused:
            # a refused input changes nothing but the announcement saying why
            m.clear()
            m.update(saved if saved is not None else copy_match(before or {}))
            ctx.effects.clear()
            note_clock(m, entry)  # the clock it stamps stands even when its meaning is refused
            refused = refusal_now(m, refused)  # "not now" said as the interval / the end
            ctx.announce("refused", refused.msgid, refused.rule, **refused.values)
        return ctx.effects


def taken_at(m: dict[str, Any], entry: Entry) -> None:
    """The entry that took the restart, kept on it (``taken_at``): what was said of the
    restart before it is no longer the state of play (the console's "Vez:" line, walk 45f M7);
    and in ``restarts_taken`` ({"entry", "kind", "side", "disc"}): the Registro says the
    touch that took it as the kick-off, the free kick… taken by its disc (walk 50a L5)."""
    r = m.get("restart")
    if isinstance(r, dict) and r.get("taken") and "taken_at" not in r:
        r["taken_at"] = entry.id
        disc = r.get("kicker")
        if disc is None and isinstance(entry.data, dict):
            disc = entry.data.get("disc")
        m.setdefault("restarts_taken", []).append(
            {"entry": entry.id, "kind": r.get("kind"), "side": r.get("side"),
             "disc": disc if isinstance(disc, int) and not isinstance(disc, bool) else None})


# the counters of ``fouls`` a screen shows (the TV's "Faltas 1 · técnicas 3 · disciplinares 1")
SHOWN_COUNTERS = ("fouls", "technical", "disciplinary")


def fouls_now(m: dict[str, Any]) -> dict[tuple[str, str], int]:
    """The shown counters of ``m["fouls"]`` by (side, kind)."""
    return {(side, kind): int(row.get(kind) or 0)
            for side, row in (m.get("fouls") or {}).items() for kind in SHOWN_COUNTERS}


def counted_by(m: dict[str, Any], before: dict[tuple[str, str], int], entry_id: int) -> None:
    """Each shown counter the entry ``entry_id`` changed, kept in ``m["fouls_counted"]``
    ({"entry", "side", "kind", "n"}): whatever rule counted the foul (a foul entered, a
    technical foul the rules gave — 001 Art. XXII §1, XXIX e —, a disciplinary one), the
    account lists it by the entry that made it (matchbook/account.py, walk47b M1)."""
    for (side, kind), n in fouls_now(m).items():
        if n != before.get((side, kind), 0):
            m.setdefault("fouls_counted", []).append(
                {"entry": entry_id, "side": side, "kind": kind,
                 "n": n - before.get((side, kind), 0)})
