"""What the desk accepts from a table: a result for the match it was given, with a sane score.

A table is trusted for the match the desk assigned to it, and for nothing else. A result
message is refused (with one line saying why, in the process language, for the desk's screen
and log)
when it is not a JSON object of the expected shape, names another table's match, a match
not (or no longer) assigned to that table, a match that already has another result, or
carries a score that is not a small non-negative whole number. A forfeit or
disqualification the result reports is never applied by the desk on its own: it becomes a
referee's report the organiser confirms (``futmesa competition reports``).

A result carries its proof (issue 25): the table match's final chain hash, how many entries
the chain holds and the referee's signature entry, or no signature ("sem assinatura"). The
proof is checked for shape (:func:`parse_proof`: a 64-hex hash, small typed fields, a small
PNG, the signature entry re-hashing to its own hash) and a new version of a result already
stored must be a later one (:func:`check_update`: a longer chain; never one without proof
after one with proof).
"""

from __future__ import annotations

import json
import re
from typing import Any

from futmesa import chain
from futmesa.i18n import _
from futmesa.matchbook.signing import MAX_IMAGE_CHARS, MAX_NAME, image_problem

MAX_GOALS = 99  # no match of futebol de mesa ends with 100 goals to one side
MAX_ID = 2**63 - 1  # the largest SQLite INTEGER
MAX_RESULT_BYTES = 64 * 1024  # a few hundred bytes, and a signature drawing of up to 40 kB
MAX_TEXT = 80
MAX_ENTRIES = 10**7  # entries in one match's chain
_HASH = re.compile(r"[0-9a-f]{64}")
ENTRY_KEYS = {"id", "kind", "data", "source", "author", "period", "clock_ms", "ticks",
              "created_at", "occurred_at", "prev_hash", "hash"}
SIGNATURE_KEYS = {"role", "name", "signs", "image"}
PROOF_KEYS = {"final_hash", "chain_ok", "chained", "signed", "referee_signature"}


class Refused(ValueError):
    """A table's message the desk does not accept; ``str()`` is the reason (in the process
    language: Portuguese by default)."""


def _int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _text(body: dict[str, Any], key: str) -> str:
    value = body.get(key, "")
    if value is None:
        value = ""
    if not isinstance(value, str) or len(value) > MAX_TEXT:
        raise Refused(_('the result\'s "{key}" field is not a short text').format(key=key))
    return value


