"""Shots and goals: the asked shot and its checks, what a goal-line trip means,
own goals, goals raised to the referee for confirmation, and the answers.
"""

from __future__ import annotations

from typing import Any, ClassVar

from futmesa.i18n import N_, NP_

from . import shootout as so
from .answers import chosen_words, own_goal_by
from .context import SIDES, Ctx, Either, Labels, Refused, other
from .core import RulesCore, same_instant
from .possession import hand_goal_refusal, kicked, played_last, shot_refusal

SHOT_OUTCOMES = Labels({
    "saved": NP_("shot outcome", "saved"),
    "wide": NP_("shot outcome", "wide"),
    "post": NP_("shot outcome", "off the post"),
    "in_play": NP_("shot outcome", "ball still in play"),
    "short": NP_("shot outcome", "did not reach the goal"),
    "blocked": NP_("shot outcome", "blocked by a disc"),
    "miss": NP_("shot outcome", "missed the ball"),
})


def penalty_kick(m: dict[str, Any], side: str) -> bool:
    """Whether `side`'s shot asked now is the kick of its penalty (the restart not yet taken):
    a goal it scores is the penalty's (000 Art. 20, 001 Art. XXVII, 003 Art. 69, 004
    Pênaltis)."""
    r = m.get("restart")
    return bool(r and r.get("kind") == "penalti" and r.get("side") == side
                and not r.get("taken") and m.get("phase") != "shootout")


