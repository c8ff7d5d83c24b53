"""`mesa-posta`: "A mesa está posta", a short modern ruleset (004).

Two halves of one minute on a clock that runs only while the ball is in play;
once time is up the half ends the next time the ball goes out of play. Seven
touches on the ball per turn, a miss passes the turn. Only a shot asked
scores, except straight from a corner (gol olímpico). A draw goes to a
shootout: 5 each, every disc once before any twice, then sudden death; the
goalkeeper's choice is secret until the kick.
"""

from __future__ import annotations

from typing import Any, ClassVar

from futmesa.i18n import N_

from .base import MINUTE, Ruleset
from .context import Ctx, Refused, other
from .moves import Arrange, Moves

# restarts whose taker waits for another touch before touching the ball again (004 O cobrador)
TAKER_WAITS = ("escanteio", "tiro_livre", "lateral", "penalti")


class MesaPosta(Ruleset):
    name = "mesa-posta"
    title = "A mesa está posta"
    document = "004"
    periods = 2
    period_ms = 1 * MINUTE
    interval_ms = 1 * MINUTE  # not stated: competition setting `interval_ms`
    clock_mode = "ball-in-play"
    end_mode = "next-dead-ball"
    lance_ms = 0  # no per-move timer in the document
    lance_warn_ms = 0
    touch_limit = 7
    substitutions = None  # not stated
    shootout_series = (5,)
    shootout_rotation = "all-before-repeat"
    penalty_keeper_secret = True  # "O goleiro ... escolhe em segredo" (004 Pênaltis)
    shot_needs_before_alarm = False  # the half ends at the next dead ball (004 A partida)
    kickoff_after_goal = "conceding"  # "depois de um gol quem sofreu recomeça o jogo"
    # Tiros de meta: discs moved at a goal kick, the chutão that hits an opponent
    # Bola fora: the throw-in that reached no team-mate (`ball_passed`)
    referee_inputs = frozenset({"discs_moved", "disc_moved", "positions", "keeper_kick_hit",
                                "ball_passed"})
    # Bola fora: "Um lateral que não chega a um companheiro passa para o adversário" — only the
    # referee sees it (possession.offers)
    ball_pass = (N_("{team}'s ball: {other_team}'s throw-in did not reach a team-mate"),
                 "004 Bola fora")
    # "Só vale gol de chute pedido … Gol sem chute pedido vira tiro de meta para a defesa":
    # the asked shot was at the other goal
    shot_own_goal = ("no_goal", "tiro_de_meta", "004 Chute pedido")
    # "Faltas" and "Pênaltis" ("Falta dentro da área é pênalti") only: no toque, mão,
    # dois-toques nor falta técnica in the document
    foul_kinds: ClassVar[tuple[str, ...]] = ("falta", "penalti")
    # no discipline in the document: its only sanctions are the "Faltas"' tiro livre and the
    # "Pênaltis" (walk49a M5: a disciplinary foul was taken with no article)
    discipline_kinds: ClassVar[tuple[str, ...]] = ()
    # the restarts (issue #45): "Saída de bola"; "Bola fora": lateral, escanteio, tiro de meta;
    # the "Faltas"' tiro livre, the "Pênaltis"; the "Bola do goleiro" — no reposição, no
    # direct or indirect kick, no falta técnica, no cedido nor cavado
    restart_kinds: ClassVar[dict[str, str]] = {
        "saida": "004 Saída de bola", "tiro_de_meta": "004 Bola fora", "lateral": "004 Bola fora",
        "escanteio": "004 Bola fora", "tiro_livre": "004 Faltas", "penalti": "004 Pênaltis",
        "bola_do_goleiro": "004 Bola do goleiro"}
    cites: ClassVar[dict[str, str]] = {
        "foul_kinds": "004 Faltas",
        "discipline_kinds": "004 Faltas",
        # "peça o chute do campo do adversário": the kick-off's ball is on the halfway line
        "kickoff_shot": "004 Chute pedido",
        "restart_kinds": "004 Bola fora",
        "draw": "004 Saída de bola",
        "kickoff": "004 Saída de bola",
        "after_goal": "004 Saída de bola",
        "duration": "004 A partida",
        "end": "004 A partida",
        "foul_after_time": "004 A partida",
        "shot_before_alarm": "004 A partida",
        "shot_named": "004 Chute pedido",
        "shot_lance": "004 Chute pedido",
        "shot_required": "004 Chute pedido",
        "goal": "004 Chute pedido",
        "own_goal": "004 Chute pedido",
        "opponent_half": "004 Chute pedido",
        "midline": "004 Chute pedido",
        "no_shot_restart": "004 Chute pedido",
        "direct_goal": "004 Chute pedido",
        "lateral": "004 Bola fora",
        "escanteio": "004 Bola fora",
        "tiro_de_meta": "004 Bola fora",
        "touches": "004 Sua vez",
        "turns": "004 Sua vez",  # "sete toques na bola por vez": the other team waits its vez
        "free_kick": "004 Faltas",
        "penalty": "004 Pênaltis",
        "tie_break": "004 Disputa de pênaltis",
        "shootout": "004 Disputa de pênaltis",
        "shootout_discs": "004 Disputa de pênaltis",
        "keeper_choice": "004 Pênaltis",
        "ball_stopped": "004 Bola do goleiro",
        "taker": "004 O cobrador",
        "keeper_foul": "004 Bola do goleiro",
        "discs_moved": "004 Tiros de meta",
    }
    # discs moved before a restart, one `disc_moved` each (moves.py); a lateral, a penalty or
    # the goalkeeper's ball: the document moves none
    restart_moves: ClassVar[dict[str, Moves]] = {
        # "Antes da saída, esse time pode mover até dois botões para qualquer lugar do próprio
        # campo"
        "saida": Moves("taker", 2, "004 Saída de bola", own_half=True),
        # "Os dois times movem até três botões, o ataque primeiro"
        "escanteio": Moves("both", 3, "004 Escanteios", taker_first=True),
        # "quem fez a falta não move nenhum botão" (the favoured team's: not counted)
        "tiro_livre": Moves("taker", None, "004 Faltas"),
        # "Quem pôs a bola para fora move até quatro botões; o outro time não move nenhum"
        "tiro_de_meta": Moves("other", 4, "004 Tiros de meta"),
    }
    # "Depois, o goleiro da defesa é posicionado em qualquer ponto da pequena área antes da
    # cobrança" (Escanteios): `positions {side, disc: GK, area: small}`
    restart_positions: ClassVar[dict[str, Arrange]] = {
        "escanteio": Arrange((("other", "goalkeeper"),), "004 Escanteios", area="small"),
    }
    # "O goleiro dá um chutão com a chuteira" (Tiros de meta, Bola do goleiro)
    taker_rules: ClassVar[dict[str, tuple[str, str]]] = {
        "tiro_de_meta": ("goalkeeper", "004 Tiros de meta"),
        "bola_do_goleiro": ("goalkeeper", "004 Bola do goleiro"),
    }
    # "Falta no goleiro também vira chutão dele, do local da falta" (setting keeper_foul:
    # penalti reads "Falta dentro da área é pênalti" instead)
    keeper_foul_restart = ("bola_do_goleiro", "004 Bola do goleiro")
    # Pênaltis: "Todos os botões saem da área, e o cobrador fica em qualquer ponto atrás da
    # bola, dentro da área ou da meia-lua. O goleiro espera em cima da linha"; Faltas: "cobra
    # um tiro livre no local"
    penalty_setup = ("all_discs_out_of_area", "kicker_behind_ball_in_area_or_meia_lua",
                     "goalkeeper_on_line")
    restart_spots: ClassVar[dict[str, str]] = {**Ruleset.restart_spots, "tiro_livre": "foul"}

    def initial_match(self) -> dict[str, Any]:
        m = super().initial_match()
        # "Partida empatada no fim do tempo normal vai para os pênaltis", in any competition
        m["competition"]["shootout"] = bool(self.setting("shootout", True))
        m["competition"]["type"] = "knockout" if m["competition"]["shootout"] else "league"
        return m

    def time_up(self, ctx: Ctx) -> None:
        """004 A partida: the half ends the next time the ball goes out of play."""
        ctx.m["status"] = "awaiting_dead_ball"
        ctx.announce(
            "time_up",
            N_("Time is up: the half ends the next time the ball is out of play"),
            self.cite("end"),
        )

    def no_shot_options(self) -> list[str]:
        return ["no_goal", "shot_asked", "false_trip"]  # "Só vale gol de chute pedido"

    def direct_goal_ok(self, ctx: Ctx, scorer: str) -> bool:
        """Gol olímpico: straight from a corner."""
        r = ctx.m["restart"]
        return bool(
            r
            and r["side"] == scorer
            and r["kind"] == "escanteio"
            and r.get("touches_since", 0) == 0
        )

    def after_shot(self, ctx: Ctx, shot: dict[str, Any], outcome: str) -> None:
        """004 Chute pedido: "Se a bola de um chute pedido continuar em jogo, ela passa para o
        adversário, a não ser que um companheiro seu tenha sido o último a tocar nela" — saved,
        blocked, short, off the post or missed, the ball stays in play (only "wide" leaves it,
        and its ball out decides)."""
        r = ctx.m["restart"]
        if r and r["kind"] == "penalti" and outcome == "saved":
            r["released"] = True  # O cobrador: "após um pênalti, só depois que o goleiro tocar"
        if outcome != "wide" and not ctx.entry.data.get("teammate_last"):
            self.pass_turn(ctx, shot["side"], "004 Chute pedido")

    def award_free_kick(self, ctx: Ctx, offender: str, ftype: str) -> None:
        m = ctx.m
        beneficiary = other(offender)
        # "Faltas": "cobra um tiro livre no local"; "Pênaltis": "Falta dentro da área é
        # pênalti" — the place is asked (place_decides), only the area tells (issue #45)
        where = ctx.entry.data.get("where") if ftype in self.place_decides else None
        if ftype == "penalti" or where == "box":
            self.set_restart(ctx, "penalti", beneficiary, self.cite("penalty"), infraction=True)
        else:
            self.set_restart(
                ctx, "tiro_livre", beneficiary, self.cite("free_kick"), infraction=True
            )
        self.reset_touches(m, beneficiary)

    def keeper_first(self, m: dict[str, Any], side: str) -> Refused | None:
        """004 Pênaltis: the goalkeeper "escolhe em segredo" waiting on the line, so before the
        kick: the penalty's shot asked and its kick are refused until the defending
        goalkeeper's choice is in (a kick entered as "chute pedido" and then the goal-line
        sensor would otherwise be a penalty with no choice at all). Asked by possession.py for
        both plays, so the console does not offer them either."""
        r = m["restart"]
        kick = r and r["kind"] == "penalti" and not r["taken"]
        if kick and side == r["side"] and not (m.get("_secret") or {}).get("penalty"):
            return Refused(
                N_("Penalty: {keeper_team}'s goalkeeper chooses first, in secret"),
                keeper_team=str(m["teams"][other(r["side"])]["name"]),
                rule=self.cite("keeper_choice"),
            )
        return None

    def lance_limit(self, m: dict[str, Any], side: str, disc: int | None) -> Refused | None:
        return self.keeper_first(m, side) or self.chutao_only(m, side, disc)

    def chutao_only(self, m: dict[str, Any], side: str, disc: int | None) -> Refused | None:
        """Bola do goleiro, Tiros de meta: "ele dá um chutão com a chuteira" — the goalkeeper
        restarts it, whoever played the ball there: its kick is a touch with no disc number
        (the goalkeeper has none: the console's «▶ Cobrança dada» on the card), or any touch
        once the referee said the goalkeeper takes it (`taker`); a disc's lance before that is
        refused, in words that name the card's button (walk52a finding 7)."""
        r = m["restart"]
        spec = self.taker_rules.get(r["kind"]) if r and not r["taken"] else None
        if (spec is None or side != r["side"] or disc is None
                or (r.get("taker") or {}).get("goalkeeper")):
            return None
        return Refused(N_("Only {team}'s goalkeeper restarts it, with a chutão: tap "
                          "«▶ Restart taken» on the restart's card"), rule=spec[1],
                       team=str(m["teams"][side]["name"]))

    def shot_limit(self, m: dict[str, Any], side: str) -> Refused | None:
        return self.keeper_first(m, side)

    def set_restart(self, ctx: Ctx, kind: str, side: str, rule: str, **extra: Any) -> None:
        if kind == "penalti":
            extra["keeper_choice_from"] = other(side)  # the console asks this side's goalkeeper
        super().set_restart(ctx, kind, side, rule, **extra)
        # Sua vez, "sete toques na bola por vez": the touch that takes a restart is the first
        # of its team's seven (the blind cases' reading C60), whatever that team had before
        self.reset_touches(ctx.m, side)

    def count_touch(self, ctx: Ctx, side: str, disc: int | None, hit: bool) -> None:
        """004 Sua vez: seven touches on the ball per turn; a miss passes the turn."""
        m = ctx.m
        if hit and self.taker_again(ctx, side, disc):
            return
        if m["turn"] != side:
            self.reset_touches(m, side)
        m["turn"] = side
        mine = m["touches"][side]
        if not hit:
            self.pass_turn(ctx, side, self.cite("touches"))
            return
        mine["count"] += 1
        if mine["count"] >= mine["limit"]:
            self.pass_turn(ctx, side, self.cite("touches"))

    def taker_again(self, ctx: Ctx, side: str, disc: int | None) -> bool:
        """004 O cobrador: after a corner, free kick or throw-in the taker touches the ball
        again only after a team-mate has; after a penalty only after the goalkeeper. Else
        the opponent has a free kick at the spot. A flick that misses the ball touched nothing
        (004 Sua vez: "Um toque que não acerta a bola"): it is never the taker touching again,
        and it frees nobody (count_touch passes the vez)."""
        r = ctx.m["restart"]
        if not r or r["kind"] not in TAKER_WAITS or not r["taken"] or disc is None:
            return False
        if r.get("touches_since", 0) == 0 and side == r["side"] and "taker_disc" not in r:
            r["taker_disc"] = disc  # the kick itself
            return False
        if r.get("released") or "taker_disc" not in r:
            return False
        if side == r["side"] and disc == r["taker_disc"]:
            ctx.announce(
                "taker_again",
                N_("{team}'s taker touched the ball again"),
                self.cite("taker"),
                team=ctx.name(side),
            )
            self.reset_touches(ctx.m, other(side))
            self.set_restart(ctx, "tiro_livre", other(side), self.cite("taker"), infraction=True)
            return True
        if side != r["side"] or r["kind"] != "penalti":
            r["released"] = True  # a team-mate (the goalkeeper, after a penalty) touched it
        return False

    def on_keeper_kick_hit(self, ctx: Ctx) -> None:
        """004 Tiros de meta: "Se o chutão acertar um botão do adversário, ou o goleiro dele, a
        bola fica com o adversário"."""
        m = ctx.m
        r = m["restart"]
        if not (self.in_play(m) and r and r["kind"] in ("tiro_de_meta", "bola_do_goleiro")
                and r["taken"] and r.get("touches_since", 0) == 0):
            raise Refused(N_("Only right after the goalkeeper's kick"))
        taker = r["side"]
        r["open"] = False
        ctx.announce(
            "keeper_kick_hit",
            N_("{team}'s goalkeeper kick hit an opponent: {other_team}'s ball"),
            "004 Tiros de meta",
            other_team=ctx.name(other(taker)),
            team=ctx.name(taker),
        )
        self.pass_turn(ctx, taker, "004 Tiros de meta")

    def ball_passes_to(self, m: dict[str, Any]) -> str | None:
        """Bola fora: right after the throw-in's touch, before a team-mate touched the ball, the
        referee may say it reached none: the opponent's ball."""
        r = m.get("restart")
        if (m["finished"] or m["status"] not in ("running", "awaiting_dead_ball")
                or m["shot_asked"] or not r or r["kind"] != "lateral" or not r.get("taken")
                or r.get("touches_since", 0) or r.get("released") or m.get("turn") != r["side"]):
            return None
        return other(r["side"])

    def hand_over(self, ctx: Ctx, to: str) -> None:
        """The throw-in's ball is the opponent's: a fresh seven touches ("Sua vez"); no
        team-mate of the taker's is waited for any more (O cobrador)."""
        ctx.announce("ball_passed", N_("{team}'s ball: {other_team}'s throw-in did not reach a "
                                       "team-mate"), "004 Bola fora", team=ctx.name(to),
                     other_team=ctx.name(other(to)))
        ctx.m["restart"]["released"] = True
        self.reset_touches(ctx.m, to)
        self.reset_touches(ctx.m, other(to))
        super().hand_over(ctx, to)

    def pass_turn(self, ctx: Ctx, side: str, rule: str) -> None:
        m = ctx.m
        self.reset_touches(m, side)
        self.reset_touches(m, other(side))
        m["turn"] = other(side)
        ctx.announce("turn", N_("{team}'s turn"), rule, team=ctx.name(other(side)))
