"""One match's log, the engine that gives it meaning, and the records every view reads.

:class:`MatchBook` is a match being played: the daemon appends to the store and hands the
new entry here. :class:`MatchLibrary` reads stored matches for the history, the súmula,
``futmesa matches`` and ``futmesa rerun``. Both replay the same way, through
:func:`replay_match`, so there is one replay in the host.
"""

from __future__ import annotations

import logging
from typing import Any

from futmesa.i18n import N_, _, translator
from futmesa.matchbook.account import account, goals_by_entry
from futmesa.matchbook.entries import from_entry, to_entry
from futmesa.matchbook.live_log import LiveLog, plain_step
from futmesa.matchbook.proof import with_chain
from futmesa.matchbook.records import (
    answered_words,
    entry_record,
    meanings,
    record_inputs,
    rule_words,
)
from futmesa.matchbook.summary import summaries_for, summarize
from futmesa.matchbook.timeline import Timeline
from futmesa.rules import Effect, Engine, Entry, load_ruleset
from futmesa.rules.corrections import amend_adds
from futmesa.rules.model import MatchState
from futmesa.rules.ordering import in_time_order
from futmesa.store import EventLog, StoredEntry

log = logging.getLogger("futmesa.matchbook")

class UnloadableMatch(LookupError):
    """A stored match this version cannot load (unreadable settings, unknown ruleset…).

    ``why`` says why in one line (an English msgid marked with ``N_``, its ``{placeholders}``
    filled from ``values``); ``pt`` / ``en`` give it translated. Its log is kept untouched in
    the store.
    """

    def __init__(self, match_id: int, why: str, /, **values: Any) -> None:
        self.match_id = match_id
        self.why = why
        self.values = values
        super().__init__(f"match {match_id} cannot be loaded: {self.said('en')}")

    def said(self, lang: str | None = None) -> str:
        """Why, in ``lang`` (None: the process language)."""
        return translator(lang).gettext(self.why).format(**self.values)

    @property
    def pt(self) -> str:
        return self.said("pt_BR")

    @property
    def en(self) -> str:
        return self.said("en")

    def ending(self) -> dict[str, Any]:
        return {"code": "unloadable", **{
            short: translator(short).gettext("cannot be loaded: {why}").format(
                why=self.said(short)) for short in ("pt", "en")}}


def engine_for(match: dict[str, Any]) -> Engine:
    """The match's engine, or :class:`UnloadableMatch` saying why this version cannot load it."""
    mid = int(match.get("id") or 0)
    if match.get("load_error"):
        raise UnloadableMatch(mid, N_("its stored settings are unreadable ({why})"),
                              why=match["load_error"])
    try:
        ruleset = load_ruleset(match["ruleset"])
    except KeyError:
        raise UnloadableMatch(mid, N_("unknown ruleset {name}"),
                              name=repr(match["ruleset"])) from None
    try:
        return Engine(ruleset, match["settings"])
    except Exception as exc:  # noqa: BLE001 - any refusal of stored settings is reported
        raise UnloadableMatch(mid, N_("settings not accepted by this version ({why})"),
                              why=exc) from None


def load_state(match: dict[str, Any], stored: list[StoredEntry]) -> MatchState:
    """The replayed state of a stored match, or :class:`UnloadableMatch`."""
    engine = engine_for(match)
    try:
        return replay_match(engine, stored)
    except Exception as exc:  # noqa: BLE001 - a log this version cannot replay is reported
        raise UnloadableMatch(int(match["id"]), N_("its log does not replay ({why})"),
                              why=repr(exc)) from None


def replay_match(engine: Engine, stored: list[StoredEntry]) -> MatchState:
    """The match state built from its stored log (the single source of truth)."""
    state, _effects = engine.replay([to_entry(e) for e in stored])
    return state


def before_voids(engine: Engine, stored: list[StoredEntry], m: dict[str, Any],
                 kept: dict[tuple[Any, ...], dict[str, Any]] | None = None
                 ) -> dict[int, dict[str, Any]]:
    """Each void's target as the match held it just before the void (by the void's id): what
    the rules said of it and, for a goal, the goal with the score after it — so a voided goal
    reads as what the referee voided ("Gol de … (1 × 0, 12', botão 9) anulado pelo árbitro").

    The log up to the void is replayed once per void (``kept``: a cache by what that replay
    read, for a match being played; the book fills it from the state it had just before a
    void it applies, so a void at the end of the log costs no replay)."""
    out: dict[int, dict[str, Any]] = {}
    kinds = {e.id: e.kind for e in stored}
    for c in m.get("corrections") or []:
        target = c.get("target")
        if kinds.get(target) in (None, "void", "amend") or (
                c.get("kind") != "void" and not amend_adds(str(kinds.get(target)))
                and kinds.get(target) != "confirm"):
            # (an amendment of a goal's row: the goal it corrected, walk45h-b B5; of an
            # answer: the goal it counted, which the amendment may take away, walk52a F5)
            continue
        at = next((i for i, e in enumerate(stored) if e.id == c["id"]), None)
        if at is None:
            continue
        key = void_key(c["id"], target, stored[:at])
        if kept is not None and key in kept:
            out[c["id"]] = kept[key]
            continue
        out[c["id"]] = target_before(replay_match(engine, stored[:at]).m, kinds, target)
        if kept is not None:
            kept[key] = out[c["id"]]
    return out


