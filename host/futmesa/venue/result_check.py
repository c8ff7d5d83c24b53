"""``futmesa competition verify``: every result the desk stored, against the tables' own logs.

At the end of the day the tables' database files are brought to the desk. For each result
a table sent, the table match (its uid ``<table>:<match>``) is looked up in those files and
checked: its hash chain checks in that file (:func:`futmesa.chain.check_match`), the chain's
final hash is the one the desk received, the score the rules give from that log is the score
the desk stored, and the referee's signature the desk received is that file's valid one.
Each result gets one line (in the process language; Portuguese: *confirmada*, *sem assinatura*
(the log confirms it but the referee did not sign), *não confere* (with why) or *mesa não
trazida*).

The files are never changed: each is read through a read-only connection, and the rules read
a copy made in a temporary folder.
"""

from __future__ import annotations

import sqlite3
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from futmesa import chain
from futmesa.competition import actions
from futmesa.competition.db import CompetitionDB, CompetitionError
from futmesa.i18n import NP_, _, pgettext
from futmesa.matchbook import MatchLibrary
from futmesa.store import EventLog
from futmesa.venue.outbox import result_of
from futmesa.verify import open_readonly

CONFIRMED, UNSIGNED, MISMATCH, MISSING = "confirmed", "unsigned", "mismatch", "missing"
# the verdicts as shown (translated where shown; "confirmada": a result)
VERDICT_WORDS = {CONFIRMED: NP_("result check", "confirmed"),
                 UNSIGNED: NP_("result check", "unsigned"),
                 MISMATCH: NP_("result check", "does not check out"),
                 MISSING: NP_("result check", "table not brought")}


@dataclass
class ResultCheck:
    """One stored result, checked."""

    match_id: int  # the competition match
    uid: str
    verdict: str  # CONFIRMED / UNSIGNED / MISMATCH / MISSING
    why: str = ""

    @property
    def ok(self) -> bool:
        return self.verdict != MISMATCH

    def line(self, teams: str) -> str:
        table, _sep, table_match = self.uid.rpartition(":")
        head = _("match {match} ({teams}; table {table}, the table's match {table_match})"
                 ).format(match=self.match_id, teams=teams, table=table,
                          table_match=table_match)
        verdict = pgettext(*VERDICT_WORDS[self.verdict])
        return f"{head}: {verdict}" + (f" — {self.why}" if self.why else "")


class TableFiles:
    """The tables' database files, opened read-only; each table match found by its uid."""

    def __init__(self, paths: list[str]) -> None:
        self.dbs: list[tuple[str, sqlite3.Connection]] = [(p, open_readonly(p)) for p in paths]
        self._copies: dict[str, MatchLibrary] = {}
        self._tmp = tempfile.TemporaryDirectory(prefix="futmesa-verify-")

    def close(self) -> None:
        for library in self._copies.values():
            library.store.close()
        for _path, db in self.dbs:
            db.close()
        self._tmp.cleanup()

    def find(self, table: str, match_id: int) -> tuple[str, sqlite3.Connection] | None:
        for path, db in self.dbs:
            row = db.execute("SELECT 1 FROM matches WHERE id=? AND table_id=?",
                             (match_id, table)).fetchone()
            if row:
                return path, db
        return None

    def library(self, path: str, db: sqlite3.Connection) -> MatchLibrary:
        """The rules' view of a file, read from a copy (opening a log may add its tables)."""
        if path not in self._copies:
            copy = Path(self._tmp.name) / f"{len(self._copies)}.sqlite"
            target = sqlite3.connect(copy)
            db.backup(target)
            target.close()
            self._copies[path] = MatchLibrary(EventLog(copy))
        return self._copies[path]


def check_result(files: TableFiles, match_id: int, result: dict[str, Any]) -> ResultCheck:
    uid = str(result["uid"])
    table, _sep, raw = uid.rpartition(":")
    out = ResultCheck(match_id, uid, MISMATCH)
    try:
        table_match = int(raw)
    except ValueError:
        out.why = _("the result does not say which of the table's matches it is")
        return out
    found = files.find(table, table_match)
    if found is None:
        out.verdict = MISSING
        out.why = _("bring the database of table {table} (--tables FILE)").format(table=table)
        return out
    path, db = found
    check = chain.check_match(db, table_match)
    if not check.ok:
        out.why = f"{path}: {check.problem}"
        return out
    proof = result.get("proof") or {}
    received = str(proof.get("final_hash") or "")
    if not received:
        out.why = _("the result came without proof (the chain's hash): check the paper súmula")
        return out
    if received != check.final_hash:
        later = next((eid for eid, (_kind, h) in check.hashes.items() if h == received), None)
        out.why = (_("{path} has entries recorded after the result received (the desk has "
                     "hash {received}, the database ends at {final}): the table did not send "
                     "the final version") if later is not None else
                   _("the final hash received ({received}) is not that of any entry of the "
                     "match in {path} (the database ends at {final})")).format(
                       path=path, received=chain.short(received),
                       final=chain.short(check.final_hash))
        return out
    try:
        record = files.library(path, db).match_record(table_match)
        logged = result_of(record, table) or {}
    except Exception as exc:  # noqa: BLE001 - a log the rules cannot read is a finding
        out.why = _("the rules cannot read the match in {path} ({problem})").format(
            path=path, problem=type(exc).__name__)
        return out
    if not logged:
        out.why = _("in {path} the match has not ended").format(path=path)
        return out
    # a desk decision (a level knockout settled at the desk) is not a score change: the
    # table's own winner is compared, the decision said beside the verdict
    stored = (result["score_a"], result["score_b"], actions.sent(result))
    if (logged["score_a"], logged["score_b"], logged.get("winner")) != stored:
        out.why = _("the score received ({a} × {b}) is not the one of the table's súmula "
                    "({logged_a} × {logged_b})").format(
                        a=result["score_a"], b=result["score_b"],
                        logged_a=logged["score_a"], logged_b=logged["score_b"])
        return out
    out = _signature_check(out, result, logged, path, received)
    decided = result.get("decided")
    if decided and out.ok:
        out.why += _(" — draw decided at the desk: {reason}").format(
            reason=decided.get("reason") or "?")
    return out


