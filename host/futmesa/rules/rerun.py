"""Re-run a stored match under another ruleset and say what would differ.

Used by `futmesa rerun MATCH --ruleset R`. The same log (device events and
referee inputs, corrections resolved) is replayed under both rulesets; the
result is a list of human-readable lines: the final score and result, then
every entry whose meaning differs (what each ruleset announced or asked the
referee to confirm for it).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .engine import Engine
from .model import Entry
from .registry import load_ruleset


def _meanings(state_dict: dict[str, Any]) -> dict[int, list[str]]:
    out: dict[int, list[str]] = {}
    for a in state_dict["announcements"]:
        label = a["code"] + (f" ({a['rule']})" if a.get("rule") else "")
        out.setdefault(a["entry"], []).append(label)
    for p in state_dict["pending"]:
        out.setdefault(p["id"], []).append(f"confirm {p['kind']} ({p['rule']})")
    return out


def _result(d: dict[str, Any]) -> str:
    score = f"{d['score']['A']}–{d['score']['B']}"
    r = d.get("result")
    if not r:
        return f"{score}, {d['status']}"
    winner = r.get("winner") or "draw"
    extra = ""
    if r.get("shootout"):
        extra = f", shootout {r['shootout']['A']}–{r['shootout']['B']}"
    return f"{score}, winner {winner} by {r['reason']}{extra}"


def rerun_diff(
    entries: Iterable[Entry],
    settings: dict[str, Any] | None,
    from_ruleset: str,
    to_ruleset: str,
) -> list[str]:
    """Lines describing how the match would differ under `to_ruleset`; [] if it would not."""
    log = list(entries)
    before, _ = Engine(load_ruleset(from_ruleset), settings).replay(log)
    after, _ = Engine(load_ruleset(to_ruleset), settings).replay(log)
    b, a = before.to_dict(), after.to_dict()
    lines: list[str] = []
    if _result(b) != _result(a):
        lines.append(f"result: {_result(b)} under {from_ruleset}; {_result(a)} under {to_ruleset}")
    for key in ("expelled", "fouls"):
        if b[key] != a[key]:
            lines.append(f"{key}: {b[key]} under {from_ruleset}; {a[key]} under {to_ruleset}")
    mb, ma = _meanings(b), _meanings(a)
    kinds = {e.id: e.kind for e in log}
    for entry_id in sorted(set(mb) | set(ma)):
        x, y = mb.get(entry_id, []), ma.get(entry_id, [])
        if [s.split(" (")[0] for s in x] != [s.split(" (")[0] for s in y]:
            lines.append(
                f"entry {entry_id} ({kinds.get(entry_id, '?')}): "
                f"{from_ruleset}: {', '.join(x) or 'nothing'}; "
                f"{to_ruleset}: {', '.join(y) or 'nothing'}"
            )
    return lines
