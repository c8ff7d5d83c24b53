"""Fouls and discipline: free kicks and penalties, technical and disciplinary
fouls, expulsions, forfeits, substitutions and offside.
"""

from __future__ import annotations

from typing import Any, ClassVar

from futmesa.i18n import N_

from .context import Ctx, Refused, other
from .core import FOUL_TYPES, RulesCore, same_instant


class DisciplineRules(RulesCore):
    """Fouls, discipline, substitutions and offside."""

    def on_foul(self, ctx: Ctx) -> None:
        m = ctx.m
        side = ctx.side()  # the offender
        ftype = ctx.entry.data.get("type", "falta")
        if ftype not in self.foul_kinds:
            # a kind the ruleset's document does not have, sent anyway (issue #45)
            raise Refused(N_("This ruleset has no such foul: its document does not list it"),
                          rule=self.cite("foul_kinds"))
        at_alarm = ctx.entry.data.get("at_alarm") or (
            self.foul_at_alarm_taken() and same_instant(ctx.instant(), m["alarm_at"])
        )
        if at_alarm and m.get("_reopen") and self.at_alarm_reopens():
            # at the same instant as the alarm (by the entries' time, or the referee says so)
            self.reopen_for_infraction(ctx)
        if m["status"] in ("last_lance", "awaiting_dead_ball"):
            ctx.announce(
                "foul_after_time",
                N_("Foul after time is up: not taken"),
                self.cite("foul_after_time"),
            )
            self.dead_ball(ctx)
            self.end_period(ctx, self.cite("foul_after_time"))
            return
        if not self.in_play(m):
            raise Refused(N_("The ball is not in play"))
        self.refuse_placeless_foul(ctx, str(ftype))
        m["fouls"][side]["technical" if ftype == "tecnica" else "fouls"] += 1
        m["shot_asked"] = None
        self.award_free_kick(ctx, side, str(ftype))

    # the foul kinds the ruleset's document has, each ruleset its own (issue #45): the engine
    # publishes them (possession.foul_kinds), the console offers these only
    foul_kinds: ClassVar[tuple[str, ...]] = FOUL_TYPES

    # the foul types whose kick the place chooses (direct or indirect by the field, a penalty
    # in the box): 000 Art. 19 §2–§3, 20; 001 Art. XXIII §2; 003 Art. 74; 004 Faltas and
    # Pênaltis ("Falta dentro da área é pênalti"). The engine publishes them
    # (possession.foul_place): the console asks the place for these only. A technical foul, a
    # penalty, a two-touch throw-in / corner (000 Art. 22 §único): one kick wherever it was
    place_decides: ClassVar[tuple[str, ...]] = ("falta", "toque", "mao")

    def refuse_placeless_foul(self, ctx: Ctx, ftype: str) -> None:
        """A foul entered without its place (`where`) where the place chooses its kick is
        refused, through the engine, for the API, the console and the expert console alike
        (walk45h-b B3: the console asks for it; a kick guessed as direct is no answer)."""
        if ftype in self.place_decides and ctx.entry.data.get("where") is None:
            raise Refused(N_("Say where the foul was: in the offender's half, in the fouled "
                             "side's half or in the box"), rule=self.cite("free_kick"))

    def foul_at_alarm_taken(self) -> bool:
        """Whether a foul at the same instant as the alarm is taken: the ruleset's reading
        (000 Art. 18 §4 yes; 003 Art. 74 §único e no), or setting `foul_at_alarm`."""
        choice = self.setting("foul_at_alarm")
        return self.infraction_same_instant_taken if choice is None else choice == "taken"

    def at_alarm_reopens(self) -> bool:
        return True

    def reopen_for_infraction(self, ctx: Ctx) -> None:
        """An infraction at the same instant as the alarm is still taken as the last
        lance: the end of the period is undone and played on for that one lance."""
        m = ctx.m
        snapshot = m.pop("_reopen")
        m.update(snapshot)
        m["status"] = "running"
        ctx.announce(
            "period_reopened",
            N_("Infraction at the instant of the alarm: it is still taken"),
            self.cite("infraction_alarm"),
        )

    def award_free_kick(self, ctx: Ctx, offender: str, ftype: str) -> None:
        m = ctx.m
        beneficiary = other(offender)
        # the place counts only for the kinds whose kick it chooses (`place_decides`): a
        # two-touch throw-in / corner entered "in the box" is no penalty, "terão sempre
        # cobrança indireta" (000 Art. 22 §único; issue #44)
        where = ctx.entry.data.get("where") if ftype in self.place_decides else None
        if ftype == "tecnica":
            kind, rule = "falta_tecnica", self.cite("technical")
        elif ftype == "penalti" or where == "box":
            kind, rule = "penalti", self.cite("penalty")
        elif where == "own_half" or ftype == "dois_toques":
            # the fouled disc was in its own half; two-touch throw-ins / corners are
            # always indirect (000 Art. 22 §único)
            kind, rule = "falta_indireta", self.cite("free_kick")
            if ftype == "dois_toques":
                rule = self.cite("two_touch") or rule
        else:
            kind, rule = "falta_direta", self.cite("free_kick")
        extra: dict[str, Any] = {}
        if kind == "falta_direta" and self.cite("kick_choice"):
            # a foul in the offender's field: the favoured técnico chooses direct or indirect
            # (001 Art. XXIII §2, 003 Art. 74) — `kick` on the foul, or `free_kick_choice`
            extra["kick_choice"] = True
            if ctx.entry.data.get("kick") == "indirect":
                kind = "falta_indireta"
        self.reset_touches(m, beneficiary)
        self.set_restart(ctx, kind, beneficiary, rule, infraction=True, foul_type=ftype,
                         **extra)
        if m["status"] == "running" and m["time_up"]:
            self.begin_last_lance(ctx, beneficiary, "infraction", self.cite("infraction_alarm"))

    def technical_foul(self, ctx: Ctx, offender: str, rule: str) -> None:
        m = ctx.m
        m["fouls"][offender]["technical"] += 1
        m["shot_asked"] = None
        self.reset_touches(m, other(offender))
        self.set_restart(ctx, "falta_tecnica", other(offender), rule, infraction=True)

    # the disciplinary acts the ruleset's document has (issue #45, walk49a M5): the engine
    # publishes them (possession.discipline_kinds), the console's Disciplina sheet offers these
    # only; a ruleset with its own acts adds them (003: deliberate_foul, disqualify), one whose
    # document has no discipline at all has none (004)
    discipline_kinds: ClassVar[tuple[str, ...]] = ("disciplinary", "cera", "expel", "end_match")

    def on_discipline(self, ctx: Ctx) -> None:
        side = ctx.side()
        kind = ctx.entry.data.get("type", "disciplinary")
        disc = ctx.disc()
        self.refuse_if_finished(ctx)
        if kind not in self.discipline_kinds:
            # an act the ruleset's document does not have, sent anyway (walk49a M5: a
            # disciplinary foul in «A mesa está posta» was taken with no article)
            raise Refused(N_("This ruleset has no such disciplinary act: its document does not "
                             "list it"),
                          rule=self.cite("discipline_kinds") or self.cite("disciplinary"))
        if kind == "disciplinary":
            self.disciplinary_foul(ctx, side, disc, self.cite("disciplinary"))
        elif kind == "expel":
            if disc is None:
                raise Refused(N_("Say which disc is sent off"))
            self.expel(ctx, side, disc, self.cite("expel"))
        elif kind == "end_match":
            self.forfeit(ctx, side, self.cite("forfeit"))
        elif kind == "cera":
            self.cera_foul(ctx, side)
        else:
            self.other_discipline(ctx, side, str(kind), disc)

    def other_discipline(self, ctx: Ctx, side: str, kind: str, disc: int | None) -> None:
        raise Refused(N_("Types: disciplinary, cera, expel, end_match"))

    def disciplinary_foul(self, ctx: Ctx, side: str, disc: int | None, rule: str,
                          kick: str = "tiro_livre", cera: bool = False, **extra: Any) -> None:
        """``cera``: the foul is a time-wasting's (003 Art. 84), and says so."""
        m = ctx.m
        m["fouls"][side]["disciplinary"] += 1
        n = m["fouls"][side]["disciplinary"]
        ctx.announce(
            "disciplinary",
            N_("Time-wasting (cera) by {team}: disciplinary foul (no. {n})") if cera
            else N_("Disciplinary foul by {team} (no. {n})"),
            rule,
            n=n,
            team=ctx.name(side),
        )
        if self.in_play(m):
            m["shot_asked"] = None
            self.set_restart(
                ctx, kick, other(side), self.cite("disciplinary_kick"), infraction=True, **extra
            )

    def cera_foul(self, ctx: Ctx, side: str) -> None:
        """Deliberate delay ("cera"): a disciplinary foul where the ruleset has no rule of
        its own for it."""
        self.disciplinary_foul(ctx, side, None, self.cite("lance_time"))

    def expel(self, ctx: Ctx, side: str, disc: int | None, rule: str) -> None:
        m = ctx.m
        if disc is not None and disc in m["expelled"][side]:
            raise Refused(N_("Disc {disc} is already sent off"), disc=disc)
        # an expulsion whose disc is not known yet holds its place (null) until the referee
        # names the disc (000 Art. 26 §1 F "havendo dúvida, o árbitro escolherá qualquer um")
        m["expelled"][side].append(disc)
        if disc is None:
            ctx.announce(
                "expelled",
                N_("A {team} disc is sent off: referee, say which one"),
                rule,
                team=ctx.name(side),
            )
            ctx.confirm(
                "expel_disc",
                rule,
                N_("Which {team} disc is sent off?"),
                [],
                default="",
                reject="",
                side=side,
                input="disc",
                values={"team": ctx.name(side)},
            )
        else:
            ctx.announce(
                "expelled",
                N_("{team} disc {disc} sent off"),
                rule,
                disc=disc,
                team=ctx.name(side),
            )
        if self.min_discs and self.discs - len(m["expelled"][side]) < self.min_discs:
            self.forfeit(ctx, side, self.cite("min_discs"))

    def resolve_expel_disc(self, ctx: Ctx, pending: dict[str, Any], choice: Any) -> None:
        """The referee names the disc of an expulsion that was waiting for it."""
        m = ctx.m
        side = pending["side"]
        expelled = m["expelled"][side]
        if None in expelled:
            expelled[expelled.index(None)] = choice
        ctx.announce(
            "expelled_named",
            N_("{team} disc {choice} is the one sent off"),
            pending["rule"],
            choice=choice,
            team=ctx.name(side),
        )

    def forfeit(self, ctx: Ctx, side: str, rule: str) -> None:
        """The match ends with loss of points for `side`."""
        self.finish(ctx, other(side), "forfeit", rule, loser=side)

    def on_substitution(self, ctx: Ctx) -> None:
        m = ctx.m
        side = ctx.side()
        out, into = ctx.disc("out", required=True), ctx.disc("in", required=True)
        self.refuse_if_finished(ctx)
        limit = m["competition"]["substitutions"]
        if limit is not None and len(m["substitutions"][side]) >= limit:
            raise Refused(
                N_("{team} has already made {limit} substitutions"),
                team=ctx.name(side), limit=limit, rule=self.cite("substitutions"),
            )
        if out in m["expelled"][side]:
            raise Refused(N_("A sent-off disc cannot be replaced"))
        if into in m["expelled"][side]:
            # an expelled disc is out for the rest of the match: only "o jogador substituído"
            # may come back (000 Art. 10), not one sent off (Art. 26 §1 F counts them)
            raise Refused(N_("Disc {disc} was sent off"), disc=into,
                          rule=self.cite("substitutions"))
        self.check_substitution_moment(ctx)
        m["substitutions"][side].append({"out": out, "in": into, "period": m["period"]})
        ctx.announce(
            "substitution",
            N_("{team} substitution: {out} off, {into} on"),
            self.cite("substitutions"),
            into=into,
            out=out,
            team=ctx.name(side),
        )

    def check_substitution_moment(self, ctx: Ctx) -> None:
        return None

    def on_offside(self, ctx: Ctx) -> None:
        raise Refused(N_("This ruleset has no offside"))
