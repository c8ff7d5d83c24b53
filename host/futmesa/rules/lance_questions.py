"""The lance time's question to the referee ("… passou do tempo do lance: falta …?", 000 Art.
26 §1, 001 Art. XXIX e, 003 Art. 71): one open at a time, asked once per lance, withdrawn once
the next lance is played (it is about a lance that is over), and no lance time counted while a
goal question waits for the referee — the lance timer stops then (issue 45 blind walk)."""

from __future__ import annotations

from typing import Any

# entries that play the next lance: the question about the one before no longer applies
LANCE_PLAYED = frozenset({"touch", "lance_started"})


def counts(rules: Any, m: dict[str, Any]) -> bool:
    """Whether a lance timer's expiry counts now: not while a goal question waits."""
    return not rules.goal_pending(m)


def may_ask(m: dict[str, Any], side: str) -> bool:
    """One open question at a time, and one per lance (the device reports each further
    expiry of the same player's lance)."""
    return (not any(p["kind"] == "lance_timeout" for p in m["pending"])
            and m.get("_lance_asked") != side)


def asked(m: dict[str, Any], side: str) -> None:
    m["_lance_asked"] = side


def upkeep(rules: Any, ctx: Any) -> None:
    """After every entry: a lance played withdraws the open question (answered "no" by the
    play going on); a goal question waiting stops the lance timer (the device's)."""
    m = ctx.m
    if ctx.entry.kind in LANCE_PLAYED:
        m.pop("_lance_asked", None)
        m["pending"] = [p for p in m["pending"] if p["kind"] != "lance_timeout"]
    if rules.goal_pending(m):
        if not m.get("_lance_held") and rules.in_play(m):  # (in an interval none runs)
            ctx.device("lance_stop", side=m.get("turn"))
            m["_lance_held"] = True
    else:
        m.pop("_lance_held", None)