def parse_result(table: str, payload: bytes) -> dict[str, Any]:
    """The result message a table published on its own result topic, checked for shape."""
    if len(payload) > MAX_RESULT_BYTES:
        raise Refused(_("a {size} kB message: a result, with the signature drawing, is at most "
                        "{limit} kB").format(size=len(payload) // 1024,
                                             limit=MAX_RESULT_BYTES // 1024))
    try:
        body = json.loads(payload)
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise Refused(_("unreadable message (not JSON)")) from None
    if not isinstance(body, dict):
        raise Refused(_("unreadable message (not a JSON object)"))
    uid, digest = body.get("uid"), body.get("digest")
    if not isinstance(uid, str) or not uid.startswith(f"{table}:") or len(uid) > 200:
        raise Refused(_("the result {uid} is not of a match of this table").format(
            uid=repr(str(uid)[:60])))
    if not isinstance(digest, str) or not 1 <= len(digest) <= 64:
        raise Refused(_("result without a digest"))
    cm = body.get("competition_match")
    if cm is not None and not (_int(cm) and 1 <= cm <= MAX_ID):
        raise Refused(_("impossible match number: {number}").format(number=str(cm)[:30]))
    for key in ("score_a", "score_b"):
        goals = body.get(key)
        if not (_int(goals) and 0 <= goals <= MAX_GOALS):
            raise Refused(_("impossible score ({key} = {goals}): goals go from 0 to {most}")
                          .format(key=key, goals=str(goals)[:30], most=MAX_GOALS))
    if body.get("winner") not in (None, "A", "B"):
        raise Refused(_("impossible winner: {winner}").format(
            winner=str(body.get("winner"))[:30]))
    for key in ("reason", "rule"):
        _text(body, key)
    if not isinstance(body.get("detail", {}), dict) or not isinstance(body.get("teams", {}),
                                                                      dict):
        raise Refused(_('the result\'s "detail" and "teams" fields must be objects'))
    if body.get("proof") is not None and body.get("match_id") != _number_of(uid):
        raise Refused(_("the result {uid} says it is of the table's match {match}: that does "
                        "not agree with its name").format(
                            uid=repr(uid[:60]), match=str(body.get("match_id"))[:30]))
    body["proof"] = parse_proof(body.get("proof"), body.get("match_id"))
    if body.get("reason") == "time":
        a, b = body["score_a"], body["score_b"]
        expected = "A" if a > b else "B" if b > a else None
        if body.get("winner") != expected:
            raise Refused(_("inconsistent result: {a} × {b} in time, winner {winner}").format(
                a=a, b=b, winner=body.get("winner")))
    return body


def _number_of(uid: str) -> int | None:
    """The table match a uid ``<table>:<match>`` names."""
    tail = uid.rpartition(":")[2]
    return int(tail) if tail.isascii() and tail.isdigit() and len(tail) < 19 else None


def _hash(value: Any) -> bool:
    return isinstance(value, str) and bool(_HASH.fullmatch(value))


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) \
        and 0 <= value < 1e13


def parse_proof(proof: Any, match_id: Any) -> dict[str, Any] | None:
    """A result's proof, checked for shape; None when the result carries none.

    ``match_id`` is the table's match the result is of: the signature entry must re-hash,
    as that match's entry, to the hash it carries."""
    if proof is None:
        return None
    if not isinstance(proof, dict) or set(proof) - PROOF_KEYS:
        raise Refused(_("the result's proof does not have the expected shape"))
    if not _hash(proof.get("final_hash")):
        raise Refused(_("the result's proof carries a final hash that is not a hash (64 "
                        "hexadecimal digits)"))
    chained = proof.get("chained", 0)
    if not (_int(chained) and 1 <= chained <= MAX_ENTRIES):
        raise Refused(_("the result's proof carries an impossible number of entries: {n}")
                      .format(n=str(chained)[:30]))
    if not isinstance(proof.get("chain_ok"), bool) or not isinstance(proof.get("signed"), bool):
        raise Refused(_('the proof\'s "chain_ok" and "signed" fields must be true or false'))
    entry = proof.get("referee_signature")
    if (entry is None) != (not proof["signed"]):
        raise Refused(_("the result's proof says it is signed, but carries no signature")
                      if proof["signed"] else
                      _("the result's proof carries a signature, but says it is not signed"))
    if entry is not None:
        _check_signature_entry(entry, match_id)
    return proof


def _check_signature_entry(entry: Any, match_id: Any) -> None:
    if not isinstance(entry, dict) or set(entry) != ENTRY_KEYS:
        raise Refused(_("the referee's signature in the proof does not have the shape of an "
                        "entry"))
    data = entry["data"]
    if entry["kind"] != "signature" or not isinstance(data, dict) \
            or set(data) - {"result"} != SIGNATURE_KEYS or data.get("role") != "referee":
        raise Refused(_("the proof's signature entry is not the referee's signature"))
    if "result" in data and not _signed_score(data["result"]):
        raise Refused(_("the score the referee's signature attests is not a score"))
    name = data.get("name")
    if not isinstance(name, str) or not name.strip() or len(name) > MAX_NAME:
        raise Refused(_("the name of who signs the proof must be a text of at most {most} "
                        "letters").format(most=MAX_NAME))
    image = data.get("image")
    if isinstance(image, str) and len(image) > MAX_IMAGE_CHARS:
        raise Refused(_("the signature drawing is {size} kB: the limit is {limit} kB").format(
            size=len(image) // 1000, limit=MAX_IMAGE_CHARS // 1000))
    if image_problem(image) is not None:
        raise Refused(_("the signature drawing is not a valid PNG image"))
    if not _hash(data.get("signs")) or not _hash(entry["hash"]) \
            or not (entry["prev_hash"] == chain.GENESIS or _hash(entry["prev_hash"])):
        raise Refused(_("the proof's signature carries a hash that is not a hash (64 "
                        "hexadecimal digits)"))
    for key in ("id", "period", "clock_ms", "ticks"):
        if not (_int(entry[key]) and 0 <= entry[key] <= MAX_ID):
            raise Refused(_('the "{key}" field of the proof\'s signature is not a whole number')
                          .format(key=key))
    if not _number(entry["created_at"]) or not (entry["occurred_at"] is None
                                                or _number(entry["occurred_at"])):
        raise Refused(_("the proof's signature carries an impossible time"))
    for key in ("source", "author"):
        if not isinstance(entry[key], str) or len(entry[key]) > MAX_TEXT:
            raise Refused(_('the "{key}" field of the proof\'s signature is not a short text')
                          .format(key=key))
    if not (_int(match_id) and 1 <= match_id <= MAX_ID):
        raise Refused(_("a signed result must say which of the table's matches it is"))
    content = chain.content(entry["id"], match_id, entry["source"], "signature", data,
                            entry["period"], entry["clock_ms"], entry["ticks"], entry["author"],
                            entry["created_at"], entry["occurred_at"], None)
    if chain.entry_hash(content, entry["prev_hash"]) != entry["hash"]:
        raise Refused(_("the referee's signature in the proof does not agree with its own "
                        "hash (it was altered)"))


def _signed_score(result: Any) -> bool:
    """The result a signature attests (matchbook/signing.signed_result): {"score": {"A": n,
    "B": n}}, whole numbers a match can reach."""
    if not isinstance(result, dict) or set(result) != {"score"}:
        return False
    score = result["score"]
    return (isinstance(score, dict) and set(score) == {"A", "B"}
            and all(_int(v) and 0 <= v <= MAX_ID for v in score.values()))


def check_update(old: dict[str, Any] | None, new: dict[str, Any]) -> None:
    """Refused unless ``new`` may replace ``old``, the result of the same table match stored
    before (both as received): a later version has a longer chain than the one it replaces."""
    if old is None:
        return
    before, after = old.get("proof"), new.get("proof")
    if not isinstance(before, dict):
        return  # the desk has no proof to compare with (a table from before the chain)
    if not isinstance(after, dict):
        raise Refused(_("the result {uid} already came with proof; a version without proof "
                        "(the chain's hash) does not replace it").format(uid=new["uid"]))
    if after["chained"] < before["chained"]:
        raise Refused(_("old version of the result {uid} ({chained} entries; the desk already "
                        "has the one with {held})").format(
                            uid=new["uid"], chained=after["chained"], held=before["chained"]))
    if after["chained"] == before["chained"]:
        raise Refused(_("the result {uid} changed without any new entry in the table's "
                        "súmula").format(uid=new["uid"]))


def check_assignment(table: str, body: dict[str, Any], match: dict[str, Any]) -> None:
    """Refused unless ``match`` (CompetitionDB.match) may take this table's result now."""
    cm = match["id"]
    if match["table_id"] is None:
        raise Refused(_("match {match} has not been given to any table yet").format(match=cm))
    if match["table_id"] != table:
        raise Refused(_("match {match} was given to table {table}, not to this one").format(
            match=cm, table=match["table_id"]))
    status = match["status"]
    old = match.get("result")
    if status == "assigned":
        return
    if status == "finished" and old and old.get("uid") == body["uid"]:
        return  # the same table match, corrected after its end (a void or amend)
    if status == "finished":
        raise Refused(_("match {match} already has a result (from {uid})").format(
            match=cm, uid=old["uid"] if old else "?"))
    state = {
        "scheduled": _("match {match} has not been given to any table yet"),
        "walkover": _("match {match} was decided by walkover at the desk"),
        "abandoned": _("match {match} was abandoned (the replay counts)"),
    }
    raise Refused(state.get(status, _("match {match}: {status}")).format(
        match=cm, status=status))


def disqualified_side(body: dict[str, Any]) -> str | None:
    """'A'/'B' when the result reports a disqualification (003 Art. 85) of that side."""
    loser = (body.get("detail") or {}).get("loser")
    if body.get("reason") == "forfeit" and "Art. 85" in str(body.get("rule", "")) \
            and loser in ("A", "B"):
        return str(loser)
    return None
