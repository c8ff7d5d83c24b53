"""Time: starting periods, added time, the alarm and the end of a period (with the
last lance a ruleset may still allow), change of ends, and the result when time
is over (extra time, shootout, advantage or the final whistle).
"""

from __future__ import annotations

import copy
from typing import Any

from futmesa.i18n import N_

from . import lance_questions
from . import shootout as so
from .context import SIDES, Ctx, Refused, other
from .core import MINUTE, REOPEN_KEYS, RulesCore, same_instant
from .model import Entry
from .possession import lance_side
from .settings import BadSettings, check_settings

# the device's events stamped with its match clock (firmware/app.py emit: the period's clock
# when it happened); not `lost` (its clock field is a sequence number), `boot`, `profile_set`,
# nor the host's own `gap`
CLOCK_STAMPED = frozenset({
    "clock_started", "clock_stopped", "clock_adjusted", "period_started", "period_over",
    "time_added", "time_up", "alarm", "goal_line", "ball_out", "palheta", "button",
    "lance_started", "lance_expired",
})
# the device's clock_stopped reason for a pause (matchbook/entries.py CLOCK_STOPPED_REASONS)
_PAUSED = 0


def note_clock(m: dict[str, Any], entry: Entry) -> None:
    """The match clock's value as the log says it (`clock_ms`): the device keeps the clock
    and stamps each of its events with it — in 004 it runs only while the ball rolls ("A
    partida": "um relógio que só corre com a bola rolando"), stopped and started again by the
    device (clock_stopped / clock_started) —, so the state reads it from the newest such
    event, one place for every ruleset; a referee input carries only the host's estimate."""
    if entry.source == "device" and entry.kind in CLOCK_STAMPED:
        m["clock_ms"] = entry.clock_ms


