"""The rules engine: pure (state, entry) -> (state, effects), and replay.

`Engine.apply` never mutates its inputs. A correction (`void` / `amend`) is
applied by recomputing the match from the whole log (see corrections.py), so
`replay(log)` is the single source of truth and applying entries one by one
gives exactly the same state. Entries are applied in the order things happened
(ordering.py): a referee input that reached the log after device events it happened
before is put back in its place and the match recomputed.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from futmesa.i18n import N_

from .base import Ruleset
from .context import Ctx, Refused, words
from .corrections import correction_history, correction_problem, effective_entries
from .model import Effect, Entry, MatchState, copy_match
from .ordering import in_time_order, insert_position
from .possession import possession


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
        m = self.ruleset.initial_match()
        m["possession"] = possession(self.ruleset, m)
        return MatchState(m, ())

    def apply(self, state: MatchState, entry: Entry) -> tuple[MatchState, list[Effect]]:
        """The state after `entry`, and what the engine asks the outside world to do."""
        if entry.is_correction:
            new, _ = self.replay((*state.log, entry))
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
                    },
                )
            ]
        pos = insert_position(state.log, entry)
        if pos < len(state.log):
            # a referee input that happened before device events already applied (it reached
            # the log late): the match is recomputed with it in its place
            return self._late(state, (*state.log[:pos], entry, *state.log[pos:]), entry)
        new = state.copy()
        new.log = (*state.log, entry)
        effects = self._step(new, entry)
        self._publish(new)
        return new, effects

    def _late(
        self, old: MatchState, log: tuple[Entry, ...], entry: Entry
    ) -> tuple[MatchState, list[Effect]]:
        """The match recomputed from `log` (`entry` inserted where it happened), and what
        changed: the entry's own effects, then the new announcements and questions of the
        entries after it; no device command of those is repeated (the device acted on them)."""
        shown = {(a.get("entry"), a.get("code")) for a in old.m["announcements"]}
        state = self.initial_state()
        effects: list[Effect] = []
        after = False
        for e in effective_entries(log):
            step = self._step(state, e)
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
        state.m["corrections"] = correction_history(log)
        self._publish(state)
        return state, effects

    def replay(self, entries: Iterable[Entry]) -> tuple[MatchState, list[Effect]]:
        """The state built from a whole log (corrections resolved first)."""
        log = tuple(in_time_order(entries))
        state = self.initial_state()
        effects: list[Effect] = []
        for entry in effective_entries(log):
            effects.extend(self._step(state, entry))
        state.log = log
        state.m["corrections"] = correction_history(log)
        self._publish(state)
        return state, effects

    def _publish(self, state: MatchState) -> None:
        """What the state says beside the match itself, for the console: who may play now and
        the referee's inputs that apply (computed once per published state, not per step of a
        replay)."""
        state.m["possession"] = possession(self.ruleset, state.m)

    def _step(self, state: MatchState, entry: Entry) -> list[Effect]:
        ctx = Ctx(state.m, entry)
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
        saved = copy_match(m)
        try:
            handler(ctx)
        except Refused as refused:
            # a refused input changes nothing but the announcement saying why
            m.clear()
            m.update(saved)
            ctx.effects.clear()
            ctx.announce("refused", refused.msgid, refused.rule, **refused.values)
        return ctx.effects