def void_key(void_id: int, target: Any, prefix: list[StoredEntry]) -> tuple[Any, ...]:
    """What the match before a void depends on: the void, its target, the log before it."""
    return (void_id, target, tuple((e.id, e.kind) for e in prefix
                                   if e.kind in ("void", "amend")), len(prefix))


def target_before(before: dict[str, Any], kinds: dict[int, str], target: Any) -> dict[str, Any]:
    """A void's target in the match as it stood before the void (``before``: its ``m``), and
    each answer then in the words it had (``answered``: the button tapped, ``answers_said``:
    what the rules said of it): an answer the void withdraws keeps them (records.as_tapped)."""
    said = meanings(before, kinds)
    return {"target": target, "meaning": said.get(target, []),
            "rule_words": rule_words(before, kinds).get(target),
            "goal": goals_by_entry(before).get(target),
            "answered": answered_words(before),
            "answers_said": {i: w for i, w in said.items() if kinds.get(i) == "confirm"}}


class MatchBook:
    """A match being played: its engine and the current state, kept equal to a replay of the log."""

    def __init__(self, store: EventLog, match: dict[str, Any]) -> None:
        self.store = store
        self.match = match
        self.engine = engine_for(match)
        self.state: MatchState = self.engine.initial_state()
        self.timeline = Timeline(match)  # when its entries happened (matchbook/timeline.py)
        self.live_log = LiveLog(self.id)  # the console's log, kept as it changes
        self._rows: dict[int, StoredEntry] = {}  # the log's rows as the live log reads them
        self._voids: dict[tuple[Any, ...], dict[str, Any]] = {}  # before_voids' replays

    @classmethod
    def opened(cls, store: EventLog, match: dict[str, Any]) -> MatchBook:
        """The book of a stored match, replayed and checked; :class:`UnloadableMatch` if it
        cannot be loaded by this version (the daemon then starts a fresh match instead)."""
        try:
            book = cls(store, match)
            book.replay_checked()
        except UnloadableMatch:
            raise
        except Exception as exc:  # noqa: BLE001 - a log this version cannot replay
            raise UnloadableMatch(int(match["id"]), N_("its log does not replay ({why})"),
                                  why=repr(exc)) from None
        return book

    @property
    def id(self) -> int:
        return int(self.match["id"])

    def replay(self) -> MatchState:
        """Rebuild the state from the whole log (e.g. after a correction or a late event)."""
        stored = self.store.entries(self.id)
        self.timeline.read_from(stored)
        self.state = replay_match(self.engine, stored)
        self._rows = {e.id: e for e in stored}
        self.live_log.rebuild(stored, self.state.m,
                              before_voids(self.engine, stored, self.state.m, self._voids))
        return self.state

    def replay_checked(self) -> MatchState:
        """:meth:`replay`, checked against applying the same entries one by one."""
        state = self.replay()
        stepped = self.engine.initial_state()
        for entry in state.log:
            stepped, _effects = self.engine.apply(stepped, entry)
        if stepped.to_dict() != state.to_dict():
            log.error(_("match %d: replaying the log and applying it step by step disagree; "
                        "showing the replay. Please report this with the database file."),
                      self.id)
        return state

    def probe(self, entry: Entry) -> list[Effect]:
        """What the rules would say to ``entry``, without keeping it (to refuse before logging);
        an input placed before device entries already applied is judged on the match as it
        stood at its time."""
        state = self.state
        if entry.source == "referee" and self.timeline.placed_before_device(float(entry.at)):
            state = self.state_before(entry)
        _state, effects = self.engine.apply(state, entry)
        return effects

    def state_before(self, entry: Entry) -> MatchState:
        """The match as it stood where ``entry`` (a referee input, the newest) goes in the log."""
        stored = self.store.entries(self.id)
        marker = StoredEntry(id=-1, match_id=self.id, source=entry.source, kind=entry.kind,
                             data=entry.data, period=entry.period, clock_ms=entry.clock_ms,
                             ticks=0, author=entry.author, created_at=0.0,
                             occurred_at=float(entry.at))
        placed = in_time_order([*stored, marker])
        before = placed[:next(i for i, e in enumerate(placed) if e is marker)]
        return replay_match(self.engine, before)

    def apply(self, entry: Entry) -> list[Effect]:
        """Apply a logged entry. A correction recomputes the match from the engine's last
        checkpoint before what it changes; its effects are the correction's announcement and
        the device commands that bring the table in line (rules/resync.py) — what the device
        did on the corrected entries themselves is not sent again."""
        if entry.source == "referee":
            self.timeline.referee_applied(float(entry.at))
        before = self.state.m
        self.state, effects = self.engine.apply(self.state, entry)
        self._rows[entry.id] = row = from_entry(entry, self.id)
        if entry.kind in ("void", "amend") and self.state.log[-1] is entry:
            self._void_seen(entry, before)
        if not entry.is_correction and self.state.log[-1] is entry \
                and plain_step(before, self.state.m, entry.id):
            self.live_log.step(row, self.state.m)
        else:  # the log as the engine holds it, in its order (no read of the store)
            rows = [self._rows.get(e.id) or from_entry(e, self.id) for e in self.state.log]
            self.live_log.rebuild(rows, self.state.m,
                                  before_voids(self.engine, rows, self.state.m, self._voids))
        return effects

    def _void_seen(self, entry: Entry, before: dict[str, Any]) -> None:
        """A void added at the end of the log: its target as the match held it just before,
        kept for :func:`before_voids` (no replay of the log for it)."""
        prefix = [self._rows.get(e.id) or from_entry(e, self.id) for e in self.state.log[:-1]]
        target = entry.data.get("target")
        kinds = {e.id: e.kind for e in prefix}
        if kinds.get(target) not in (None, "void", "amend") and (
                entry.kind == "void" or amend_adds(str(kinds.get(target)))):
            self._voids[void_key(entry.id, target, prefix)] = target_before(before, kinds,
                                                                            target)

    def interval_began(self) -> float | None:
        """When the log's match went into its current interval (host Unix ms of the entry that
        ended the period), or None when it is not in one."""
        m = self.state.m
        if m.get("status") != "interval":
            return None
        ended = next((a["entry"] for a in reversed(m["announcements"])
                      if a["code"] == "period_end"), None)
        stored = self._rows.get(ended) if isinstance(ended, int) else None  # no read of the store
        if stored is None:
            stored = next((e for e in reversed(self.store.entries(self.id)) if e.id == ended),
                          None)
        return stored.occurred_at if stored is not None else None

    def to_dict(self) -> dict[str, Any]:
        return self.state.to_dict()


