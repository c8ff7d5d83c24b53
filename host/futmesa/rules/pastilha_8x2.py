"""`pastilha-8x2`: Regra "Pastilha 8x2" (FEFUMERJ / CBFM), Arts. 1–107 (003).

2 × 10 minutes (003 Art. 27); a period is extended for a shot asked before the
alarm or a penalty (Art. 29) and an infraction just before it (Art. 74);
8 touches per possession, the 8th a shot, at most 2 in a row by one disc
(Arts. 47–48); 10 s per palhetada (Art. 71); tiro de meta only after a shot,
otherwise reposição (Art. 64); knockout ties go to 4 minutes of extra time and
penalties (Art. 28); a repeated deliberate foul disqualifies, with a forfeit
score (Art. 83).
"""

from __future__ import annotations

from typing import Any, ClassVar

from futmesa.i18n import N_

from .base import MINUTE, Ruleset
from .context import Ctx, Refused, other
from .goals import SHOT_OUTCOMES
from .moves import Arrange, Moves
from .possession import barred, passed_words, touch_refusal
from .possession import rules_name as self_name

# the kicks that are indirect, the pass and then the shot, and the article that says so: the
# indirect free kick (Art. 74 §único b), and the falta técnica's, "tiro livre indireto" (Art. 47
# §2, 48, 50; Art. 40 "tiro livre indireto (falta técnica)")
INDIRECT_KICKS = {"falta_indireta": "003 Art. 74 §único", "falta_tecnica": "003 Art. 47 §2"}


