"""``futmesa verify``: the hash chains of an event log, and a JSON súmula against itself and
against the log. Every check says in one line (in the process language) what it found; the
first entry that does not match is named.

The database is opened read-only: checking a file never changes it.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

from futmesa import chain
from futmesa.camera.record import CLIP_KIND, check_clip
from futmesa.i18n import _, json_parser_message, language
from futmesa.matchbook.numbers import numbered
from futmesa.matchbook.signing import signatures


def open_readonly(path: str | Path) -> sqlite3.Connection:
    """The event log, read-only; SystemExit with what to do when it is not one."""
    try:
        db = sqlite3.connect(f"file:{Path(path).resolve()}?mode=ro", uri=True)
        db.execute("SELECT id FROM entries LIMIT 1").fetchall()
    except sqlite3.DatabaseError as exc:
        raise SystemExit(_("error: {path} is not a futmesa database ({problem}); pass the "
                           "file futmesa serve writes, in --db").format(
                               path=path, problem=exc)) from None
    return db


def _check_line(check: chain.ChainCheck) -> str:
    if not check.ok:
        return _("match {match}: does NOT check out — {problem}").format(
            match=check.match_id,
            problem=check.problem_en if language() == "en" else check.problem)
    text = _("match {match}: the chain checks out — {chained} chained entries, final hash "
             "{final}").format(match=check.match_id, chained=check.chained,
                               final=chain.short(check.final_hash) or "—")
    if check.unchained:
        text += _("; {unchained} entries written before the chain existed are not chained "
                  "(no proof, not an error)").format(unchained=check.unchained)
    return text


def verify_db(path: str | Path, match_id: int | None = None) -> tuple[bool, list[str]]:
    """Check every match's chain (or one match's); (all good, one line per match)."""
    db = open_readonly(path)
    try:
        ids = [int(r[0]) for r in db.execute("SELECT id FROM matches ORDER BY id")]
        if match_id is not None:
            if match_id not in ids:
                return False, [_("error: there is no match {match} in {path} (futmesa "
                                 "matches --db F lists the matches)").format(
                                     match=match_id, path=path)]
            ids = [match_id]
        checks = [chain.check_match(db, mid) for mid in ids]
        clips = [_clip_words(path, db, mid) for mid in ids]
    finally:
        db.close()
    if not checks:
        return True, [_("{path}: no match recorded").format(path=path)]
    lines = [_check_line(c) + said for c, (_good, said) in zip(checks, clips, strict=True)]
    return all(c.ok for c in checks) and all(g for g, _s in clips), lines


def _clip_words(path: str | Path, db: sqlite3.Connection, match_id: int) -> tuple[bool, str]:
    """The match's clips (docs/camera.md) against their files beside the log: (all good,
    what to add to the match's line). A clip not on this computer is said, not an error."""
    rows = db.execute("SELECT data FROM entries WHERE match_id=? AND kind=? ORDER BY id",
                      (match_id, CLIP_KIND)).fetchall()
    found = {"ok": 0, "absent": 0}
    for (raw,) in rows:
        try:
            data = json.loads(raw)
        except ValueError:
            continue
        if not isinstance(data, dict) or "sha256" not in data:
            continue  # a clip the camera could not make: the log says why
        seen = check_clip(path, data)
        if seen == "altered":  # the entry it shows as the súmula numbers it, and as stored
            ids = [int(r[0]) for r in db.execute("SELECT id FROM entries WHERE match_id=?",
                                                 (match_id,))]
            shows = data.get("shows")
            return False, _("; the clip of entry no. {number} ({file}; stored id {entry}) does "
                            "NOT match the hash in the log: the file was changed after it was "
                            "recorded").format(number=numbered(ids).get(shows, "?")
                                               if isinstance(shows, int) else "?",
                                               entry=shows, file=data.get("file"))
        found[seen] += 1
    said = ""
    if found["ok"]:
        said += _("; {n} clip(s) checked").format(n=found["ok"])
    if found["absent"]:
        said += _("; {n} clip(s) not on this computer (not checked, not an error)").format(
            n=found["absent"])
    return True, said