# ---- stored matches -------------------------------------------------------------------------
def ending(match: dict[str, Any], state: dict[str, Any],
           later: dict[str, Any] | None) -> dict[str, Any]:
    """How the match ended, as a code and a sentence in both languages."""
    result: dict[str, Any] = state["result"] if isinstance(state.get("result"), dict) else {}
    if state.get("finished"):
        reason = result.get("reason")
        said = ENDINGS.get(str(reason), N_("ended at full time"))
        return {"code": "finished", "reason": reason, **_both(said)}
    if match.get("ended_at"):
        if later is not None:
            n = later["id"]
            return {"code": "replaced", "by": n,
                    **_both(N_("not completed: replaced by match {id}"), id=n)}
        return {"code": "stopped", **_both(N_("stopped before the end"))}
    return {"code": "running", **_both(N_("in progress"))}


# how a finished match ended, by the result's reason (else "ended at full time")
ENDINGS = {
    "forfeit": N_("ended by the referee"),
    "shootout": N_("decided on penalties"),
    "advantage": N_("ended level; the side with the advantage goes through"),
}


def _both(msgid: str, **values: Any) -> dict[str, str]:
    """``{"pt": …, "en": …}``: one English msgid in both languages the records carry."""
    return {short: translator(short).gettext(msgid).format(**values) for short in ("pt", "en")}


