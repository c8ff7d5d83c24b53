"""The lance time's question to the referee ("… passou do tempo do lance: falta …?", 000 Art.
26 §1, 001 Art. XXIX e, 003 Art. 71): one open at a time, asked once per lance, withdrawn once
the next lance is played (it is about a lance that is over) — never silently: the entry that
withdrew it says so ("Pergunta encerrada sem resposta: … sem falta", `closed`; walk48b M1: a
foul's kick started the next lance and the question vanished) —, and no lance time counted while a
goal question waits for the referee — the lance timer stops then (issue 45 blind walk) — nor
between a goal and its kick-off: the teams re-arrange then ("A arrumação das equipes só se dará
… da consumação de gol", 000 Art. 6; 003 Art. 70; 004 "quem sofreu recomeça o jogo"), which is
no lance, and the lance time runs again from the kick-off taken, the first lance ("demorar mais
de quinze segundos para efetuar um lance", 001 Art. XXIX e; 000 Art. 8 §3; 003 Art. 71): the
device's timer is stopped at the goal, a lance it starts meanwhile (the palheta) is stopped
again, its expiries count for nothing, and a correction that brings the waiting kick-off back
stops it too (rules/resync.py; walk45h-a A1, A2, A6). A new vez starts a new lance:
whenever an entry passes the turn (a shot saved, a ball handed over) the device's lance timer
restarts for the side whose turn it now is (000 Art. 8 §3, 001 Art. XXIX e, 003 Art. 70),
whether or not the rule that passed it said so. At full time the open
question goes with the match: no lance is counted then, and its answer could no longer
sanction anything (walk #45 M5). Nor while the referee has play stopped (his pause, from his
tap on: `referee_stopped`): that time is his, not the técnico's delay in playing ("demorar
mais de quinze segundos para efetuar um lance", 001 Art. XXIX e; "Não haverá falta com o
'relógio parado'", 003 Art. 74 e) — the device's lance waits with its stopped clock
(firmware/lance.py), and an expiry it reported before it took the pause is no foul either
(issue 45: a lance run out while the referee corrected the Registro became a foul)."""

from __future__ import annotations

from typing import Any

from futmesa.i18n import N_

# entries that play the next lance: the question about the one before no longer applies
LANCE_PLAYED = frozenset({"touch", "lance_started"})
# the announcement that a lance question was withdrawn unanswered (`closed`)
QUESTION_CLOSED = "lance_question_closed"


def counts(rules: Any, m: dict[str, Any]) -> bool:
    """Whether a lance timer's expiry counts now: not while it is held (`held`) nor while the
    referee has play stopped (`referee_stopped`)."""
    return not held(rules, m) and not referee_stopped(m)


def referee_stopped(m: dict[str, Any]) -> bool:
    """The referee stopped play: from his pause (the device confirms it with its clock
    stopped) until the clock runs again (timekeeping: on_pause, on_clock_started)."""
    return bool(m.get("_referee_stop"))


def held(rules: Any, m: dict[str, Any]) -> bool:
    """No lance is being played: a goal question waits, or the kick-off after a goal does."""
    return bool(rules.goal_pending(m) or (rules.lance_ms and kickoff_waits(m)))


def kickoff_waits(m: dict[str, Any]) -> bool:
    """A goal of this period was scored and its kick-off is not yet taken (nor tried: a
    missed or failed attempt was a lance, 003 Art. 33, 001 Art. XXIX c)."""
    r = m.get("restart")
    goals = m.get("goals") or []
    return bool(r and r["kind"] == "saida" and not r["taken"] and not r.get("missed")
                and not r.get("failed") and goals and goals[-1].get("period") == m.get("period"))


def may_ask(m: dict[str, Any], side: str) -> bool:
    """One open question at a time, and one per lance (the device reports each further
    expiry of the same player's lance)."""
    return (not any(p["kind"] == "lance_timeout" for p in m["pending"])
            and m.get("_lance_asked") != side)


def asked(m: dict[str, Any], side: str) -> None:
    m["_lance_asked"] = side


def upkeep(rules: Any, ctx: Any, turn_before: str | None = None) -> None:
    """After every entry: a lance played or the match over withdraws the open question
    (answered "no" by the play going on, or moot); a goal question or a kick-off after a goal
    waiting stops the lance timer (the device's) and no rule restarts it then — a lance the
    device started by itself meanwhile (the palheta) is stopped again; a turn that passed
    (`turn_before`: whose it was before the entry) restarts it."""
    m = ctx.m
    if ctx.entry.kind in LANCE_PLAYED or m.get("finished"):
        m.pop("_lance_asked", None)
        for p in [p for p in m["pending"] if p["kind"] == "lance_timeout"]:
            m["pending"].remove(p)
            closed(rules, ctx, p)
    if held(rules, m):
        if rules.in_play(m):  # (in an interval none runs)
            ctx.effects[:] = [fx for fx in ctx.effects if not (
                fx.kind == "device" and fx.data.get("cmd") == "lance_restart")]
            if not m.get("_lance_held") or ctx.entry.kind == "lance_started":
                ctx.device("lance_stop", side=m.get("turn"))
            m["_lance_held"] = True
    else:
        m.pop("_lance_held", None)
        _new_vez(rules, ctx, turn_before)


def closed(rules: Any, ctx: Any, question: dict[str, Any]) -> None:
    """The question withdrawn unanswered is said, with why, on the entry that withdrew it (the
    Registro and the súmula show it: walk48b M1, a question that vanished when a foul's kick
    started the next lance): no foul for that delay (000 Art. 26 §1 A, 001 Art. XXIX e, 003
    Art. 71)."""
    side = question.get("side")
    team = ctx.name(side) if side in ("A", "B") else "?"
    if ctx.m.get("finished"):
        msgid = N_("Question closed unanswered: {team} went over the lance time — the match "
                   "is over; no foul")
    else:
        msgid = N_("Question closed unanswered: {team} went over the lance time — the next "
                   "lance has started; no foul")
    ctx.announce(QUESTION_CLOSED, msgid, rules.cite("lance_time"), team=team)


def _new_vez(rules: Any, ctx: Any, turn_before: str | None) -> None:
    """The turn passed from one side to the other and the ball is in play: the new vez's lance
    on the device, unless the entry's rule already restarted it for that side."""
    m = ctx.m
    turn = m.get("turn")
    if (not rules.lance_ms or not turn or not turn_before or turn == turn_before
            or not rules.in_play(m)):
        return
    if any(fx.kind == "device" and fx.data.get("cmd") == "lance_restart"
           and fx.data.get("side") == turn for fx in ctx.effects):
        return
    ctx.device("lance_restart", side=turn)