class Pastilha8x2(Ruleset):
    name = "pastilha-8x2"
    title = "Pastilha 8x2 (FEFUMERJ / CBFM)"
    document = "003"
    periods = 2
    period_ms = 10 * MINUTE  # Art. 27 b (official competitions)
    interval_ms = 2 * MINUTE  # not stated: competition setting `interval_ms`
    extra_periods = 1  # Art. 28: "prorrogação de 4 minutos (tempo único)"
    extra_ms = 4 * MINUTE
    lance_ms = 10_000  # Art. 71
    lance_warn_ms = 3_000
    lance_over = "past"  # Art. 71: "10 (dez) segundos também é o tempo máximo"
    # Art. 74 §único: a foul "e, na seqüência, o alarme" is taken, none "com o relógio
    # parado"; at the same instant the alarm wins, as for a shot (Art. 29 "ao mesmo tempo")
    infraction_same_instant_taken = False
    # Art. 74 §único b: after the alarm "o cobrador dará o passe e terá que chutar a gol"
    last_lance_kick_lances: ClassVar[dict[str, int]] = {"falta_indireta": 2, "falta_tecnica": 2}
    # Art. 54 §2: the disc named "não poderá ser trocado, em hipótese alguma": a shot struck by
    # another disc scores no goal (Art. 54 "Para validade do gol")
    other_disc_voids_shot = True
    lance_foul = "cera"  # Art. 71 §único: past the time again after the warning is "cera"
    lance_warning = "once"  # Art. 71 §único: "depois de já ter sido advertido" (the player)
    touch_limit = 8  # Art. 47
    run_limit = 2  # Art. 47 §1
    substitutions = 3  # Art. 62
    shootout_series = (5, 3)  # Art. 28, then one each
    shootout_rotation = "distinct-per-series"  # Art. 28 §1
    # Art. 74: "No campo de ataque, o beneficiado poderá optar por cobrança direta ou indireta"
    # ... Art. 43 / 44 b: the goalkeeper's ball in the big area
    # ... Art. 44 a, 64, 72, 73: a disc moved before a restart (`disc_moved`)
    # ... Art. 64 §6: the order the teams are arranged in before a goal kick (`positions`)
    # ... Art. 73 §1: the opponents under 7 cm from a free kick's ball, cleared and put back
    referee_inputs = frozenset({"free_kick_choice", "ball_stopped_big", "other_disc_shot",
                                "disc_moved", "positions", "disc_distances",
                                "ball_in_centre_circle",  # Art. 34
                                "ball_on_disc",  # Art. 79
                                "ball_passed"})  # Art. 47 §4: off the opponent's disc
    # Art. 47 §4: the ball that touched an opponent's disc (or goalkeeper) stays with the team
    # only if it then touched its own disc or went out — read the other way, it stopped off the
    # opponent: the opponent's ball, which only the referee sees (possession.offers)
    ball_pass = (N_("{team}'s ball: it stopped off a {team} disc or goalkeeper"),
                 "003 Art. 47 §4")
    # discs moved before a restart, one `disc_moved` each (moves.py); a penalty: not stated
    restart_moves: ClassVar[dict[str, Moves]] = {
        # Art. 72: "após uma 'bola fora', seja em lateral ou escanteio, o Técnico beneficiado
        # com o mesmo poderá movimentar 1 (um) botão para efetuar a cobrança"
        "lateral": Moves("taker", 1, "003 Art. 72"),
        "escanteio": Moves("taker", 1, "003 Art. 72"),
        # Art. 73: "O mesmo raciocínio deve ser observado nas cobranças de falta"
        "falta_direta": Moves("taker", 1, "003 Art. 73"),
        "falta_indireta": Moves("taker", 1, "003 Art. 73"),
        "falta_tecnica": Moves("taker", 1, "003 Art. 73"),
        # Art. 64, 70: the teams are arranged at each kick-off, after a goal and before a
        # goal kick (Art. 64 §1–§6 say how; not counted here)
        "saida": Moves("both", None, "003 Art. 64"),
        "tiro_de_meta": Moves("both", None, "003 Art. 64"),
        # Art. 64: a reposição, "os times não serão arrumados"; Art. 44 a: the goalkeeper's
        # ball in the small area "como se fosse um tiro-de-meta, mas sem arrumação dos times"
        "reposicao": Moves("none", None, "003 Art. 64"),
        "bola_do_goleiro": Moves("none", None, "003 Art. 44 a"),
    }
    # Art. 64 §6: "caberá ao cobrador do lance arrumar primeiro o seu ataque e o adversário
    # também o seu ataque, em seguida a defesa do cobrador e após a defesa do adversário"
    restart_positions: ClassVar[dict[str, Arrange]] = {
        "tiro_de_meta": Arrange((("taker", "attack"), ("other", "attack"),
                                 ("taker", "defence"), ("other", "defence")), "003 Art. 64 §6"),
    }
    # Art. 68: the ball hitting the técnico or a disc hitting an opponent's first is a
    # "falta" ("toque" is a move, Art. 46); pênalti (Art. 69), falta técnica (Art. 80) — no
    # "mão", no dois-toques
    foul_kinds: ClassVar[tuple[str, ...]] = ("falta", "penalti", "tecnica")
    # the restarts (issue #45): saída (Art. 32), tiro de meta after a shot, else reposição
    # (64), lateral (66), escanteio (58), bola do goleiro (44), the direct and indirect kicks
    # (74), pênalti (69), falta técnica (48) and the disciplinary foul's tiro livre (87) — no
    # cedido nor cavado
    # Art. 83–86: besides the base's, the deliberate foul and the disqualification
    discipline_kinds: ClassVar[tuple[str, ...]] = (
        "disciplinary", "cera", "expel", "end_match", "deliberate_foul", "disqualify")
    restart_kinds: ClassVar[dict[str, str]] = {
        "saida": "003 Art. 32", "tiro_de_meta": "003 Art. 64", "lateral": "003 Art. 66",
        "escanteio": "003 Art. 58", "reposicao": "003 Art. 64", "bola_do_goleiro": "003 Art. 44",
        "falta_direta": "003 Art. 74", "falta_indireta": "003 Art. 74", "penalti": "003 Art. 69",
        "falta_tecnica": "003 Art. 48", "tiro_livre": "003 Art. 87"}
    cites: ClassVar[dict[str, str]] = {
        "foul_kinds": "003 Art. 68",
        "restart_kinds": "003 Art. 64",
        "rearrange_goal_kick": "003 Art. 64",
        "draw": "003 Art. 30",
        "kickoff": "003 Art. 30",
        "distance": "003 Art. 73 §1",
        "duration": "003 Art. 27",
        "change_ends": "003 Art. 30 §2",
        "added_time": "003 Art. 29 §único",
        "end": "003 Art. 29",
        "shot_before_alarm": "003 Art. 29",
        "infraction_alarm": "003 Art. 74 §único",
        "foul_after_time": "003 Art. 74 §único e",
        "shot_named": "003 Art. 54",
        "ball_on_disc": "003 Art. 79",
        "shot_lance": "003 Art. 54",
        "shot_required": "003 Art. 60",
        "goal": "003 Art. 55",
        "own_goal": "003 Art. 59",
        "opponent_half": "003 Art. 53",
        "midline": "003 Art. 53",
        # no shot "enquanto a bola permanecer dentro do círculo central" (Art. 34): the kick-off's
        # ball is at its centre, on the halfway line (Art. 53)
        "kickoff_shot": "003 Art. 34",
        "no_shot_restart": "003 Art. 60 §único",
        "no_shot_corner": "003 Art. 60 §único",
        "after_goal": "003 Art. 31",
        "lateral": "003 Art. 66",
        "escanteio": "003 Art. 58",
        "tiro_de_meta": "003 Art. 64",
        "reposicao": "003 Art. 64",
        "touches": "003 Art. 47",
        "lance_time": "003 Art. 71",
        "technical": "003 Art. 80",
        "penalty": "003 Art. 69",
        "free_kick": "003 Art. 74",
        "kick_choice": "003 Art. 74",
        "big_area": "003 Art. 43",  # and Art. 44 b: "do local exato em que parar"
        "indirect_kick": "003 Art. 74 §único",  # b: "dará o passe e terá que chutar"
        "disciplinary": "003 Art. 86",
        "disciplinary_kick": "003 Art. 87",
        "expel": "003 Art. 83 §1",
        "forfeit": "003 Art. 83 §3",
        "tie_break": "003 Art. 28",
        "shootout": "003 Art. 28",
        "shootout_discs": "003 Art. 28 §1",
        "keeper_no_kick": "003 Art. 37 §3",
        "advantage": "003 Art. 28 §3",
        "substitutions": "003 Art. 62",
        "draw_choice": "003 Art. 30 §1",
        "ball_stopped": "003 Art. 40",
        "keeper_foul": "003 Art. 74",
    }
    # "O botão que efetuou uma cobrança de um lateral, escanteio, falta ou tiro-de-meta somente
    # poderá ser acionado após um outro botão qualquer tocar na bola" (Art. 66 §3, 67 §2): no
    # sanction written, so his lance is refused (possession.kicker_waits)
    taker_waits: ClassVar[dict[str, tuple[str, str]]] = {
        "lateral": ("refuse", "003 Art. 66 §3"),
        "escanteio": ("refuse", "003 Art. 66 §3"),
        "falta_direta": ("refuse", "003 Art. 66 §3"),
        "falta_indireta": ("refuse", "003 Art. 66 §3"),
        "falta_tecnica": ("refuse", "003 Art. 66 §3"),
        "tiro_de_meta": ("refuse", "003 Art. 67 §2"),
    }
    # who takes a restart: a disc, never the goalkeeper (Arts. 44, 66, 67)
    taker_rules: ClassVar[dict[str, tuple[str, str]]] = {
        "tiro_de_meta": ("disc", "003 Art. 67"),
        "lateral": ("disc", "003 Art. 66"),
        "bola_do_goleiro": ("disc", "003 Art. 44"),
    }
    # a goal kick whose ball does not leave the big area: technical foul, indirect (Art. 67 §1)
    # a foul on the goalkeeper is in the fouled team's areas, not the offender's own (Art. 69
    # "dentro das suas próprias áreas"): a free kick in its field of defence, indirect (Art. 74)
    keeper_foul_restart = ("falta_indireta", "003 Art. 74")
    failed_restart_rules: ClassVar[dict[str, dict[str, str]]] = {
        "tiro_de_meta": {"area": "003 Art. 67 §1"},
    }
    # where a technical foul is taken: the 8th touch without a shot, "no local aonde a bola
    # parar", the ball laid flat if it stopped standing (Art. 48 §1–§2); the ball played into
    # one's own small area, "cobrado do 'bico' mais próximo da área pequena" (Art. 40)
    rule_spots: ClassVar[dict[str, dict[str, Any]]] = {
        "003 Art. 48": {"spot": "where_the_ball_stops", "ball_may_be_laid_flat": True},
        "003 Art. 40": {"spot": "small_area_corner", "of": "offender"},
    }
    # Art. 69, §1: the penalty's set-up; Art. 73 §1: the opponents cleared from a free kick
    # go back once it is over
    penalty_setup = ("clear_all_discs_but_kicker_from_big_area_and_meia_lua",
                     "goalkeeper_facing_goal_line_from_inside")
    cleared_return: ClassVar[dict[str, bool]] = {"falta_direta": True, "falta_indireta": True}
    free_kick_distance_mm = 70  # Art. 73: "a distância mínima de 7,0 cm"

    # -- ball out ---------------------------------------------------------------------------
    def ball_out_restart(
        self, ctx: Ctx, info: dict[str, Any], last: dict[str, Any]
    ) -> tuple[str, str, str]:
        m = ctx.m
        toucher = last["side"]
        if info["line"] == "side":
            side = other(toucher)  # off an opponent the possession stays (Art. 47 §4)
            if self._used_all(m, side):
                return "lateral", other(side), "003 Art. 47 §5"
            return "lateral", side, self.cite("lateral")
        defender = self.defender_of(m, info["end"])
        if toucher == defender:
            if self._used_all(m, other(defender)):
                return "tiro_de_meta", defender, "003 Art. 47 §5"
            return "escanteio", other(defender), self.cite("escanteio")
        if info.get("shot"):
            return "tiro_de_meta", defender, self.cite("tiro_de_meta")
        return "reposicao", defender, self.cite("reposicao")

    def ball_stopped_restart(self, ctx: Ctx, side: str) -> None:
        """The ball stopped in `side`'s small area: after a shot it is the goalkeeper's
        (Art. 42); sent there by its own team, the goalkeeper's unless that team has no
        touches left, then a technical foul (Art. 40); sent there by the attacker, who may
        use its remaining touches, else the goalkeeper's (Art. 41, §único)."""
        m = ctx.m
        shot = m["shot_asked"]
        m["shot_asked"] = None
        played = m.get("last_player")
        r = m["restart"]
        if (not shot and played == side and r and r["kind"] == "falta_tecnica"
                and not r["taken"] and r["side"] == other(side) and r["rule"] == "003 Art. 48"):
            # the 8th touch without a shot sent it there: one offence, already sanctioned;
            # only where the kick is taken changes (Art. 48 §1: the corner of the small area)
            r["rule"] = "003 Art. 40"
            for key in ("spot", "spot_of", "ball_may_be_laid_flat"):
                r.pop(key, None)
            self.place_restart(ctx, r)
            ctx.announce(
                "foul_spot",
                N_("{team}'s technical foul kick is taken from the corner of the small area"),
                "003 Art. 48 §1",
                team=ctx.name(other(side)),
            )
            return
        if shot:
            self.set_restart(ctx, "bola_do_goleiro", side, "003 Art. 42")
        elif played == side:
            if self._used_all(m, side):
                self.technical_foul(ctx, side, "003 Art. 40")
            else:
                self.set_restart(ctx, "bola_do_goleiro", side, "003 Art. 40")
        elif played and not self._used_all(m, played):
            m["_in_small_area"] = side  # until the attacker's next touch (Art. 41 §único)
            ctx.announce(
                "play_on",
                N_("Ball stopped in the small area: {team} still has touches"),
                "003 Art. 41",
                team=ctx.name(played),
            )
        else:
            self.set_restart(ctx, "bola_do_goleiro", side, "003 Art. 41 §único")

    @staticmethod
    def _used_all(m: dict[str, Any], side: str) -> bool:
        t = m["touches"][side]
        return bool(t["count"] >= t["limit"])

    def shot_limit(self, m: dict[str, Any], side: str) -> Refused | None:
        """Art. 74 §único b: an indirect free kick is the pass, then the shot — no shot asked
        before its first touch; Art. 34: none while the kick-off's ball is in the centre
        circle."""
        if m.get("_in_centre_circle"):
            return Refused(N_("The ball is still in the centre circle after the kick-off: no "
                              "shot at goal"), rule="003 Art. 34")
        r = m["restart"]
        if r and r["side"] == side and r["kind"] in INDIRECT_KICKS and not r["taken"]:
            return Refused(N_("Indirect free kick: the first touch is the pass; the shot "
                              "comes after it"), rule=INDIRECT_KICKS[r["kind"]])
        return None

    def no_shot_answers(self, m: dict[str, Any], scorer: str) -> list[str]:
        """A ball that went in straight from an indirect kick's pass (its taker's first touch,
        no other touch since: Art. 74 §único b, Art. 47 §2, 48) had no shot asked, nor could
        it: «chute pedido» is no answer then (walk52a H2: such a goal counted)."""
        answers = super().no_shot_answers(m, scorer)
        r = m["restart"]
        if (r and r["side"] == scorer and r["kind"] in INDIRECT_KICKS and r["taken"]
                and not r.get("touches_since") and m.get("last_player") == scorer):
            answers = [a for a in answers if a != "shot_asked"]
        return answers

    def time_up(self, ctx: Ctx) -> None:
        """Art. 74 §único b: an indirect kick is "o passe" and then "terá que chutar a gol": its
        pass played just before the alarm — within the lance's time, Art. 71 — the kick is not
        over: the shot is still taken, as the last lance (the period ended on the pass: issue
        #45). A pass longer ago: the shot's time was up, the kick over."""
        m = ctx.m
        r = m["restart"]
        passed = (r or {}).get("pass_at")
        if (not m["shot_asked"] and r and r.get("infraction") and r["taken"]
                and self.last_lance_kick_lances.get(r["kind"], 1) == 2
                and not r.get("touches_since") and m.get("turn") == r["side"]
                and m.get("last_player") == r["side"] and passed is not None
                and m["alarm_at"] is not None and m["alarm_at"] - passed <= self.lance_ms):
            self.begin_last_lance(ctx, r["side"], "infraction", "003 Art. 74 §único b")
            m["last_lance"]["played"] = 1  # the pass: the shot is what is left
            return
        super().time_up(ctx)

    # -- the kick-off (Art. 33) -----------------------------------------------------------------
    def on_touch(self, ctx: Ctx) -> None:
        """A touch; the instant of an infraction's kick's first touch (its pass) is kept, for
        the alarm that comes before its shot (time_up, Art. 74 §único b)."""
        r = ctx.m["restart"]
        kick = r if r and r.get("infraction") and not r["taken"] else None
        self.touch_played(ctx)
        if kick is not None and kick["taken"]:
            kick["pass_at"] = ctx.instant()

    def touch_played(self, ctx: Ctx) -> None:
        """Art. 33: the kick-off's first touch that misses the ball (`hit: false`) gives a
        second kick-off, the wasted touch counted for the team; a second miss passes the
        ball to the opponent ("perda de posse de bola")."""
        m = ctx.m
        r = m["restart"]
        side = ctx.side()
        self.freed_from_disc(ctx, side)
        if m.get("_lance_sanctioned") not in (None, side):
            # Art. 71 §único, 84: the other team played — the sanctioned lance is long over, and
            # the next overrun of that team's is judged again (a repeated cera, Art. 84 §único)
            m.pop("_lance_sanctioned", None)
        self.centre_circle(ctx, r)
        shot = m["shot_asked"]
        area = m.pop("_in_small_area", None)
        if (area is not None and side != area and not ctx.entry.data.get("hit", True)
                and not (r and not r["taken"]) and not shot):
            super().on_touch(ctx)  # the miss counts for the team (Art. 47 §3)
            self.missed_in_small_area(ctx, area)
            return
        if (not ctx.entry.data.get("hit", True) and shot and shot["side"] == side
                and shot.get("disc") is not None and ctx.disc() == shot["disc"]):
            super().on_touch(ctx)  # the miss counts for the team (Art. 47 §3)
            self.shot_missed(ctx, shot)
            return
        if (ctx.entry.data.get("hit", True) or not r or r["kind"] != "saida" or r["taken"]
                or r["side"] != side or not self.in_play(m)):
            super().on_touch(ctx)
            return
        refusal = touch_refusal(self, m, side, ctx.disc())
        if refusal is not None:
            raise refusal
        r["missed"] = r.get("missed", 0) + 1
        m["touches"][side]["count"] += 1  # "já se considerando o primeiro toque … coletivo"
        m["lance_warnings"] = 0
        if r["missed"] < 2:
            ctx.announce("kickoff_again", N_("{team} missed the kick-off: a second kick-off"),
                         "003 Art. 33", team=ctx.name(side))
        else:
            m["restart"] = None
            self.reset_touches(m, side)
            self.reset_touches(m, other(side))
            m["turn"] = other(side)
            ctx.announce("kickoff_lost",
                         N_("{team} missed the kick-off twice: {other_team}'s ball"),
                         "003 Art. 33", team=ctx.name(side), other_team=ctx.name(other(side)))
        if self.lance_ms:
            ctx.device("lance_restart", side=m["turn"])

    def on_ball_on_disc(self, ctx: Ctx) -> None:
        """`ball_on_disc {side, disc}`: the ball stopped on top of (or inside) disc `disc` of
        `side`: "só ele poderá ser acionado e terá os toques que lhe restarem" (Art. 79), so a
        touch by any other disc is refused until it plays (possession.touch_refusal)."""
        m = ctx.m
        side, disc = ctx.side(), ctx.disc(required=True)
        r = m["restart"]
        if not self.in_play(m) or (r and not r.get("taken")):
            raise Refused(N_("The ball is not in play"), rule=self.cite("ball_on_disc"))
        if disc in m["expelled"][side]:
            raise Refused(N_("Disc {disc} was sent off"), disc=disc)
        if disc in barred(self, m, side):
            # a disc that may not play now (the kick's taker waiting for another touch, Art. 66
            # §3; out of the field) cannot be the only one allowed to: that would leave its
            # team with no disc to play (never strand the referee)
            raise Refused(N_("Disc {disc} of {team} may not play now, so the ball cannot be "
                             "left to it alone: enter the lance that follows instead"),
                          rule=self.cite("ball_on_disc"), disc=disc, team=ctx.name(side))
        m["_ball_on_disc"] = {"side": side, "disc": disc}

    def set_restart(self, ctx: Ctx, kind: str, side: str, rule: str, **extra: Any) -> None:
        # Art. 79 holds while the ball rests on the disc: a dead ball (out, a foul, a goal)
        # ends it, so the restart's taker is not held to the disc the ball once rested on
        ctx.m.pop("_ball_on_disc", None)
        super().set_restart(ctx, kind, side, rule, **extra)

    def freed_from_disc(self, ctx: Ctx, side: str) -> None:
        """Art. 79: the touch that frees the ball from the disc under it is that disc's; any
        touch taken ends the situation."""
        m = ctx.m
        if m.get("_ball_on_disc"):
            refusal = touch_refusal(self, m, side, ctx.disc())
            if refusal is not None:
                raise refusal
            m.pop("_ball_on_disc", None)

    def centre_circle(self, ctx: Ctx, r: dict[str, Any] | None) -> None:
        """Art. 34: "Após a saída, não será permitido arremesso ao gol enquanto a bola permanecer
        dentro do círculo central": the referee says so with the kick-off's touch or the next
        ones (`ball_in_centre_circle`); a touch without it took the ball out."""
        m = ctx.m
        if r and r["kind"] == "saida" and ctx.entry.data.get("ball_in_centre_circle"):
            m["_in_centre_circle"] = True
        else:
            m.pop("_in_centre_circle", None)

    def missed_in_small_area(self, ctx: Ctx, area: str) -> None:
        """Art. 41 §único: the attacker whose ball stopped in the opponent's small area "fure"
        (misses it) while taking it out: "bola do goleiro" (Art. 43, 44 a)."""
        m = ctx.m
        if not self.in_play(m) or (m["restart"] and not m["restart"]["taken"]):
            return  # the miss itself ended the play (the 8th touch without a shot, Art. 48)
        self.set_restart(ctx, "bola_do_goleiro", area, "003 Art. 41 §único")

    def shot_missed(self, ctx: Ctx, shot: dict[str, Any]) -> None:
        """Art. 52: the disc named for the shot "fure" (misses the ball): the shot is not
        made, a technical foul "cobrada do local de onde a bola se encontra"."""
        m = ctx.m
        if m["shot_asked"] is not shot or not self.in_play(m):
            return  # the touch already ended the shot (the last lance, a foul)
        m["shot_asked"] = None
        ctx.announce("shot_over", N_("Shot by {team}, disc {disc}: {outcome}"),
                     team=ctx.name(shot["side"]), disc=shot.get("disc"),
                     outcome=SHOT_OUTCOMES.word("miss"))
        self.technical_foul(ctx, shot["side"], "003 Art. 52")

    # -- touches (Arts. 47–49) ------------------------------------------------------------------
    def count_touch(self, ctx: Ctx, side: str, disc: int | None, hit: bool) -> None:
        m = ctx.m
        mine, theirs = m["touches"][side], m["touches"][other(side)]
        handed_back = not hit and theirs["count"] >= theirs["limit"]
        if hit or handed_back:
            # zeroed when the opponent really touches the ball (Art. 47 §6), or when
            # the opponent misses after a completed 8-touch move (Art. 49 §único)
            self.reset_touches(m, other(side))
        # the opponent who misses ("fure") after a completed 8-touch move hands the ball back:
        # the shooter "terá novamente direito a 8 (oito) toques" (Art. 49 §único, 57 §1)
        m["turn"] = other(side) if handed_back else side
        if self.lance_ms:
            ctx.device("lance_restart", side=ctx.m["turn"])
        mine["count"] += 1  # misses count for the team, not for the disc (Art. 47 §3)
        if hit and disc is not None:
            mine["run"] = mine["run"] + 1 if mine["disc"] == disc else 1
            mine["disc"] = disc
        if ctx.entry.data.get("displaced") and mine["limit"] > mine["count"] + 2:
            mine["limit"] = mine["count"] + 2
            ctx.announce(
                "touches_cut",
                N_("{team} displaced an opponent: only 2 more touches"),
                "003 Art. 47 §7",
                team=ctx.name(side),
            )
        self.count_touch_passes(ctx, side)
        if mine["run"] > self.run_limit:
            ctx.announce(
                "touch_run",
                N_("{team} disc {disc} played 3 times in a row"),
                "003 Art. 47 §2",
                disc=disc,
                team=ctx.name(side),
            )
            self.technical_foul(ctx, side, "003 Art. 47 §2")
        elif mine["count"] >= mine["limit"] and not m["shot_asked"]:
            ctx.announce(
                "touch_limit",
                N_("{team}: last touch without a shot at goal"),
                "003 Art. 48",
                team=ctx.name(side),
            )
            self.technical_foul(ctx, side, "003 Art. 48")
        elif mine["count"] == mine["limit"] - 1:
            ctx.announce(
                "touch_last",
                N_("{team}: the next touch must be a shot at goal"),
                "003 Art. 47",
                team=ctx.name(side),
            )

    def shot_struck(self, ctx: Ctx, shot: dict[str, Any], hit: bool = True) -> None:
        """The asked shot, entered by its result or its ball out alone (the console's «Chute
        pedido» then «defendido»: walk52c H1), is its shooter's palhetada like any other: the
        opponent's count goes back to zero when the shooter "palhetar (tocar) de fato a bola"
        (Art. 47 §6), and the shot counts for the shooter (the 8th touch is the shot: Art. 47,
        48, 49; Art. 57 off the post with the 8 used). A shot whose touch was entered
        (`touched`) was counted then; a miss ("fure", Art. 52) touched nothing but counts for
        the team (Art. 47 §3)."""
        if shot.get("touched") or not ctx.m["touches"]:
            return
        shot["touched"] = True
        side, disc = shot["side"], shot.get("disc")
        mine = ctx.m["touches"][side]
        if hit:
            self.reset_touches(ctx.m, other(side))
            if disc is not None:
                mine["run"] = mine["run"] + 1 if mine["disc"] == disc else 1
                mine["disc"] = disc
        mine["count"] += 1

    # -- who has the ball (Arts. 47 §4, §6, 56, 57, 58 §3) ------------------------------------
    def turn_holder(self, m: dict[str, Any], side: str) -> str | None:
        """The team with the ball alone touches it: the count of 8 is "por equipe em cada
        jogada" (Art. 47) and the ball changes hands on a saved shot ("defesa-bola", Art. 58
        §3), a shot off the post with no touches left (Art. 57), the ball left off an opponent
        (`opponent_last`, Art. 47 §4 read the other way), a restart, or the turn button."""
        return side

    def lance_limit(self, m: dict[str, Any], side: str, disc: int | None) -> Refused | None:
        turn = m.get("turn")
        r = m.get("restart")
        last = m.get("last_lance") or {}
        if (m["status"] == "last_lance" and last.get("reason") == "infraction"
                and last.get("side") == side and last.get("played") and not m["shot_asked"]
                and r and r["side"] == side and r["kind"] in INDIRECT_KICKS):
            # Art. 74 §único b: after the alarm "o cobrador dará o passe e terá que chutar a
            # gol": the lance after the pass is the shot, asked first
            return Refused(N_("Last lance: after the pass comes the shot at goal; ask for it "
                              "first"), rule="003 Art. 74 §único b")
        if turn in ("A", "B") and turn != side and not (r and not r.get("taken")):
            # the refusal names the console's control by its words (walk45i-a M1)
            return Refused(
                N_("{turn_team} has the ball: {team} touches it only after it passes. If the "
                   "ball went to {team}, enter that first: «{passed}» (Foul / touch), or a "
                   "saved shot (Shot without a goal: saved)"),
                rule="003 Art. 47", team=self_name(m, side), turn_team=self_name(m, turn),
                passed=passed_words(self, m, side))
        return None

    def hand_over(self, ctx: Ctx, to: str) -> None:
        """Art. 47 §4: the ball off the opponent's disc is the opponent's; resting on a disc
        of the team that had it (Art. 79) or waiting in a small area for its touches (Art. 41
        §único) it is no longer."""
        ctx.announce("ball_passed", N_("{team}'s ball: it stopped off a {team} disc or "
                                       "goalkeeper"), "003 Art. 47 §4", team=ctx.name(to))
        ctx.m.pop("_ball_on_disc", None)
        ctx.m.pop("_in_small_area", None)
        super().hand_over(ctx, to)

    def count_touch_passes(self, ctx: Ctx, side: str) -> None:
        """The touch ended off an opponent's disc and stopped there (`opponent_last`): the
        opponent's ball (Art. 47 §4: only off the opponent "e na seqüência" one's own disc or
        out does the possession stay)."""
        m = ctx.m
        if ctx.entry.data.get("opponent_last") and self.in_play(m) and m["turn"] == side:
            m["turn"] = other(side)
            ctx.announce("turn", N_("{team}'s turn"), "003 Art. 47 §4",
                         team=ctx.name(other(side)))
            if self.lance_ms:
                ctx.device("lance_restart", side=m["turn"])

    def after_shot(self, ctx: Ctx, shot: dict[str, Any], outcome: str) -> None:
        m = ctx.m
        shooter = shot["side"]
        if outcome in ("saved", "blocked") and not ctx.entry.data.get("teammate_last"):
            # off the goalkeeper or an opponent's disc and still in the field: "defesa-bola"
            m["turn"] = other(shooter)  # (Art. 58 §3)
        elif outcome in ("post", "in_play") and self._used_all(m, shooter):
            m["turn"] = other(shooter)  # off the post with the 8 used: the opponent (Art. 57)
        if outcome in ("short", "miss"):
            # Art. 50: the shot does not reach the goal; Art. 52: the shooter misses the ball
            rule = "003 Art. 50" if outcome == "short" else "003 Art. 52"
            self.technical_foul(ctx, shot["side"], rule)
        elif outcome == "blocked":
            # Art. 50 §único: stopped by a disc on its way, not a technical foul; Art. 49:
            # the play goes on from where the ball stopped
            ctx.announce("play_on", N_("Shot blocked by a disc: play on"), "003 Art. 50 §único")

    # -- discipline (Arts. 83–85) --------------------------------------------------------
    def initial_match(self) -> dict[str, Any]:
        m = super().initial_match()
        for side in ("A", "B"):
            m["fouls"][side]["cera"] = 0
        return m

    def cera_foul(self, ctx: Ctx, side: str) -> None:
        """Art. 84: "cera" (deliberate delay, Art. 86 h; past the lance time again after the
        warning, Art. 71 §único) is a disciplinary foul, a free kick; a repeat ("na
        reincidência ... será punido com desclassificação", Art. 84 §único) disqualifies at
        once, with no free kick announced first. Setting `second_cera: grade` asks the referee
        instead (Art. 71 §único "poderá", Art. 87)."""
        m = ctx.m
        m["fouls"][side]["cera"] = m["fouls"][side].get("cera", 0) + 1
        if m["fouls"][side]["cera"] < 2 or m["finished"]:
            kick, extra = self.cera_kick(ctx)
            self.disciplinary_foul(ctx, side, None, "003 Art. 84", kick, cera=True, **extra)
        elif self.setting("second_cera", "disqualify") == "grade":
            self.ask_grade(ctx, side, None, "003 Art. 84 §único")
        else:
            self.disqualify(ctx, side, "003 Art. 84 §único")

    @staticmethod
    def cera_kick(ctx: Ctx) -> tuple[str, dict[str, Any]]:
        """Art. 84: the cera's kick is "tiro indireto ou direto ao gol, conforme o caso" — where
        the ball was, as for a foul (Art. 74): in the favoured team's own field (`where:
        own_half` on the answer) indirect; in its attack field direct or indirect, its choice.
        Not said: the free kick as before."""
        where = ctx.entry.data.get("where")
        if where is None:
            return "tiro_livre", {}
        if where == "own_half":
            return "falta_indireta", {}
        if where == "opponent_half":
            return "falta_direta", {"kick_choice": True}
        raise Refused(N_("'where': own_half or opponent_half, the favoured team's field where "
                         "the ball was"), rule="003 Art. 84")

    def on_discipline(self, ctx: Ctx) -> None:
        """Art. 87: a disciplinary foul (Art. 86) is graded by the referee — an indirect free
        kick or the end of the match — so it is asked, not given automatically."""
        if ctx.entry.data.get("type", "disciplinary") == "disciplinary":
            side = ctx.side()
            disc = ctx.disc()
            self.refuse_if_finished(ctx)
            self.ask_grade(ctx, side, disc, "003 Art. 87")
            return
        super().on_discipline(ctx)

    def ask_grade(self, ctx: Ctx, side: str, disc: int | None, rule: str) -> None:
        ctx.confirm(
            "discipline_grade",
            rule,
            N_("Disciplinary foul by {team}: indirect free kick or disqualification?"),
            ["free_kick", "disqualify"],
            default="free_kick",
            reject="free_kick",
            side=side,
            disc=disc,
            values={"team": ctx.name(side)},
        )

    def resolve_discipline_grade(self, ctx: Ctx, pending: dict[str, Any], choice: str) -> None:
        if ctx.m["finished"]:
            return
        if choice == "disqualify":
            self.disqualify(ctx, pending["side"], pending["rule"])
        else:  # Art. 87: "tiro livre indireto" — the kick the players take, so the one said
            self.disciplinary_foul(ctx, pending["side"], pending.get("disc"), pending["rule"],
                                   "falta_indireta")

    def disqualify(self, ctx: Ctx, side: str, rule: str) -> None:
        ctx.m["fouls"][side]["disciplinary"] += 1
        ctx.announce("disqualified", N_("{team} disqualified"), rule, team=ctx.name(side))
        self.forfeit(ctx, side, rule)

    def other_discipline(self, ctx: Ctx, side: str, kind: str, disc: int | None) -> None:
        m = ctx.m
        if kind == "deliberate_foul":
            m["fouls"][side].setdefault("deliberate", 0)
            m["fouls"][side]["deliberate"] += 1
            if m["fouls"][side]["deliberate"] >= 2:
                self.forfeit(ctx, side, "003 Art. 83 §2")
                return
            self.expel(ctx, side, disc, "003 Art. 83 §1")
            if self.in_play(m):
                m["shot_asked"] = None
                self.award_free_kick(ctx, side, "falta")
        elif kind == "disqualify":
            self.forfeit(ctx, side, "003 Art. 85")
        else:
            super().other_discipline(ctx, side, kind, disc)

    def forfeit(self, ctx: Ctx, side: str, rule: str) -> None:
        """Art. 83 §3: 2 × 0 against the punished side when the score is level, he leads, or
        the other leads "por uma diferença inferior a 1 (um) gol"; the score of the moment
        when the other leads "por um placar de 2 (dois) ou mais gols". A lead of exactly one
        goal is in neither clause: the referee decides (`final_score`)."""
        m = ctx.m
        winner = other(side)
        lead = m["score"][winner] - m["score"][side]
        if lead < 1:
            m["score"] = {winner: 2, side: 0}
        self.finish(ctx, winner, "forfeit", rule, loser=side, score_rule="003 Art. 83 §3")
        if lead == 1:
            ctx.confirm("final_score", "003 Art. 83 §3",
                        N_("{team} is disqualified while losing by one goal: final score "
                           "2 × 0, or the score of the moment?"),
                        ["two_nil", "as_played"], default="two_nil", reject="as_played",
                        side=side, values={"team": ctx.name(side)})

    def resolve_final_score(self, ctx: Ctx, pending: dict[str, Any], choice: str) -> None:
        """The referee's final score for a disqualification at a one-goal lead (Art. 83 §3)."""
        side = pending["side"]
        if choice == "two_nil":
            ctx.m["score"] = {other(side): 2, side: 0}
