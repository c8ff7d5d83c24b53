"""`gaucha`: Regra Gaúcha (Liga Gaúcha de Futebol de Mesa), chapters 7–11 (001).

The excerpt gives no durations: they are competition settings, defaulting to
the national 2 × 25 minutes. At the end signal the player on turn still has
one last lance (001 Art. XXI §1) and no infraction from it is taken (§2).
Throw-ins and corners are "cedido" or "cavado" (Arts. XXVIII, XXXIV); over
15 s for a lance is a technical foul (Art. XXIX e); offside is the referee's
call (Art. XXXII).
"""

from __future__ import annotations

from typing import Any, ClassVar

from futmesa.i18n import N_, NP_

from .base import MINUTE, Ruleset
from .context import Ctx, Refused, other
from .possession import lance_side, offside_side, on_turn_only, shot_field


class Gaucha(Ruleset):
    name = "gaucha"
    title = "Regra Gaúcha (LGFM)"
    document = "001"
    periods = 2
    period_ms = 25 * MINUTE  # not in the excerpt: competition setting `period_ms`
    interval_ms = 5 * MINUTE  # not in the excerpt: competition setting `interval_ms`
    lance_ms = 15_000  # Art. XXIX e
    lance_warn_ms = 5_000
    lance_over = "past"  # Art. XXIX e: "demorar mais de quinze segundos"
    # Art. XXIX e counts the técnico's own delay ("demorar … para efetuar um lance"): the time
    # the referee held play stopped is not his, so his lance counts its 15 s afresh after it
    lance_fresh_after_stop = True
    substitutions = 3  # not in the excerpt: competition setting `substitutions`
    corner_kind = "escanteio_cavado"  # Art. XXVIII §6: off a defender's disc
    shot_needs_before_alarm = False  # Art. XXI §1: the player on turn has the last lance anyway
    # Art. XXXII offside, Art. XXXVI the corner arc, Art. XXXIII §1 discs moved at a goal
    # kick, Art. XXIX l the pass on a two-lance restart's first lance
    # ... Art. XXXVII §1 a disc out of the field, Art. XXXVIII a rebound over the halfway line,
    # Art. XXVIII §2 a a corner's first lance short of the big area, Art. XXIX d a lance played
    # from the opponent's field
    referee_inputs = frozenset({"kickoff_failed", "offside", "ball_on_arc", "discs_moved",
                                "pass", "disc_out",
                                "rebound_midline", "free_kick_choice",
                                "pass_touched_opponent", "midline_deflection",
                                "kick_spot_choice", "corner_short",
                                "ball_from_attack"})
    # Art. XXXI §2: an own goal only "partindo do campo do defensor que estiver efetuando a
    # jogada"; a shot is taken from the attacking field (Art. XXI a), so back in one's own
    # goal it is no goal — and "quando a bola arremessada ao arco bater na trave e ... entrar
    # no gol" of the técnico who shot, "será considerado falta técnica" (Art. XXII §1; off the
    # goalkeeper, §2), at the midline, the beneficiary choosing the side
    shot_own_goal = ("no_goal", "falta_tecnica", "001 Art. XXII §1")
    # a technical foul's kick is "um arremesso simples, sem ser válido o chute a gol" (Art.
    # XXIX §único): into the goal it is no goal, not another technical foul
    goal_only_void = ("falta_tecnica",)
    # Art. XXIII: falta, toque, mão, pênalti, falta técnica (escanteio is a restart) — no
    # dois-toques
    foul_kinds: ClassVar[tuple[str, ...]] = ("falta", "toque", "mao", "penalti", "tecnica")
    # the restarts (issue #45): the saída (Art. XXIX c); the lateral and the escanteio are
    # cedidos or cavados (XXXIV §1, XXVIII) — never plain —, tiro de meta (XXXIII), bola do
    # goleiro (XXXV); the infractions' direct and indirect kicks (XXIII §1), pênalti (XXVII),
    # falta técnica (XXIX) and the offside's one-lance kick (XXXII §3) — no reposição
    restart_kinds: ClassVar[dict[str, str]] = {
        "saida": "001 Art. XXIX c", "tiro_de_meta": "001 Art. XXXIII",
        "lateral_cedida": "001 Art. XXXIV §1 a", "lateral_cavada": "001 Art. XXXIV §1 b",
        "escanteio_cedido": "001 Art. XXVIII §1", "escanteio_cavado": "001 Art. XXVIII §6",
        "bola_do_goleiro": "001 Art. XXXV", "falta_direta": "001 Art. XXIII §1",
        "falta_indireta": "001 Art. XXIII §1", "penalti": "001 Art. XXVII",
        "falta_tecnica": "001 Art. XXIX", "tiro_livre": "001 Art. XXXII §3"}
    cites: ClassVar[dict[str, str]] = {
        "foul_kinds": "001 Art. XXIII",
        "restart_kinds": "001 Art. XXX",
        "end": "001 Art. XXI §1",
        "shot_before_alarm": "001 Art. XXI §1",
        "foul_after_time": "001 Art. XXI §2",
        "shot_named": "001 Art. XXI c",
        "shot_lance": "001 Art. XX a",
        # the vez: "o técnico que tiver a vez de jogar" (XXI §1); the excerpt fixes no turn
        # order in open play and gives no foul for a lance out of it (out_of_turn below)
        "vez": "001 Art. XXI §1",
        "shot_required": "001 Art. XXI c",
        "opponent_half": "001 Art. XXI a",
        "midline": "001 Art. XXI §único",
        # a shot needs "que a bola ultrapasse totalmente a linha divisória do campo" (a): the
        # kick-off's ball is on it, at the centre (walk50c M2: taken «do campo adversário»)
        "kickoff_shot": "001 Art. XXI a",
        "goal": "001 Art. XXXI",
        "own_goal": "001 Art. XXXI §2",
        "direct_goal": "001 Art. XXXI §1",
        "no_shot_restart": "001 Art. XXXIII",
        "no_shot_corner": "001 Art. XXVIII §6",
        "lateral": "001 Art. XXXIV",
        "escanteio": "001 Art. XXVIII",
        "tiro_de_meta": "001 Art. XXXIII",
        "lance_time": "001 Art. XXIX e",
        "technical": "001 Art. XXIX",
        "disciplinary": "001 Art. XXIX f",
        "penalty": "001 Art. XXVII",
        "free_kick": "001 Art. XXIII §2",
        "kick_choice": "001 Art. XXIII §2",
        "pass_touched_opponent": "001 Art. XXIII §4",
        "escanteio_cedido_touched_opponent": "001 Art. XXVIII §4",
        "hand_set_piece": "001 Art. XLII",
        "offside": "001 Art. XXXII",
        "offside_disc": "001 Art. XXXII §2",
        "disc_out": "001 Art. XXXVII §1",
        "rebound_midline": "001 Art. XXXVIII",
        "forfeit": "001 Art. XLIII",
        "ball_stopped": "001 Art. XXXV",
        "midline_deflection": "001 Art. XXXI §3",
        "waive": "001 Art. XXIII §6",
        "keeper_foul": "001 Art. XXIII §9",
        "side_choice": "001 Art. XXXIII §2",
        "ball_on_arc": "001 Art. XXXVI",
        "discs_moved": "001 Art. XXXIII §1",
        "kick_spot": "001 Art. XXIX",
    }
    # a goal kick and the goalkeeper's ball are taken by "um dos zagueiros" (XXXIII §2, XXXV)
    taker_rules: ClassVar[dict[str, tuple[str, str]]] = {
        "tiro_de_meta": ("disc", "001 Art. XXXIII §2"),
        "bola_do_goleiro": ("disc", "001 Art. XXXV §único"),
    }
    # XXIII §6: any infraction but a corner or a toque may be let go; occurrences (throw-ins,
    # goal kicks, the goalkeeper's ball) are not infractions
    # Art. XLVIIII (the third so numbered): "Na cobrança de infrações ou ocorrências, quando o
    # jogador errar em bola será considerado falta técnica" (the kick-off has XXIX c instead)
    missed_kick_rules: ClassVar[dict[str, str]] = {
        kind: "001 Art. XLVIIII" for kind in (
            "falta_direta", "falta_indireta", "falta_tecnica", "penalti", "tiro_livre",
            "escanteio", "escanteio_cedido", "escanteio_cavado", "lateral", "lateral_cedida",
            "lateral_cavada", "tiro_de_meta")}
    waived_is_spent = True  # XXIII §6: "considerada como vencida, não sendo portanto, cobrada"
    not_waivable = ("escanteio", "escanteio_cedido", "escanteio_cavado", "toque", "lateral_cedida",
                    "lateral_cavada", "tiro_de_meta", "bola_do_goleiro")
    # XXIII §9: a foul on the goalkeeper is taken from the penalty mark (in the fouled team's
    # own field, so indirect, §3)
    keeper_foul_restart = ("falta_indireta", "001 Art. XXIII §9")
    side_choice_kinds = ("tiro_de_meta", "falta_tecnica")  # XXXIII §2, XXII §1–§2
    # "O botão que cobrou a ocorrência não poderá tocar na bola ou até mesmo ser movimentado,
    # antes da mesma ser tocada por outro botão qualquer" (XXXIV §1 b): no sanction written,
    # so his lance is refused (possession.kicker_waits)
    # ... and the escanteio cedido's taker: "o segundo para a arremesso ao arco, exceto pelo
    # próprio botão cobrador" (XXVIII §2 a) — no shot for him, his touch a technical foul (§5),
    # until a pass
    taker_waits: ClassVar[dict[str, tuple[str, str]]] = {
        "lateral_cavada": ("refuse", "001 Art. XXXIV §1 b"),
        "escanteio_cedido": ("technical", "001 Art. XXVIII §5"),
    }
    # where a kick is taken when its article names the place: XXXIII §1 "cobrada no local da
    # saída da bola"; XXIII §9 "A falta no goleiro será cobrada na marca do pênalti" (the
    # fouled goalkeeper's); XXII §1 "cobrada na lateral da linha divisória do campo de jogo"
    rule_spots: ClassVar[dict[str, dict[str, Any]]] = {
        "001 Art. XXXIII §1": {"spot": "ball_out"},
        "001 Art. XXIII §9": {"spot": "penalty_mark", "of": "beneficiary"},
        "001 Art. XXII §1": {"spot": "midline_side_line"},
        # XXIX e, f "cobra-se no local onde está a bola": the lance time, a complaint — the
        # rule's place, no choice of place or side (walk45h-a low)
        "001 Art. XXIX e": {"spot": "ball", "side_choice": False},
        "001 Art. XXIX f": {"spot": "ball", "side_choice": False},
    }
    # a technical foul's place is its reason's, which only the referee knows: the penalty
    # mark for the goalkeeper outside or on the small area line (XXIX b, m)
    spot_choices: ClassVar[dict[str, tuple[str, ...]]] = {
        "falta_tecnica": ("penalty_mark", "ball", "ball_out")}
    # XXVII §2, §4: the penalty's set-up; §3: the discs moved out play on from where they are
    penalty_setup = ("clear_all_discs_from_big_area", "goalkeeper_front_on_goal_line")
    cleared_return: ClassVar[dict[str, bool]] = {"penalti": False}
    # what each restart allows its taker (lances, and what it may not win for him)
    restart_rules: ClassVar[dict[str, dict[str, Any]]] = {
        "lateral_cedida": {"lances": 2, "forbid": ("lateral", "escanteio", "goal"),
                           "rule": "001 Art. XXXIV §1 a"},
        "lateral_cavada": {"lances": 1, "forbid": ("lateral", "escanteio", "goal"),
                           "rule": "001 Art. XXXIV §1 b"},
        "tiro_de_meta": {"lances": 1, "forbid": ("lateral", "escanteio", "goal"),
                         "rule": "001 Art. XXXIII §1"},
        # a corner cavado is one lance that may not win a throw-in or a new corner: reversed
        # (§7); a corner cedido is two lances (§2 a, b: "em dois lances", or a pass), the first
        # may not win a throw-in or a corner: technical foul (§3); its disc plays the second
        # only after a pass (§5, in _touch)
        "escanteio_cavado": {"lances": 1, "forbid": ("lateral", "escanteio"),
                             "then": "reverse", "rule": "001 Art. XXVIII §7"},
        "escanteio_cedido": {"lances": 2, "forbid": ("lateral", "escanteio"),
                             "then": "technical", "rule": "001 Art. XXVIII §3"},
        "penalti": {"lances": 1, "rule": "001 Art. XXVII §1"},
        # an indirect kick: the pass, then the finish (XXIII §1 b); the first lance's disc
        # plays the second only after a pass (§7, as XXIX l)
        "falta_indireta": {"lances": 2, "rule": "001 Art. XXIII §1 b"},
        "tiro_livre": {"lances": 1, "rule": "001 Art. XXXII §3"},
        "falta_tecnica": {"lances": 1, "forbid": ("goal",), "rule": "001 Art. XXIX §único"},
        # the goalkeeper's ball: "um arremesso idêntico ao tiro de meta"
        "bola_do_goleiro": {"lances": 1, "forbid": ("lateral", "escanteio", "goal"),
                            "rule": "001 Art. XXXV §único"},
    }

    def out_of_turn(self, ctx: Ctx, side: str) -> bool:
        """001's restarts fix who plays next: the taker of an offside kick (Art. XXXII
        §2–§3), a throw-in cavada (Art. XXXIV §1 b) or any restart with a number of lances
        has no further lance until the opponent plays. A further one is refused — or, if the
        referee says it happened (`out_of_turn`), a technical foul by the restart's article.
        In open play the excerpt fixes no order (XX a, XXI §1 speak of the vez, no article
        binds it nor fouls a lance out of it): the lance played stands, and the referee is told
        it was played in the other team's vez and whose lance is next (walk45i-b M-a: the tap
        was taken without a word, the vez staying with the team that then lost it on time)."""
        r = ctx.m["restart"]
        if not (r and r.get("open") and r["taken"] and r["side"] == side
                and r["taker_lances"] >= (r.get("lances") or 1)):
            self.played_in_the_other_vez(ctx, side)
            return False
        if not ctx.entry.data.get("out_of_turn"):
            raise Refused(
                N_("{team} has played the restart's lances: {other_team} plays now. If the lance "
                   "happened, enter it as 'out of turn' (a technical foul)"),
                team=ctx.name(side), other_team=ctx.name(other(side)), rule=r["limit_rule"],
            )
        ctx.announce(
            "out_of_turn",
            N_("{team} played out of turn"),
            r["limit_rule"],
            team=ctx.name(side),
        )
        self.technical_foul(ctx, side, r["limit_rule"])
        return True

    def played_in_the_other_vez(self, ctx: Ctx, side: str) -> None:
        """A lance by `side` in open play while the vez was the other team's: it stands (no
        article fouls it), said so, with the next lance the other team's (count_touch)."""
        m = ctx.m
        turn = lance_side(m)
        r = m["restart"]
        if turn is None or turn == side or (r and not r["taken"]) or m["status"] != "running":
            return  # a restart to take or a last lance: refused with their own words
        ctx.announce("lance_off_turn",
                     N_("{team} played in {turn_team}'s turn: this rule has no foul for it, the "
                        "lance counts; the next lance is {turn_team}'s"),
                     self.cite("vez"), team=ctx.name(side), turn_team=ctx.name(turn))

    def turn_holder(self, m: dict[str, Any], side: str) -> str | None:
        """No turn order in open play, but a restart whose lances are played leaves the next
        lance to the opponent (out_of_turn below): possession.holder reads it here."""
        r = m["restart"]
        if (r and r.get("open") and r["taken"]
                and r["taker_lances"] >= (r.get("lances") or 1)):
            return other(r["side"])
        return None

    def on_rebound_midline(self, ctx: Ctx) -> None:
        """Art. XXXVIII: "Quando a bola for rebatida pelo goleiro ou por uma das traves e esta
        vir a ultrapassar a linha divisória não poderá haver chute a gol no lance imediato"."""
        m = ctx.m
        if not self.in_play(m):
            raise Refused(N_("The ball is not in play"))
        m["shot_asked"] = None
        m["no_shot_next_lance"] = True
        ctx.announce(
            "rebound_midline",
            N_("Rebound off the goalkeeper or a post over the halfway line: no shot at goal "
               "on the next lance"),
            self.cite("rebound_midline"),
        )

    def on_shot_asked(self, ctx: Ctx) -> None:
        """A shot is its side's lance: asked from the midline or the opponent's field (the
        console's default), it is a lance from the attack field once its result is given
        (`after_shot`): Art. XXIX d, and no offside (Art. XXXII §1 b). A penalty's shot is from
        the mark, in the opponent's field (Art. XXVII §1), whatever field the entry marks."""
        super().on_shot_asked(ctx)
        ball = shot_field(ctx.m, ctx.side(), str(ctx.entry.data.get("ball", "opponent_half")))
        ctx.m["_shot_from_attack"] = ball in ("midline", "opponent_half")

    def after_shot(self, ctx: Ctx, shot: dict[str, Any], outcome: str) -> None:
        super().after_shot(ctx, shot, outcome)
        if ctx.m.pop("_shot_from_attack", False):
            ctx.m["played_from_attack"] = shot["side"]
        else:
            ctx.m.pop("played_from_attack", None)

    def on_touch(self, ctx: Ctx) -> None:
        """Art. XXIX l (and XXXIV §1 a): the disc of a two-lance restart's first lance plays
        the second only after a pass (`pass: true` on the first lance's touch). (Art. XXXVII
        §1, a disc out of the field: situations.py `on_disc_out`, play.py `on_touch`.)"""
        m = ctx.m
        side, disc = ctx.side(), ctx.disc()
        ball = ctx.entry.data.get("ball")
        if ball not in (None, "own_half", "midline", "opponent_half"):
            raise Refused(N_("'ball' must be own_half, midline or opponent_half"))
        kick = self.kick_field(m, side)  # before the touch takes the kick
        self._touch(ctx, side, disc)
        # Art. XXIX d: the lance was played "estando a bola sobre a linha divisória ou no
        # campo do adversário" (`ball` on the touch, else the place of the kick it takes):
        # kept until the next lance; no offside after it (Art. XXXII §1 b)
        if (ball or kick) in ("midline", "opponent_half"):
            m["played_from_attack"] = side
        else:
            m.pop("played_from_attack", None)
        m.pop("no_shot_next_lance", None)  # Art. XXXVIII: the immediate lance is played
        if (m.get("offside_discs") or {}).get(side):
            m["offside_discs"][side] = []  # Art. XXXII §2: its team's first lance is played

    def kick_field(self, m: dict[str, Any], side: str) -> str | None:
        """The field `side`'s touch is played from when it takes the kick waiting, where the
        kick's place says it (walk51b M1): the centre of the kick-off (Art. XXIX c) and the
        side line at the halfway line (XXII §1) are on the midline; a corner mark, and a
        penalty mark in the opponent's area (XXVII, XXIX b, m), the opponent's field; a
        throw-in where the ball went out, the field it went out in (XXXIV). None where only
        the referee knows (where the ball is, where the foul was) or no kick waits for it."""
        r = m.get("restart")
        if not r or r.get("taken") or r.get("side") != side:
            return None
        spot = r.get("spot")
        if spot in ("centre", "midline_side_line"):
            return "midline"
        if spot in ("corner_mark", "penalty_mark") and r.get("spot_of", other(side)) != side:
            return "opponent_half"
        if spot == "ball_out" and r.get("out_line") == "side" and r.get("out_end") in (0, 1):
            return "own_half" if self.defender_of(m, r["out_end"]) == side else "opponent_half"
        return None

    def _touch(self, ctx: Ctx, side: str, disc: int | None) -> None:
        m = ctx.m
        r = m["restart"]
        second = bool(r and r.get("open") and r["taken"] and r["side"] == side
                      and r.get("lances") == 2 and r["taker_lances"] == 1)
        if second and self.in_play(m) and disc is not None and disc == r.get("first_disc") \
                and not r.get("passed") and not on_turn_only(self, m, side):
            ctx.announce(
                "same_disc",
                N_("{team} disc {disc} played both lances without a pass: technical foul"),
                "001 Art. XXIX l",
                disc=disc,
                team=ctx.name(side),
            )
            m["last_player"] = side
            self.technical_foul(ctx, side, "001 Art. XXIX l")
            return
        super().on_touch(ctx)
        r = m["restart"]
        if r and r.get("open") and r["side"] == side and r.get("lances") == 2 \
                and r["taker_lances"] == 1:
            r["first_disc"] = disc
            r["passed"] = bool(ctx.entry.data.get("pass"))
            self.pass_limits(ctx, r, side)
            if r["passed"]:
                r["kicker_free"] = True  # a team-mate touched the ball (XXVIII §2 b, §5)
            if r["kind"] == "escanteio_cedido" and ctx.entry.data.get("reaches_big_area") is False:
                # XXVIII §2 a: "se a bola no primeiro lance não cumprir o objetivo, o
                # beneficiado terá direito de completar o segundo lance, sem direito a chute"
                r["short"] = True

    def time_up(self, ctx: Ctx) -> None:
        """Art. XXI §1: the player on turn at the signal has one last lance ("efetuar este
        lance"). With the ball dead after a goal, the kick-off not yet taken, no lance is being
        played: the period ends at the signal (walk45j-a M5; 000 Art. 8 §10)."""
        m, r = ctx.m, ctx.m["restart"]
        if r and r.get("after_goal") and not r.get("taken") and not m["shot_asked"]:
            ctx.announce("time_up", N_("Time is up before the kick-off: no last lance, the "
                                       "period ends"), self.cite("end"))
            self.end_period(ctx, self.cite("end"))
            return
        self.begin_last_lance(ctx, ctx.m["turn"], "turn", self.cite("end"))

    @staticmethod
    def pass_limits(ctx: Ctx, r: dict[str, Any], side: str) -> None:
        """The first lance of an infraction's kick in two lances, as the referee saw it: its
        ball touched the halfway line or came back (`ball_touched_midline`, Art. XLXII), or
        the pass was played in the kicker's own field (`from_half` its side, Art. XXIII §1
        b "Não poderá haver passe ou tabela no campo de defesa"): no shot at goal after it."""
        data = ctx.entry.data
        half = data.get("from_half")
        if half not in (None, "A", "B"):
            raise Refused(N_("'from_half': the team whose field the pass was played in, A or B"),
                          rule="001 Art. XXIII §1 b")
        if data.get("ball_touched_midline") and r.get("infraction"):
            r["no_shot_rule"] = "001 Art. XLXII"
        elif half == side and r["kind"] == "falta_indireta":
            r["no_shot_rule"] = "001 Art. XXIII §1 b"

    def shot_limit(self, m: dict[str, Any], side: str) -> Refused | None:
        """Art. XX b, XXIX §único: a technical foul kick is never a shot at goal. Art. XXIII §1
        b: an indirect kick is "passe ou tabela" then the shot — no shot with its first lance,
        and none with the second when the first was not a pass. Art. XXXVIII: none on the
        lance right after a rebound over the halfway line."""
        if m.get("no_shot_next_lance"):
            return Refused(N_("The ball rebounded over the halfway line: no shot at goal on "
                              "this lance"), rule=self.cite("rebound_midline"))
        r = m["restart"]
        if not r or r["side"] != side:
            return None
        if r["kind"] == "falta_tecnica" and not r["taken"]:
            return Refused(
                N_("Technical foul: a single kick, no shot at goal"),
                rule="001 Art. XXIX §único",
            )
        if (r["kind"] == "escanteio_cedido" and r.get("open") and r.get("short")
                and r.get("taker_lances") == 1):
            return Refused(N_("The corner's first lance did not reach the big area: the second "
                              "lance may not shoot at goal"), rule="001 Art. XXVIII §2 a")
        if r.get("open") and r.get("taker_lances") == 1 and r.get("no_shot_rule"):
            return Refused(N_("The kick's first lance touched the halfway line or was a pass in "
                              "the defence field: no shot at goal"), rule=r["no_shot_rule"])
        if r["kind"] == "falta_indireta" and r.get("open"):
            if not r["taken"]:
                return Refused(N_("Indirect free kick: the first lance is the pass; the shot "
                                  "comes with the second"), rule="001 Art. XXIII §1 b")
            if r.get("taker_lances") == 1 and not r.get("passed"):
                return Refused(N_("Indirect free kick without a pass: the second lance may not "
                                  "shoot at goal"), rule="001 Art. XXIII §1 b")
        return None

    def on_foul(self, ctx: Ctx) -> None:
        """Art. XXI §2: "o técnico beneficiado não terá o direito de cobrar infrações oriundas
        deste lance" — by default no infraction from the last lance is taken. Setting
        `last_lance_fouls: against_player` reads "beneficiado" as the player who has the last
        lance: a foul he commits in it is still taken by the opponent, as the new last lance."""
        m = ctx.m
        last = m.get("last_lance") or {}
        if (m["status"] == "last_lance" and self.setting("last_lance_fouls") == "against_player"
                and ctx.entry.data.get("side") == last.get("side")):
            m["status"] = "running"  # time is up: the kick becomes the last lance
        r = m["restart"]
        if (ctx.entry.data.get("type") == "mao" and r and r.get("taken") and r["kind"] != "saida"
                and r.get("touches_since") == 0 and m["status"] == "running"):
            self.hand_from_set_piece(ctx, ctx.side(), r)
            return
        super().on_foul(ctx)

    def hand_from_set_piece(self, ctx: Ctx, offender: str, r: dict[str, Any]) -> None:
        """Art. XLII: "O técnico não poderá se beneficiar de mão cavada de bola parada
        (cobranças de infrações e ocorrências). Se ocorrer será considerada falta técnica. Se
        ceder mão de bola parada será considerado falta direta." The kick of a set piece hit a
        técnico's hand before any other touch: the opponent's hand — the kicker may not gain
        from it, a technical foul against him; his own — a direct free kick to the opponent."""
        m = ctx.m
        kicker = r["side"]
        m["shot_asked"] = None
        if offender != kicker:
            ctx.announce(
                "hand_from_set_piece",
                N_("{team}'s set piece hit the opponent's hand: {team} may not gain from it, "
                   "technical foul"),
                self.cite("hand_set_piece"),
                team=ctx.name(kicker),
            )
            self.technical_foul(ctx, kicker, self.cite("hand_set_piece"))
            return
        m["fouls"][offender]["fouls"] += 1
        ctx.announce(
            "hand_from_set_piece",
            N_("{team} gave a hand at its own set piece: direct free kick"),
            self.cite("hand_set_piece"),
            team=ctx.name(offender),
        )
        self.reset_touches(m, other(offender))
        self.set_restart(ctx, "falta_direta", other(offender), self.cite("hand_set_piece"),
                         infraction=True, foul_type="mao")

    def at_alarm_reopens(self) -> bool:
        return False  # the last lance is given anyway; its infractions are not taken (§2)

    def lance_timeout(self, ctx: Ctx, side: str | None) -> None:
        """Art. XXIX e: "demorar mais de quinze segundos para efetuar um lance" is itself the
        technical foul ("Constitui falta técnica"), with no warning first: given at the
        device's first expiry past the 15 s, not asked. A wrong one (the lance was played, not
        yet entered) is undone by voiding the device's entry."""
        m = ctx.m
        if not side or m.get("_lance_sanctioned") == side:
            return
        m["_lance_sanctioned"] = side
        ctx.announce("lance_over", N_("{team} took more than {secs} s for a lance: technical "
                                      "foul"), self.cite("lance_time"), team=ctx.name(side),
                     secs=m["clock_profile"]["lance_ms"] // 1000)
        self.technical_foul(ctx, side, self.cite("lance_time"))

    def disciplinary_foul(self, ctx: Ctx, side: str, disc: int | None, rule: str) -> None:
        """Art. XXIX f–g: complaints and delays are technical fouls in this rule."""
        ctx.m["fouls"][side]["disciplinary"] += 1
        ctx.announce(
            "disciplinary",
            N_("Disciplinary foul by {team}: punished as a technical foul"),
            self.cite("disciplinary"),
            team=ctx.name(side),
        )
        if self.in_play(ctx.m):
            self.technical_foul(ctx, side, self.cite("disciplinary"))
            # one misconduct is one foul, counted once (as disciplinary): not also a technical
            ctx.m["fouls"][side]["technical"] -= 1

    def direct_goal_ok(self, ctx: Ctx, scorer: str) -> bool:
        """Art. XXXI §1: from a corner, in the initial development of the lance."""
        r = ctx.m["restart"]
        return bool(
            r
            and r["side"] == scorer
            and r["kind"].startswith("escanteio")
            and r.get("touches_since", 0) <= 1
        )

    def ball_out_restart(
        self, ctx: Ctx, info: dict[str, Any], last: dict[str, Any]
    ) -> tuple[str, str, str]:
        toucher = last["side"]
        played = info.get("played") or toucher  # whose lance sent the ball out
        r = ctx.m["restart"]
        if (info["line"] == "side" and played != toucher and not info.get("shot") and r
                and r["taken"] and played == r["side"] and r["kind"] != "saida"
                and "lateral" not in r.get("forbid", ())
                and (r.get("open") or r.get("touches_since", 0) == 0)):
            # Art. XLX: "Na cobrança de infrações ou ocorrências, quando a bola ... tocar em
            # botão adversário será considerado lateral cavado a favor do adversário"
            return "lateral_cavada", toucher, "001 Art. XLX"
        if info["line"] == "side" and info.get("shot"):
            # Art. XXII: the shot off a post out over a side line "será considerada como
            # lateral simples ou cavada, pertencendo o lance ao técnico, que estiver
            # defendendo"; off the goalkeeper, the same, to the attacker — one lance either way
            # (XXXIV §1 b), whose lance it was (the shooter's) notwithstanding
            return "lateral_cavada", other(toucher), "001 Art. XXII"
        if info["line"] == "side":
            kind = "lateral_cedida" if played == toucher else "lateral_cavada"
            return kind, other(toucher), self.cite("lateral")
        defender = self.defender_of(ctx.m, info["end"])
        if toucher == defender:
            kind = "escanteio_cedido" if played == defender else "escanteio_cavado"
            return kind, other(defender), self.cite("escanteio")
        return "tiro_de_meta", defender, self.cite("tiro_de_meta")

    def own_line_from_attack(self, ctx: Ctx, defender: str, toucher: str) -> bool:
        """Where the ball ends decides (issue 44, mechanism 4): a lance played from the
        opponent's field or the halfway line (`ball` on its touch) that crossed the player's
        own end line, or went into his own goal, touching nobody is his technical foul —
        "arremessar contra própria linha de fundo estando a bola sobre a linha divisória ou no
        campo do adversário sem tocar em nenhum botão" (Art. XXIX d); not a corner (XXVIII §8
        "que a bola parta sempre do campo do infrator") nor an own goal (XXXI §2 "partindo do
        campo do defensor")."""
        m = ctx.m
        if not (self.in_play(m) and toucher == defender
                and m.get("played_from_attack") == defender):
            return False
        m.pop("played_from_attack")
        m["last_touch"] = None
        ctx.announce(
            "own_line_from_attack",
            N_("{team} played the ball from the opponent's field over its own end line, "
               "touching nobody: technical foul"),
            "001 Art. XXIX d",
            team=ctx.name(defender),
        )
        self.technical_foul(ctx, defender, "001 Art. XXIX d")
        return True

    def resolve_ball_out(self, ctx: Ctx, info: dict[str, Any], last: dict[str, Any]) -> None:
        m = ctx.m
        defender = self.defender_of(m, info["end"])
        shot = info.get("shot")
        if (info["line"] == "end" and shot and shot["side"] == defender and self.in_play(m)):
            self.shot_back_over_own_line(ctx, defender, last["side"])
            return
        if info["line"] == "end" and self.own_line_from_attack(ctx, defender, last["side"]):
            return
        super().resolve_ball_out(ctx, info, last)

    def shot_back_over_own_line(self, ctx: Ctx, shooter: str, toucher: str) -> None:
        """The asked shot came back over the shooter's own end line: off the post (his own
        last touch) "será considerado falta técnica" (Art. XXII §1); off the goalkeeper "é
        tiro de meta" (§2) — never a corner, the ball did not start in the shooter's field
        (XXVIII §8)."""
        m = ctx.m
        m["last_touch"] = None
        if toucher == shooter:
            ctx.announce("own_shot_back", N_("{team}'s shot came back over its own end line: "
                                             "technical foul"), "001 Art. XXII §1",
                         team=ctx.name(shooter))
            self.technical_foul(ctx, shooter, "001 Art. XXII §1")
            m["restart"]["side_choice"] = False
            return
        self.set_restart(ctx, "tiro_de_meta", shooter, "001 Art. XXII §2", out_line="end",
                         out_by=toucher, out_end=m["ends"][shooter])

    def resolve_goal_no_shot(self, ctx: Ctx, pending: dict[str, Any], choice: str) -> None:
        if choice == "own_goal" and self.own_line_from_attack(
                ctx, pending["defender"], pending["defender"]):
            return
        super().resolve_goal_no_shot(ctx, pending, choice)

    def moved_discs(self, ctx: Ctx, side: str, rule: str) -> None:
        """XXXIII §1: no moving discs at a goal kick: a technical foul."""
        ctx.announce(
            "discs_moved",
            NP_("announcement", "{team} moved discs at the goal kick"),
            rule,
            team=ctx.name(side),
        )
        self.technical_foul(ctx, side, rule)

    def on_kickoff_failed(self, ctx: Ctx) -> None:
        """`kickoff_failed {side}`: the referee judges the kick-off attempt not correct ("não
        conseguir dar a saída de jogo corretamente em duas tentativas consecutivas", 001 Art.
        XXIX c): the first time it is taken again, the second consecutive one is a technical
        foul, "cobra-se no centro do campo"."""
        m = ctx.m
        r = m["restart"]
        side = ctx.side(required=False) or (r or {}).get("side")
        if not (self.in_play(m) and r and r["kind"] == "saida" and not r["taken"]
                and side == r["side"]):
            raise Refused(N_("Only while {team} is taking its kick-off"),
                          rule="001 Art. XXIX c", team=ctx.name(side) if side else "?")
        r["failed"] = r.get("failed", 0) + 1
        if r["failed"] < 2:
            ctx.announce("kickoff_again", N_("{team} did not kick off correctly: a second "
                                             "attempt"), "001 Art. XXIX c", team=ctx.name(side))
            return
        ctx.announce("kickoff_failed", N_("{team} failed the kick-off twice: technical foul"),
                     "001 Art. XXIX c", team=ctx.name(side))
        self.technical_foul(ctx, side, "001 Art. XXIX c")

    def on_offside(self, ctx: Ctx) -> None:
        """Art. XXXII: the referee calls it, one tap: the side caught offside is the one whose
        lance it was unless he says otherwise; a single-lance free kick (§3)."""
        if not self.in_play(ctx.m):
            raise Refused(N_("The ball is not in play"))
        against = offside_side(ctx.m)  # the side whose lance it was
        if against is None and ctx.m.get("played_from_attack") == ctx.m.get("last_player"):
            raise Refused(N_("The last lance was played from the attack field: no offside "
                             "(the ball must leave the defence field)"),
                          rule="001 Art. XXXII §1 b")
        if against is None:
            raise Refused(N_("No lance has been played since the restart: no offside yet"))
        side = ctx.side(required=False) or against
        ctx.m["shot_asked"] = None
        disc = ctx.disc()
        if disc is not None:
            # "será removido manualmente para sua posição originária perdendo o direito de
            # efetuar o primeiro lance a que tem direito o técnico" (Art. XXXII §2)
            ctx.m.setdefault("offside_discs", {"A": [], "B": []})[side] = [disc]
        ctx.announce(
            "offside",
            N_("Offside against {team}"),
            self.cite("offside"),
            team=ctx.name(side),
        )
        self.set_restart(ctx, "tiro_livre", other(side), "001 Art. XXXII §3", infraction=True)
