"""The log of the match being played, as the console shows it, kept as the match changes.

Each entry's record (matchbook/records.py: its sentence, status, the rules' words) is kept
with the revision it last changed at; a console asks for what changed since the revision it
holds (``GET /api/log?since=``), so a new entry costs one entry, not the whole log again.

A plain step (an entry added at the end, no correction, the teams and the ending unchanged,
the rules' new words about that entry only) makes that entry's record and nothing else; any
other change (a correction, an entry placed back in time, a replay) rebuilds every record
from the log and the state and marks the ones that differ. Either way the records equal
those a replay of the stored match gives (``build_record``, then ``public_record``): the
test holds the two together.
"""

from __future__ import annotations

import secrets
import threading
from collections.abc import Mapping, Sequence
from typing import Any

from futmesa.matchbook.account import (
    Context,
    account,
    goals_by_entry,
    interval_after,
    period_length,
    placed,
    placed_in_interval,
)
from futmesa.matchbook.answer import correction_words
from futmesa.matchbook.numbers import numbered
from futmesa.matchbook.records import (
    answer_options,
    answered_words,
    entry_record,
    goal_words,
    meanings,
    record_inputs,
    rule_words,
    said_of,
    taken_words,
)
from futmesa.matchbook.signing import SIGNING_KINDS, closed
from futmesa.matchbook.sumula import redact_secrets
from futmesa.matchbook.wording import document_kinds
from futmesa.store import StoredEntry

# what the console's log does not show and a live step cannot know exactly (the store's clock)
UNSHOWN = ("created_at", "occurred_at")


def shown(record: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in record.items() if k not in UNSHOWN}


def plain_step(before: dict[str, Any], after: dict[str, Any], entry_id: int) -> bool:
    """Whether going from match ``before`` to ``after`` (the engine's ``m``) by the entry
    ``entry_id`` changed no earlier entry's record."""
    if len(after["corrections"]) != len(before["corrections"]) \
            or after.get("teams") != before.get("teams") \
            or bool(after.get("finished")) != bool(before.get("finished")):
        return False
    old, new = before["announcements"], after["announcements"]
    goals_then = [g.get("entry") for g in before.get("goals") or []]
    goals_now = [g.get("entry") for g in after.get("goals") or []]
    if goals_now[:len(goals_then)] != goals_then \
            or any(g != entry_id for g in goals_now[len(goals_then):]):
        return False  # a goal counted for (or taken from) an earlier entry: its facts change
    if any(g.get("asked") is not None for g in (after.get("goals") or [])[len(goals_then):]):
        return False  # an answer counted the goal of an earlier row: that row offers no void
    return len(new) >= len(old) and all(
        not isinstance(a, dict) or a.get("entry") in (entry_id, None)
        or not isinstance(a.get("entry"), int) for a in new[len(old):])


