"""`cbfm-1toque`: Regra Brasileira de Futebol de Mesa (CBFM), "Regra 1 Toque" (000).

Two halves of 25 minutes on a continuous clock that ends exactly at the alarm
(000 Art. 8 §9–§10); one lance per turn, 15 s each (Art. 8 §3); a goal only
from a shot asked naming the disc (Art. 12); discipline escalates to
expulsions and to the loss of the match (Art. 26 §1 F, Art. 6 §6).
"""

from __future__ import annotations

from typing import Any, ClassVar

from futmesa.i18n import N_

from .base import MINUTE, Ruleset
from .context import Ctx, Refused, other


class Cbfm1Toque(Ruleset):
    name = "cbfm-1toque"
    title = "CBFM Regra 1 Toque (disco)"
    document = "000"
    periods = 2
    period_ms = 25 * MINUTE
    interval_ms = 5 * MINUTE  # "no máximo 5'" (Art. 8 §9)
    lance_ms = 15_000  # Art. 8 §3
    lance_warn_ms = 5_000
    lance_over = "at"  # Art. 26 §1 A: "ao atingir este tempo, o árbitro deverá advertir"
    min_discs = 7  # Art. 6 §6
    substitutions = 3  # Art. 10
    max_expelled = 4  # Art. 26 §1 F
    expel_from = 3  # Art. 26 §1 F: "a partir da terceira falta disciplinar"
    # Art. 8 §10: the half ends with the alarm; only an infraction "no mesmo instante" is
    # still taken (Art. 18 §4), one called a second before is lost with the period
    pending_infraction_at_alarm = "same_instant"
    # Art. 17: falta, toque (Art. 21: the ball touching the técnico — no separate "mão"),
    # lateral / escanteio dois-toques (Art. 22); pênalti (Art. 20), falta técnica (Art. 23)
    foul_kinds: ClassVar[tuple[str, ...]] = ("falta", "toque", "dois_toques", "penalti", "tecnica")
    # the restarts (issue #45): Art. 9 saída; the ocorrências of Art. 11 — tiro de meta (Art.
    # 13), lateral (14), escanteio (15), reposição (16); the infractions' direct and indirect
    # kicks (18), pênalti (20), falta técnica (23) and the disciplinary foul's kick (26 §2)
    restart_kinds: ClassVar[dict[str, str]] = {
        "saida": "000 Art. 9", "tiro_de_meta": "000 Art. 13", "lateral": "000 Art. 14",
        "escanteio": "000 Art. 15", "reposicao": "000 Art. 16", "falta_direta": "000 Art. 18",
        "falta_indireta": "000 Art. 18", "penalti": "000 Art. 20", "falta_tecnica": "000 Art. 23",
        "tiro_livre": "000 Art. 26 §2"}
    cites: ClassVar[dict[str, str]] = {
        "foul_kinds": "000 Art. 17",
        "restart_kinds": "000 Art. 11",
        "rearrange_goal_kick": "000 Art. 13",
        "draw": "000 Art. 9 §1",
        "straight_out": "000 Art. 23",
        "disc_out": "000 Art. 9 §4",  # VI C / VI H: "sai diretamente … sem rolar"
        "pass_touched_opponent": "000 Art. 18 §1",
        "kick_choice": "000 Art. 19 §3",
        "distance_warning": "000 Art. 26 §1 E",
        "kickoff": "000 Art. 9",
        "duration": "000 Art. 8 §9",
        "change_ends": "000 Art. 8 §9",
        "added_time": "000 Art. 8 §10",
        "end": "000 Art. 8 §10",
        "shot_before_alarm": "000 Art. 12 §6",
        "infraction_alarm": "000 Art. 18 §4",
        "infraction_lost": "000 Art. 8 §10",
        "foul_after_time": "000 Art. 18 §4",
        "shot_named": "000 Art. 12 §1",
        "shot_lance": "000 Art. 12 §3 A",
        "shot_required": "000 Art. 12 §1",
        "goal": "000 Art. 12 §1",
        "own_goal": "000 Art. 12 §2",
        "opponent_half": "000 Art. 12 §4",
        "midline": "000 Art. 12 §5",
        # the kick-off's ball is on the marca de saída, on the halfway line (Art. 2 E): "será
        # considerada neutra, não podendo … ser arremessada a gol" (§5)
        "kickoff_shot": "000 Art. 12 §5",
        "no_shot_restart": "000 Art. 13",
        "no_shot_corner": "000 Art. 15 C",
        "after_goal": "000 Art. 6 §1",
        "ball_out": "000 Art. 1 §3",
        "lateral": "000 Art. 14",
        "escanteio": "000 Art. 15",
        "tiro_de_meta": "000 Art. 13",
        "reposicao": "000 Art. 16",
        "lance_time": "000 Art. 26 §1 A",
        "free_kick": "000 Art. 19 §2–§3",
        "penalty": "000 Art. 20",
        "two_touch": "000 Art. 22 §único",
        "technical": "000 Art. 23",
        # "As faltas disciplinares se identificam quando: …" (walk 49b L3: the 1st foul cited
        # §1 F, the 3rd foul onward's expulsion)
        "disciplinary": "000 Art. 26 §1",
        "disciplinary_expel": "000 Art. 26 §1 F",
        "disciplinary_kick": "000 Art. 26 §2",
        "bico_choice": "000 Art. 26 §2 II B",
        "expel": "000 Art. 26 §1 C",
        "forfeit": "000 Art. 26 §1 C",
        "min_discs": "000 Art. 6 §6",
        "substitutions": "000 Art. 10",
        "turns": "000 Art. 9 §2",
        # a lance out of turn is "lance inapropriado ... em desacordo com as normas do jogo"
        "out_of_turn": "000 Art. 23",
        "ball_stopped": "000 Art. 16",
        "waive": "000 Art. 24",
        "side_choice": "000 Art. 15 §1",
        "keeper_foul": "000 Art. 19 §1",
    }
    # who takes a goal kick or reposição: any disc but the goalkeeper (Art. 13 §1, Art. 16 §1)
    taker_rules: ClassVar[dict[str, tuple[str, str]]] = {
        "tiro_de_meta": ("disc", "000 Art. 13 §1"),
        "reposicao": ("disc", "000 Art. 16 §1"),
    }
    # a foul on the goalkeeper is not committed in the offender's own area (no penalty, Art.
    # 20): "será cobrada no interior da sua área grande em dois lances" (Art. 19 §1)
    keeper_foul_restart = ("falta_indireta", "000 Art. 19 §1")
    # Art. 23 VI C / H: a ball straight out without rolling; Art. 18 §1: an infraction's
    # first lance that touched an opponent
    # ... and Art. 9 §3–§4 A: a disc out of the field does not play its team's next lance
    # ... and Art. 19 §3: a foul in the opponent's field, "o técnico favorecido terá o direito a
    # optar por cobrança direta ou indireta"
    # ... and Art. 26 §1 E: the kicking disc under 0,01 m from the ball
    referee_inputs = frozenset({"straight_out", "pass_touched_opponent", "disc_out",
                                "free_kick_choice", "set_piece_distance"})
    # Art. 12 §2: an own goal is a ball sent into one's own goal "partindo do campo de
    # defesa"; a shot is taken from the opponent's field (§4): back in one's own goal it is
    # a ball in the goal without a goal, a reposição (Art. 16)
    shot_own_goal = ("no_goal", "reposicao", "000 Art. 12 §2")
    # where a kick's ball ends (issue 44): a goal kick or reposição that hits a disc and goes
    # out "pela linha de fundo ou de gol de seu campo" is a technical foul (Art. 23 II B; off
    # an opponent's attacker, II C); an indirect kick's first lance off an opponent: "saia
    # pela linha lateral, será reversão de lateral; se sair pela linha de fundo, será cobrado
    # reposição" (Art. 18 §1)
    back_over_own_line: ClassVar[dict[str, str]] = {
        "tiro_de_meta": "000 Art. 23 II B", "reposicao": "000 Art. 23 II B"}
    first_lance_off_opponent = "000 Art. 18 §1"
    side_choice_kinds = ("escanteio",)  # a ball in the goal: the favoured técnico's side
    # where a technical foul is taken when its article names the place (Art. 23; elsewhere
    # "onde estiver a bola"): II D "em qualquer lugar da área grande" (the far one, the
    # beneficiary's), II F "no 'bico' da área grande do infrator", VI C "no quarto de
    # círculo" of the offender's line, VI H "em qualquer lugar sua área grande"
    rule_spots: ClassVar[dict[str, dict[str, Any]]] = {
        "000 Art. 23 II D": {"spot": "big_area", "of": "beneficiary"},
        "000 Art. 23 II F": {"spot": "big_area_corner", "of": "offender"},
        "000 Art. 23 VI C": {"spot": "corner_mark", "of": "offender"},
        "000 Art. 23 VI H": {"spot": "big_area", "of": "beneficiary"},
    }
    # Art. 20 §único A, C: the penalty's set-up; B: the discs moved out play on from where the
    # referee put them; Art. 18 §2, 14 §4, 15 §3: those moved for a free kick, a throw-in or a
    # corner go back after its (first) lance
    penalty_setup = ("clear_big_area_to_nearest_spot", "goalkeeper_front_on_goal_line")
    cleared_return: ClassVar[dict[str, bool]] = {
        "penalti": False, "falta_direta": True, "falta_indireta": True, "lateral": True,
        "escanteio": True}
    # a failed reposição / goal kick: short of the midline, the opponent's option (Art. 13
    # §3, Art. 16 §3); not out of the big area, a technical foul (Art. 23 II F)
    failed_restart_rules: ClassVar[dict[str, dict[str, str]]] = {
        "reposicao": {"midline": "000 Art. 16 §3", "area": "000 Art. 23 II F"},
        "tiro_de_meta": {"midline": "000 Art. 13 §3", "area": "000 Art. 23 II F"},
        # a lateral taken in the taker's defence field short of the midline (Art. 14 §2)
        "lateral": {"midline": "000 Art. 14 §2"},
    }
    # what each restart allows its taker: one lance for throw-ins and corners (Art. 14 §1,
    # Art. 15 §1), two for an indirect kick or a foul in one's own half (Art. 18, Art. 19
    # §2–§3), and what it may not win for him: a technical foul (Art. 23 II–III, Art. 16 §2)
    restart_rules: ClassVar[dict[str, dict[str, Any]]] = {
        "lateral": {"lances": 1, "forbid": ("tiro_de_meta", "lateral", "escanteio"),
                    "rule": "000 Art. 23 III B"},
        "escanteio": {"lances": 1, "forbid": ("tiro_de_meta", "lateral", "escanteio"),
                      "rule": "000 Art. 23 III B"},
        "tiro_de_meta": {"lances": 1, "forbid": ("lateral", "escanteio", "goal"),
                         "rule": "000 Art. 13 §2"},
        "reposicao": {"lances": 1, "forbid": ("lateral", "escanteio", "goal"),
                      "rule": "000 Art. 16 §2"},
        "falta_direta": {"lances": 2, "rule": "000 Art. 19 §2–§3"},
        "falta_indireta": {"lances": 2, "rule": "000 Art. 18"},
        "penalti": {"lances": 1, "rule": "000 Art. 18"},
        "falta_tecnica": {"lances": 1, "rule": "000 Art. 27", "out_rule": "000 Art. 25 B"},
        "tiro_livre": {"lances": 1, "rule": "000 Art. 27"},
    }

    # the kicker waits for another touch: the kick-off's second lance is "do outro jogador que
    # está dentro do círculo e somente por ele" (Art. 9); a goal kick's or reposição's, a
    # throw-in's or corner's and an infraction's kicker moved before the ball was touched by
    # any other disc is a technical foul (Art. 23 II G, III A, IV B); a technical or
    # disciplinary foul's kicker "só intervir ... depois que a bola for tocada por qualquer
    # outro jogador" (Art. 27 C), no sanction written: refused (Art. 28)
    taker_waits: ClassVar[dict[str, tuple[str, str]]] = {
        "saida": ("refuse", "000 Art. 9"),
        "tiro_de_meta": ("technical", "000 Art. 23 II G"),
        "reposicao": ("technical", "000 Art. 23 II G"),
        "lateral": ("technical", "000 Art. 23 III A"),
        "escanteio": ("technical", "000 Art. 23 III A"),
        "falta_direta": ("technical", "000 Art. 23 IV B"),
        "falta_indireta": ("technical", "000 Art. 23 IV B"),
        "penalti": ("technical", "000 Art. 23 IV B"),
        "falta_tecnica": ("refuse", "000 Art. 27 C"),
        "tiro_livre": ("refuse", "000 Art. 27 C"),
    }

    def shot_limit(self, m: dict[str, Any], side: str) -> Refused | None:
        """Art. 18: an indirect kick "é realizada em dois lances: um jogador passa a bola a
        outro e este poderá arremessar a gol" — no shot asked before its first lance (and the
        passer waits: `taker_waits`)."""
        r = m["restart"]
        if r and r["side"] == side and r["kind"] == "falta_indireta" and not r["taken"]:
            return Refused(N_("Indirect free kick: the first touch is the pass; the shot "
                              "comes after it"), rule="000 Art. 18")
        return None

    def ball_out_restart(
        self, ctx: Ctx, info: dict[str, Any], last: dict[str, Any]
    ) -> tuple[str, str, str]:
        kind, side, rule = super().ball_out_restart(ctx, info, last)
        if kind == "lateral" and self.setting("lateral_taker") == "half" and info.get("half"):
            # a club's choice: the team defending the half it went out on (Rule 1 §3's
            # palheta shows it); Art. 14 names no taker (docs/rulesets.md)
            return kind, str(info["half"]), rule
        if kind == "tiro_de_meta" and not last.get("direct", True):
            # off the attacker but not straight out (e.g. off another attacker): Art. 16
            return "reposicao", side, self.cite("reposicao")
        return kind, side, rule

    def straight_out(self, ctx: Ctx, side: str) -> bool:
        """`side`'s goal kick or reposição, just taken, left the field over the opponent's
        goal line or end line touching no disc (Art. 23 II D)."""
        r = ctx.m["restart"]
        return bool(r and r.get("open") and r["taken"] and r["side"] == side
                    and r["kind"] in ("tiro_de_meta", "reposicao")
                    and r.get("touches_since", 0) == 0)

    def resolve_ball_out(self, ctx: Ctx, info: dict[str, Any], last: dict[str, Any]) -> None:
        m = ctx.m
        toucher = last["side"]
        if (self.in_play(m) and info["line"] == "end" and last.get("direct", True)
                and self.defender_of(m, info["end"]) != toucher
                and self.straight_out(ctx, toucher)):
            m["last_touch"] = None
            self.goal_kick_straight_out(ctx, toucher)
            return
        super().resolve_ball_out(ctx, info, last)

    def no_shot_restart(self, ctx: Ctx, defender: str, choice: str) -> None:
        if choice == "no_goal" and self.straight_out(ctx, other(defender)):
            self.goal_kick_straight_out(ctx, other(defender))
            return
        super().no_shot_restart(ctx, defender, choice)

    def goal_kick_straight_out(self, ctx: Ctx, taker: str) -> None:
        """Art. 23 II D: a technical foul against the taker, taken anywhere in the big area."""
        ctx.announce(
            "restart_straight_out",
            N_("{team}'s restart went straight out over the far line: technical foul"),
            "000 Art. 23 II D",
            team=ctx.name(taker),
        )
        self.technical_foul(ctx, taker, "000 Art. 23 II D")

    # the kicks whose taker "furou" (missed the ball) is a technical foul (Art. 23 I A, IV A)
    missed_kick_rules: ClassVar[dict[str, str]] = {
        "saida": "000 Art. 23 I A", "falta_direta": "000 Art. 23 IV A",
        "falta_indireta": "000 Art. 23 IV A", "penalti": "000 Art. 23 IV A",
    }

    def ball_stopped_restart(self, ctx: Ctx, side: str) -> None:
        """Art. 16: the ball stopped in a small area is a reposição (no re-arrangement) for
        the team whose area it is."""
        ctx.m["shot_asked"] = None
        self.set_restart(ctx, "reposicao", side, self.cite("ball_stopped"))

    def disciplinary_foul(self, ctx: Ctx, side: str, disc: int | None, rule: str) -> None:
        """Art. 26 §1 F: from the 3rd disciplinary foul each one expels the disc that
        made the team's previous lance; a 5th expulsion ends the match instead."""
        m = ctx.m
        r = m["restart"]
        kick = bool(r and not r["taken"] and r["side"] == side
                    and r["kind"] in ("tiro_de_meta", "reposicao") and self.in_play(m))
        super().disciplinary_foul(ctx, side, disc, rule)
        if kick:
            # "Se o infrator fosse bater tiro-de-meta ou reposição, o beneficiado pela cobrança
            # poderá optar por qualquer 'bico' de área" (Art. 26 §2 II B): he is asked which
            self.ask_kick_spot(ctx, "big_area_corner", self.cite("bico_choice"))
        # "a partir da terceira": the 3rd and each later foul (setting `expel_from`: 4 reads
        # it as each one after the 3rd; docs/rulesets.md, contradictions)
        expel_from = int(self.setting("expel_from", self.expel_from))
        if m["fouls"][side]["disciplinary"] >= expel_from and not m["finished"]:
            chosen = disc if disc is not None else m["last_disc"][side]
            if chosen in m["expelled"][side]:
                chosen = None  # "havendo dúvida, o árbitro escolherá qualquer um"
            self.expel(ctx, side, chosen, self.cite("disciplinary_expel"))

    def expel(self, ctx: Ctx, side: str, disc: int | None, rule: str) -> None:
        if len(ctx.m["expelled"][side]) >= self.max_expelled:
            self.forfeit(ctx, side, self.cite("disciplinary_expel"))
            return
        super().expel(ctx, side, disc, rule)

    def check_substitution_moment(self, ctx: Ctx) -> None:
        """Art. 10: only at a goal kick, after a goal or at the interval."""
        m = ctx.m
        restart = m["restart"]
        if m["status"] in ("not_started", "interval"):
            return
        if restart and not restart["taken"] and restart["kind"] in ("tiro_de_meta", "saida"):
            return
        raise Refused(
            N_("Substitutions only at a goal kick, after a goal or at the interval"),
            rule=self.cite("substitutions"),
        )

    def second_half_kickoff(self, first: str) -> str:
        return other(first)  # Art. 9 §1: the loser of the draw kicks off the 2nd half