class MatchLibrary:
    """Stored matches for the views (the web app's HistoryProvider, the CLI, the súmula)."""

    def __init__(self, store: EventLog) -> None:
        self.store = store

    def _later(self, match: dict[str, Any], matches: list[dict[str, Any]]) -> dict[str, Any] | None:
        later = [m for m in matches if m["table_id"] == match["table_id"] and m["id"] > match["id"]]
        return min(later, key=lambda m: m["id"]) if later else None

    def list_matches(self, limit: int | None = None,
                     before: int | None = None) -> list[dict[str, Any]]:
        """Stored matches, newest first: header, final score, how it ended.

        All of them, or a page: ``limit`` matches older than match ``before``. Read from the
        kept summaries (:mod:`.summary`): only a match whose entries changed since its summary
        was made is replayed, so a page costs the same after a season.
        """
        matches = self.store.list_matches(limit, before)
        problems: dict[int, UnloadableMatch] = {}

        def build(match: dict[str, Any]) -> dict[str, Any] | None:
            try:
                return self._summary(match)
            except UnloadableMatch as exc:
                problems[int(match["id"])] = exc
                return None

        summaries = summaries_for(self.store, matches, build)
        later = self.store.next_match_ids([int(m["id"]) for m in matches])
        return [self._row(m, summaries.get(int(m["id"])), problems.get(int(m["id"])),
                          {"id": later[int(m["id"])]} if int(m["id"]) in later else None)
                for m in matches]

    def list_matches_replaying(self) -> list[dict[str, Any]]:
        """:meth:`list_matches` replaying every match (the path before summaries; a baseline)."""
        matches = self.store.list_matches()
        out = []
        for m in matches:
            try:
                out.append(self._row(m, self._summary(m), None, self._later(m, matches)))
            except UnloadableMatch as exc:
                out.append(self._row(m, None, exc, self._later(m, matches)))
        return out

    def _summary(self, match: dict[str, Any]) -> dict[str, Any]:
        """A match's summary from a fresh replay, or :class:`UnloadableMatch`."""
        try:
            stored = self.store.entries(match["id"])
        except ValueError as exc:  # an entry whose data is not JSON
            raise UnloadableMatch(int(match["id"]), N_("its stored log is unreadable ({why})"),
                                  why=exc) from None
        record = build_record(match, stored)  # the account too, as the súmula reads it
        return summarize(record["state"]["match"], stored, record["account"])

    def _row(self, match: dict[str, Any], summary: dict[str, Any] | None,
             problem: UnloadableMatch | None, later: dict[str, Any] | None) -> dict[str, Any]:
        settings = match["settings"]
        row = {"id": match["id"], "table_id": match["table_id"], "ruleset": match["ruleset"],
               "referee": match.get("referee", ""), "created_at": match["created_at"],
               "ended_at": match["ended_at"], "settings": settings}
        if summary is None:
            problem = problem or UnloadableMatch(int(match["id"]), "sem resumo", "no summary")
            return {**row, "teams": {}, "ending": problem.ending(), "score": None,
                    "finished": False, "loadable": False, "summary": None}
        return {**row, "teams": summary["teams"] or settings.get("teams", {}),
                "ending": ending(match, summary, later),
                "score": summary["score"], "finished": summary["finished"],
                "loadable": True, "summary": summary}

    def match_record(self, match_id: int) -> dict[str, Any]:
        """The stored match, each entry with its status and sentence, and its final state."""
        match = self.store.match(match_id)
        if match is None:
            raise KeyError(_("no match {id} in {db}: see `futmesa matches --db {db}`").format(
                id=match_id, db=self.store.path))
        later = self.store.next_match_ids([match_id]).get(match_id)  # one query, not every header
        record = build_record(match, self.store.entries(match_id),
                              None if later is None else {"id": later})
        return with_chain(record, self.store, match_id)  # hashes and signatures (proof.py)

    def chain_check(self, match_id: int) -> dict[str, Any]:
        """The match's hash chain recomputed from the store (the verification page)."""
        return self.store.chain_check(match_id).to_dict()


def build_record(match: dict[str, Any], stored: list[StoredEntry],
                 later: dict[str, Any] | None = None) -> dict[str, Any]:
    """A match record from its stored row and log: replayed, each entry with its status.

    ``later`` is the next match on the same table, if any (a match it replaced).
    """
    state = load_state(match, stored).to_dict()
    settings = match["settings"]
    header = {
        "id": match["id"], "table_id": match["table_id"], "ruleset": match["ruleset"],
        "teams": state.get("teams") or settings.get("teams", {}),
        "referee": match.get("referee", ""),
        "created_at": match["created_at"], "ended_at": match["ended_at"],
        "settings": settings,
        "ending": ending(match, state, later),
    }
    teams = header["teams"]
    ins = record_inputs(state, stored, before_voids(engine_for(match), stored, state))
    entries = [entry_record(e, ins.statuses.get(e.id), teams, ins.by_id, ins.said.get(e.id),
                            ins.ends.get(e.id), ins.contexts.get(e.id)) for e in stored]
    return {
        "match": header,
        "entries": entries,
        "account": account(entries),  # the facts every view lists (matchbook/account.py)
        "state": {"score": state.get("score"), "period": state.get("period"),
                  "finished": state.get("finished"), "teams": state.get("teams"),
                  "ruleset": match["ruleset"], "match": state},
    }
