"""Situations only the referee sees, entered from the console, that decide a restart: where
the ball stopped (a small area), a restart that failed, the draw's choice of ball or field,
a goal deflected off a neutral disc on the midline (001), who takes a restart, an infraction
waived, a foul on the goalkeeper, the side a restart is taken from, the ball on the corner arc,
discs moved before a goal kick and the goalkeeper's kick hitting an opponent. Each ruleset says
what they mean through its data (`taker_rules`, `keeper_foul_restart`, …) and its cites."""

from __future__ import annotations

from typing import Any, ClassVar

from futmesa.i18n import N_

from .context import Ctx, Refused, other
from .core import RulesCore
from .possession import lance_lost_applies


class SituationRules(RulesCore):
    """Referee inputs for what the table cannot see."""

    # a waived infraction: False, the favoured plays a normal lance instead (000 Art. 24);
    # True, it counts as taken and the opponent plays (001 XXIII §6 "considerada como vencida")
    waived_is_spent: ClassVar[bool] = False
    # what a failed restart is, per kind and reason (area / midline) -> article; empty: the
    # document says nothing (the referee gives a `foul`)
    failed_restart_rules: ClassVar[dict[str, dict[str, str]]] = {}
    # restart kind -> ("disc" | "goalkeeper" | "any", article): who may take it, where the team
    # chooses (`taker`)
    taker_rules: ClassVar[dict[str, tuple[str, str]]] = {}
    # restarts (or foul types) the favoured team may not waive (`waive`)
    not_waivable: ClassVar[tuple[str, ...]] = ()
    # what a foul on the goalkeeper gives where the document has a rule of its own:
    # (restart kind, article); None: like any foul in the area, a penalty
    keeper_foul_restart: ClassVar[tuple[str, str] | None] = None
    # restarts whose side the favoured team chooses (`restart_side`)
    side_choice_kinds: ClassVar[tuple[str, ...]] = ()

    # -- the favoured técnico's choice: a direct or an indirect free kick ----------------------
    def on_free_kick_choice(self, ctx: Ctx) -> None:
        """`free_kick_choice {kick: direct|indirect}`: where the document lets the favoured
        técnico choose (a foul in the offender's field: 001 Art. XXIII §2, 003 Art. 74), the
        free kick waiting becomes the one he chose, before its first lance."""
        m = ctx.m
        r = m["restart"]
        kick = ctx.entry.data.get("kick")
        if kick not in ("direct", "indirect"):
            raise Refused(N_("'kick': direct or indirect"))
        kind = "falta_direta" if kick == "direct" else "falta_indireta"
        if (r and not r.get("taken") and r["kind"] == kind and self.in_play(m)
                and self.cite("kick_choice")):
            # the técnico names the kick already given — also where the document leaves him
            # none ("Falta no campo de defesa será obrigatoriamente cobrada indiretamente",
            # 003 Art. 74): his one tap is taken, nothing changes
            r["kick_chosen"] = kick
            return
        if not r or r.get("taken") or not r.get("kick_choice") or not self.in_play(m):
            raise Refused(N_("No free kick is waiting whose taker may choose direct or "
                             "indirect: that choice is his only for a foul in the opponent's "
                             "field, before the kick"), rule=self.cite("kick_choice"))
        # the same kick from the same place: only its kind changes
        keep = {k: r[k] for k in ("infraction", "foul_type", "spot", "spot_of", "flank",
                                  "discs_to_clear") if k in r}
        self.set_restart(ctx, kind, r["side"], self.cite("kick_choice"), kick_choice=True,
                         **keep)

    def on_set_piece_distance(self, ctx: Ctx) -> None:
        """`set_piece_distance {side, disc}`: `side` takes its restart with the kicking disc
        less than 0,01 m from the ball — "já tendo recebido a primeira e única advertência
        neste particular" it is a disciplinary foul (000 Art. 26 §1 E): the first time a
        warning, every later time the foul (the disc expelled from the 3rd is the one of the
        lance before, Art. 26 §1 F, not necessarily the kicker)."""
        m = ctx.m
        rule = self.cite("distance_warning")
        if not rule:
            raise Refused(N_("Not in this ruleset"))
        side, disc = ctx.side(), ctx.disc(required=True)
        if not self.in_play(m):
            raise Refused(N_("The ball is not in play"))
        r = m["restart"]
        if not r or r["side"] != side or r["taken"]:
            raise Refused(N_("No restart of {team} is being taken"), rule=rule,
                          team=ctx.name(side))
        warned = m.setdefault("distance_warned", {"A": False, "B": False})
        if not warned[side]:
            warned[side] = True
            ctx.announce(
                "warning",
                N_("{team} warned: the kicking disc {disc} was less than 1 cm from the ball "
                   "(the first and only warning)"),
                rule,
                team=ctx.name(side),
                disc=disc,
            )
            return
        self.disciplinary_foul(ctx, side, None, rule)

    def on_disc_out(self, ctx: Ctx) -> None:
        """`disc_out {side, disc}`: a disc that left the field does not play its team's next
        lance, after which it is back — 001 Art. XXXVII §1 ("deverá permanecer fora por uma
        jogada, entrando … logo após o lance do técnico penalizado"), 000 Art. 9 §4 A
        ("ficará impedido de executar o lance imediatamente seguinte de sua equipe"; touching
        the palheta counts as out, §3). Where it is put back is the referee's."""
        m = ctx.m
        if not self.cite("disc_out"):
            raise Refused(N_("In this ruleset a disc out of the field changes no lance"))
        side, disc = ctx.side(), ctx.disc(required=True)
        if not self.in_play(m):
            raise Refused(N_("The ball is not in play"))
        out = m.setdefault("discs_out", {"A": [], "B": []})
        if disc not in out[side]:
            out[side].append(disc)
        ctx.announce(
            "disc_out",
            N_("{team} disc {disc} left the field: it stays out until {team}'s next lance"),
            self.cite("disc_out"),
            team=ctx.name(side),
            disc=disc,
        )

    # -- the ball went straight out without rolling (000 Art. 23 VI C, H) ---------------------
    def on_straight_out(self, ctx: Ctx) -> None:
        """`straight_out`: the ball that just went out over an end or goal line went there
        straight, without rolling, from the other field — from the opponent's field over the
        player's own line (000 Art. 23 VI C) or from his own field over the opponent's (VI
        H): a technical foul against him instead of the corner or goal kick."""
        m = ctx.m
        r = m["restart"]
        if not self.cite("straight_out"):
            raise Refused(N_("In this ruleset a ball that went out is a corner, a goal kick or "
                             "a throw-in however it went"))
        if (not r or r.get("taken") or r.get("out_line") != "end"
                or r.get("out_by") not in ("A", "B") or not self.in_play(m)):
            raise Refused(N_("Only right after a ball out over an end or goal line, before "
                             "the restart is taken"), rule=self.cite("straight_out"))
        by = r["out_by"]
        own_line = self.defender_of(m, r["out_end"]) == by
        rule = self.cite("straight_out") + (" VI C" if own_line else " VI H")
        ctx.announce(
            "straight_out",
            N_("The ball went straight out without rolling: technical foul by {team}"),
            rule,
            team=ctx.name(by),
        )
        self.technical_foul(ctx, by, rule)

    # -- an indirect kick's pass that touched an opponent (000 Art. 18 §1, 001 XXIII §4) -----
    def on_pass_touched_opponent(self, ctx: Ctx) -> None:
        """`pass_touched_opponent`: the first lance of a kick in two lances touched an
        opponent's disc: the kicking team loses its second lance (000 Art. 18 §1, 001 Art.
        XXIII §4); the turn passes."""
        m = ctx.m
        r = m["restart"]
        if not self.cite("pass_touched_opponent"):
            raise Refused(N_("In this ruleset a kick's first lance off an opponent changes "
                             "nothing"))
        if not lance_lost_applies(self, m):
            raise Refused(N_("Only after the first lance of a free kick taken in two lances"),
                          rule=self.cite("pass_touched_opponent"))
        rule = self.cite(r["kind"] + "_touched_opponent") or self.cite("pass_touched_opponent")
        # the kick's lances are used up, its limits still in force: the kicking team has no
        # further lance until the opponent plays (001 XXIII §4 "perderá o segundo lance")
        r["taker_lances"] = r["lances"]
        m["turn"] = other(r["side"])
        m["lance_warnings"] = 0
        ctx.announce(
            "pass_touched_opponent",
            N_("{team}'s first lance touched an opponent: no second lance; {other_team} plays"),
            rule,
            team=ctx.name(r["side"]),
            other_team=ctx.name(m["turn"]),
        )
        if self.lance_ms:
            ctx.device("lance_restart", side=m["turn"])

    # -- where the ball stopped ----------------------------------------------------------------
    def on_ball_stopped(self, ctx: Ctx) -> None:
        """`ball_stopped {side, area: small|big}`: the ball stopped in `side`'s small area;
        or (`big`, where the ruleset says so: 003 Art. 43, 44 b) in its big area, last touched
        by its goalkeeper or one of its discs inside the areas."""
        m = ctx.m
        side = ctx.side()
        area = ctx.entry.data.get("area", "small")
        if area not in ("small", "big"):
            raise Refused(N_("'area': small or big"))
        if area == "big" and not self.cite("big_area"):
            raise Refused(N_("In this ruleset the referee decides only a ball stopped in the "
                             "small area"))
        if not self.in_play(m):
            raise Refused(N_("The ball is not in play"))
        if area == "big":
            # the goalkeeper's ball, put back in play from where it stopped (003 Art. 44 b)
            m["shot_asked"] = None
            self.set_restart(ctx, "bola_do_goleiro", side, self.cite("big_area"), spot="big_area")
            return
        self.ball_stopped_restart(ctx, side)

    def ball_stopped_restart(self, ctx: Ctx, side: str) -> None:
        """Default: the goalkeeper's ball for the team whose small area it is."""
        ctx.m["shot_asked"] = None
        self.set_restart(ctx, "bola_do_goleiro", side, self.cite("ball_stopped"))

    # -- a restart that failed -----------------------------------------------------------------
    def on_restart_failed(self, ctx: Ctx) -> None:
        """`restart_failed {reason: area|midline, choice}`: the restart being taken failed —
        the ball did not leave the big area, or a reposição (or a lateral from the taker's
        defence field, 000 Art. 14 §2) did not reach the midline: the opponent's choice."""
        m = ctx.m
        r = m["restart"]
        reason = ctx.entry.data.get("reason", "area")
        if not self.failed_restart_rules:
            # the ruleset's document has no failed restart (001's excerpt, 004: walk49a M5)
            raise Refused(N_("This ruleset has no failed restart: its document does not list "
                             "it"), rule=self.cite("restart_kinds"))
        if not self.in_play(m) or not r or r["kind"] not in self.failed_restart_rules:
            raise Refused(N_("No goal kick or reposição is being taken"))
        rule = self.failed_restart_rules[r["kind"]].get(reason)
        if not rule:
            raise Refused(
                N_("Reasons in this ruleset: {reasons}"),
                reasons=', '.join(self.failed_restart_rules[r['kind']]),
            )
        taker = r["side"]
        if r["kind"] == "lateral" and r.get("out_end") not in (None, m["ends"][taker]):
            # "Para validade do lateral cobrado no campo de defesa" (000 Art. 14 §2): only there
            raise Refused(N_("Only a throw-in taken in its team's defence field must reach the "
                             "midline"), rule=rule)
        choice = ctx.entry.data.get("choice")
        if choice not in (None, "falta_tecnica", "lance"):
            raise Refused(N_("'choice': falta_tecnica or lance"))
        if reason == "area" and self.setting("failed_area") == "choice":
            # a club reading Art. 13 §3 / 16 §3 for it too: the opponent's choice
            reason = "midline" if "midline" in self.failed_restart_rules[r["kind"]] else reason
            rule = self.failed_restart_rules[r["kind"]].get(reason, rule)
        if reason == "midline" and choice is None:
            # "o técnico adversário poderá optar" (000 Art. 13 §3, 16 §3): his choice, asked
            ctx.confirm("failed_restart_choice", rule,
                        N_("{team}'s kick did not reach the midline: {other_team} chooses a "
                           "normal lance or a technical foul"), ["lance", "falta_tecnica"],
                        default="falta_tecnica", reject="lance", side=other(taker),
                        values={"team": ctx.name(taker), "other_team": ctx.name(other(taker))})
            return
        self.failed_restart(ctx, reason, rule, choice or "falta_tecnica")

    def resolve_failed_restart_choice(self, ctx: Ctx, pending: dict[str, Any],
                                      choice: str) -> None:
        """The opponent's choice after a kick short of the midline (000 Art. 13 §3, 16 §3)."""
        r = ctx.m["restart"]
        if self.in_play(ctx.m) and r and r["side"] == other(pending["side"]):
            self.failed_restart(ctx, "midline", pending["rule"], choice)

    def failed_restart(self, ctx: Ctx, reason: str, rule: str, choice: str) -> None:
        m = ctx.m
        r = m["restart"]
        taker = r["side"]
        if reason == "midline" and choice == "lance":
            # the opponent chose a normal lance (000 Art. 16 §3)
            r["open"] = False
            m["turn"] = other(taker)
            who = ctx.name(other(taker))
            ctx.announce(
                "restart_failed",
                N_("The throw-in did not reach the midline: a normal lance to {who}")
                if r["kind"] == "lateral"
                else N_("The reposição did not reach the midline: a normal lance to {who}"),
                rule,
                who=who,
            )
            if self.lance_ms:
                ctx.device("lance_restart", side=m["turn"])
            return
        ctx.announce(
            "restart_failed",
            N_("{team}'s restart failed: technical foul"),
            rule,
            team=ctx.name(taker),
        )
        self.technical_foul(ctx, taker, rule)


    # -- the draw ------------------------------------------------------------------------------
    def on_draw_choice(self, ctx: Ctx) -> None:
        """`draw_choice {winner, choice: ball|cede|field, goal}`: the draw's winner kicks off,
        cedes the ball, or chooses the field (the goal line it defends; the other team then
        kicks off) — 003 Art. 30 §1. Elsewhere the draw only decides the kick-off."""
        m = ctx.m
        winner = ctx.side("winner")
        choice = ctx.entry.data.get("choice", "ball")
        if m["status"] != "not_started":
            raise Refused(N_("Only before the match starts"))
        if choice not in ("ball", "cede", "field"):
            raise Refused(N_("'choice': ball, cede or field"))
        rule = self.cite("draw_choice") or self.cite("draw")
        if choice == "field":
            if not self.cite("draw_choice"):
                raise Refused(
                    N_("In this ruleset the draw only decides the kick-off"),
                    rule=self.cite("draw"),
                )
            goal = ctx.entry.data.get("goal")
            if goal not in (0, 1):
                raise Refused(N_("'goal': the goal line (0 or 1) the winner defends"))
            m["ends"] = {winner: goal, other(winner): 1 - goal}
            kicker = other(winner)
        else:
            kicker = winner if choice == "ball" else other(winner)
        m["kickoff"] = {"first": kicker, "next": kicker, "draw": ctx.entry.id}
        said = {"ball": N_("Draw: {winner} kicks off; {kicker} kicks off"),
                "cede": N_("Draw: {winner} cedes the ball; {kicker} kicks off"),
                "field": N_("Draw: {winner} chooses the field; {kicker} kicks off")}[choice]
        ctx.announce("draw_choice", said, rule, winner=ctx.name(winner), kicker=ctx.name(kicker))

    # -- a goal off a neutral disc on the midline (001) ----------------------------------------
    def on_midline_deflection(self, ctx: Ctx) -> None:
        """The last goal came off a disc touching the midline: no goal (001 Art. XXXI §3)."""
        m = ctx.m
        if not self.cite("midline_deflection"):
            raise Refused(N_("Not in this ruleset: void the goal's entry instead"))
        goal = m["goals"][-1] if m["goals"] else None
        r = m["restart"]
        if goal is None or goal["period"] != m["period"] or not (
            r and r["kind"] == "saida" and not r["taken"]
        ):
            raise Refused(N_("Only right after the goal, before the kick-off: void its entry"))
        self.uncount_goal(ctx, goal["entry"])
        defender = other(goal["side"])
        self.set_restart(ctx, "tiro_de_meta", defender, self.cite("midline_deflection"))

    # -- who takes a restart the team may give to any of its discs -----------------------------
    def on_taker(self, ctx: Ctx) -> None:
        """`taker {disc}` or `taker {goalkeeper: true}`: who takes the restart being given,
        where the rule lets the team choose (e.g. any disc but the goalkeeper for a goal kick,
        000 Art. 13 §1; the goalkeeper's chutão, 004 Tiros de meta)."""
        m = ctx.m
        r = m["restart"]
        spec = self.taker_rules.get(r["kind"]) if r and not r["taken"] else None
        if not spec:
            raise Refused(N_("No restart whose taker the team chooses is being given"))
        who, rule = spec
        keeper = bool(ctx.entry.data.get("goalkeeper"))
        disc = ctx.disc()
        if not keeper and disc is None:
            raise Refused(N_("Say the taking disc or the goalkeeper"))
        if keeper and who == "disc":
            raise Refused(N_("The goalkeeper may not take this restart: choose a disc"), rule=rule)
        if not keeper and who == "goalkeeper":
            raise Refused(N_("The goalkeeper takes this restart"), rule=rule)
        if disc is not None and disc in m["expelled"][r["side"]]:
            raise Refused(N_("Disc {disc} was sent off"), disc=disc)
        r["taker"] = {"disc": None if keeper else disc, "goalkeeper": keeper}
        if keeper:
            ctx.announce("taker", N_("{team}: the goalkeeper takes it"), rule,
                         team=ctx.name(r["side"]))
        else:
            ctx.announce("taker", N_("{team}: disc {disc} takes it"), rule,
                         team=ctx.name(r["side"]), disc=disc)

    # -- advantage: the favoured team lets an infraction go ------------------------------------
    def on_waive(self, ctx: Ctx) -> None:
        """`waive {}`: the favoured técnico takes a normal lance instead of the restart given to
        him (000 Art. 24; 001 Art. XXIII §6, not for a corner or a toque)."""
        m = ctx.m
        r = m["restart"]
        rule = self.cite("waive")
        if not rule:
            raise Refused(N_("In this ruleset an infraction is always taken"))
        if not self.in_play(m) or not r or r["taken"] or r["kind"] == "saida":
            raise Refused(N_("No restart to waive"))
        if not r.get("waivable"):
            raise Refused(N_("This infraction cannot be waived"), rule=rule)
        side = r["side"]
        m["restart"] = None
        if self.waived_is_spent:
            # 001 XXIII §6: "considerada como vencida, não sendo portanto, cobrada" — as if
            # the kick had been taken: the opponent plays, no lance for the favoured
            m["turn"] = other(side)
            ctx.announce(
                "waived",
                N_("{team} lets the infraction go, as if taken: {other_team} plays"),
                rule,
                team=ctx.name(side),
                other_team=ctx.name(other(side)),
            )
        else:
            m["turn"] = side  # 000 Art. 24: "ou fazer um lance normal na partida"
            ctx.announce(
                "waived",
                N_("{team} waives the restart: a normal lance"),
                rule,
                team=ctx.name(side),
            )
        if self.lance_ms:
            ctx.device("lance_restart", side=m["turn"])

    # -- a foul on the goalkeeper --------------------------------------------------------------
    def on_keeper_foul(self, ctx: Ctx) -> None:
        """`keeper_foul {side}`: `side` fouled the opponent's goalkeeper. Where the document
        has a rule of its own for it (001 Art. XXIII §9: from the penalty mark; 004: the
        goalkeeper's chutão from the spot) that is the default; setting `keeper_foul: penalti`
        makes it a penalty like any foul in the area (docs/rulesets.md, contradictions)."""
        m = ctx.m
        side = ctx.side()
        if not self.in_play(m):
            raise Refused(N_("The ball is not in play"))
        m["fouls"][side]["fouls"] += 1
        m["shot_asked"] = None
        fouled = other(side)
        ctx.announce(
            "keeper_foul",
            N_("Foul by {team} on the goalkeeper"),
            self.cite("keeper_foul"),
            team=ctx.name(side),
        )
        spec = self.keeper_foul_restart
        if spec is None or self.setting("keeper_foul") == "penalti":
            kind, rule = "penalti", self.cite("penalty")
        else:
            kind, rule = spec
        self.reset_touches(m, fouled)
        self.set_restart(ctx, kind, fouled, rule, infraction=True, foul_type="falta")
        if m["status"] == "running" and m["time_up"]:
            self.begin_last_lance(ctx, fouled, "infraction", self.cite("infraction_alarm"))

    # -- the side a restart is taken from ------------------------------------------------------
    def on_restart_side(self, ctx: Ctx) -> None:
        """`restart_side {flank: left|right}`: the side the favoured team chose for a restart
        whose side is its choice (001 Art. XXXIII §2: a goal kick after a ball over the
        crossbar; 000 Art. 15 §1: a corner after a ball in the goal)."""
        r = ctx.m["restart"]
        flank = ctx.entry.data.get("flank")
        if flank not in ("left", "right"):
            raise Refused(N_("'flank': left or right"))
        rule = self.cite("side_choice")
        if (not rule or not r or r["taken"]
                or not (r["kind"] in self.side_choice_kinds or r.get("side_choice"))):
            raise Refused(N_("No restart whose side is a choice is being given"))
        r["flank"] = flank
        said = (N_("{team} takes it from the left") if flank == "left"
                else N_("{team} takes it from the right"))
        ctx.announce("restart_side", said, rule, team=ctx.name(r["side"]))

    # -- the ball resting on the corner arc (001) ----------------------------------------------
    def on_ball_on_arc(self, ctx: Ctx) -> None:
        """`ball_on_arc {end}`: the ball stopped on the corner arc line at goal line `end`: a goal
        kick if the attacker sent it there, a throw-in cavada if the defender (001 Art. XXXVI)."""
        m = ctx.m
        end = ctx.entry.data.get("end")
        if not self.cite("ball_on_arc"):
            raise Refused(N_("Not in this ruleset: give the restart with Restart"))
        if end not in (0, 1):
            raise Refused(N_("'end': the goal line (0 or 1)"))
        if not self.in_play(m):
            raise Refused(N_("The ball is not in play"))
        defender = self.defender_of(m, end)
        played = m.get("last_player") or other(defender)
        m["shot_asked"] = None
        if played == defender:
            self.set_restart(ctx, "lateral_cavada", other(defender), "001 Art. XXXVI b")
        else:
            self.set_restart(ctx, "tiro_de_meta", defender, "001 Art. XXXVI a")

    # -- discs moved before a goal kick --------------------------------------------------------
    def on_discs_moved(self, ctx: Ctx) -> None:
        """`discs_moved {side}`: `side` moved discs it may not move at a goal kick (001 Art.
        XXXIII §1: the taker may not; 004 Tiros de meta: the taker's team moves none)."""
        m = ctx.m
        side = ctx.side()
        r = m["restart"]
        rule = self.cite("discs_moved")
        if not rule:
            raise Refused(N_("Not in this ruleset"))
        if not r or r["kind"] != "tiro_de_meta" or r["taken"] or not self.in_play(m):
            raise Refused(N_("Only before a goal kick is taken"))
        self.moved_discs(ctx, side, rule)

    def moved_discs(self, ctx: Ctx, side: str, rule: str) -> None:
        ctx.announce(
            "discs_back",
            N_("{team} moved discs: they go back"),
            rule,
            team=ctx.name(side),
        )

    # -- the goalkeeper's kick hits an opponent (004) ------------------------------------------
    def on_keeper_kick_hit(self, ctx: Ctx) -> None:
        """`keeper_kick_hit {}`: the goalkeeper's chutão hit an opponent's disc or goalkeeper:
        the ball is the opponent's (004 Tiros de meta)."""
        raise Refused(N_("Not in this ruleset"))