def _signature_check(out: ResultCheck, result: dict[str, Any], logged: dict[str, Any],
                     path: str, received: str) -> ResultCheck:
    """The verdict once the score checks: the referee's signature received, against the file's."""
    proof = result.get("proof") or {}
    signature = proof.get("signature")
    in_file = (logged.get("proof") or {}).get("referee_signature")
    if signature:
        if not in_file or in_file.get("id") != signature.get("entry") \
                or in_file.get("hash") != signature.get("hash"):
            # the entry as the table stored it (it may not be in the file: no match number)
            out.why = _("the referee's signature received (stored id {entry}) is not a valid "
                        "signature of the match in {path}").format(
                            entry=signature.get("entry"), path=path)
            return out
        out.verdict = CONFIRMED
        out.why = _("final hash {final}, signed by {name}").format(
            final=chain.short(received), name=signature.get("name"))
        return out
    out.verdict = UNSIGNED
    out.why = (_("the database confirms the score and hash {hash}, but the referee did not "
                 "sign").format(hash=chain.short(received))
               + (_(" (signed later: the table did not send the signed version)")
                  if in_file else ""))
    return out


def require_desk_file(path: str) -> None:
    """SystemExit saying what to pass unless ``path`` is a desk's file (checked read-only,
    so a table's file passed by mistake is not given the competition's tables)."""
    try:
        db = sqlite3.connect(f"file:{Path(path).resolve()}?mode=ro", uri=True)
        try:
            found = db.execute("SELECT 1 FROM sqlite_master WHERE name='competitions'"
                               ).fetchone()
        finally:
            db.close()
    except sqlite3.DatabaseError as exc:
        raise SystemExit(_("error: {path} is not a database ({problem}); pass the desk's file "
                           "in --db (futmesa desk --db)").format(path=path, problem=exc)
                         ) from None
    if not found:
        raise SystemExit(_("error: {path} is not the desk's file (it has no competition); "
                           "pass futmesa desk's --db file in --db, and the tables' files in "
                           "--tables").format(path=path))


def verify_results(desk_db: str, tables: list[str]) -> tuple[bool, list[str]]:
    """Check every result a table sent to the desk; (all match, one line per result)."""
    if not Path(desk_db).is_file():
        raise SystemExit(_("error: there is no file {path}: pass the desk's file in --db"
                           ).format(path=desk_db))
    require_desk_file(desk_db)
    comp = CompetitionDB(desk_db)
    try:
        day = comp.active()
        if not day:
            comp.competition()  # says there is none
        matches = [m for c in day for m in comp.matches(c["id"])]
        teams = comp.team_map()
    except CompetitionError as exc:
        raise SystemExit(_("error: {problem}").format(problem=exc)) from None
    finally:
        comp.close()
    files = TableFiles(tables)
    lines: list[str] = []
    checks: list[ResultCheck] = []
    try:
        for m in matches:
            r = m["result"]
            if not r or r.get("source") == "desk":
                continue  # no result, or a W.O. the desk decided (no table played it)
            names = " × ".join(teams[k].name if k in teams else "?"
                               for k in (m["team_a"], m["team_b"]))
            c = check_result(files, m["id"], r)
            checks.append(c)
            lines.append(c.line(f"{names} {r['score_a']} × {r['score_b']}"))
    finally:
        files.close()
    if not checks:
        return True, [_("no result received from the tables")]
    count = {v: sum(1 for c in checks if c.verdict == v)
             for v in (CONFIRMED, UNSIGNED, MISMATCH, MISSING)}
    lines.append(_("{n} result(s): {confirmed} confirmed, {unsigned} unsigned, {mismatch} "
                   "not checking out, {missing} from a table not brought").format(
                       n=len(checks), confirmed=count[CONFIRMED], unsigned=count[UNSIGNED],
                       mismatch=count[MISMATCH], missing=count[MISSING]))
    return all(c.ok for c in checks), lines
