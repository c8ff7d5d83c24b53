"""A scripted match for the demo: the simulated table's sensors and a scripted referee.

The script is written in match time (period, mm:ss); the runner waits for the
device's clock to reach each moment, so it plays the same at any --speed.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from futmesa.hub import RefusedError
from futmesa.i18n import _, language
from futmesa.matchbook.wording import ordinal, ruleset_title, sentence, table_name, team, word
from futmesa.server import Running
from futmesa.sim.referee_moves import back_in_play, lance_towards
from futmesa.sim.referee_moves import shootout_kick as shootout_kick_move
from futmesa.sim.table import SimTable

TEAMS = {"A": {"name": "Estrela do Norte", "color": "#c8102e"},
         "B": {"name": "Botafogo da Mesa", "color": "#1d1d1b"}}


@dataclass(frozen=True)
class Step:
    period: int
    at: str  # mm:ss of match time
    action: str  # "shot", "goal", "out", "palheta"
    side: str = ""  # the side shooting / scoring
    arg: int | str = 0

    @property
    def at_ms(self) -> int:
        mm, ss = self.at.split(":")
        return (int(mm) * 60 + int(ss)) * 1000


SCRIPT: tuple[Step, ...] = (
    Step(1, "02:10", "shot", "A", 9),
    Step(1, "02:20", "goal", "A"),
    Step(1, "06:00", "out", arg=0),
    Step(1, "09:00", "palheta", arg="B"),
    Step(1, "09:05", "palheta", arg="C"),
    Step(1, "11:30", "shot", "B", 10),
    Step(1, "11:40", "goal", "B"),
    Step(1, "17:00", "out", arg=2),
    Step(1, "20:00", "shot", "A", 7),
    Step(1, "20:10", "goal", "A"),
    Step(2, "04:00", "shot", "B", 5),
    Step(2, "04:10", "goal", "B"),
    Step(2, "12:00", "out", arg=4),
    Step(2, "18:30", "shot", "A", 11),
    Step(2, "18:40", "goal", "A"),
)


class DemoError(RuntimeError):
    pass


async def _wait(cond: Callable[[], bool], timeout_s: float, what: str, sim: SimTable,
                meanwhile: Callable[[], Awaitable[None]] | None = None) -> None:
    """Wait for `cond`; `meanwhile` (the scripted referee's part) runs every 50 ms."""
    deadline = time.monotonic() + timeout_s
    helped = 0.0
    while not cond():
        if not sim.alive:
            raise DemoError(_("the simulated firmware stopped:") + "\n" + sim.output_tail())
        if time.monotonic() > deadline:
            raise DemoError(_("waited too long for {what}").format(what=what))
        if meanwhile is not None and time.monotonic() - helped > 0.05:
            helped = time.monotonic()
            await meanwhile()
        await asyncio.sleep(0.003)


FULL_HALF_MS = 25 * 60_000  # the script is written for 25-minute halves
PROGRESS_S = 10.0  # a progress line at least this often (the virtual Pico's demo is long)


def _mmss(ms: float) -> str:
    seconds = max(0, int(ms // 1000))
    return f"{seconds // 60}:{seconds % 60:02d}"


def progress_line(period: int, clock_ms: float | None, period_ms: int, wall_s: float,
                  rate: float, left_s: float) -> str:
    """The demo's progress: the period, the table's clock against the wall clock (an
    emulated board runs far slower than real time), and the time the demo has left."""
    where = (_("period {n}, table clock {clock} of {length}").format(
        n=period, clock=_mmss(clock_ms), length=_mmss(period_ms))
        if clock_ms is not None else _("interval"))
    pace = f"{rate:.2f}"
    if language() != "en":
        pace = pace.replace(".", ",")
    return "  " + _("{where} · real time {wall} (the table clock runs at {pace}× real time) · "
                    "about {left} left").format(where=where, wall=_mmss(wall_s * 1000),
                                                pace=pace, left=_mmss(left_s * 1000))


async def play(running: Running, sim: SimTable, speed: float, say: Callable[[str], None],
               script: tuple[Step, ...] = SCRIPT,
               period_ms: int = FULL_HALF_MS, interval_ms: int = 0,
               progress_s: float = PROGRESS_S) -> dict[str, Any]:
    """Play the scripted match to the final whistle; returns the final state.

    `speed` is how many times faster than real time the table's clock runs (0.05 for
    the virtual Pico, whose emulated clock is slower than real time); with a shorter
    `period_ms` (the settings' half length) the script's moments are scaled to it.
    """
    daemon = running.daemon
    half_s = period_ms / 1000 / max(0.02, speed)
    ref = DemoReferee(daemon, sim, say)

    def at_ms(step: Step) -> int:
        return step.at_ms * period_ms // FULL_HALF_MS

    reporter = asyncio.create_task(_progress(daemon, ref.match, say, period_ms, interval_ms,
                                             progress_s))
    try:
        return await _play(daemon, sim, speed, say, script, period_ms, half_s, at_ms,
                           ref.referee, ref.match, ref.keep_going, ref.give_lance, ref.lang,
                           ref.score_line)
    finally:
        reporter.cancel()


class DemoReferee:
    """The demo's scripted referee: answers the rules' questions, keeps the match moving the
    way each document asks, and says what it does in the process language."""

    def __init__(self, daemon: Any, sim: SimTable, say: Callable[[str], None]) -> None:
        self.daemon = daemon
        self.sim = sim
        self.say = say
        self.pt = language() != "en"
        self.lang = "pt" if self.pt else "en"
        self.moved = 0.0  # when it last put the ball out to end a half

    def match(self) -> dict[str, Any]:
        return self.daemon.state.to_dict() if self.daemon.state is not None else {}

    async def referee(self, kind: str, data: dict[str, Any]) -> None:
        try:
            await asyncio.to_thread(self.daemon.referee, kind, data, "demo-referee")
        except RefusedError as exc:
            what = sentence(kind, data, self.match().get("teams") or TEAMS, self.lang)
            self.say("  " + _("referee: {what} refused ({why})").format(what=what, why=exc))

    def answer_words(self, choice: Any) -> str:
        """The referee's answer as a person says it: a team's name, "sem falta", "aceita"."""
        if choice in ("A", "B"):
            return team(self.match().get("teams") or TEAMS, choice, self.lang)
        if choice is None or choice is True:
            return _("accepted")
        if choice is False:
            return _("refused")
        return word("choice", choice, self.lang)

    def score_line(self) -> str:
        score, teams = self.match().get("score", {}), self.match().get("teams") or TEAMS
        return (f"{team(teams, 'A', self.lang)} {score.get('A', 0)} × {score.get('B', 0)} "
                f"{team(teams, 'B', self.lang)}")

    async def answer_pending(self) -> None:
        """The scripted referee answers every question the rules raised.

        The simulated players make no moves, so the per-move timer runs out
        all the time; the scripted referee lets those go (a warning, not a
        foul) and takes the suggested answer to everything else.
        """
        for question in list(self.match().get("pending", [])):
            accept = question.get("kind") != "lance_timeout"
            choice = question.get("default") if accept else question.get("reject")
            asked = question.get("pt" if self.pt else "en") or question.get("kind")
            self.say("  " + _("referee: {question} → {answer}").format(
                question=asked, answer=self.answer_words(choice)))
            await self.referee("confirm", {"target": question["id"], "accept": accept})

    async def keep_going(self) -> None:
        """The scripted referee keeps the match moving the way each document asks: answers
        the questions, ends a last lance once it is played (001 Art. XXI §1), puts the ball
        out when a half waits for the next dead ball and puts it back in play where the
        clock runs only with the ball in play (004 A partida)."""
        await self.answer_pending()
        m = self.match()
        status = m.get("status")
        if status == "last_lance":
            self.say("  " + _("referee: the last lance was played"))
            await self.referee("lance_done", {})
        elif status == "shootout":
            await self.shootout_kick(m)
        elif status == "awaiting_dead_ball" and time.monotonic() - self.moved > 1.0:
            self.moved = time.monotonic()
            self.sim.ball_out(0)
        elif (move := back_in_play(m)) is not None:
            await self.referee(*move)

    async def shootout_kick(self, m: dict[str, Any]) -> None:
        """A level knockout goes to penalties (003 Art. 28, 004 Disputa de pênaltis): the
        scripted referee enters each kick (referee_moves.shootout_kick)."""
        move = shootout_kick_move(m)
        if move is None:
            return
        kind, data = move
        if kind == "shootout_kick":
            self.say("  " + _("referee: {what}").format(
                what=sentence(kind, data, m.get("teams") or TEAMS, self.lang)))
        await self.referee(kind, data)

    async def give_lance(self, side: str) -> None:
        """Before a scripted shot: the lances that bring the ball to `side`, since only the
        team with the lance asks for a shot (000 Art. 12 §3 A)."""
        for _lance in range(6):
            move = lance_towards(self.match(), side)
            if move is None:
                return
            await self.referee(*move)


async def _progress(daemon: Any, match: Callable[[], dict[str, Any]], say: Callable[[str], None],
                    period_ms: int, interval_ms: int, every_s: float) -> None:
    """Say where the match is every ``every_s`` seconds, with an estimate of the time left
    (the interval counts ``interval_ms``: the scripted referee starts the second half at
    once, so 0 unless a caller's referee waits)."""
    started = time.monotonic()
    while True:
        await asyncio.sleep(every_s)
        wall_s = time.monotonic() - started
        status = daemon.status
        if not daemon.connected or status is None:
            say("  " + _("waiting for the table to start… real time {wall}").format(
                wall=_mmss(wall_s * 1000)))
            continue
        rate = max(daemon.clock_rate(), 1e-3)   # table ms per real ms
        state = match().get("status")
        period = int(status.period or 1)
        if state == "interval":
            clock, left_ms = None, interval_ms + period_ms
        else:
            clock = float(daemon.clock_now_ms())
            left_ms = max(0.0, period_ms - clock) + (interval_ms + period_ms if period < 2 else 0)
        say(progress_line(period, clock, period_ms, wall_s, rate, left_ms / rate / 1000))


async def _play(daemon: Any, sim: SimTable, speed: float, say: Callable[[str], None],
                script: tuple[Step, ...], period_ms: int, half_s: float,
                at_ms: Callable[[Step], int], referee: Any,
                match: Callable[[], dict[str, Any]], keep_going: Any, give_lance: Any,
                lang: str, score_line: Callable[[], str]) -> dict[str, Any]:
    patience = 30 if speed >= 1 else 900  # the virtual Pico boots slowly on a busy machine
    await _wait(lambda: daemon.connected and daemon.match is not None, patience, _("the table"),
                sim)
    say(_("{table} connected; match {id} ({rules})").format(
        table=table_name(daemon.table_id, lang=lang), id=daemon.match["id"],
        rules=ruleset_title(daemon.match["ruleset"])))
    if match().get("status") == "not_started":
        await referee("set_up", {"teams": TEAMS, "kickoff": "A"})
    for period in (1, 2):
        if match().get("finished"):
            break
        if match().get("status") in ("not_started", "interval"):
            await referee("start_period", {})
        # a ball-in-play clock is held until the kick-off is taken (004 A partida): the
        # scripted referee takes it (keep_going), and the clock runs
        await _wait(lambda p=period: daemon.status is not None and daemon.status.period == p
                    and daemon.status.running, patience,
                    _("the {nth} period to start").format(nth=ordinal(period, lang)), sim,
                    keep_going)
        say(_("{nth} period started").format(nth=ordinal(period, lang)))
        for step in (s for s in script if s.period == period):
            await _wait(lambda s=step: daemon.clock_now_ms() >= at_ms(s)
                        or match().get("status") != "running"
                        or not (daemon.status and daemon.status.running),
                        half_s * 2 + 30, _("{time} of the {nth} period").format(
                            time=step.at, nth=ordinal(period, lang)), sim, keep_going)
            if match().get("status") != "running":
                break  # the half is ending: the rest of its script is not played
            await keep_going()
            if step.action == "shot":
                await give_lance(step.side)
            await _do(step, daemon, sim, referee, match)
        await _wait(lambda: match().get("status") in ("interval", "finished")
                    or bool(match().get("finished")), half_s * 2 + 30,
                    _("the end of the {nth} period").format(nth=ordinal(period, lang)), sim,
                    keep_going)
        await keep_going()
        say(_("end of the {nth} period: {score}").format(nth=ordinal(period, lang),
                                                         score=score_line()))
    await _wait(lambda: bool(match().get("finished")), half_s + 30, _("the final whistle"),
                sim, keep_going)
    return daemon.state_json()


async def _do(step: Step, daemon: Any, sim: SimTable, referee: Any,
              match: Callable[[], dict[str, Any]]) -> None:
    if step.action == "shot":
        await referee("shot_asked", {"side": step.side, "disc": int(step.arg)})
    elif step.action == "goal":
        ends = match().get("ends", {"A": 0, "B": 1})
        defender = "B" if step.side == "A" else "A"
        sim.goal(int(ends[defender]))
        await asyncio.sleep(0.05)
    elif step.action == "out":
        sim.ball_out(int(step.arg))
    elif step.action == "palheta":
        sim.palheta(str(step.arg))