class TimeRules(RulesCore):
    """Periods, the alarm, the end of a period and the result."""

    def on_set_up(self, ctx: Ctx) -> None:
        m, d = ctx.m, ctx.entry.data
        if m["status"] != "not_started":
            raise Refused(N_("Only before the match starts"))
        try:
            check_settings({"teams": d.get("teams"), "kickoff": d.get("kickoff")})
        except BadSettings as bad:
            raise Refused(bad.msgid, **bad.values) from None
        teams = d.get("teams") or {}
        for side in SIDES:
            team = teams.get(side) or {}
            for key in ("name", "color"):
                if isinstance(team.get(key), str) and team[key]:
                    m["teams"][side][key] = team[key]
        if d.get("kickoff") in SIDES:
            self.refuse_if_drawn(ctx, d["kickoff"])
            m["kickoff"] = {**m["kickoff"], "first": d["kickoff"], "next": d["kickoff"]}
        ctx.announce("set_up", N_("Teams set up"))

    def on_kickoff(self, ctx: Ctx) -> None:
        """The draw (or the referee) says who kicks off next."""
        side = ctx.side()
        m = ctx.m
        m["pending"] = [p for p in m["pending"] if p["kind"] != "extra_time_kickoff"]  # answered
        asked = next((p for p in m["pending"] if p["kind"] == "kickoff_side"), None)
        if asked is not None:
            # the referee answers who kicks off after the goal (goals.ask_kickoff_side)
            m["pending"].remove(asked)
            self.resolve_kickoff_side(ctx, asked, side)
            return
        if m["status"] == "not_started":
            self.refuse_if_drawn(ctx, side)
            m["kickoff"]["first"] = side
        m["kickoff"]["next"] = side
        ctx.announce("kickoff_side", N_("Kick-off: {team}"), self.cite("draw"), team=ctx.name(side))

    def refuse_if_drawn(self, ctx: Ctx, side: str) -> None:
        """The draw's entry decided the kick-off: another entry may not rewrite it (the draw's
        entry is corrected instead), e.g. 003 Art. 30 §1."""
        kickoff = ctx.m["kickoff"]
        if kickoff.get("draw") and side != kickoff["first"]:
            raise Refused(
                N_("The draw already gave the kick-off to {team}: to change it, correct the "
                   "draw's entry"),
                team=ctx.name(kickoff['first']), rule=self.cite("draw_choice") or self.cite("draw"),
            )

    def on_ends(self, ctx: Ctx) -> None:
        """The referee states which goal line side A defends now."""
        goal = ctx.entry.data.get("A")
        if goal not in (0, 1):
            raise Refused(N_("'A' must be 0 or 1"))
        ctx.m["ends"] = {"A": goal, "B": 1 - goal}

    def on_start_period(self, ctx: Ctx) -> None:
        m = ctx.m
        self.refuse_if_finished(ctx)
        if m["status"] == "not_started":
            ctx.device("start", profile=m["clock_profile"])
        elif m["status"] == "interval" and not m["decision_pending"]:
            ctx.device("new_period", period=m["period"] + 1, length_ms=self.next_length(m))
        else:
            raise Refused(N_("There is no period to start now"))
        if self.clock_mode == "ball-in-play" and m["phase"] != "shootout":
            # the period starts with its kick-off not taken: a ball-in-play clock stands still
            # until it is, as after a goal (004 A partida "num relógio que só corre com a bola
            # rolando"; walk49a M1: it ran 3–5 s before the kick-off). The device starts the
            # period and, on the next command, holds its clock — its own dead ball, the
            # firmware unchanged; the kick-off's touch (the console's "Cobrança dada") runs it
            ctx.device("dead_ball")
            m["_held_start"] = True

    def next_length(self, m: dict[str, Any]) -> int:
        profile = m["clock_profile"]
        return int(profile["extra_ms"] if m["phase"] == "extra" else profile["period_ms"])

    def on_clock_started(self, ctx: Ctx) -> None:
        m = ctx.m
        m["clock_running"] = True
        m.pop("_referee_stop", None)  # play runs again (lance_questions.referee_stopped)
        if m["finished"] or m["phase"] == "shootout":
            return
        if m["status"] == "interval" and m["decision_pending"]:
            return
        if m["status"] in ("not_started", "interval"):
            if m["status"] == "interval":
                m["period"] += 1
            m.update(status="running", time_up=False, alarm_at=None, added_ms=0, last_lance=None)
            m.pop("_reopen", None)
            side = m["kickoff"]["next"]
            self.start_from_kickoff(ctx, side)
            ctx.announce(
                "period_start",
                N_("Period {period} starts"),
                self.cite("duration"),
                period=m["period"],
            )
            if m.pop("_held_start", False):
                # the device holds the clock it started (on_start_period): the kick-off's touch
                # runs it (ball_rolls)
                m["clock_running"] = False

    def start_from_kickoff(self, ctx: Ctx, side: str) -> None:
        m = ctx.m
        m["shot_asked"] = None
        m["last_touch"] = None
        # the lance at a kick-off is the kicking team's ("dar a saída de jogo", 001 Art. XXIX
        # c; 000 Art. 6 §1; 003 Art. 33; 004 Saída de bola): who played before the period's
        # start or the goal is no lance now — a ball in the goal before the kick-off is
        # entered is read from the kicker's lance (goals.no_shot_answers; walk46a M3), and
        # where that lance was played from is not known yet (gaucha played_from_attack)
        m["last_player"] = side
        m.pop("played_from_attack", None)
        m.pop("_shot_out", None)
        for s in SIDES:
            self.reset_touches(m, s)
        m["restart"] = {"kind": "saida", "side": side, "rule": self.cite("kickoff"), "taken": False,
                        "spot": "centre"}
        m["turn"] = side
        m["kickoff_touches"] = 0

    def ask_kickoff_side(self, ctx: Ctx, conceding: str) -> None:
        """The document does not say who kicks off after a goal (000 Art. 6 §1 and 9, 001,
        003 Art. 30–31 only say how the teams line up): the referee is asked, the conceding
        side's kick-off standing until he answers (a `kickoff` entry or the question's answer;
        that kick-off taken answers it too)."""
        self.ask_who_kicks_off(ctx, "kickoff_side", conceding)

    def resolve_kickoff_side(self, ctx: Ctx, pending: dict[str, Any], choice: str) -> None:
        m = ctx.m
        r = m["restart"]
        if not r or r["kind"] != "saida" or r["taken"] or r["side"] == choice:
            return  # the kick-off already stands with that side (or was taken)
        m["kickoff"]["next"] = choice
        self.start_from_kickoff(ctx, choice)
        m["restart"]["after_goal"] = True  # still the kick-off after the goal (gaucha.time_up)
        ctx.announce("kickoff_side", N_("Kick-off: {team}"), self.cite("after_goal"),
                     team=ctx.name(choice))  # (its lance timer waits for it: lance_questions)

    def ask_extra_kickoff(self, ctx: Ctx, proposed: str) -> None:
        """Who kicks off extra time: no document says (003 Art. 28 neither) and the organiser's
        setting `extra_kickoff` was not given: the referee is asked before the period starts
        (a `kickoff` entry answers too); the proposal stands until he answers."""
        self.ask_who_kicks_off(ctx, "extra_time_kickoff", proposed)

    def ask_who_kicks_off(self, ctx: Ctx, kind: str, proposed: str) -> None:
        """The question no document answers (after a goal, before extra time): A or B, the
        `proposed` side standing until he answers."""
        after_goal = kind == "kickoff_side"
        question = (N_("Who kicks off after the goal? The rules do not say: {team} unless you "
                       "choose otherwise") if after_goal else
                    N_("Who kicks off extra time? The rules do not say: {team} unless you choose "
                       "otherwise"))
        ctx.confirm(kind, self.cite("after_goal" if after_goal else "tie_break"), question,
                    ["A", "B"], default=proposed, reject=other(proposed),
                    values={"team": ctx.name(proposed)})

    def resolve_extra_time_kickoff(self, ctx: Ctx, pending: dict[str, Any], choice: str) -> None:
        m = ctx.m
        if m["status"] == "interval" and m["phase"] == "extra":
            m["kickoff"]["next"] = choice
            ctx.announce("kickoff_side", N_("Kick-off: {team}"), self.cite("tie_break"),
                         team=ctx.name(choice))

    def on_clock_stopped(self, ctx: Ctx) -> None:
        ctx.m["clock_running"] = False
        if ctx.entry.data.get("reason") == _PAUSED and self.in_play(ctx.m):
            ctx.m["_referee_stop"] = True  # the device's pause (lance_questions.referee_stopped)

    def on_pause(self, ctx: Ctx) -> None:
        """The referee stops the clock (an incident at the table); the device confirms it."""
        m = ctx.m
        self.refuse_if_finished(ctx)
        if not m["clock_running"] or m["status"] in ("not_started", "interval"):
            raise Refused(N_("The clock is not running"))
        ctx.device("pause", reason="referee")
        m["_referee_stop"] = True  # from his tap on, no lance time counts (lance_questions)
        ctx.announce("paused", N_("Clock stopped by the referee"))

    def on_resume(self, ctx: Ctx) -> None:
        """The referee restarts a clock he stopped."""
        m = ctx.m
        self.refuse_if_finished(ctx)
        if m["clock_running"] or m["status"] in ("not_started", "interval"):
            raise Refused(N_("The clock is not stopped"))
        ctx.device("resume", reason="referee")
        side = lance_side(m)
        if (self.lance_fresh_after_stop and self.lance_ms and side
                and lance_questions.referee_stopped(m) and not lance_questions.held(self, m)):
            # the lance on when he stopped play counts afresh (lance_fresh_after_stop)
            ctx.device("lance_restart", side=side)
        ctx.announce("resumed", N_("Clock resumed"))

    def on_clock_restored(self, ctx: Ctx) -> None:
        """A table reset mid-period (a power cut) came back with its clock but no lance: the
        lance of the team that has it counts again, afresh — what was left of it died with the
        table (walk50c M3: in the Gaúcha passing 15 s is the falta técnica, 001 Art. XXIX e,
        and a lance not counted would stop that rule silently). Not while no lance is being
        played (`lance_questions.held`: upkeep stops it; a kick-off not yet taken: the lance
        starts with it) nor while a question waits: its answer says the next lance."""
        m = ctx.m
        side = lance_side(m)
        r = m.get("restart")
        kickoff = bool(r and r["kind"] == "saida" and not r["taken"])
        if self.lance_ms and side and not kickoff and not m["pending"] \
                and not lance_questions.held(self, m):
            ctx.device("lance_restart", side=side)

    def on_added_time(self, ctx: Ctx) -> None:
        m = ctx.m
        ms = ctx.entry.data.get("ms")
        if not isinstance(ms, int) or isinstance(ms, bool) or ms <= 0 or ms > 30 * MINUTE:
            raise Refused(N_("'ms' must be a positive duration"))
        if m["status"] != "running" or m["time_up"]:
            raise Refused(
                N_("Added time must be announced before time is up"),
                rule=self.cite("added_time"),
            )
        m["added_ms"] += ms
        ctx.device("add_time", ms=ms)
        ctx.announce(
            "added_time",
            N_("{seconds} s added"),
            self.cite("added_time"),
            seconds=ms // 1000,
        )

    def on_clock_catch_up(self, ctx: Ctx) -> None:
        """The table lost power and play went on: its clock, restored from its last saved
        point, did not count that time, so the referee has it advanced by it — the period
        then ends when its time is played (the duration article), where added time would
        lengthen it a second time (walk47b M2). Only while the period's clock runs. No rule
        document has a power cut: the duration article is cited where the document has one,
        none in the Gaúcha excerpt (its "end", XXI §1, is the last lance: walk50c L1)."""
        m = ctx.m
        ms = ctx.entry.data.get("ms")
        if not isinstance(ms, int) or isinstance(ms, bool) or ms <= 0 or ms > 30 * MINUTE:
            raise Refused(N_("'ms' must be a positive duration"))
        if m["status"] != "running" or m["time_up"] or not m["clock_running"]:
            raise Refused(N_("The clock is advanced only while the period is being played"),
                          rule=self.cite("duration"))
        ctx.device("adjust", ms=ms)
        ctx.announce("clock_caught_up",
                     N_("Clock advanced {seconds} s: play went on while the table was off"),
                     self.cite("duration"), seconds=ms // 1000)

    def on_clock_kept(self, ctx: Ctx) -> None:
        """The table lost power and play stopped meanwhile: the referee keeps its clock as
        restored — the power cut's "Não", stored like its "Sim" so the súmula tells it from no
        answer (walk50b M2). Nothing changes; the host takes it only while its question is
        open (table/referee.py)."""
        ms = ctx.entry.data.get("ms")
        if not isinstance(ms, int) or isinstance(ms, bool) or ms < 0 or ms > 30 * MINUTE:
            raise Refused(N_("'ms' must be a positive duration"))
        self.refuse_if_finished(ctx)

    # ======================================================================================
    # the end of a period
    # ======================================================================================
    def on_alarm(self, ctx: Ctx) -> None:
        m = ctx.m
        if m["status"] not in ("running",) or m["time_up"]:
            return
        m["time_up"] = True
        m["alarm_at"] = ctx.instant()
        self.check_shot_at_alarm(ctx)
        # asked first, so the result waits for the answer if this ends the match
        self.check_goal_at_alarm(ctx)
        self.time_up(ctx)

    def check_shot_at_alarm(self, ctx: Ctx) -> None:
        """A shot asked at the same instant as the alarm is not taken, whichever reached
        the log first (003 Art. 29 "quem pedir ao mesmo tempo"; 000 Art. 12 §6)."""
        m = ctx.m
        shot = m["shot_asked"]
        if not shot or not self.shot_needs_before_alarm:
            return
        if not same_instant(shot.get("at"), m["alarm_at"]):
            return
        m["shot_asked"] = None
        ctx.announce(
            "shot_at_alarm",
            N_("{team}'s shot asked at the same instant as the alarm: no shot"),
            self.cite("shot_before_alarm"),
            team=ctx.name(shot["side"]),
        )

    def on_time_up(self, ctx: Ctx) -> None:
        """The device's "time is up" (next-dead-ball mode) means what the alarm means."""
        self.on_alarm(ctx)

    def on_period_over(self, ctx: Ctx) -> None:
        m = ctx.m
        m["clock_running"] = False
        if m["status"] == "running" and not m["time_up"]:
            self.on_alarm(ctx)
        if m["status"] in ("running", "awaiting_dead_ball"):
            # the device ended the period: at the alarm, or at a dead ball it saw itself
            # (its sensor event, already applied, comes before its period_over)
            self.end_period(ctx, self.cite("end"))

    def on_period_closed(self, ctx: Ctx) -> None:
        """A correction made once the match had closed the period (closings.py, walk46a H1):
        a last lance the recomputed match would still have open in it was never played — the
        period ends here, as it had ended then (001 Art. XXI §1, 000 Art. 8 §10, 003 Art. 74
        §único, 004 A partida: the lance after the signal is the last)."""
        m = ctx.m
        if m["period"] == ctx.entry.data.get("period") and m["status"] in (
                "last_lance", "awaiting_dead_ball"):
            self.dead_ball(ctx)
            self.end_period(ctx, self.cite("end"))

    def time_up(self, ctx: Ctx) -> None:
        """Time is up: a shot asked before the alarm or a pending infraction is
        still taken as the last lance; otherwise the period ends now."""
        m = ctx.m
        shot = m["shot_asked"]
        restart = m["restart"]
        if shot:
            self.begin_last_lance(ctx, shot["side"], "shot", self.cite("shot_before_alarm"))
        elif restart and not restart["taken"] and restart.get("infraction"):
            if self.infraction_survives_alarm(restart, m["alarm_at"]):
                self.begin_last_lance(ctx, restart["side"], "infraction",
                                      self.cite("infraction_alarm"))
            else:
                self.end_period(ctx, self.cite("infraction_lost") or self.cite("end"))
        else:
            self.end_period(ctx, self.cite("end"))

    def infraction_survives_alarm(self, restart: dict[str, Any], alarm_at: int | None) -> bool:
        """Whether an infraction's kick not yet taken at the alarm is still taken: the
        document's reading (`pending_infraction_at_alarm`; 000 Art. 8 §10 and 18 §4: only at
        the alarm's own instant; 003 Art. 74 §único: any called before it)."""
        if self.pending_infraction_at_alarm != "same_instant":
            return True
        called = restart.get("called_at")
        return called is None or same_instant(called, alarm_at)

    def last_lance_played(self, ctx: Ctx, side: str) -> None:
        """A lance of the last lance was played: once its lances are used the period ends
        (001 Art. XXI §1 "este lance que será o último"; 003 Art. 74 §único a–b "a cobrança
        será feita e o jogo encerrado"). A shot asked in it ends with its result instead."""
        m = ctx.m
        last = m.get("last_lance")
        if m["status"] != "last_lance" or not last or last.get("side") != side \
                or last.get("reason") == "shot" or m["shot_asked"]:
            return
        r = m["restart"]
        lances = 1
        if last.get("reason") == "infraction" and r and r["side"] == side:
            lances = r.get("lances") or self.last_lance_kick_lances.get(r["kind"], 1)
        last["played"] = last.get("played", 0) + 1
        if last["played"] < lances:
            return  # the kick's next lance is still his (a pass, then the shot)
        self.end_last_lance(ctx)

    def begin_last_lance(self, ctx: Ctx, side: str | None, reason: str, rule: str) -> None:
        m = ctx.m
        m["status"] = "last_lance"
        m["last_lance"] = {"side": side, "reason": reason, "rule": rule}
        if side:
            ctx.announce("last_lance", N_("Time is up: last lance for {team}"), rule,
                         team=ctx.name(side))
        else:
            ctx.announce("last_lance", N_("Time is up: last lance for the player on turn"), rule)

    def end_last_lance(self, ctx: Ctx) -> None:
        if ctx.m["status"] == "last_lance":
            self.end_period(ctx, ctx.m["last_lance"]["rule"] if ctx.m["last_lance"] else "")

    def check_goal_at_alarm(self, ctx: Ctx) -> None:
        """A goal counted within the same instant as the alarm is raised to the referee."""
        m = ctx.m
        if m["shot_asked"] or not m["goals"]:
            return  # a shot asked before the alarm is played out: its goal is not in doubt
        goal = m["goals"][-1]
        if goal["period"] != m["period"] or goal.get("at") is None:
            return
        if same_instant(m["alarm_at"], goal["at"]):
            ctx.confirm(
                "goal_at_alarm",
                self.cite("end"),
                N_("Goal for {team} at the same instant as the alarm: does it count?"),
                ["counts", "no_goal"],
                default="counts",
                reject="no_goal",
                goal_entry=goal["entry"],
                side=goal["side"],
                values={"team": ctx.name(goal["side"])},
            )

    def end_period(self, ctx: Ctx, rule: str) -> None:
        m = ctx.m
        m.pop("_reopen", None)
        if m["status"] == "running" and m["time_up"]:
            m["_reopen"] = copy.deepcopy({k: m[k] for k in REOPEN_KEYS})
        m.update(status="interval", shot_asked=None, last_lance=None, restart=None, turn=None)
        m["last_touch"] = None
        m["clock_running"] = False  # the end_period command stops the device's clock
        ctx.device("end_period", period=m["period"])
        ctx.announce("period_end", N_("End of period {period}"), rule, period=m["period"])
        regular = m["periods"]
        extra = m["clock_profile"]["extra_periods"]
        if m["phase"] == "regular" and m["period"] < regular:
            self.change_ends(ctx)
            m["kickoff"]["next"] = self.second_half_kickoff(m["kickoff"]["first"])
        elif m["phase"] == "extra" and m["period"] < regular + extra:
            self.change_ends(ctx)
            m["kickoff"]["next"] = other(m["kickoff"]["next"])
        else:
            self.decide(ctx)

    def change_ends(self, ctx: Ctx) -> None:
        ends = ctx.m["ends"]
        ctx.m["ends"] = {"A": ends["B"], "B": ends["A"]}
        ctx.announce("change_ends", N_("Teams change ends"), self.cite("change_ends"))

    def second_half_kickoff(self, first: str) -> str:
        return other(first)

    def goal_pending(self, m: dict[str, Any]) -> bool:
        return any(p["kind"] in ("goal_no_shot", "goal_at_alarm") for p in m["pending"])

    def decide(self, ctx: Ctx) -> None:
        """Regular (or extra) time is over: a winner, extra time, a shootout or a draw."""
        m = ctx.m
        if self.goal_pending(m):
            m["decision_pending"] = True
            ctx.announce("decision_pending", N_("The result waits for the referee's confirmation"))
            return
        m["decision_pending"] = False
        a, b = m["score"]["A"], m["score"]["B"]
        comp = m["competition"]
        if a != b or comp["type"] != "knockout":
            winner = None if a == b else ("A" if a > b else "B")
            self.finish(ctx, winner, "time", self.cite("end"))
        elif m["phase"] == "regular" and comp["extra_time"]:
            m["phase"] = "extra"
            # who kicks off extra time: no document says (003 Art. 28 neither): a setting
            first = m["kickoff"]["first"]
            choice = self.setting("extra_kickoff", "first")
            m["kickoff"]["next"] = (
                first if choice == "first" else other(first) if choice == "other" else choice
            )
            ctx.announce("extra_time", N_("Level: extra time"), self.cite("tie_break"))
            if self.settings.get("extra_kickoff") is None:
                self.ask_extra_kickoff(ctx, m["kickoff"]["next"])
        elif comp["shootout"]:
            so.begin(self, ctx)
        elif comp["advantage"]:
            self.finish(ctx, comp["advantage"], "advantage", self.cite("advantage"))
        else:
            self.finish(ctx, None, "time", self.cite("end"))

    def finish(self, ctx: Ctx, winner: str | None, reason: str, rule: str, **extra: Any) -> None:
        m = ctx.m
        m.update(status="finished", finished=True, shot_asked=None, restart=None, turn=None)
        m["decision_pending"] = False
        m["result"] = {"winner": winner, "reason": reason, "rule": rule, **extra}
        if m["clock_running"]:
            ctx.device("pause", reason="finished")
        score_a, score_b = m["score"]["A"], m["score"]["B"]
        if winner and reason == "shootout" and isinstance(extra.get("shootout"), dict):
            # the draw and the shoot-out that decided it, in one sentence (004 Disputa de
            # pênaltis): the account's end of the match says both
            ctx.announce("match_end", N_("Draw {score_a}–{score_b}; penalties {pen_a}–{pen_b}: "
                                         "{team} win"), rule,
                         score_a=score_a, score_b=score_b, pen_a=extra["shootout"].get("A", 0),
                         pen_b=extra["shootout"].get("B", 0), team=ctx.name(winner))
        elif winner:
            ctx.announce("match_end", N_("Full time: {score_a}–{score_b}, {team} win"), rule,
                         score_a=score_a, score_b=score_b, team=ctx.name(winner))
        else:
            ctx.announce("match_end", N_("Full time: {score_a}–{score_b}, draw"), rule,
                         score_a=score_a, score_b=score_b)
