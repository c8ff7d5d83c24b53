"""Signatures on the súmula and the closing of a match, read from the log.

A signature is a referee input (kind ``signature``): the signer's role (``referee``,
``captain_A``, ``captain_B``), name, the chain hash it signs (``signs``: the log as the signer
saw it) and the drawing (a small PNG data URL). Once the referee has signed, the match is
*closed*: every later referee input but a captain's signature is refused until a ``reopen``
entry with a reason; a reopening makes every earlier signature invalid (the súmula shows them
struck, with the reason). All of it is read from the entries, in the order they were stored.
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any

from futmesa.i18n import N_, language, translator

ROLES = ("referee", "captain_A", "captain_B")
# the signer as the súmula names them (the catalog's words)
ROLE_WORDS: dict[str, str] = {"referee": N_("Referee"), "captain_A": N_("Captain"),
                              "captain_B": N_("Captain")}
SIGNING_KINDS = ("signature", "reopen")
PNG_PREFIX = "data:image/png;base64,"
MAX_IMAGE_CHARS = 40_000  # a signature drawn on a phone, scaled down, is a few kB
MAX_NAME = 60
_HASH = re.compile(r"^[0-9a-f]{64}$")


@dataclass(frozen=True)
class Signature:
    entry: int
    role: str
    name: str
    signs: str
    image: str
    at: float
    valid: bool = True
    reopened_by: int | None = None  # the reopening that made it invalid
    reason: str = ""
    result: dict[str, Any] | None = None  # the score the rules read when it was signed

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def _field(e: Any, key: str) -> Any:
    return e.get(key) if isinstance(e, dict) else getattr(e, key, None)


def _at(e: Any) -> float:
    for key in ("occurred_at", "at", "created_at"):
        value = _field(e, key)
        if isinstance(value, int | float):
            return float(value)
    return 0.0


def signatures(entries: list[Any]) -> list[Signature]:
    """Every signature of the log in stored order, each valid or made invalid by a reopening.

    ``entries`` are the match's entries: rules :class:`~futmesa.rules.Entry` objects or the
    record's dicts (``id``, ``kind``, ``data``).
    """
    out: list[Signature] = []
    current: list[int] = []  # indexes in out of the signatures since the last reopening
    for e in sorted(entries, key=lambda e: int(_field(e, "id") or 0)):
        kind = _field(e, "kind")
        data = _field(e, "data")
        data = data if isinstance(data, dict) else {}
        if kind == "signature":
            current.append(len(out))
            result = data.get("result") if isinstance(data.get("result"), dict) else None
            out.append(Signature(int(_field(e, "id") or 0), str(data.get("role", "")),
                                 str(data.get("name", "")), str(data.get("signs", "")),
                                 str(data.get("image", "")), _at(e), result=result))
        elif kind == "reopen":
            for i in current:
                s = out[i]
                out[i] = Signature(s.entry, s.role, s.name, s.signs, s.image, s.at, False,
                                   int(_field(e, "id") or 0), str(data.get("reason", "")),
                                   s.result)
            current = []
    return out


def signed_result(m: dict[str, Any]) -> dict[str, Any]:
    """What a signature stores of the result it attests: the score the rules read from the log
    at that moment. A later version of futmesa that reads the same log otherwise (a rule
    changed) shows both on the súmula instead of silently another result (:func:`differs`)."""
    score = m.get("score") or {}
    return {"score": {side: int(score.get(side) or 0) for side in ("A", "B")}}


def differs(signed: dict[str, Any] | None, m: dict[str, Any]) -> bool:
    """Whether the score read now is not the one a signature attested (None: not stored —
    a signature made before signatures kept it)."""
    if not signed or not isinstance(signed.get("score"), dict):
        return False
    return signed_result(m)["score"] != signed["score"]


def closed(entries: list[Any]) -> bool:
    """Whether the referee's signature (still valid) has closed the match."""
    return any(s.valid and s.role == "referee" for s in signatures(entries))


def over(finished: Any, ended_at: Any) -> bool:
    """An earlier match of the table is signed once it is over: the rules ended it, or a new
    match replaced it (its súmula says it stopped before the end; the signature attests that
    record) — walk 45g G8."""
    return bool(finished) or ended_at is not None


