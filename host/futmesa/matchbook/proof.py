"""What makes a súmula checkable: the chain's final hash, each entry's hash, the signatures.

:func:`with_chain` adds to a match record (``MatchLibrary.match_record``) the chain as the
store checks it (``record["chain"]``), each entry's ``hash`` / ``prev_hash`` and what else the
hash covers (ticks, device uid / boot id / seq), and the signatures with their status
(``record["signatures"]``). :func:`proof_of` is the súmula's block built from it: the
renderers print it as they print the tables. The verification page's address goes in
``record["verify_url"]`` (the host's own address is known to the web app and the CLI).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from futmesa.i18n import translator
from futmesa.matchbook.numbers import number_of
from futmesa.matchbook.signing import differs, role_label, signatures, signed_result
from futmesa.matchbook.wording import time_of_day, venue_zone
from futmesa.store import EventLog

Record = dict[str, Any]


def with_chain(record: Record, store: EventLog, match_id: int) -> Record:
    """The record with its chain: each entry's hashes, the check, the signatures."""
    check = store.chain_check(match_id)
    rows = store.chain_rows(match_id)
    entries = []
    for e in record.get("entries", []):
        row = rows.get(int(e.get("id") or 0)) or {}
        entries.append({**e, "ticks": row.get("ticks", 0), "device": row.get("device"),
                        "prev_hash": row.get("prev_hash"), "hash": row.get("hash")})
    return {**record, "entries": entries, "chain": check.to_dict(),
            "signatures": [s.to_dict() for s in signatures(entries)]}


@dataclass
class SignatureLine:
    """One signature as the súmula prints it."""

    label: str  # "Árbitro" / "Capitão — Equipe"
    name: str
    when: str
    image: str  # PNG data URL
    valid: bool
    note: str  # "" or why it no longer counts
    signed: str = ""  # "assinou o registro até o hash 3f479c27b495": the hash /assinar showed
    # "" or: the result it attested is not the one this version reads from the same log
    differs: str = ""


@dataclass
class Proof:
    """The súmula's proof block."""

    final_hash: str
    short_hash: str
    chain_ok: bool
    chain_text: str
    signatures: list[SignatureLine] = field(default_factory=list)
    verify_url: str = ""
    # how to check it when no address is known (futmesa report without --verify-url): never
    # a guessed address
    verify_hint: str = ""
    title: str = ""  # the words: proof_of gives them in the record's language
    hash_label: str = ""
    verify_label: str = ""


def proof_of(record: Record, lang: str = "pt") -> Proof | None:
    """The proof block of a record made by :func:`with_chain` (None for a hand-made one)."""
    chain = record.get("chain")
    if not isinstance(chain, dict):
        return None
    pt = lang != "en"
    _ = translator(lang).gettext

    settings = (record.get("match") or {}).get("settings") or {}
    zone = venue_zone(settings.get("timezone") if isinstance(settings, dict) else None)
    teams = ((record.get("state") or {}).get("teams")
             or (record.get("match") or {}).get("teams") or {})
    final = str(chain.get("final_hash") or "")
    if not chain.get("ok", False):
        text = _("The chain does NOT check: {problem}").format(
            problem=chain.get("problem" if pt else "problem_en", ""))
    else:
        text = _("{count} entries chained; the chain checks").format(
            count=chain.get("chained", 0))
        if chain.get("unchained"):
            text += _(" ({count} entries from before the chain, not proven)").format(
                count=chain["unchained"])
    lines = []
    now = (record.get("state") or {}).get("match") or record.get("state") or {}
    for s in record.get("signatures") or []:
        note = ""
        if not s.get("valid", True):
            note = (_("no longer valid: match reopened (entry no. {number})").format(
                number=number_of(s.get("reopened_by"), {
                    e.get("id"): e for e in record.get("entries") or []}))
                + (_(" — reason: {reason}").format(reason=s["reason"]) if s.get("reason") else ""))
        lines.append(SignatureLine(role_label(str(s.get("role", "")), teams, lang),
                                   str(s.get("name", "")),
                                   time_of_day(s.get("at"), zone) if s.get("at") else "",
                                   str(s.get("image", "")), bool(s.get("valid", True)), note,
                                   _("signed the log up to hash {hash}").format(
                                       hash=str(s["signs"])[:12]) if s.get("signs") else "",
                                   _differs(s.get("result"), now, lang)))
    return Proof(final, str(chain.get("short") or final[:12]), bool(chain.get("ok")), text, lines,
                 str(record.get("verify_url") or ""),
                 verify_hint=_("Check it on the host that kept the match: its page "
                               "/verificar/{id}, or futmesa verify {id} --db {db}").format(
                     id=(record.get("match") or {}).get("id"),
                     db=record.get("verify_db") or "futmesa.sqlite")
                 if not record.get("verify_url") else "",
                 title=_("Signatures and verification"),
                 # the signatures are entries of the log too: this hash covers them, each
                 # signature says the hash it signed (the one /assinar showed)
                 hash_label=_("Chain's final hash, with the signatures"),
                 verify_label=_("Check at"))


def _differs(signed: Any, now: dict[str, Any], lang: str) -> str:
    """The warning when the result a signature attested is not the one read now from the same
    log (a later version of the rules reads it otherwise): both scores, never one in silence."""
    if not isinstance(signed, dict) or not differs(signed, now):
        return ""
    was, read = signed["score"], signed_result(now)["score"]
    return translator(lang).gettext(
        "signed with the score {signed}; this version of futmesa reads {now} from the same "
        "log: the rules changed since — the signed result is the one attested").format(
        signed=f"{was.get('A', 0)} × {was.get('B', 0)}", now=f"{read['A']} × {read['B']}")


def result_proof(record: Record) -> dict[str, Any]:
    """What a result sent to the tournament desk carries as its proof (issue 25, item 4): the
    match's final chain hash, whether its chain checks, how many entries it chains (a later
    version of the result chains more), and the referee's valid signature
    entry (as stored, with its hashes) or None — the desk shows that result "sem assinatura".

    ``record`` comes from ``MatchLibrary.match_record`` (:func:`with_chain`). Meant for the
    result message (``venue/outbox.result_of``, before its digest, so that a signature or a
    reopening made after the result was sent changes the digest and the result goes again).
    """
    chain = record.get("chain") or {}
    referee = next((s for s in record.get("signatures") or []
                    if s.get("valid") and s.get("role") == "referee"), None)
    entry = None
    if referee is not None:
        entry = next((e for e in record.get("entries", []) if e.get("id") == referee["entry"]),
                     None)
        if entry is not None:
            entry = {k: entry.get(k) for k in ("id", "kind", "data", "source", "author",
                                                "period", "clock_ms", "ticks", "created_at",
                                                "occurred_at", "prev_hash", "hash")}
    return {"final_hash": str(chain.get("final_hash") or ""), "chain_ok": bool(chain.get("ok")),
            "chained": int(chain.get("chained") or 0), "signed": entry is not None,
            "referee_signature": entry}
