"""Open play: the palheta and the last touch, balls out and their restarts,
touches and turns, and the per-move (lance) timer.
"""

from __future__ import annotations

from typing import Any, ClassVar

from futmesa.i18n import N_

from . import lance_questions
from . import shootout as so
from .answers import LANCE_FOUL_WORDS
from .context import SIDES, Ctx, Refused, other
from .core import RESTART_NAMES, RulesCore
from .possession import (
    kicked,
    kicker_waits,
    kickoff_refusal,
    lance_side,
    passed_words,
    played_last,
    touch_refusal,
)

# the restarts that are a foul's kick (an unknown one is refused citing the fouls' list)
FOUL_KICKS = ("falta_direta", "falta_indireta", "falta_tecnica", "penalti", "tiro_livre")


class PlayRules(RulesCore):
    """Ball out, restarts, touches, turns and the lance timer."""

    def on_palheta(self, ctx: Ctx) -> None:
        """The palheta divisória: the referee uses it at the midline "com o objetivo de
        indicar o lado em que a bola saiu" (000 Regra 1 §3) — the half of the field the
        ball went out on (A: the half side A defends now), not who touched it last. It
        is kept with the next ball out (`half`); the restart's side still needs the last
        touch (`last_touch`, or the `ball_out_touch` question). The other documents do
        not use a palheta divisória (in 003 "palheta" is the player's flicking tool)."""
        pos = ctx.entry.data.get("pos")
        if pos == "C":
            ctx.m["palheta"] = None
            return
        if pos not in SIDES:
            raise Refused(N_("'pos' must be A, C or B"))
        ctx.m["palheta"] = pos

    def on_last_touch(self, ctx: Ctx) -> None:
        self.last_touch(ctx, ctx.side(), "referee")

    def last_touch(self, ctx: Ctx, side: str, via: str) -> None:
        m = ctx.m
        info = {"side": side, "via": via, "direct": bool(ctx.entry.data.get("direct", True))}
        goal_q = next((p for p in m["pending"] if p["kind"] == "goal_no_shot"), None)
        if goal_q is not None:
            self.goal_last_touch(ctx, goal_q, side)
            return
        waiting = next((p for p in m["pending"] if p["kind"] == "ball_out_touch"), None)
        if waiting is not None:
            m["pending"].remove(waiting)
            self.resolve_ball_out(ctx, waiting["ball_out"], info)
        else:
            m["last_touch"] = info

    def goal_last_touch(self, ctx: Ctx, pending: dict[str, Any], side: str) -> None:
        """A ball in the goal with no shot asked, and the referee says whose touch put it
        in: the defender's own lance → own goal (000 Art. 12 §2, 001 Art. XXXI §2, 003
        Art. 59) — its restart waiting when the ball went in is its lance too (the question's
        ``lance``, walk51c H1); the attacker's lance off a defender → corner (000 Art. 15 C,
        001 Art. XXVIII §6, 003 Art. 60 §único); off the attacker → no goal, goal kick. Where
        the ruleset has no such option (004: only an asked shot scores) it is no goal."""
        m = ctx.m
        defender = pending["defender"]
        if side == defender:
            choice = "own_goal" if pending.get("lance") == defender else "corner"
        else:
            choice = "no_goal"
        if choice not in pending["options"]:
            choice = "no_goal"
        m["pending"].remove(pending)
        self.resolve_goal_no_shot(ctx, pending, choice)
        if m["decision_pending"] and not self.goal_pending(m):
            self.decide(ctx)

    def on_ball_out(self, ctx: Ctx) -> None:
        m = ctx.m
        d = ctx.entry.data
        line = d.get("line")
        end = d.get("end")
        if line not in ("side", "end") or end not in (0, 1):
            raise Refused(N_("'line' must be side|end, 'end' 0|1"))
        if self.dead_ball_out(ctx):
            return
        ctx.announce("ball_out", N_("Ball out"))
        shot = m["shot_asked"]
        if shot:
            so.penalty_kicked(self, ctx, shot["side"], shot["disc"], False)
            m["_shot_out"] = shot  # a "para fora" entered after this changes nothing
            self.shot_went_out(m, shot)
            self.shot_struck(ctx, shot)
        else:
            shot = m.pop("_shot_out", None)  # the shot's result was entered first
        if m["status"] in ("last_lance", "awaiting_dead_ball"):
            self.dead_ball(ctx)
            self.end_period(ctx, self.cite("end"))
            return
        info = {
            "line": line,
            "end": end,
            "zone": d.get("zone"),
            "shot": shot,
            "played": m.get("last_player"),
            "half": m.get("palheta"),  # the half it went out on, if the referee showed it
        }
        m["palheta"] = None
        m["shot_asked"] = None
        self.dead_ball(ctx)
        if m["last_touch"] is None:
            # an older unanswered ball out is overtaken by this one
            m["pending"] = [p for p in m["pending"] if p["kind"] != "ball_out_touch"]
            likely = played_last(m)  # the suggested answer: none when the log does not know
            # where it went out, as the Registro says it (walk 49a M7): the line, and whose
            # end or half ("end": the goal end of the table, named by the side defending it)
            owner = self.defender_of(m, end)
            ctx.confirm(
                "ball_out_touch",
                self.cite("ball_out"),
                N_("Ball out over the end line, {team}'s end: who touched it last?")
                if line == "end" else
                N_("Ball out over the side line, in {team}'s half: who touched it last?"),
                ["A", "B"],
                default=likely or "",
                reject=other(likely) if likely else "",
                values={"team": ctx.name(owner)},
                ball_out=info,
            )
            return
        last = m["last_touch"]
        self.resolve_ball_out(ctx, info, last)

    @staticmethod
    def shot_went_out(m: dict[str, Any], shot: dict[str, Any]) -> None:
        """The table's ball out ends the asked shot, as "para fora" does (goals.on_shot_result):
        it was struck, the shooter's lance. A kick not yet taken that it was shot from is taken
        — the shot is the kick: "direta, quando é feito em um único lance direto a gol" (000
        Art. 18, Art. 12 §3 B; 001 Art. XXIII §1 a; 003 Art. 74; 004 Faltas), "com o resultado
        dele a cobrança está dada" (docs/operating.md §5) — not owed while the referee says
        who touched it last (walk48b M4); and the shooter played last, unless a touch was
        entered after the shot was asked (walk48b M5: the question suggested the team that
        played before the foul)."""
        if kicked(m, shot["side"], shot.get("disc")) and m.get("restart"):
            # the ball is out: the kick's lances end with it (no one holds the next lance
            # while the referee says who touched it last — his answer gives the restart)
            m["restart"]["open"] = False
        if not shot.get("played_on"):
            m["last_player"] = shot["side"]

    def dead_ball_out(self, ctx: Ctx) -> bool:
        """A ball out the table reports while the ball is surely dead — the interval, a ball in
        the goal the rules ask about, or the teams re-arranging after a goal while its kick-off
        question still waits (000 Art. 6,
        003 Art. 31), or a ball-in-play clock stopped for the kick-off (004) — changes no
        restart (walk45i-b M-c: during the arrangement it made the kick-off a goal kick). It
        stays in the log as the sensor saw it, the rules' words saying it had no effect. Once
        the referee has said who kicks off, a ball out is read again, as before any other
        restart taken without his tap: the kick-off may have been played untapped (the demo and
        a referee who enters no touches), and a lost restart is worse than one he voids from the
        Registro when it was only the arrangement."""
        m = ctx.m
        r = m["restart"]
        if not self.in_play(m):
            if m["status"] == "interval":
                ctx.announce("ball_out_ignored", N_("Ball out in the interval: no effect"))
            elif m["status"] != "waiting":
                ctx.announce("ball_out_ignored", N_("Ball out with the ball dead: no effect"))
            return True
        asked = {p.get("kind") for p in m.get("pending") or []}
        if asked & {"goal_no_shot", "goal_at_alarm"}:
            # the ball is in the goal while the rules ask about it: a ball out now is its way
            # back out (or the arrangement) — never a restart over the goal's answer
            # (walk45j-b H1: its "quem tocou por último?" turned the kick-off into a corner)
            ctx.announce("ball_out_ignored",
                         N_("Ball out with the ball dead (teams re-arranging): no effect"))
            return True
        if (m["status"] != "running" or not r or r.get("taken") or r["kind"] != "saida"
                or not m["goals"] or m["goals"][-1]["period"] != m["period"]):
            return False  # (a last lance's ball out still ends it)
        asking = "kickoff_side" in asked
        stopped = self.clock_mode == "ball-in-play" and not m.get("clock_running")
        if not (asking or stopped):
            return False
        ctx.announce("ball_out_ignored",
                     N_("Ball out with the ball dead (teams re-arranging): no effect"))
        return True

    # where a kick's ball ends decides what follows, before who touched it last (issue 44):
    # a goal kick or reposição whose ball comes back off a disc over its taker's own end line
    # (restart kind -> article: a technical foul against the taker) ...
    back_over_own_line: ClassVar[dict[str, str]] = {}
    # ... and a kick in two lances whose first lance touched an opponent and went out: over a
    # side line the lateral is reversed (the touched side's), over an end line a reposição
    first_lance_off_opponent: ClassVar[str] = ""

    def kick_ended(self, ctx: Ctx, info: dict[str, Any], last: dict[str, Any]) -> bool:
        """The restart just taken (no lance since) went out where its article decides the
        restart, not the last touch: `back_over_own_line`, `first_lance_off_opponent`."""
        m = ctx.m
        r = m["restart"]
        if not (r and r["taken"] and r.get("touches_since", 0) == 0):
            return False
        taker = r["side"]
        rule = self.back_over_own_line.get(r["kind"])
        if (rule and r.get("open") and info["line"] == "end"
                and self.defender_of(m, info["end"]) == taker):
            ctx.announce(
                "restart_out",
                N_("{team}'s {restart} left the field on its first kick: technical foul"),
                rule,
                team=ctx.name(taker),
                restart=RESTART_NAMES.word(r["kind"]),
            )
            self.technical_foul(ctx, taker, rule)
            return True
        rule = self.first_lance_off_opponent
        if (rule and r.get("infraction") and r.get("lances") == 2
                and r.get("taker_lances") == 1 and last.get("side") == other(taker)):
            if info["line"] == "side":
                self.set_restart(ctx, "lateral", other(taker), rule, out_line="side",
                                 out_by=other(taker), out_end=info["end"])
            else:
                defender = self.defender_of(m, info["end"])
                self.set_restart(ctx, "reposicao", defender, rule, out_line="end",
                                 out_by=other(taker), out_end=info["end"])
            return True
        return False

    def kick_went_out(self, ctx: Ctx, last: dict[str, Any]) -> bool:
        """A restart whose first lance may not leave the field (its `out_rule`: a technical
        foul kick, 000 Art. 25 B "a bola saia de campo no primeiro arremesso") did, off its
        taker's own kick (off an opponent's disc it is an ordinary ball out, Art. 14 B): a
        technical foul against the taker."""
        m = ctx.m
        r = m["restart"]
        if not (r and r.get("out_rule") and r.get("open") and r["taken"]
                and r.get("touches_since", 0) == 0 and last.get("side") == r["side"]):
            return False
        ctx.announce(
            "restart_out",
            N_("{team}'s {restart} left the field on its first kick: technical foul"),
            r["out_rule"],
            team=ctx.name(r["side"]),
            restart=RESTART_NAMES.word(r["kind"]),
        )
        self.technical_foul(ctx, r["side"], r["out_rule"])
        return True

    def resolve_ball_out_touch(self, ctx: Ctx, pending: dict[str, Any], choice: str) -> None:
        self.resolve_ball_out(
            ctx, pending["ball_out"], {"side": choice, "via": "referee", "direct": True}
        )

    def resolve_ball_out(self, ctx: Ctx, info: dict[str, Any], last: dict[str, Any]) -> None:
        m = ctx.m
        m["last_touch"] = None
        if not self.in_play(m) or self.kick_went_out(ctx, last) or self.kick_ended(ctx, info, last):
            return
        kind, side, rule = self.ball_out_restart(ctx, info, last)
        taken = self.restart_forbids(ctx, kind, side)
        if taken is not None:
            # the restart may not give its taker this: a technical foul, or the restart
            # is reversed, as its article says
            ctx.announce(
                "restart_forbidden",
                N_("{team} may not win a {restart} from the restart"),
                taken["limit_rule"],
                team=ctx.name(side),
                restart=RESTART_NAMES.word(kind),
            )
            if taken["then"] == "reverse":
                reverse = "tiro_de_meta" if kind.startswith("escanteio") else kind
                self.set_restart(ctx, reverse, other(side), taken["limit_rule"])
            else:
                self.technical_foul(ctx, side, taken["limit_rule"])
            return
        # where it went out and who sent it there: a straight_out may still change it
        self.set_restart(ctx, kind, side, rule, out_line=info["line"], out_by=last["side"],
                         out_end=info["end"])

    def ball_out_restart(
        self, ctx: Ctx, info: dict[str, Any], last: dict[str, Any]
    ) -> tuple[str, str, str]:
        """(restart kind, side, article) for a ball out, given who touched it last."""
        toucher = last["side"]
        if info["line"] == "side":
            return "lateral", other(toucher), self.cite("lateral")
        defender = self.defender_of(ctx.m, info["end"])
        if toucher == defender:
            return "escanteio", other(defender), self.cite("escanteio")
        return "tiro_de_meta", defender, self.cite("tiro_de_meta")

    # the restarts the ruleset's document has, each with its article (issue #45): the engine
    # publishes them (possession.restart_kinds), the console offers these only, one the
    # referee gives cites its article and another is refused (`unknown_restart_cite`)
    restart_kinds: ClassVar[dict[str, str]] = dict.fromkeys(RESTART_NAMES, "")

    def on_restart(self, ctx: Ctx) -> None:
        """The referee gives (or corrects) a restart."""
        kind = ctx.entry.data.get("kind")
        if not isinstance(kind, str) or kind not in self.restart_kinds:
            raise Refused(N_("This ruleset has no such restart: its document does not list it"),
                          rule=self.unknown_restart_cite(kind))
        if not self.in_play(ctx.m):
            raise Refused(N_("The ball is not in play"))
        self.set_restart(ctx, kind, ctx.side(), self.restart_kinds[kind])

    def unknown_restart_cite(self, kind: object) -> str:
        """The article a restart the document lacks is refused with: a throw-in's or a
        corner's kind that of the document's throw-in or corner (001's are cedidos or cavados,
        the others' plain), a foul's kick its list of fouls, any other its list of restarts."""
        kind = str(kind)
        family = next((f for f in ("lateral", "escanteio") if kind.startswith(f)), None)
        if family is None and kind in FOUL_KICKS:
            family = "foul_kinds"
        return self.cite(family or "restart_kinds") or self.cite("restart_kinds")

    # ======================================================================================
    # touches and turns
    # ======================================================================================
    def on_touch(self, ctx: Ctx) -> None:
        m = ctx.m
        side = ctx.side()
        disc = ctx.disc()
        shot = m["shot_asked"]
        # `shot: true`: this touch struck the asked shot — by another disc than the one named,
        # where that is a fact to record, not a refusal (003 Art. 54 §2: no goal from it)
        other = bool(ctx.entry.data.get("shot") and self.other_disc_voids_shot and shot
                     and shot["side"] == side and disc is not None and disc != shot.get("disc"))
        refusal = touch_refusal(self, m, side, shot["disc"] if other else disc)
        if refusal is not None:
            raise refusal
        if self.missed_kick(ctx, side):
            return
        restart = m["restart"]
        if self.out_of_turn(ctx, side):
            return
        refusal = kickoff_refusal(self, m, side)
        if refusal is not None:
            raise refusal
        last = m.get("last_lance")
        if m["status"] == "last_lance" and last and last.get("side") not in (None, side):
            raise Refused(N_("The last lance is the opponent's"))
        if self.kicker_moved(ctx, side, disc):
            return
        m.pop("_shot_out", None)  # play went on: a late shot result has nothing to add
        hit = bool(ctx.entry.data.get("hit", True))
        shot = m["shot_asked"]
        struck = bool(shot and shot["side"] == side and disc is not None
                      and disc == shot.get("disc"))  # this lance is the asked shot
        if other:
            shot["struck_by"] = disc  # another disc struck it: no goal from it (003 Art. 54 §2)
        if struck or other:
            shot["touched"] = True  # the shot's touch is counted here, not by its result
        if restart and not restart["taken"] and restart["side"] == side:
            restart["taken"] = True
            restart["touches_since"] = 0
            if restart["kind"] == "falta_indireta" and not struck:
                self.restore_cleared(ctx)  # "simplesmente após a cobrança" (003 Art. 73 §1)
            # its kicker waits for another touch where `taker_waits` says (a miss moved
            # nothing; a shot's kick is followed by its result, not by another lance of his)
            restart["kicker"] = disc if hit and not struck else None
            restart["kicker_free"] = struck
            self.ball_rolls(ctx)
        elif restart:
            restart["touches_since"] = restart.get("touches_since", 0) + 1
            self.restore_cleared(ctx)  # play went on after the kick (003 Art. 73 §1)
            if (hit and side == restart["side"] and restart.get("kicker") is None
                    and disc is not None and not restart.get("kicker_free")):
                restart["kicker"] = disc  # the taker's first touch that moved the ball
            elif hit and (side != restart["side"] or disc is None
                          or disc != restart.get("kicker")):
                restart["kicker_free"] = True  # another disc touched the ball
        self.rolls_on(ctx)  # (the restart's own touch above ran the clock already)
        held = (restart or {}).get("waiting")
        if held and hit and (side != restart["side"] or disc != held["disc"]):
            restart.pop("waiting")  # another disc touched the ball: the kicker is free
        if restart and restart.get("open"):
            if restart["side"] == side:
                restart["taker_lances"] += 1
            else:
                restart["open"] = False  # the opponent played: the restart's limits end
        m["lance_warnings"] = 0
        if disc is not None:
            m["last_disc"][side] = disc
        if shot and side != shot["side"]:
            shot["played_on"] = True  # another team's touch after the ask (shot_went_out)
        m["last_player"] = side
        if (m.get("discs_out") or {}).get(side):
            m["discs_out"][side] = []  # its team has played a lance: the disc is back
        self.count_touch(ctx, side, disc, hit)
        self.last_lance_played(ctx, side)  # the last lance ends once it is played

    def missed_kick(self, ctx: Ctx, side: str) -> bool:
        """The taker of a kick not yet taken missed the ball (`hit: false`) where the document
        makes that a technical foul (`missed_kick_rules`: 000 Art. 23 I A, IV A "furou"; 001
        Art. XLVIIII "quando o jogador errar em bola será considerado falta técnica")."""
        m = ctx.m
        r = m["restart"]
        rule = self.missed_kick_rules.get(r["kind"]) if r else None
        if rule is None or ctx.entry.data.get("hit", True) or r["taken"] or r["side"] != side:
            return False
        ctx.announce("restart_missed",
                     N_("{team} missed the ball taking the {restart}: technical foul"), rule,
                     team=ctx.name(side), restart=RESTART_NAMES.word(r["kind"]))
        m["last_player"] = side
        self.technical_foul(ctx, side, rule)
        return True

    def kicker_moved(self, ctx: Ctx, side: str, disc: int | None) -> bool:
        """The restart's kicker played again before another disc touched the ball, where that
        is a technical foul (000 Art. 23 II G, III A, IV B; `taker_waits`); where it is only
        refused, touch_refusal refused it."""
        waits = kicker_waits(self, ctx.m, side, disc)
        if waits is None or waits[0] != "technical":
            return False
        r = ctx.m["restart"]
        ctx.announce("kicker_moved",
                     N_("{team}'s kicker played again before another disc touched the ball: "
                        "technical foul"), waits[1], team=ctx.name(side))
        r["kicker_free"] = True
        ctx.m["last_player"] = side
        self.technical_foul(ctx, side, waits[1])
        return True

    def count_touch(self, ctx: Ctx, side: str, disc: int | None, hit: bool) -> None:
        """One lance per turn; the kick-off is two lances by the same team."""
        m = ctx.m
        restart = m["restart"]
        shot = m["shot_asked"]
        if shot and shot["side"] == side and disc is not None and disc == shot.get("disc"):
            # the named disc's lance is the asked shot, struck: the lance is over whatever the
            # restart's count (a kick-off or a free kick shot at once; 000 Art. 12 §1, Art. 18)
            m["kickoff_touches"] = 2
            m["turn"] = other(side)
        elif (
            restart
            and restart["kind"] == "saida"
            and restart.get("touches_since", 0) == 0
            and restart["side"] == side
            and m.get("kickoff_touches", 0) == 0
        ):
            m["kickoff_touches"] = 1
            m["turn"] = side
        elif (
            restart
            and restart.get("open")
            and restart["side"] == side
            and (restart.get("lances") or 1) > restart["taker_lances"]
        ):
            # a restart taken in more than one lance keeps the turn (000 Art. 18, 19 §2,
            # Art. 22; 001 Art. XXXIV §1 a)
            m["kickoff_touches"] = 2
            m["turn"] = side
        else:
            m["kickoff_touches"] = 2
            m["turn"] = other(side)
        if self.lance_ms:
            ctx.device("lance_restart", side=ctx.m["turn"])

    def records_out_of_turn(self) -> bool:
        """Whether the referee may enter a lance as 'out of turn' (the console's «Toque fora
        da vez», possession.out_of_turn): where the document makes it a foul (`cites
        ["out_of_turn"]`, 000 Art. 23) or fixes no vez for it to break; not where it gives the
        vez and no foul for a lance out of it (004 Sua vez: refused, walk49a M5)."""
        return bool(self.cite("out_of_turn")) or not self.cite("turns")

    def out_of_turn(self, ctx: Ctx, side: str) -> bool:
        """One lance per turn where the document gives the vez (`cites["turns"]`: 000 Art. 8
        §3, Art. 9 §2; 001 Art. XXI §1 "o técnico que tiver a vez de jogar", Art. XX a "o
        lance imediato pertencer ao atacante"; 004 Sua vez; 003 counts touches per possession
        instead): a touch by the team without the vez is refused, with the way to record it
        where the document makes a lance out of turn a foul (`cites["out_of_turn"]`: 000 Art.
        23, "todo lance inapropriado") — entered as 'out of turn' (`out_of_turn: true`), it is
        that technical foul. Where it has none (001's excerpt, 004), the refusal says to enter
        only the lances of the team with the vez, and 'out of turn' is refused the same
        (walk45i-b M-a: gaúcha took the other team's touch, the vez stayed, and the team on
        turn then lost the lance on time)."""
        m = ctx.m
        turn = lance_side(m)
        if not self.cite("turns") or turn is None or side == turn:
            return False
        if self.ball_passes_to(m) == side and not ctx.entry.data.get("out_of_turn"):
            # the ball may have gone to `side` in a way only the referee sees: the refusal
            # names the console's control that says so (walk45i-a M1; 004 Bola fora)
            raise Refused(N_("It is {turn_team}'s turn: {team} plays after the ball passes. If "
                             "it did, enter that first: «{passed}» (Foul / touch)"),
                          team=ctx.name(side), turn_team=ctx.name(turn), rule=self.cite("turns"),
                          passed=passed_words(self, m, side))
        foul = self.cite("out_of_turn")
        if not foul:
            raise Refused(N_("It is not {team}'s turn but {turn_team}'s, and this rule has no "
                             "foul for a lance out of turn: enter only {turn_team}'s lances"),
                          team=ctx.name(side), turn_team=ctx.name(turn), rule=self.cite("turns"))
        if not ctx.entry.data.get("out_of_turn"):
            raise Refused(
                N_("It is not {team}'s turn but {turn_team}'s. If the lance happened, enter it "
                   "as 'out of turn' (a technical foul)"),
                team=ctx.name(side), turn_team=ctx.name(turn), rule=self.cite("turns"),
            )
        ctx.announce(
            "out_of_turn",
            N_("{team} played out of turn"),
            self.cite("turns"),
            team=ctx.name(side),
        )
        self.technical_foul(ctx, side, foul)
        return True

    def restart_forbids(self, ctx: Ctx, kind: str, side: str) -> dict[str, Any] | None:
        """The restart being taken, when it may not give its taker `kind` (a throw-in,
        corner, goal kick or goal) — e.g. 000 Art. 23 II–III, 001 Art. XXXIII §1."""
        r = ctx.m["restart"]
        if not r or not r.get("open") or not r["taken"] or r["side"] != side:
            return None
        base = next((p for p in ("lateral", "escanteio") if kind.startswith(p)), kind)
        return r if base in r.get("forbid", ()) else None

    def on_lance_done(self, ctx: Ctx) -> None:
        """The referee says the last lance is over."""
        if ctx.m["status"] != "last_lance":
            raise Refused(N_("No last lance is being played"))
        self.end_last_lance(ctx)

    def on_button(self, ctx: Ctx) -> None:
        """The table's buttons: a player's turn button ends its lance, the vez passes to the
        other team; when it was the other team's vez already the press changes nothing, and
        the Registro says so (walk45i-a M1: "accepted with no effect")."""
        m = ctx.m
        button = ctx.entry.data.get("button")
        if button in ("turnA", "turnB") and self.in_play(m):
            # the player presses its own button when its lance is over
            player = str(button)[-1]
            before = lance_side(m)
            r = m["restart"]
            if r and r.get("open") and r["side"] != player:
                r["open"] = False  # the opponent has played: the restart's limits end
            m["turn"] = other(player)
            m["lance_warnings"] = 0
            now = lance_side(m)
            if now == before and now in SIDES:
                # the entry's own words ("… encerra o lance (botão da mesa)") say a press that
                # passed the vez; one that could not, says so (the TV shows no "Vez de" per press)
                ctx.announce("turn_unchanged", N_("It was already {team}'s turn: the turn does "
                                                  "not change"), team=ctx.name(now))
            if self.lance_ms:
                ctx.device("lance_restart", side=ctx.m["turn"])
        elif button == "referee":
            ctx.announce("referee_button", N_("Referee called"))

    # -- the ball passed by the referee's word (walk45i-a M1) ------------------------------------
    # what the referee says when the ball went to the other team in a way the table cannot see
    # and no other input says (003 Art. 47 §4: it stopped off the opponent's disc; 004 Bola fora:
    # the throw-in that reached no team-mate): the words (filled with {team}, the team that
    # gets the ball, and {other_team}) and the article; None: the rule has no such way
    ball_pass: ClassVar[tuple[str, str] | None] = None

    def ball_passes_to(self, m: dict[str, Any]) -> str | None:
        """The team the ball may pass to now by the referee's word (`ball_passed`): the team
        without it, with the ball in play, no kick waiting and no shot asked (a shot ends in
        its result); None where the rule has no such input or it does not apply now."""
        turn = m.get("turn")
        r = m.get("restart")
        if (self.ball_pass is None or m["finished"] or m["status"] != "running"
                or m["shot_asked"] or (r and not r.get("taken")) or turn not in SIDES):
            return None
        return other(str(turn))

    def on_ball_passed(self, ctx: Ctx) -> None:
        """`ball_passed {side}`: the ball is `side`'s now, for the reason the rule's
        `ball_pass` says (possession.offers: offered only when `ball_passes_to` names it)."""
        m = ctx.m
        to = ctx.side()
        now = self.ball_passes_to(m)
        r = m.get("restart")
        if self.ball_pass is None:
            raise Refused(N_("In this rule the ball passes only by the lances themselves"))
        if now is None and not self.in_play(m):
            raise Refused(N_("The ball is not in play"))
        if now is None and m["shot_asked"]:
            raise Refused(N_("A shot is asked: enter how it ended (Shot without a goal)"))
        if now is None and r and not r.get("taken"):
            raise Refused(N_("{restart} to {team}: it is taken before anyone else plays"),
                          restart=RESTART_NAMES.word(r["kind"], capital=True),
                          team=ctx.name(r["side"]))
        if now is None:
            raise Refused(N_("Not now: the ball passes this way only in open play"),
                          rule=self.ball_pass[1])
        if now != to:
            raise Refused(N_("The ball is already {team}'s"), team=ctx.name(to))
        self.hand_over(ctx, to)

    def hand_over(self, ctx: Ctx, to: str) -> None:
        """The ball is `to`'s: its vez, a fresh lance. A rule with `ball_pass` says it first,
        in the same words (tests/rules/test_offers.py: the announcement is the button's)."""
        m = ctx.m
        m["turn"] = to
        m["lance_warnings"] = 0
        if self.lance_ms:
            ctx.device("lance_restart", side=to)

    def on_lance_started(self, ctx: Ctx) -> None:
        """The device started a new lance (palheta, turn button, host): a fresh count."""
        ctx.m["lance_warnings"] = 0
        ctx.m.pop("_lance_sanctioned", None)

    def on_lance_expired(self, ctx: Ctx) -> None:
        """The lance timer ran out. The device keeps counting the same player's lance
        after an expiry and reports each further one (`count`: 1, 2, …), so the
        warning and the sanction both come from the table (000 Art. 26 §1 A,
        001 Art. XXIX e, 003 Art. 71 §único)."""
        m = ctx.m
        d = ctx.entry.data
        if not self.lance_ms or not self.in_play(m) or d.get("warning") \
                or not lance_questions.counts(self, m):
            return
        if d.get("side") is not None and d.get("side") == m.get("_lance_sanctioned"):
            return  # that lance was already punished; the device has not started the next yet
        count = d.get("count")
        if isinstance(count, int) and not isinstance(count, bool) and count > 0:
            m["lance_warnings"] = count
        else:
            m["lance_warnings"] += 1
        side = d.get("side")  # the device knows whose lance timer ran out
        self.lance_timeout(ctx, side if side in ("A", "B") else m["turn"])

    def lance_timeout(self, ctx: Ctx, side: str | None) -> None:
        """First expiry: the referee warns; a further one: a disciplinary foul to confirm."""
        m = ctx.m
        secs = m["clock_profile"]["lance_ms"] // 1000
        who = ctx.name(side) if side else "?"
        if self.setting("lance_warning", self.lance_warning) == "once" and side:
            # the player is warned once; past the time again in any later lance: the foul
            first = not m["warned"][side]
        else:
            first = m["lance_warnings"] == 1
        if first:
            if side:
                m["warned"][side] = True
            ctx.announce(
                "lance_warning",
                N_("{secs} s: {who}, play now"),
                self.cite("lance_time"),
                secs=secs,
                who=who,
            )
            ctx.device("beep", pattern="warning")
        elif side:
            self.propose_lance_foul(ctx, side, self.lance_foul)

    def propose_lance_foul(self, ctx: Ctx, side: str, kind: str) -> None:
        if not lance_questions.may_ask(ctx.m, side):
            return
        lance_questions.asked(ctx.m, side)
        question = {
            "disciplinary": N_("{team} went over the lance time: a disciplinary foul?"),
            "technical": N_("{team} went over the lance time: a technical foul?"),
            "cera": N_("{team} went over the lance time: time-wasting, a disciplinary foul?"),
        }[kind]
        ctx.confirm(
            "lance_timeout",
            self.cite("lance_time"),
            question,
            ["foul", "no_foul"],
            default="foul",
            reject="no_foul",
            side=side,
            foul=kind,
            values={"team": ctx.name(side)},
            named={"foul": LANCE_FOUL_WORDS[kind]},  # the button says the foul it records
        )

    def resolve_lance_timeout(self, ctx: Ctx, pending: dict[str, Any], choice: str) -> None:
        if choice != "foul" or ctx.m["finished"]:
            return
        side = pending["side"]
        ctx.m["_lance_sanctioned"] = side
        if pending["foul"] == "disciplinary":
            # counted even when answered after play stopped (it escalates, 000 Art. 26 §1 F)
            self.disciplinary_foul(ctx, side, None, self.cite("lance_time"))
        elif pending["foul"] == "cera":
            self.cera_foul(ctx, side)
        elif self.in_play(ctx.m):
            self.technical_foul(ctx, side, self.cite("lance_time"))