def role_label(role: str, teams: dict[str, Any] | None = None, lang: str = "pt") -> str:
    """"Árbitro" / "Capitão — Equipe" as the súmula names a signer."""
    label = translator(lang).gettext(ROLE_WORDS[role]) if role in ROLE_WORDS else role
    if role.startswith("captain_"):
        side = role[-1]
        team = (teams or {}).get(side) or {}
        name = team.get("name") if isinstance(team, dict) else None
        label += f" — {name or side}"
    return label


def image_problem(image: Any, lang: str | None = None) -> str | None:
    """Why a signature drawing is refused (in ``lang``; None: the process language), or None:
    a PNG data URL, small."""
    t = translator(lang)
    if not isinstance(image, str) or not image.startswith(PNG_PREFIX):
        return t.gettext("The signature must be a PNG drawing")
    if len(image) > MAX_IMAGE_CHARS:
        return t.gettext("Drawing too large ({size} kB; at most {most} kB): clear and sign "
                         "again").format(size=len(image) // 1000, most=MAX_IMAGE_CHARS // 1000)
    try:
        raw = base64.b64decode(image[len(PNG_PREFIX):], validate=True)
    except (binascii.Error, ValueError):
        raw = b""
    if not raw.startswith(b"\x89PNG\r\n\x1a\n"):
        return t.gettext("The drawing is not a valid PNG: sign again")
    return None


def signable_hashes(rows: list[dict[str, Any]]) -> set[str]:
    """The chain hashes a signature made now may sign: the newest entry's, and any followed
    only by device or system entries (the table may still send events after the whistle).

    ``rows`` are the match's chain rows in stored order (``source``, ``hash``).
    """
    out: set[str] = set()
    for row in reversed(rows):
        if row.get("hash"):
            out.add(str(row["hash"]))
        if row.get("source") not in ("device", "system"):
            break
    return out


def refusal(kind: str, data: dict[str, Any], log: list[Any], *, finished: Callable[[], bool],
            signable: Callable[[], set[str]], lang: str | None = None) -> str | None:
    """Why a referee input is refused by the closing of the match (in ``lang``; None: the
    process language), or None.

    ``log`` is the match's entries; ``signable()`` the chain hashes a signature made now may
    sign (the newest, and those followed only by device events); ``finished()``: whether the
    rules ended the match (both asked only for a signature).
    """
    if kind not in SIGNING_KINDS and not any(_field(e, "kind") == "signature" for e in log):
        return None  # nothing signed yet: the usual case during a match, one pass
    t = translator(lang)
    sigs = signatures(log)
    is_closed = any(s.valid and s.role == "referee" for s in sigs)
    if kind == "signature":
        if not finished():
            return t.gettext("The match is not over: sign after the final whistle")
        role = data.get("role")
        if role not in ROLES:
            return t.gettext("Say who signs: the referee or a team's captain")
        name = data.get("name")
        if not isinstance(name, str) or not name.strip() or len(name) > MAX_NAME:
            return t.gettext("Write the signer's name (at most {most} characters)").format(
                most=MAX_NAME)
        if any(s.valid and s.role == role for s in sigs):
            return t.gettext("{who} has already signed this report").format(
                who=role_label(str(role), lang=lang or language()))
        problem = image_problem(data.get("image"), lang)
        if problem:
            return problem
        signs = data.get("signs")
        if not isinstance(signs, str) or not _HASH.match(signs) or signs not in signable():
            return t.gettext("The report changed since it was opened: check the summary again "
                             "and sign")
        return None
    if kind == "reopen":
        if not is_closed:
            return t.gettext("The match is not closed by the referee's signature: nothing to "
                             "reopen")
        reason = data.get("reason")
        if not isinstance(reason, str) or not reason.strip():
            return t.gettext("Say why the match is reopened")
        return None
    if kind in ("void", "amend"):
        target = data.get("target")
        if any(_field(e, "id") == target and _field(e, "kind") in SIGNING_KINDS for e in log):
            return t.gettext("A signature or a reopening cannot be corrected: reopen the match")
    if is_closed:
        return t.gettext("Report signed by the referee: the match is closed. To correct it, "
                         "reopen it first (Reopen, with the reason); the signatures stop being "
                         "valid")
    return None