class LiveLog:
    """One match's records, each with the revision it last changed at."""

    def __init__(self, match_id: int) -> None:
        self.match_id = match_id
        self.epoch = secrets.token_hex(4)  # a console holding another epoch's revision reloads
        self._lock = threading.Lock()
        self.rev = 0
        self._records: dict[int, dict[str, Any]] = {}
        self._rev_of: dict[int, int] = {}
        self._order: list[int] = []
        self._order_rev = 0
        self.closed = False
        # what a plain step needs to know of the match so far
        self._by_id: dict[int, dict[str, Any]] = {}
        self._meaning: dict[int, list[dict[str, str]]] = {}
        self._ends_now = {"A": 0, "B": 1}
        self._announced = 0
        self.teams: dict[str, Any] = {}
        # the foul kinds and restarts the ruleset's document has (the correction form's choices)
        self.kinds: dict[str, list[str]] | None = None
        self._finished = False
        self._interval = ""  # where the newest entry left the match (account.interval_after)
        self._inputs: dict[int, tuple[Any, ...]] = {}  # what each kept record was made from

    # -- kept up to date (the table's thread) ---------------------------------------------
    def rebuild(self, stored: Sequence[StoredEntry], m: dict[str, Any],
                was: dict[int, dict[str, Any]] | None = None) -> None:
        """Every record again from the log and the match; those that differ get a new revision.
        A record whose inputs (its status, the rules' words on it, its ends, the entry it
        corrects, its place in the account) are what they were is kept, not written again.
        ``was``: each void's target as it stood before the void (book.before_voids)."""
        teams = m.get("teams") or {}
        finished = bool(m.get("finished"))
        if teams != self.teams or finished != self._finished:
            self._inputs = {}  # every sentence may change
        ends, statuses, said, by_id, contexts = record_inputs(m, list(stored), was)
        records: list[dict[str, Any]] = []
        inputs: dict[int, tuple[Any, ...]] = {}
        for e in stored:
            target = e.data.get("target") if isinstance(e.data, dict) else None
            key = (statuses.get(e.id), said.get(e.id), ends.get(e.id),
                   by_id.get(target) if isinstance(target, int) else None, contexts.get(e.id),
                   by_id[e.id].get("goal_answered"))  # its goal an answer's (no void here)
            inputs[e.id] = key
            kept = self._records.get(e.id)
            if kept is not None and self._inputs.get(e.id) == key:
                records.append(kept)
                continue
            record = shown(entry_record(e, key[0], teams, by_id, key[1], key[2], key[4]))
            records.append(redact_secrets([record], teams)[0] if not finished else record)
        with self._lock:
            self.rev += 1
            for record in records:
                if self._records.get(record["id"]) is not record \
                        and self._records.get(record["id"]) != record:
                    self._records[record["id"]] = record
                    self._rev_of[record["id"]] = self.rev
            order = [e.id for e in stored]
            if order[:len(self._order)] != self._order:  # not only added at the end
                self._order_rev = self.rev
            self._order = order
            self.closed = closed(records)
        self._inputs = inputs
        self._by_id, self._meaning, self.teams = by_id, said, teams
        self.kinds = document_kinds(m) or self.kinds
        self._ends_now = self._ends_after(stored[-1], ends, m) if stored else {"A": 0, "B": 1}
        self._interval = contexts[stored[-1].id].after if stored else ""
        self._announced = len(m.get("announcements") or [])
        self._finished = finished

    @staticmethod
    def _ends_after(last: StoredEntry, ends: dict[int, dict[str, int]],
                    m: dict[str, Any]) -> dict[str, int]:
        """The goal each side defends after the newest entry (as ``ends_by_entry`` goes on)."""
        now = ends[last.id]
        if last.kind == "ends" and isinstance(last.data, dict) and last.data.get("A") in (0, 1):
            now = {"A": int(last.data["A"]), "B": 1 - int(last.data["A"])}
        if any(isinstance(a, dict) and a.get("code") == "change_ends"
               and a.get("entry") == last.id for a in m.get("announcements") or []):
            now = {"A": now["B"], "B": now["A"]}
        return now

    def step(self, e: StoredEntry, m: dict[str, Any]) -> None:
        """The newest entry, added at the end by a plain step (:func:`plain_step`)."""
        fresh = (m.get("announcements") or [])[self._announced:]
        self._announced += len(fresh)
        kinds = {e.id: e.kind}
        for entry_id, words in meanings({"announcements": fresh}, kinds).items():
            self._meaning.setdefault(entry_id, []).extend(words)
        ends = self._ends_now
        goal = goals_by_entry(m).get(e.id)
        self._by_id[e.id] = {"kind": e.kind, "data": e.data, "period": e.period, "ends": ends,
                             "at": e.occurred_at, "no": numbered([*self._by_id, e.id])[e.id],
                             "clock_ms": e.clock_ms,
                             "length_ms": period_length(m, e.period),
                             **({"goal_words": goal_words(goal, self.teams)} if goal else {})}
        tapped = answered_words(m, e.id).get(e.id)
        if tapped:  # the button an answer tapped (records.answered_words)
            self._by_id[e.id]["answer_words"] = tapped
        offered = answer_options(m, e.id).get(e.id)
        if offered:  # what its question offered (records.answer_options)
            self._by_id[e.id]["answer_options"] = offered
        if e.kind == "confirm" and self._meaning.get(e.id):  # records.answer_made
            self._by_id[e.id]["said"] = self._meaning[e.id]
        words_of = (rule_words({"announcements": fresh}, kinds).get(e.id)
                    or taken_words(m, {e.id: e.data} if e.kind == "touch" else {}, self.teams,
                                   e.id).get(e.id))
        if words_of:  # "Chute de X, botão 8: defendido" (records.SAID_BY_RULES)
            self._by_id[e.id]["rule_words"] = words_of
        self._ends_now = self._ends_after(e, {e.id: ends}, {"announcements": fresh})
        target = e.data.get("target") if isinstance(e.data, dict) else None
        said = self._meaning.get(e.id)
        words = said_of(said)
        place, self._interval = interval_after(self._interval, e.kind, words)
        ctx = Context(goal, None, None, words, placed_in_interval(place),
                      period_length(m, e.period), **placed(place, self._interval))
        self._inputs[e.id] = (None, list(said) if said is not None else None, ends,
                              self._by_id.get(target) if isinstance(target, int) else None, ctx,
                              None)
        record = shown(entry_record(e, None, self.teams, self._by_id, self._meaning.get(e.id),
                                    ends, ctx))
        if not self._finished:
            record = redact_secrets([record], self.teams)[0]
        with self._lock:
            self.rev += 1
            self._records[e.id] = record
            self._rev_of[e.id] = self.rev
            self._order.append(e.id)
            if e.kind in SIGNING_KINDS:
                self.closed = closed([self._records[i] for i in self._order])

    # -- read (a console's request) ----------------------------------------------------------
    def rows(self) -> Mapping[int, Mapping[str, Any]]:
        """The match's entries by id, each with its number in the match (``no``): what a view
        numbers a citation of an entry from (numbers.number_of, numbers.renumbered)."""
        return self._by_id

    def correction(self) -> dict[str, Any] | None:
        """The words of the newest entry when it is a void or a correction in effect
        (:func:`~.answer.correction_words`): they stand until the next entry."""
        with self._lock:
            return correction_words(self._records.get(self._order[-1])) if self._order else None

    def account(self) -> list[dict[str, Any]]:
        """The account of the match so far (matchbook/account.py), from the kept records."""
        with self._lock:
            return account([self._records[i] for i in self._order])

    def since(self, epoch: str | None, rev: int, limit: int | None = None) -> dict[str, Any]:
        """What changed after revision ``rev`` of ``epoch`` (all of it for another epoch or a
        revision this log has not reached): the records in log order, the whole order when it
        changed other than at the end, the revision now, whether the match is closed. A whole
        log longer than ``limit`` comes as its newest ``limit`` records and how many are older
        (``older``: :meth:`older` gives them a page at a time)."""
        with self._lock:
            full = epoch != self.epoch or rev > self.rev or rev < 0
            since = 0 if full else rev
            out: dict[str, Any] = {
                "epoch": self.epoch, "rev": self.rev, "full": full, "closed": self.closed,
                "entries": [self._records[i] for i in self._order if self._rev_of[i] > since]}
            if full or self._order_rev > since:
                out["order"] = list(self._order)
            if full and limit is not None and len(out["entries"]) > limit:
                # a console that comes in late gets the newest; it asks for older pages
                out["older"] = len(out["entries"]) - limit
                out["entries"] = out["entries"][-limit:]
            return out

    def record(self, entry_id: int) -> dict[str, Any] | None:
        """Entry ``entry_id``'s record as the console's log shows it, or None."""
        with self._lock:
            return self._records.get(entry_id)

    def older(self, before: int, limit: int) -> dict[str, Any]:
        """A page of the log: the ``limit`` records just before entry ``before`` in log order,
        and how many are older still (``older``); nothing when ``before`` is not in the log."""
        with self._lock:
            try:
                end = self._order.index(before)
            except ValueError:
                end = 0
            start = max(0, end - limit)
            return {"epoch": self.epoch, "rev": self.rev, "page": True, "closed": self.closed,
                    "entries": [self._records[i] for i in self._order[start:end]],
                    "older": start}