class GoalRules(RulesCore):
    """Asked shots, goals and the referee's confirmations."""

    # an asked shot that ends in the shooter's own goal (off a post, the goalkeeper, a disc):
    # ("own_goal", "", article) where the document counts it (003 Art. 59 §único "mesmo que
    # … um chute ao gol adversário"); ("no_goal", restart kind, article) where an own goal
    # must start from one's own field (000 Art. 12 §2, 001 Art. XXXI §2) or only the asked
    # shot scores (004)
    shot_own_goal: ClassVar[tuple[str, str, str]] = ("own_goal", "", "")
    # restarts from which a goal is only "not valid" (a goal kick follows), not the taker's
    # technical foul as for the other restarts that may not seek a goal (001 Art. XXIX §único)
    goal_only_void: ClassVar[tuple[str, ...]] = ()

    def on_shot_asked(self, ctx: Ctx) -> None:
        m = ctx.m
        side = ctx.side()
        disc = ctx.disc(required=True)
        ball = ctx.entry.data.get("ball", "opponent_half")
        refusal = shot_refusal(self, m, side, disc, str(ball))
        if refusal is not None:
            raise refusal
        m["shot_asked"] = {
            "side": side, "disc": disc, "entry": ctx.entry.id, "at": ctx.instant(),
            # the kick of the side's penalty not yet taken: a goal of it is a penalty's
            # (004 Pênaltis "cobrado por meio de chute pedido"; the views name it, walk 50a L4)
            **({"penalty": True} if penalty_kick(m, side) else {}),
        }
        m["lance_warnings"] = 0
        ctx.announce(
            "shot_asked",
            N_("{team} asks for a shot with disc {disc}"),
            self.cite("shot_named"),
            disc=disc,
            team=ctx.name(side),
        )
        if self.lance_ms:
            ctx.device("lance_restart", side=other(side), reason="goalkeeper")

    def on_shot_result(self, ctx: Ctx) -> None:
        """The asked shot ended without a goal: saved, wide, short, missed or in play."""
        m = ctx.m
        shot = m["shot_asked"]
        outcome = ctx.entry.data.get("outcome", "in_play")
        said = SHOT_OUTCOMES.word(str(outcome))
        if not shot and m.get("_shot_out"):
            # the side-net event came first and already gave the restart: the same one stands
            shot = m.pop("_shot_out")
            ctx.announce("shot_over", N_("Shot by {team}, disc {disc}: {outcome}"),
                         team=ctx.name(shot["side"]), disc=shot.get("disc"), outcome=said)
            return
        if not shot:
            raise Refused(N_("No shot was asked"))
        m["shot_asked"] = None
        # a restart the shot was the kick of is taken (possession.py), its kicker waits
        if kicked(m, shot["side"], shot.get("disc"), outcome in ("saved", "blocked")):
            self.ball_rolls(ctx)  # the shot took the restart: the ball was in play
        m["last_player"] = shot["side"]  # the shot was the shooter's lance (whose lance went out)
        self.shot_struck(ctx, shot, hit=outcome != "miss")  # a miss touched nothing (Art. 52)
        so.penalty_kicked(self, ctx, shot["side"], shot["disc"], False)
        if outcome == "wide":
            # "para fora" before the side-net event: that ball out still follows a shot
            # (003 Art. 64: a goal kick, not a reposição), whichever reaches the log first
            m["_shot_out"] = shot
            self.wide_before_ball_out(ctx, shot)
        else:  # the shooter and its disc: the Registro's row says them (walk45i-a M5)
            ctx.announce("shot_over", N_("Shot by {team}, disc {disc}: {outcome}"),
                         team=ctx.name(shot["side"]), disc=shot.get("disc"), outcome=said)
        if outcome != "wide":
            self.restore_cleared(ctx)  # no goal and play goes on (003 Art. 73 §1)
        if m["status"] == "last_lance":
            self.end_last_lance(ctx)
            return
        self.after_shot(ctx, shot, str(outcome))

    def wide_before_ball_out(self, ctx: Ctx, shot: dict[str, Any]) -> None:
        """"Para fora" entered before the table's ball out (walk45h-b B8): the ball is out of
        play, so a ball-in-play clock stops (004 A partida "só corre com a bola rolando"), and
        the referee is told what comes next: the restart the table's ball out gives (over an
        end line, by the last touch: 004 Bola fora, 000 Art. 13, 001 Art. XXXIII, 003 Art.
        64)."""
        self.dead_ball(ctx)
        team, wide = ctx.name(shot["side"]), SHOT_OUTCOMES.word("wide")
        if ctx.m["status"] == "running":
            ctx.announce("shot_over", N_("Shot by {team}, disc {disc}: {outcome} — the restart "
                                         "comes with the ball out the table records"),
                         self.cite("tiro_de_meta"), team=team, disc=shot.get("disc"),
                         outcome=wide)
        else:
            ctx.announce("shot_over", N_("Shot by {team}, disc {disc}: {outcome}"), team=team,
                         disc=shot.get("disc"), outcome=wide)

    def after_shot(self, ctx: Ctx, shot: dict[str, Any], outcome: str) -> None:
        if self.touch_limit is None:
            ctx.m["turn"] = other(shot["side"])

    def on_goal_line(self, ctx: Ctx) -> None:
        m = ctx.m
        goal = ctx.entry.data.get("goal")
        if goal not in (0, 1):
            raise Refused(N_("'goal' must be 0 or 1"))
        defender = self.defender_of(m, goal)
        scorer = other(defender)
        if ctx.entry.data.get("disallowed"):
            self.disallowed_goal(ctx, defender)
            return
        if self.just_after_alarm(ctx):
            self.reopen_decision(ctx)
        elif m["phase"] == "shootout" and not m["finished"]:
            so.goal_line(self, ctx)
            return
        if not self.in_play(m):
            if self.just_after_alarm(ctx):
                ctx.confirm(
                    "goal_at_alarm",
                    self.cite("end"),
                    N_("Ball in {team}'s goal at the same instant as the alarm: does it count?"),
                    ["counts", "no_goal"],
                    default="no_goal",
                    reject="no_goal",
                    side=scorer,
                    goal_entry=ctx.entry.id,
                    goal_period=m["period"],
                    values={"team": ctx.name(defender)},
                )
            else:
                ctx.announce(
                    "goal_line_ignored",
                    N_("Goal sensor tripped while the ball was not in play: ignored"),
                )
            return
        self.ball_in_goal(ctx, scorer, defender, goal)

    def on_goal_by_hand(self, ctx: Ctx) -> None:
        """`goal_by_hand {side}`: the ball went into the goal `side` attacks and the goal
        line's sensor did not see it (a faulty sensor, docs/troubleshooting.md): the referee
        enters it and it reads as the sensor's trip would, an asked shot's goal or the question
        of a goal without one (000 Art. 12; 001 Art. XXXI; 003 Art. 55; 004 Gol)."""
        m = ctx.m
        scorer = ctx.side()
        if ctx.entry.data.get("disallowed"):  # voided (corrections.py): the ball went in, no goal
            self.disallowed_goal(ctx, other(scorer))
            return
        if m["phase"] == "shootout" and not m["finished"]:
            raise Refused(N_("In the shoot-out a goal is entered with the penalty keypad's Goal"))
        refusal = hand_goal_refusal(self, m)
        if refusal is not None:
            raise refusal
        defender = other(scorer)
        self.ball_in_goal(ctx, scorer, defender, int(m["ends"][defender]))

    def ball_in_goal(self, ctx: Ctx, scorer: str, defender: str, goal: int) -> None:
        """The ball in `defender`'s goal (line `goal`) with the ball in play: what it means."""
        m = ctx.m
        shot = m["shot_asked"]
        if shot and shot["side"] == scorer and shot.get("struck_by") is not None:
            self.shot_by_another_disc(ctx, shot, defender)
        elif shot and shot["side"] == scorer:
            # the goal's row amended with its scorer (corrections.AMEND_ADDS): the shot's disc
            named = ctx.disc()
            disc = shot["disc"] if named is None else named
            so.penalty_kicked(self, ctx, scorer, disc, True)
            self.count_goal(ctx, scorer, own=False, disc=disc, rule=self.cite("goal"),
                            penalty=bool(shot.get("penalty")))
        elif shot and shot["side"] == defender and self.shot_own_goal[0] == "no_goal":
            self.shot_in_own_goal(ctx, shot, defender, goal)
        elif shot and shot["side"] == defender:
            self.count_goal(ctx, scorer, own=True, disc=None, rule=self.cite("own_goal"))
        elif self.direct_goal_ok(ctx, scorer):
            self.count_goal(ctx, scorer, own=False, disc=None, rule=self.cite("direct_goal"))
        else:
            self.goal_without_shot(ctx, scorer, defender)

    def shot_by_another_disc(self, ctx: Ctx, shot: dict[str, Any], defender: str) -> None:
        """The asked shot went in, struck by another disc than the one named, where the named
        disc is binding (`other_disc_voids_shot`; 003 Art. 54 §2 "o mesmo não poderá ser
        trocado, em hipótese alguma"): no goal; the shot is over and the defence restarts
        with a goal kick, as for a goal the referee disallows."""
        m = ctx.m
        m["shot_asked"] = None
        so.penalty_kicked(self, ctx, shot["side"], shot["disc"], False)
        self.dead_ball(ctx)
        ctx.announce("goal_disallowed", N_("Goal for {team} disallowed"), self.cite("shot_named"),
                     team=ctx.name(shot["side"]))
        if m["status"] in ("last_lance", "awaiting_dead_ball"):
            self.end_period(ctx, self.cite("end"))
        else:
            self.no_shot_restart(ctx, defender, "no_goal")

    def shot_in_own_goal(self, ctx: Ctx, shot: dict[str, Any], shooter: str, goal: int) -> None:
        """The asked shot came back into the shooter's own goal where the document does not
        count it (`shot_own_goal`): the shot is over, the ball is dead, and the shooter's
        team restarts as the article says (a straight_out may still make it a technical
        foul, 000 Art. 23 VI C)."""
        m = ctx.m
        _, kind, rule = self.shot_own_goal
        m["shot_asked"] = None
        so.penalty_kicked(self, ctx, shooter, shot["disc"], False)
        self.dead_ball(ctx)
        ctx.announce(
            "own_shot_no_goal",
            N_("{team}'s shot ended in its own goal: no goal"),
            rule,
            team=ctx.name(shooter),
        )
        if m["status"] in ("last_lance", "awaiting_dead_ball"):
            self.end_period(ctx, self.cite("end"))
            return
        if kind == "falta_tecnica":
            # where the shot ended decides: back in the shooter's own goal it is his technical
            # foul (001 Art. XXII §1 off the post, §2 off the goalkeeper)
            self.technical_foul(ctx, shooter, rule)
            return
        self.set_restart(ctx, kind, shooter, self.cite(kind) or rule, out_line="end",
                         out_by=shooter, out_end=goal)

    def disallowed_goal(self, ctx: Ctx, defender: str) -> None:
        """A goal the referee voided: the ball went in but it is no goal. The match goes on
        as if it had been called "no goal" then: the asked shot is over (a penalty's too),
        the ball is dead and the defence restarts with a goal kick — not as if the ball had
        never gone in, which would leave the shot asked for a later ball (see corrections.py)."""
        m = ctx.m
        if m["phase"] == "shootout" and not m["finished"]:
            so.goal_line(self, ctx, scored=False)
            return
        if not self.in_play(m):
            return
        shot = m["shot_asked"]
        m["shot_asked"] = None
        if shot:
            so.penalty_kicked(self, ctx, shot["side"], shot["disc"], False)
        self.dead_ball(ctx)
        ctx.announce(
            "goal_disallowed",
            N_("Goal disallowed by the referee: goal kick to {team}"),
            self.cite("no_shot_restart"),
            team=ctx.name(defender),
        )
        if m["status"] in ("last_lance", "awaiting_dead_ball"):
            self.end_period(ctx, self.cite("end"))
            return
        if shot:
            m["last_player"] = shot["side"]  # the shot was the lance that sent the ball in
        self.no_shot_restart(ctx, defender, "no_goal")
        if shot and shot["side"] != defender and m["restart"] and not m["restart"].get("taken"):
            # an asked shot is made from the opponent's field (000 Art. 12 §4) at the
            # opponent's goal: no "went straight out" (Art. 23 VI C: over one's own line; VI
            # H: from one's own field) can change this goal kick (walk45i-a, low: it offered
            # the defence's technical foul)
            m["restart"].pop("out_line", None)

    def just_after_alarm(self, ctx: Ctx) -> bool:
        """A goal-line trip at the same instant as the alarm that ended the period."""
        m = ctx.m
        if m["alarm_at"] is None or m["clock_running"]:
            return False
        if not same_instant(ctx.instant(), m["alarm_at"]):
            return False
        if m["status"] == "interval":
            return True
        if m["status"] == "finished":
            return bool(m["result"] and m["result"]["reason"] == "time")
        shootout = m["shootout"]
        return bool(
            m["status"] == "shootout" and not shootout["kicks"] and not shootout["in_progress"]
        )

    def reopen_decision(self, ctx: Ctx) -> None:
        """Undo a result (or the start of a tie-break not yet played) that a goal still
        to confirm could change; it is decided again once the referee answers."""
        m = ctx.m
        if m["status"] == "shootout":
            m["phase"] = m["shootout"].get("from_phase", "regular")
            m["shootout"] = None
        elif m["status"] == "interval" and m["phase"] == "extra" and m["period"] == m["periods"]:
            m["phase"] = "regular"  # extra time not started yet
        elif m["status"] != "finished":
            return
        m.update(status="interval", finished=False, result=None, decision_pending=True)
        ctx.announce("decision_pending", N_("The result waits for the referee's confirmation"))

    def direct_goal_ok(self, ctx: Ctx, scorer: str) -> bool:
        """A goal that needs no asked shot (e.g. straight from a corner)."""
        return False

    def goal_without_shot(self, ctx: Ctx, scorer: str, defender: str) -> None:
        """The question of a ball in the goal with no shot asked: its words name the answers
        it offers, one list (``Either``, answers.py; walk45h-b B1)."""
        m = ctx.m
        lance = played_last(m)  # whose lance went in: its restart's taker while it waits
        options = self.no_shot_answers(m, scorer)
        named = own_goal_by(ctx.name(defender))  # "gol contra de …" (issue 45)
        r = m["restart"]
        # a restart still waiting: the ball was dead and the clock already stopped when the
        # sensor tripped — a false trip then gives nothing back (resolve_goal_no_shot)
        dead = bool(r and not r.get("taken"))
        self.dead_ball(ctx)
        ctx.confirm(
            "goal_no_shot",
            self.cite("shot_required"),
            N_("Ball in {team}'s goal with no shot asked: {answers}?"),
            options,
            default="own_goal" if lance == defender and "own_goal" in options else "no_goal",
            reject="false_trip",
            side=scorer,
            defender=defender,
            lance=lance,
            **({"ball_dead": True} if dead else {}),
            values={"team": ctx.name(defender), "answers": Either(options, named)},
            named=named,
        )
        if m["status"] in ("last_lance", "awaiting_dead_ball"):
            self.end_period(ctx, self.cite("end"))

    def no_shot_answers(self, m: dict[str, Any], scorer: str) -> list[str]:
        """The document's answers (``no_shot_options``) less "shot asked but not entered"
        where the engine would have refused the scorer's shot asked as an input (walk45h-b
        B1: a shot stored for the team without the lance): not the scorer's lance now, nor
        the last one played, the one that sent the ball in (``shot_refusal``: only the team
        with the lance asks, 000 Art. 12 §3 A, 001 Art. XX a, 003 Art. 54, 004 Chute
        pedido); and less "own goal" where the last lance played was the scorer's: an own goal
        is the defender's own lance into his goal, "arremessada … contra sua própria meta" by the
        "executante da jogada" (000 Art. 12 §2), "partindo do campo do defensor que estiver
        efetuando a jogada" (001 Art. XXXI §2), "se um Técnico arremessar a bola … para dentro de
        seu próprio gol" (003 Art. 59 §único) — the attacker's lance off a defender is a corner
        (000 Art. 15 C, 001 Art. XXVIII §6, 003 Art. 60 §único). The lance is a restart's
        taker's while its kick waits (``played_last``): the ball into its own goal then is its
        own goal, from any restart (000 Art. 12 §2, 13 §2 "a não ser gol contra"; 001 Art. XXXI
        4º "gol contra de bola parada"; 003 Art. 59 §único; walk51c H1). No lance entered yet:
        the referee says."""
        played = scorer if played_last(m) == scorer else None
        may = (shot_refusal(self, m, scorer) is None
               or (played is not None and shot_refusal(self, m, scorer, holder=played) is None))
        may = may and not self.straight_from_kickoff(m, scorer)
        own = played is None  # the defender's lance, or none entered
        return [o for o in self.no_shot_options()
                if (o != "shot_asked" or may) and (o != "own_goal" or own)]

    def straight_from_kickoff(self, m: dict[str, Any], scorer: str) -> bool:
        """The ball went in off the scorer's kick-off, no lance entered after it: no shot was
        asked for that kick where the document asks none from the kick-off, its ball on the
        halfway line (``kickoff_shot``: 000 Art. 12 §5, 001 Art. XXI a, 004 Chute pedido "peça
        o chute do campo do adversário"; walk52a M3: «chute pedido (não registrado)» was
        offered and gave the goal)."""
        r = m["restart"]
        return bool(self.cite("kickoff_shot") and r and r["kind"] == "saida"
                    and r["side"] == scorer and not r.get("touches_since"))

    def no_shot_options(self) -> list[str]:
        """The answers the document gives a ball in the goal with no shot asked: an own goal
        where it has one (000 Art. 12 §2, 001 Art. XXXI §2, 003 Art. 59 §único), a corner off
        a defender (000 Art. 15 C, 001 Art. XXVIII §6, 003 Art. 60)."""
        return ["no_goal", "corner", "own_goal", "shot_asked", "false_trip"]

    def no_shot_restart(self, ctx: Ctx, defender: str, choice: str) -> None:
        """A ball in the goal that is not a goal (no shot asked): a goal kick, or a
        corner when the referee says it came off a defender."""
        # over the goal line: a straight_out may still change it (000 Art. 23 VI C, H)
        m = ctx.m
        taken = self.restart_forbids(ctx, "goal", other(defender)) if choice == "no_goal" else None
        if (taken is not None and taken["then"] == "technical"
                and taken["kind"] not in self.goal_only_void):
            # where the kick's ball ended decides: a restart that may not seek a goal sent it
            # into the opponent's goal — its taker's technical foul (001 Art. XXXIV §1 a "não
            # será permitido tentar obter gol ... caso ocorra, será falta técnica", XXXIII §1;
            # 000 Art. 13 §2, 16 §2), not a goal kick
            ctx.announce("restart_forbidden", N_("No shot at goal from this restart"),
                         taken["limit_rule"])
            self.technical_foul(ctx, other(defender), taken["limit_rule"])
            return
        r = m["restart"]
        back = getattr(self, "back_over_own_line", {}).get(r["kind"]) if r else None
        if (back and choice == "no_goal" and r["side"] == defender and r["taken"]
                and r.get("open") and r.get("touches_since", 0) == 0):
            # the goal kick or reposição came back off a disc into its taker's own goal: no
            # own goal but his technical foul, "em qualquer marca de escanteio, caso ela
            # tenha entrado no gol" — the favoured técnico's choice (000 Art. 23 II B)
            self.technical_foul(ctx, defender, back)
            m["restart"]["side_choice"] = True
            return
        by = m.get("last_player") if m.get("last_player") in ("A", "B") else other(defender)
        out = {"out_line": "end", "out_by": defender if choice == "corner" else by,
               "out_end": m["ends"][defender]}
        if choice == "corner":
            self.set_restart(ctx, self.corner_kind, other(defender), self.cite("no_shot_corner"),
                             **out)
        else:
            self.set_restart(ctx, "tiro_de_meta", defender, self.cite("no_shot_restart"), **out)

    @staticmethod
    def goal_record(ctx: Ctx, side: str, own: bool, disc: int | None,
                    asked: dict[str, Any] | None = None, entry: int | None = None,
                    penalty: bool = False) -> dict[str, Any]:
        """A counted goal as ``m["goals"]`` keeps it, placed when the ball went in: at the
        entry that saw it, or — a goal the referee's answer decides (``asked``: the question,
        ``ctx.confirm``) — at the question's entry, the ball's, never the answer's (walk45i-b
        H1: an own goal answered 26 s after the ball read one minute late). Its minute, the
        score's timeline, the súmula's goals and /history all read this one time."""
        if asked is None:
            when = {"period": ctx.m["period"], "clock_ms": ctx.entry.clock_ms,
                    "at": ctx.instant()}
        else:
            when = {"period": asked.get("period", ctx.m["period"]),
                    "clock_ms": asked.get("clock_ms", ctx.entry.clock_ms),
                    "at": asked.get("at")}
        return {"side": side, "own_goal": own, "disc": disc, **when,
                "entry": ctx.entry.id if entry is None else entry,
                **({"penalty": True} if penalty else {}),  # the penalty's kick scored it
                # the sensor's row the answer decided: the goal is the answer's row to void or
                # correct, not that one too (corrections.answered_goal; walk45j-b 12)
                **({"asked": asked.get("id")} if asked is not None else {})}

    def count_goal(self, ctx: Ctx, side: str, own: bool, disc: int | None, rule: str,
                   asked: dict[str, Any] | None = None, penalty: bool = False) -> None:
        m = ctx.m
        m["score"][side] += 1
        m["goals"].append(self.goal_record(ctx, side, own, disc, asked, penalty=penalty))
        if own:  # said from both sides: who put it in his own goal, and who gets the point
            ctx.announce(
                "goal",
                N_("Own goal by {conceder}, point to {team} — {score_a}–{score_b}"),
                rule,
                conceder=ctx.name(other(side)),
                team=ctx.name(side),
                score_a=m["score"]["A"],
                score_b=m["score"]["B"],
            )
        else:
            ctx.announce(
                "goal",
                N_("Goal! {team} — {score_a}–{score_b}"),
                rule,
                team=ctx.name(side),
                score_a=m["score"]["A"],
                score_b=m["score"]["B"],
            )
        ctx.device("beep", pattern="goal")
        self.after_goal(ctx, side)

    def after_goal(self, ctx: Ctx, scorer: str) -> None:
        m = ctx.m
        m["shot_asked"] = None
        if m["status"] in ("last_lance", "awaiting_dead_ball"):
            self.dead_ball(ctx)
            self.end_period(ctx, self.cite("end"))
            return
        conceding = other(scorer)
        m["kickoff"]["next"] = conceding
        self.dead_ball(ctx)
        self.start_from_kickoff(ctx, conceding)
        m["restart"]["after_goal"] = True  # the ball is dead until it is taken (gaucha.time_up)
        # where the document is silent on who kicks off (the question below), its article
        # is cited for the re-arrangement only, the kick-off said as the referee's (walk 45f M5)
        ctx.announce(
            "rearrange",
            N_("Teams re-arrange; kick-off to {team}") if self.kickoff_after_goal != "ask"
            else N_("Teams re-arrange ({rule}); kick-off to {team} unless the referee chooses "
                    "otherwise"),
            self.cite("after_goal"),
            team=ctx.name(conceding),
        )
        # no lance until the kick-off is taken: the lance timer waits (rules/lance_questions.py)
        if self.kickoff_after_goal == "ask":
            self.ask_kickoff_side(ctx, conceding)

    def uncount_goal(self, ctx: Ctx, entry_id: int) -> None:
        m = ctx.m
        for i, g in enumerate(m["goals"]):
            if g["entry"] == entry_id:
                m["score"][g["side"]] -= 1
                del m["goals"][i]
                ctx.announce(
                    "goal_disallowed",
                    N_("Goal for {team} disallowed"),
                    self.cite("end"),
                    team=ctx.name(g["side"]),
                )
                return

    # ======================================================================================
    # confirmations
    # ======================================================================================
    def on_confirm(self, ctx: Ctx) -> None:
        m = ctx.m
        target = ctx.entry.data.get("target")
        pending = next((p for p in m["pending"] if p["id"] == target), None)
        if pending is None:
            raise Refused(N_("No such pending question"))
        choice = ctx.entry.data.get("choice")
        if pending.get("input") == "disc":
            # a free answer: a disc number (e.g. which disc is sent off)
            choice = ctx.disc("choice", required=True)
            if choice in ctx.m["expelled"].get(pending.get("side"), []):
                raise Refused(N_("Disc {choice} is already sent off"), choice=choice)
        elif choice is None:
            choice = pending["default"] if ctx.entry.data.get("accept", True) else pending["reject"]
        if pending.get("input") != "disc" and choice not in pending["options"]:
            raise Refused(N_("Options: {options}"), options=', '.join(pending['options']))
        if ctx.entry.data.get("voided"):
            choice = self.voided_answer(pending, choice)
            if choice is None:
                # the answer is voided: the question is open again, and says so on the
                # console ("resposta anulada no Registro", issue 45 kick-off walk)
                pending["reopened"] = True
                return
        m["pending"].remove(pending)
        if pending.get("input") != "disc":  # what a correction of this answer may choose
            m.setdefault("answer_options", []).append({  # (matchbook/wording.py amend_fields)
                "entry": ctx.entry.id, "options": list(pending["options"]),
                "answers": pending.get("answers") or {}})
        said = chosen_words(pending, choice, ctx.entry.data.get("where"),
                            {s: ctx.name(s) for s in SIDES})
        if said:  # the Registro's answer row says the button tapped (matchbook/wording.py)
            m.setdefault("answered", []).append({"entry": ctx.entry.id, **said})
        getattr(self, "resolve_" + pending["kind"])(ctx, pending, choice)
        if m["decision_pending"] and not self.goal_pending(m):
            self.decide(ctx)

    # the answers to a goal question that count the goal
    GOAL_ANSWERS = {"goal_no_shot": ("own_goal", "shot_asked"), "goal_at_alarm": ("counts",)}

    def voided_answer(self, pending: dict[str, Any], choice: Any) -> str | None:
        """What a voided answer (corrections.py) leaves: voiding the goal an answer counted
        disallows it — "no goal", the question is not asked again (000 Art. 12 §1); any
        other voided answer is dropped (None) and the question stands open again."""
        if choice in self.GOAL_ANSWERS.get(pending["kind"], ()) and "no_goal" in pending["options"]:
            return "no_goal"
        return None

    def resolve_goal_no_shot(self, ctx: Ctx, pending: dict[str, Any], choice: str) -> None:
        m = ctx.m
        side, defender = pending["side"], pending["defender"]
        if choice in ("own_goal", "shot_asked"):
            rule = self.cite("own_goal") if choice == "own_goal" else self.cite("goal")
            if not self.in_play(m):
                m["score"][side] += 1  # late confirmation: count it, no re-arrangement
                m["goals"].append(self.goal_record(ctx, side, choice == "own_goal", None,
                                                   pending, entry=pending["id"]))
                ctx.announce("goal", N_("Goal confirmed: {team}"), rule, team=ctx.name(side))
            else:
                self.count_goal(ctx, side, own=choice == "own_goal", disc=None, rule=rule,
                                asked=pending)
        elif choice == "false_trip":
            ctx.announce("false_trip", N_("Goal sensor: false trip, play on"))
            if pending.get("ball_dead"):
                # the trip came with a restart waiting: the clock stood still for that dead
                # ball, not for the trip — nothing to give back, and it stays stopped until
                # the restart is taken (004 A partida "só corre com a bola rolando"; walk52a
                # H1: the device gave back the whole dead ball since the ball out, +57 s)
                return
            if self.clock_mode == "ball-in-play":
                # the ball never went in: the seconds the clock stood still on the trip were
                # played (the device counts them from its own stop; rules/resync.py)
                ctx.device("play_on", give_back=True)
            else:
                ctx.device("play_on")
        else:
            ctx.announce(
                "goal_disallowed",
                N_("No goal: the shot was not asked"),
                self.cite("shot_required"),
            )
            if self.in_play(m):
                if m["status"] in ("last_lance", "awaiting_dead_ball"):
                    self.end_period(ctx, self.cite("end"))
                else:
                    self.no_shot_restart(ctx, defender, choice)

    def resolve_goal_at_alarm(self, ctx: Ctx, pending: dict[str, Any], choice: str) -> None:
        m = ctx.m
        counted = any(g["entry"] == pending["goal_entry"] for g in m["goals"])
        if choice == "counts" and not counted:
            side = pending["side"]
            m["score"][side] += 1
            m["goals"].append(self.goal_record(
                ctx, side, False, None, {**pending, "period": pending["goal_period"]},
                entry=pending["goal_entry"]))
            ctx.announce(
                "goal",
                N_("Goal confirmed: {team}"),
                self.cite("end"),
                team=ctx.name(side),
            )
        elif choice == "no_goal" and counted:
            self.uncount_goal(ctx, pending["goal_entry"])