def _sumula_problem(exc: Exception) -> str:
    """What is wrong with a file given as a JSON súmula, in the process language (Python's own
    exception text is English)."""
    if isinstance(exc, json.JSONDecodeError):
        return _("invalid JSON at line {line}, column {column}: {problem}").format(
            line=exc.lineno, column=exc.colno, problem=json_parser_message(exc.msg))
    if isinstance(exc, UnicodeDecodeError):
        return _("not UTF-8 text")
    if isinstance(exc, OSError):
        return _("cannot be read: {problem}").format(problem=exc.strerror or exc)
    if isinstance(exc, KeyError):
        return _("the key {key} is missing").format(key=repr(exc.args[0]))
    return _("its parts are not a súmula's")


def _signature_keys(items: list[Any]) -> list[tuple[Any, ...]]:
    return [(s.get("entry"), s.get("role"), s.get("name"), s.get("signs"), bool(s.get("valid")))
            for s in items if isinstance(s, dict)]


def verify_sumula(path: str | Path, db_path: str | Path | None = None) -> tuple[bool, list[str]]:
    """Check a JSON súmula: its entries give its final hash and its signatures; with the
    database, the match stored there is the same match (same hashes, same final hash)."""
    try:
        doc = json.loads(Path(path).read_text(encoding="utf-8"))
        match_id = int(doc["match"]["id"])
        entries = [e for e in doc["entries"] if isinstance(e, dict)]
        claimed = doc.get("chain") or {}
    except (OSError, ValueError, KeyError, TypeError) as exc:
        return False, [_("error: {path} is not a futmesa JSON súmula ({problem}); make it "
                         "with futmesa report MATCH --json F").format(
                             path=path, problem=_sumula_problem(exc))]
    try:
        check = chain.check_record_entries(match_id, entries)
    except (ValueError, TypeError, KeyError) as exc:
        return False, [_("súmula {path}: does NOT check out — an entry cannot be read "
                         "({problem})").format(path=path, problem=exc)]
    if not check.ok:
        return False, [_("súmula {path}: does NOT check out — {problem}").format(
            path=path, problem=check.problem)]
    lines = []
    if check.final_hash != claimed.get("final_hash"):
        return False, [_("súmula {path}: does NOT check out — the printed final hash "
                         "({printed}) is not the entries' one ({computed})").format(
                             path=path,
                             printed=chain.short(str(claimed.get("final_hash") or "")) or "—",
                             computed=chain.short(check.final_hash) or "—")]
    derived = _signature_keys([s.to_dict() for s in signatures(entries)])
    if derived != _signature_keys(doc.get("signatures") or []):
        return False, [_("súmula {path}: does NOT check out — the signatures listed are not "
                         "the entries' ones").format(path=path)]
    lines.append(_("súmula {path}: checks out against itself — {chained} entries, final hash "
                   "{final}, {valid} valid signature(s)").format(
                       path=path, chained=check.chained,
                       final=chain.short(check.final_hash) or "—",
                       valid=sum(1 for s in derived if s[4])))
    if db_path is None:
        return True, lines
    db = open_readonly(db_path)
    try:
        stored = chain.check_match(db, match_id)
    finally:
        db.close()
    if not stored.entries:
        return False, lines + [_("database {db}: there is no match {match}").format(
            db=db_path, match=match_id)]
    if not stored.ok:
        return False, lines + [_("database {db}: {line}").format(
            db=db_path, line=_check_line(stored))]
    numbers = numbered(e["id"] for e in entries if isinstance(e.get("id"), int))
    for eid, (_kind, digest) in check.hashes.items():
        held = stored.hashes.get(eid)
        if held is None or held[1] != digest:  # the match's number, and the stored id
            return False, lines + [_("database {db}: entry no. {number} of the súmula (stored "
                                     "id {entry}) is not the one stored in the database").format(
                                         db=db_path, number=numbers.get(eid, "?"), entry=eid)]
    if stored.final_hash != check.final_hash:
        extra = stored.chained - check.chained
        return False, lines + [_("database {db}: match {match} has {extra} entry(ies) "
                                 "recorded after this súmula (final hash {final}): ask for "
                                 "the new súmula").format(
                                     db=db_path, match=match_id, extra=extra,
                                     final=chain.short(stored.final_hash))]
    return True, lines + [_("database {db}: match {match} is the same as the súmula's "
                            "(final hash {final})").format(
                                db=db_path, match=match_id,
                                final=chain.short(stored.final_hash))]
