"""Situations only the referee sees, entered from the console, that decide a restart: where
the ball stopped (a small area), a restart that failed, the draw's choice of ball or field,
and a goal deflected off a neutral disc on the midline (001). Each ruleset says what they
mean through `ball_stopped_restart` and its cites."""

from __future__ import annotations

from typing import ClassVar

from .context import Ctx, Refused, other
from .core import RulesCore


class SituationRules(RulesCore):
    """Referee inputs for what the table cannot see."""

    # what a failed restart is, per kind and reason (area / midline) -> article; empty: the
    # document says nothing (the referee gives a `foul`)
    failed_restart_rules: ClassVar[dict[str, dict[str, str]]] = {}

    # -- where the ball stopped ------------------------------------------------------------
    def on_ball_stopped(self, ctx: Ctx) -> None:
        """`ball_stopped {side, area: small}`: the ball stopped in `side`'s small area."""
        m = ctx.m
        side = ctx.side()
        if ctx.entry.data.get("area", "small") != "small":
            raise Refused("'area' deve ser small (pequena área)", "'area' must be small")
        if not self.in_play(m):
            raise Refused("A bola não está em jogo", "The ball is not in play")
        self.ball_stopped_restart(ctx, side)

    def ball_stopped_restart(self, ctx: Ctx, side: str) -> None:
        """Default: the goalkeeper's ball for the team whose small area it is."""
        ctx.m["shot_asked"] = None
        self.set_restart(ctx, "bola_do_goleiro", side, self.cite("ball_stopped"))

    # -- a restart that failed ---------------------------------------------------------------
    def on_restart_failed(self, ctx: Ctx) -> None:
        """`restart_failed {reason: area|midline, choice}`: the restart being taken failed —
        the ball did not leave the big area, or a reposição did not reach the midline."""
        m = ctx.m
        r = m["restart"]
        reason = ctx.entry.data.get("reason", "area")
        if not self.in_play(m) or not r or r["kind"] not in self.failed_restart_rules:
            raise Refused(
                "Não há tiro de meta ou reposição sendo cobrado",
                "No goal kick or reposição is being taken",
            )
        rule = self.failed_restart_rules[r["kind"]].get(reason)
        if not rule:
            raise Refused(
                f"Motivos nesta regra: {', '.join(self.failed_restart_rules[r['kind']])}",
                f"Reasons in this ruleset: {', '.join(self.failed_restart_rules[r['kind']])}",
            )
        taker = r["side"]
        choice = ctx.entry.data.get("choice", "falta_tecnica")
        if choice not in ("falta_tecnica", "lance"):
            raise Refused("'choice': falta_tecnica ou lance", "'choice': falta_tecnica or lance")
        if reason == "midline" and choice == "lance":
            # the opponent chose a normal lance (000 Art. 16 §3)
            r["open"] = False
            m["turn"] = other(taker)
            who = ctx.name(other(taker))
            ctx.announce(
                "restart_failed",
                f"Reposição não chegou à linha divisória: lance normal para {who}",
                f"The reposição did not reach the midline: a normal lance to {who}",
                rule,
            )
            if self.lance_ms:
                ctx.device("lance_restart", side=m["turn"])
            return
        ctx.announce(
            "restart_failed",
            f"Cobrança de {ctx.name(taker)} falhou: falta técnica",
            f"{ctx.name(taker)}'s restart failed: technical foul",
            rule,
        )
        self.technical_foul(ctx, taker, rule)


    # -- the draw ---------------------------------------------------------------------------------
    def on_draw_choice(self, ctx: Ctx) -> None:
        """`draw_choice {winner, choice: ball|cede|field, goal}`: the draw's winner kicks off,
        cedes the ball, or chooses the field (the goal line it defends; the other team then
        kicks off) — 003 Art. 30 §1. Elsewhere the draw only decides the kick-off."""
        m = ctx.m
        winner = ctx.side("winner")
        choice = ctx.entry.data.get("choice", "ball")
        if m["status"] != "not_started":
            raise Refused("Só antes do início da partida", "Only before the match starts")
        if choice not in ("ball", "cede", "field"):
            raise Refused("'choice': ball, cede ou field", "'choice': ball, cede or field")
        rule = self.cite("draw_choice") or self.cite("draw")
        if choice == "field":
            if not self.cite("draw_choice"):
                raise Refused(
                    "Nesta regra o sorteio decide só a saída",
                    "In this ruleset the draw only decides the kick-off",
                    self.cite("draw"),
                )
            goal = ctx.entry.data.get("goal")
            if goal not in (0, 1):
                raise Refused("'goal': a linha de gol (0 ou 1) que o vencedor defende",
                              "'goal': the goal line (0 or 1) the winner defends")
            m["ends"] = {winner: goal, other(winner): 1 - goal}
            kicker = other(winner)
        else:
            kicker = winner if choice == "ball" else other(winner)
        m["kickoff"] = {"first": kicker, "next": kicker, "draw": ctx.entry.id}
        what = {"ball": ("sai com a bola", "kicks off"), "cede": ("cede a saída", "cedes the ball"),
                "field": ("escolhe o campo", "chooses the field")}[choice]
        ctx.announce(
            "draw_choice",
            f"Sorteio: {ctx.name(winner)} {what[0]}; saída de {ctx.name(kicker)}",
            f"Draw: {ctx.name(winner)} {what[1]}; {ctx.name(kicker)} kicks off",
            rule,
        )

    # -- a goal off a neutral disc on the midline (001) ------------------------------------
    def on_midline_deflection(self, ctx: Ctx) -> None:
        """The last goal came off a disc touching the midline: no goal (001 Art. XXXI §3)."""
        m = ctx.m
        if not self.cite("midline_deflection"):
            raise Refused("Não previsto nesta regra: use Anular no registro do gol",
                          "Not in this ruleset: void the goal's entry instead")
        goal = m["goals"][-1] if m["goals"] else None
        r = m["restart"]
        if goal is None or goal["period"] != m["period"] or not (
            r and r["kind"] == "saida" and not r["taken"]
        ):
            raise Refused("Só logo após o gol, antes da saída: use Anular no registro do gol",
                          "Only right after the goal, before the kick-off: void its entry")
        self.uncount_goal(ctx, goal["entry"])
        defender = other(goal["side"])
        self.set_restart(ctx, "tiro_de_meta", defender, self.cite("midline_deflection"))
