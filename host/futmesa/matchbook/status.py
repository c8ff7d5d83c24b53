"""Each log entry's status, read from the engine's own corrections (``state.m["corrections"]``).

The engine resolves voids and amendments (:mod:`futmesa.rules.corrections`) and records,
for each correction, whether it is the one deciding its target now (``in_effect``). This
module only reads that: an entry is *voided* or *amended* by the correction in effect on it,
a correction not in effect (voided itself, or replaced by a later one) is *without effect*,
an answer to a question whose entry is voided is *moot* (the engine refuses to correct it:
rules/corrections.py), and everything else is *effective*. So the súmula, the console and
the score never disagree.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

EFFECTIVE = "effective"
VOIDED = "voided"
AMENDED = "amended"
WITHOUT_EFFECT = "without_effect"
MOOT = "moot"  # an answer whose question's entry was voided (walk #45g G3)


@dataclass(frozen=True)
class EntryStatus:
    state: str = EFFECTIVE
    by: int | None = None  # the correction deciding it
    author: str = ""
    reason: str = ""

    @property
    def counts(self) -> bool:
        """Whether the rules apply this entry (as logged or as amended)."""
        return self.state in (EFFECTIVE, AMENDED)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def entry_statuses(corrections: list[dict[str, Any]]) -> dict[int, EntryStatus]:
    """Entry id -> status, for every entry that is not simply effective."""
    out: dict[int, EntryStatus] = {}
    deciding: dict[int, int] = {}
    for c in corrections:
        if c.get("in_effect") and isinstance(c.get("target"), int):
            deciding[c["target"]] = c["id"]
            out[c["target"]] = EntryStatus(VOIDED if c.get("kind") == "void" else AMENDED,
                                           c["id"], str(c.get("author") or ""),
                                           str(c.get("reason") or ""))
    for c in corrections:
        if not c.get("in_effect") and c["id"] not in out:
            out[c["id"]] = EntryStatus(WITHOUT_EFFECT, deciding.get(c.get("target", -1)))
    return out


def with_moot_answers(statuses: dict[int, EntryStatus],
                      asked: dict[int, int]) -> dict[int, EntryStatus]:
    """``statuses`` with each answer (answer id -> the entry it answers: ``asked``) that still
    counts while its question's entry is voided made *moot*, by the void that took it out."""
    out = dict(statuses)
    for answer, question in asked.items():
        st, q = out.get(answer), out.get(question)
        if (st is None or st.state == EFFECTIVE) and q is not None and q.state == VOIDED:
            out[answer] = EntryStatus(MOOT, q.by, q.author, q.reason)
    return out
