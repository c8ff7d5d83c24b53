"""The base ruleset: the data every ruleset has and the rule functions they share.

A ruleset is a class: its class attributes are data (durations, limits, the
articles it cites) and its methods are small rule functions. The four rulesets
in this package subclass `Ruleset` and override only what their document says
differently. Handlers are named `on_<entry kind>`; the engine calls them with a
`Ctx` (see context.py). Articles are cited as in the documents (`000 Art. 12 §1`).
"""

from __future__ import annotations

import copy
from typing import Any, ClassVar

from . import shootout as so
from .context import SIDES, Ctx, Refused, other

MINUTE = 60_000
# A goal-line trip and the alarm closer than this (device ms) are "the same instant".
SAME_INSTANT_MS = 300
RESTART_NAMES = {
    "saida": ("saída de jogo", "kick-off"),
    "lateral": ("lateral", "throw-in"),
    "lateral_cedida": ("lateral cedida", "throw-in (cedida)"),
    "lateral_cavada": ("lateral cavada", "throw-in (cavada)"),
    "escanteio": ("escanteio", "corner"),
    "escanteio_cedido": ("escanteio cedido", "corner (cedido)"),
    "escanteio_cavado": ("escanteio cavado", "corner (cavado)"),
    "tiro_de_meta": ("tiro de meta", "goal kick"),
    "reposicao": ("reposição", "restart from the area"),
    "falta_direta": ("falta (cobrança direta ou indireta)", "free kick (direct or indirect)"),
    "falta_indireta": ("falta (cobrança indireta)", "indirect free kick"),
    "falta_tecnica": ("falta técnica", "technical foul (indirect free kick)"),
    "penalti": ("pênalti", "penalty"),
    "tiro_livre": ("tiro livre", "free kick"),
    "bola_do_goleiro": ("bola do goleiro", "goalkeeper's ball"),
}
# What the end of a period changes, kept so an infraction at the alarm can reopen it.
REOPEN_KEYS = (
    "status",
    "ends",
    "kickoff",
    "phase",
    "finished",
    "result",
    "decision_pending",
    "shot_asked",
    "restart",
    "turn",
    "last_touch",
    "last_lance",
    "shootout",
)
FOUL_TYPES = ("falta", "toque", "mao", "penalti", "tecnica", "dois_toques")


class Ruleset:
    """Defaults shared by every ruleset; subclasses override data and functions."""

    name: ClassVar[str] = "base"
    title: ClassVar[str] = ""
    document: ClassVar[str] = ""
    # -- time (data sent to the device as the clock profile) -----------------------
    periods: ClassVar[int] = 2
    period_ms: ClassVar[int] = 25 * MINUTE
    interval_ms: ClassVar[int] = 5 * MINUTE
    extra_periods: ClassVar[int] = 0
    extra_ms: ClassVar[int] = 0
    clock_mode: ClassVar[str] = "continuous"  # or "ball-in-play"
    end_mode: ClassVar[str] = "at-alarm"  # or "next-dead-ball"
    lance_ms: ClassVar[int] = 15_000
    lance_warn_ms: ClassVar[int] = 5_000
    # -- teams -------------------------------------------------------------------------
    discs: ClassVar[int] = 11
    min_discs: ClassVar[int] = 0  # below this the match cannot go on (0: not stated)
    substitutions: ClassVar[int | None] = 3
    # -- touches -----------------------------------------------------------------------
    touch_limit: ClassVar[int | None] = None  # per possession / turn, None: one lance per turn
    # -- tie-break -----------------------------------------------------------------------
    shootout_series: ClassVar[tuple[int, ...]] = ()  # kicks per side per series, then 1 each
    shootout_rotation: ClassVar[str] = "distinct-per-series"  # or "all-before-repeat"
    # -- articles cited by the shared functions ------------------------------------------
    cites: ClassVar[dict[str, str]] = {}

    def __init__(self, settings: dict[str, Any] | None = None) -> None:
        self.settings = dict(settings or {})

    # ======================================================================================
    # data helpers
    # ======================================================================================
    def cite(self, key: str) -> str:
        return self.cites.get(key, "")

    def setting(self, key: str, default: Any = None) -> Any:
        value = self.settings.get(key)
        return default if value is None else value

    def clock_profile(self, settings: dict[str, Any] | None = None) -> dict[str, Any]:
        """The clock parameters the daemon sends to the device."""
        s = {**self.settings, **(settings or {})}
        knockout = s.get("competition") == "knockout"
        extra = self.extra_periods if knockout and s.get("extra_time", True) else 0
        return {
            "ruleset": self.name,
            "periods": int(s.get("periods") or self.periods),
            "period_ms": int(s.get("period_ms") or self.period_ms),
            "interval_ms": int(s.get("interval_ms") or self.interval_ms),
            "extra_periods": extra,
            "extra_ms": int(s.get("extra_ms") or self.extra_ms) if extra else 0,
            "clock_mode": self.clock_mode,
            "end_mode": self.end_mode,
            "lance_ms": int(s.get("lance_ms") or self.lance_ms),
            "lance_warn_ms": int(s.get("lance_warn_ms") or self.lance_warn_ms)
            if self.lance_ms
            else 0,
        }

    def initial_match(self) -> dict[str, Any]:
        s = self.settings
        teams = {
            side: {
                "name": str(((s.get("teams") or {}).get(side) or {}).get("name") or f"Time {side}"),
                "color": str(
                    ((s.get("teams") or {}).get(side) or {}).get("color")
                    or ("#1f6feb" if side == "A" else "#d1242f")
                ),
            }
            for side in SIDES
        }
        first = s.get("kickoff") if s.get("kickoff") in SIDES else "A"
        profile = self.clock_profile()
        limit = self.setting("touch_limit", self.touch_limit)
        return {
            "ruleset": self.name,
            "teams": teams,
            "competition": {
                "type": s.get("competition", "league"),
                "extra_time": bool(profile["extra_periods"]),
                "shootout": bool(
                    s.get("competition") == "knockout"
                    and s.get("shootout", True)
                    and self.shootout_series
                ),
                "advantage": s.get("advantage") if s.get("advantage") in SIDES else None,
                "substitutions": self.setting("substitutions", self.substitutions),
            },
            "clock_profile": profile,
            "score": {"A": 0, "B": 0},
            "period": 1,
            "periods": profile["periods"],
            "phase": "regular",
            "status": "not_started",
            "finished": False,
            "result": None,
            "clock_running": False,
            "time_up": False,
            "alarm_at": None,
            "added_ms": 0,
            "kickoff": {"first": first, "next": first},
            "ends": {"A": 0, "B": 1},
            "turn": None,
            "shot_asked": None,
            "restart": None,
            "last_touch": None,
            "last_lance": None,
            "touches": {
                side: {"count": 0, "limit": limit, "disc": None, "run": 0} for side in SIDES
            }
            if limit
            else None,
            "fouls": {side: {"fouls": 0, "technical": 0, "disciplinary": 0} for side in SIDES},
            "expelled": {"A": [], "B": []},
            "substitutions": {"A": [], "B": []},
            "lance_warnings": 0,
            "last_disc": {"A": None, "B": None},
            "last_player": None,
            "goals": [],
            "shootout": None,
            "decision_pending": False,
            "pending": [],
            "announcements": [],
            "corrections": [],
            "faults": [],
            "gaps": 0,
        }

    # ======================================================================================
    # small shared helpers
    # ======================================================================================
    @staticmethod
    def defender_of(m: dict[str, Any], goal: int) -> str:
        return "A" if m["ends"]["A"] == goal else "B"

    @staticmethod
    def in_play(m: dict[str, Any]) -> bool:
        return m["status"] in ("running", "last_lance", "awaiting_dead_ball")

    def dead_ball(self, ctx: Ctx) -> None:
        """The ball is out of play: a ball-in-play clock stops."""
        if self.clock_mode == "ball-in-play" and ctx.m["clock_running"]:
            ctx.device("pause", reason="dead_ball")
            ctx.m["clock_running"] = False  # as commanded; the device confirms with clock_stopped

    def set_restart(self, ctx: Ctx, kind: str, side: str, rule: str, **extra: Any) -> None:
        m = ctx.m
        m["restart"] = {"kind": kind, "side": side, "rule": rule, "taken": False, **extra}
        m["turn"] = side
        m["lance_warnings"] = 0
        pt, en = RESTART_NAMES.get(kind, (kind, kind))
        ctx.announce(
            "restart_" + kind,
            f"{pt.capitalize()} para {ctx.name(side)}",
            f"{en.capitalize()} to {ctx.name(side)}",
            rule,
        )
        self.dead_ball(ctx)
        if self.lance_ms:
            ctx.device("lance_restart")

    def reset_touches(self, m: dict[str, Any], side: str) -> None:
        if m["touches"]:
            t = m["touches"][side]
            t.update(count=0, limit=self.setting("touch_limit", self.touch_limit), disc=None, run=0)

    def refuse_if_finished(self, ctx: Ctx) -> None:
        if ctx.m["finished"]:
            raise Refused("A partida já terminou", "The match is over")

    # ======================================================================================
    # period start / clock events
    # ======================================================================================
    def on_set_up(self, ctx: Ctx) -> None:
        m, d = ctx.m, ctx.entry.data
        if m["status"] != "not_started":
            raise Refused("Só antes do início da partida", "Only before the match starts")
        for side in SIDES:
            team = (d.get("teams") or {}).get(side) or {}
            for key in ("name", "color"):
                if isinstance(team.get(key), str) and team[key]:
                    m["teams"][side][key] = team[key]
        if d.get("kickoff") in SIDES:
            m["kickoff"] = {"first": d["kickoff"], "next": d["kickoff"]}
        ctx.announce("set_up", "Equipes definidas", "Teams set up")

    def on_kickoff(self, ctx: Ctx) -> None:
        """The draw (or the referee) says who kicks off next."""
        side = ctx.side()
        m = ctx.m
        if m["status"] == "not_started":
            m["kickoff"]["first"] = side
        m["kickoff"]["next"] = side
        ctx.announce(
            "kickoff_side",
            f"Saída de jogo: {ctx.name(side)}",
            f"Kick-off: {ctx.name(side)}",
            self.cite("draw"),
        )

    def on_ends(self, ctx: Ctx) -> None:
        """The referee states which goal line side A defends now."""
        goal = ctx.entry.data.get("A")
        if goal not in (0, 1):
            raise Refused("'A' deve ser 0 ou 1", "'A' must be 0 or 1")
        ctx.m["ends"] = {"A": goal, "B": 1 - goal}

    def on_start_period(self, ctx: Ctx) -> None:
        m = ctx.m
        self.refuse_if_finished(ctx)
        if m["status"] == "not_started":
            ctx.device("start", profile=m["clock_profile"])
        elif m["status"] == "interval" and not m["decision_pending"]:
            ctx.device("new_period", period=m["period"] + 1, length_ms=self.next_length(m))
        else:
            raise Refused("Não há período para iniciar agora", "There is no period to start now")

    def next_length(self, m: dict[str, Any]) -> int:
        profile = m["clock_profile"]
        return int(profile["extra_ms"] if m["phase"] == "extra" else profile["period_ms"])

    def on_clock_started(self, ctx: Ctx) -> None:
        m = ctx.m
        m["clock_running"] = True
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
                f"Início do {m['period']}º tempo",
                f"Period {m['period']} starts",
                self.cite("duration"),
            )
        elif m["status"] == "running" and m["restart"] and not m["restart"]["taken"]:
            pass  # a ball-in-play clock resumed by the device

    def start_from_kickoff(self, ctx: Ctx, side: str) -> None:
        m = ctx.m
        m["shot_asked"] = None
        m["last_touch"] = None
        for s in SIDES:
            self.reset_touches(m, s)
        m["restart"] = {"kind": "saida", "side": side, "rule": self.cite("kickoff"), "taken": False}
        m["turn"] = side
        m["kickoff_touches"] = 0

    def on_clock_stopped(self, ctx: Ctx) -> None:
        ctx.m["clock_running"] = False

    def on_added_time(self, ctx: Ctx) -> None:
        m = ctx.m
        ms = ctx.entry.data.get("ms")
        if not isinstance(ms, int) or isinstance(ms, bool) or ms <= 0 or ms > 30 * MINUTE:
            raise Refused("'ms' deve ser um tempo positivo", "'ms' must be a positive duration")
        if m["status"] != "running" or m["time_up"]:
            raise Refused(
                "O acréscimo deve ser avisado antes do fim do tempo",
                "Added time must be announced before time is up",
                self.cite("added_time"),
            )
        m["added_ms"] += ms
        ctx.device("add_time", ms=ms)
        ctx.announce(
            "added_time",
            f"Acréscimo de {ms // 1000} s",
            f"{ms // 1000} s added",
            self.cite("added_time"),
        )

    # ======================================================================================
    # the end of a period
    # ======================================================================================
    def on_alarm(self, ctx: Ctx) -> None:
        m = ctx.m
        if m["status"] not in ("running",) or m["time_up"]:
            return
        m["time_up"] = True
        m["alarm_at"] = ctx.instant()
        self.time_up(ctx)
        self.check_goal_at_alarm(ctx)

    def on_period_over(self, ctx: Ctx) -> None:
        m = ctx.m
        m["clock_running"] = False
        if m["status"] == "running" and not m["time_up"]:
            self.on_alarm(ctx)
        if m["status"] == "running" or (
            m["status"] == "awaiting_dead_ball" and self.end_mode == "at-alarm"
        ):
            self.end_period(ctx, self.cite("end"))
        elif m["status"] == "awaiting_dead_ball":
            # the device ended the period at a dead ball it saw itself
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
            self.begin_last_lance(ctx, restart["side"], "infraction", self.cite("infraction_alarm"))
        else:
            self.end_period(ctx, self.cite("end"))

    def begin_last_lance(self, ctx: Ctx, side: str | None, reason: str, rule: str) -> None:
        m = ctx.m
        m["status"] = "last_lance"
        m["last_lance"] = {"side": side, "reason": reason, "rule": rule}
        who_pt = ctx.name(side) if side else "o técnico da vez"
        who_en = ctx.name(side) if side else "the player on turn"
        ctx.announce(
            "last_lance",
            f"Fim do tempo: último lance para {who_pt}",
            f"Time is up: last lance for {who_en}",
            rule,
        )

    def end_last_lance(self, ctx: Ctx) -> None:
        if ctx.m["status"] == "last_lance":
            self.end_period(ctx, ctx.m["last_lance"]["rule"] if ctx.m["last_lance"] else "")

    def check_goal_at_alarm(self, ctx: Ctx) -> None:
        """A goal counted within the same instant as the alarm is raised to the referee."""
        m = ctx.m
        if m["status"] == "last_lance" or not m["goals"]:
            return
        goal = m["goals"][-1]
        if goal["period"] != m["period"] or goal.get("at") is None:
            return
        if abs(int(m["alarm_at"]) - int(goal["at"])) <= SAME_INSTANT_MS:
            ctx.confirm(
                "goal_at_alarm",
                self.cite("end"),
                f"Gol de {ctx.name(goal['side'])} no mesmo instante do alarme: vale?",
                f"Goal for {ctx.name(goal['side'])} at the same instant as the alarm: "
                "does it count?",
                ["counts", "no_goal"],
                default="counts",
                reject="no_goal",
                goal_entry=goal["entry"],
                side=goal["side"],
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
        ctx.announce(
            "period_end",
            f"Fim do {m['period']}º tempo",
            f"End of period {m['period']}",
            rule,
        )
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
        ctx.announce("change_ends", "Troca de lado", "Teams change ends", self.cite("change_ends"))

    def second_half_kickoff(self, first: str) -> str:
        return other(first)

    def goal_pending(self, m: dict[str, Any]) -> bool:
        return any(p["kind"] in ("goal_no_shot", "goal_at_alarm") for p in m["pending"])

    def decide(self, ctx: Ctx) -> None:
        """Regular (or extra) time is over: a winner, extra time, a shootout or a draw."""
        m = ctx.m
        if self.goal_pending(m):
            m["decision_pending"] = True
            ctx.announce(
                "decision_pending",
                "Resultado aguarda confirmação do árbitro",
                "The result waits for the referee's confirmation",
            )
            return
        m["decision_pending"] = False
        a, b = m["score"]["A"], m["score"]["B"]
        comp = m["competition"]
        if a != b or comp["type"] != "knockout":
            winner = None if a == b else ("A" if a > b else "B")
            self.finish(ctx, winner, "time", self.cite("end"))
        elif m["phase"] == "regular" and comp["extra_time"]:
            m["phase"] = "extra"
            m["kickoff"]["next"] = m["kickoff"]["first"]
            ctx.announce(
                "extra_time",
                "Empate: prorrogação",
                "Level: extra time",
                self.cite("tie_break"),
            )
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
        who_pt = f"vitória de {ctx.name(winner)}" if winner else "empate"
        who_en = f"{ctx.name(winner)} win" if winner else "draw"
        ctx.announce(
            "match_end",
            f"Fim de jogo: {m['score']['A']} × {m['score']['B']}, {who_pt}",
            f"Full time: {m['score']['A']}–{m['score']['B']}, {who_en}",
            rule,
        )

    # ======================================================================================
    # goals and shots
    # ======================================================================================
    def on_shot_asked(self, ctx: Ctx) -> None:
        m = ctx.m
        side = ctx.side()
        disc = ctx.disc(required=True)
        self.refuse_if_finished(ctx)
        if m["time_up"] and m["status"] != "last_lance" and m["status"] != "awaiting_dead_ball":
            raise Refused(
                "Pedido no alarme ou depois dele: não há chute",
                "Asked at or after the alarm: no shot",
                self.cite("shot_before_alarm"),
            )
        if not self.in_play(m):
            raise Refused("A bola não está em jogo", "The ball is not in play")
        if m["status"] == "last_lance" and m["last_lance"]["side"] not in (None, side):
            raise Refused("O último lance é do adversário", "The last lance is the opponent's")
        if m["shot_asked"]:
            raise Refused(
                "Já há um chute pedido; o botão não pode ser trocado",
                "A shot is already asked; the disc cannot be changed",
                self.cite("shot_named"),
            )
        ball = ctx.entry.data.get("ball", "opponent_half")
        if ball == "midline":
            raise Refused(
                "Bola sobre a linha divisória: neutra, não pode ser chutada a gol",
                "Ball on the midline is neutral: no shot at goal",
                self.cite("midline"),
            )
        if ball == "own_half":
            raise Refused(
                "A bola precisa estar totalmente no campo do adversário",
                "The ball must be wholly in the opponent's half",
                self.cite("opponent_half"),
            )
        if disc in m["expelled"][side]:
            raise Refused(f"O botão {disc} foi expulso", f"Disc {disc} was sent off")
        m["shot_asked"] = {"side": side, "disc": disc, "entry": ctx.entry.id}
        m["lance_warnings"] = 0
        ctx.announce(
            "shot_asked",
            f"{ctx.name(side)} pede chute a gol com o botão {disc}",
            f"{ctx.name(side)} asks for a shot with disc {disc}",
            self.cite("shot_named"),
        )
        if self.lance_ms:
            ctx.device("lance_restart", reason="goalkeeper")

    def on_shot_result(self, ctx: Ctx) -> None:
        """The asked shot ended without a goal: saved, wide, short, missed or in play."""
        m = ctx.m
        shot = m["shot_asked"]
        if not shot:
            raise Refused("Não há chute pedido", "No shot was asked")
        m["shot_asked"] = None
        outcome = ctx.entry.data.get("outcome", "in_play")
        ctx.announce(
            "shot_over",
            f"Chute de {ctx.name(shot['side'])}: {outcome}",
            f"Shot by {ctx.name(shot['side'])}: {outcome}",
        )
        if m["status"] == "last_lance":
            self.end_last_lance(ctx)
            return
        self.after_shot(ctx, shot, str(outcome))

    def after_shot(self, ctx: Ctx, shot: dict[str, Any], outcome: str) -> None:
        if self.touch_limit is None:
            ctx.m["turn"] = other(shot["side"])

    def on_goal_line(self, ctx: Ctx) -> None:
        m = ctx.m
        goal = ctx.entry.data.get("goal")
        if goal not in (0, 1):
            raise Refused("'goal' deve ser 0 ou 1", "'goal' must be 0 or 1")
        if m["phase"] == "shootout" and not m["finished"]:
            so.goal_line(self, ctx)
            return
        defender = self.defender_of(m, goal)
        scorer = other(defender)
        if not self.in_play(m):
            if self.just_after_alarm(ctx):
                ctx.confirm(
                    "goal_at_alarm",
                    self.cite("end"),
                    f"Bola no gol de {ctx.name(defender)} no mesmo instante do alarme: vale?",
                    f"Ball in {ctx.name(defender)}'s goal at the same instant as the alarm: "
                    "does it count?",
                    ["counts", "no_goal"],
                    default="no_goal",
                    reject="no_goal",
                    side=scorer,
                    goal_entry=ctx.entry.id,
                    goal_period=m["period"],
                )
            else:
                ctx.announce(
                    "goal_line_ignored",
                    "Sensor de gol acionado com a bola fora de jogo: ignorado",
                    "Goal sensor tripped while the ball was not in play: ignored",
                )
            return
        shot = m["shot_asked"]
        if shot and shot["side"] == scorer:
            self.count_goal(ctx, scorer, own=False, disc=shot["disc"], rule=self.cite("goal"))
        elif shot and shot["side"] == defender:
            self.count_goal(ctx, scorer, own=True, disc=None, rule=self.cite("own_goal"))
        elif self.direct_goal_ok(ctx, scorer):
            self.count_goal(ctx, scorer, own=False, disc=None, rule=self.cite("direct_goal"))
        else:
            self.goal_without_shot(ctx, scorer, defender)

    def just_after_alarm(self, ctx: Ctx) -> bool:
        m = ctx.m
        return (
            m["status"] == "interval"
            and m["alarm_at"] is not None
            and not m["clock_running"]
            and abs(ctx.instant() - int(m["alarm_at"])) <= SAME_INSTANT_MS
        )

    def direct_goal_ok(self, ctx: Ctx, scorer: str) -> bool:
        """A goal that needs no asked shot (e.g. straight from a corner)."""
        return False

    def goal_without_shot(self, ctx: Ctx, scorer: str, defender: str) -> None:
        m = ctx.m
        own = m.get("last_player") == defender  # the defender's own lance went in
        self.dead_ball(ctx)
        ctx.confirm(
            "goal_no_shot",
            self.cite("shot_required"),
            f"Bola no gol de {ctx.name(defender)} sem chute pedido: gol contra, "
            "chute pedido não registrado, sem gol ou falso acionamento?",
            f"Ball in {ctx.name(defender)}'s goal with no shot asked: own goal, "
            "shot asked but not entered, no goal, or a false trip?",
            self.no_shot_options(),
            default="own_goal" if own and "own_goal" in self.no_shot_options() else "no_goal",
            reject="false_trip",
            side=scorer,
            defender=defender,
        )
        if m["status"] in ("last_lance", "awaiting_dead_ball"):
            self.end_period(ctx, self.cite("end"))

    def no_shot_options(self) -> list[str]:
        return ["no_goal", "own_goal", "shot_asked", "false_trip"]

    def no_shot_restart(self, ctx: Ctx, defender: str, choice: str) -> None:
        """A ball in the goal that is not a goal (no shot asked)."""
        self.set_restart(ctx, "tiro_de_meta", defender, self.cite("no_shot_restart"))

    def count_goal(
        self, ctx: Ctx, side: str, own: bool, disc: int | None, rule: str, at: int | None = None
    ) -> None:
        m = ctx.m
        m["score"][side] += 1
        m["goals"].append(
            {
                "side": side,
                "own_goal": own,
                "disc": disc,
                "period": m["period"],
                "clock_ms": ctx.entry.clock_ms,
                "entry": ctx.entry.id,
                "at": ctx.instant() if at is None else at,
            }
        )
        kind_pt = "Gol contra" if own else "Gol"
        kind_en = "Own goal" if own else "Goal"
        ctx.announce(
            "goal",
            f"{kind_pt}! {ctx.name(side)} — {m['score']['A']} × {m['score']['B']}",
            f"{kind_en}! {ctx.name(side)} — {m['score']['A']}–{m['score']['B']}",
            rule,
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
        ctx.announce(
            "rearrange",
            f"Arrumação das equipes; saída para {ctx.name(conceding)}",
            f"Teams re-arrange; kick-off to {ctx.name(conceding)}",
            self.cite("after_goal"),
        )
        if self.lance_ms:
            ctx.device("lance_restart")

    def uncount_goal(self, ctx: Ctx, entry_id: int) -> None:
        m = ctx.m
        for i, g in enumerate(m["goals"]):
            if g["entry"] == entry_id:
                m["score"][g["side"]] -= 1
                del m["goals"][i]
                ctx.announce(
                    "goal_disallowed",
                    f"Gol de {ctx.name(g['side'])} anulado",
                    f"Goal for {ctx.name(g['side'])} disallowed",
                    self.cite("end"),
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
            raise Refused("Não há confirmação pendente com esse número", "No such pending question")
        choice = ctx.entry.data.get("choice")
        if choice is None:
            choice = pending["default"] if ctx.entry.data.get("accept", True) else pending["reject"]
        if choice not in pending["options"]:
            raise Refused(
                f"Opções: {', '.join(pending['options'])}",
                f"Options: {', '.join(pending['options'])}",
            )
        m["pending"].remove(pending)
        getattr(self, "resolve_" + pending["kind"])(ctx, pending, choice)
        if m["decision_pending"] and not self.goal_pending(m):
            self.decide(ctx)

    def resolve_goal_no_shot(self, ctx: Ctx, pending: dict[str, Any], choice: str) -> None:
        m = ctx.m
        side, defender = pending["side"], pending["defender"]
        if choice in ("own_goal", "shot_asked"):
            rule = self.cite("own_goal") if choice == "own_goal" else self.cite("goal")
            if not self.in_play(m):
                m["score"][side] += 1  # late confirmation: count it, no re-arrangement
                m["goals"].append(
                    {
                        "side": side,
                        "own_goal": choice == "own_goal",
                        "disc": None,
                        "period": pending["period"],
                        "clock_ms": 0,
                        "entry": pending["id"],
                        "at": None,
                    }
                )
                ctx.announce(
                    "goal",
                    f"Gol confirmado: {ctx.name(side)}",
                    f"Goal confirmed: {ctx.name(side)}",
                    rule,
                )
            else:
                self.count_goal(ctx, side, own=choice == "own_goal", disc=None, rule=rule, at=None)
        elif choice == "false_trip":
            ctx.announce(
                "false_trip",
                "Sensor de gol: falso acionamento, jogo segue",
                "Goal sensor: false trip, play on",
            )
            ctx.device("play_on")
        else:
            ctx.announce(
                "goal_disallowed",
                "Gol não vale: chute não pedido",
                "No goal: the shot was not asked",
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
            m["goals"].append(
                {
                    "side": side,
                    "own_goal": False,
                    "disc": None,
                    "period": pending["goal_period"],
                    "clock_ms": 0,
                    "entry": pending["goal_entry"],
                    "at": None,
                }
            )
            ctx.announce(
                "goal",
                f"Gol confirmado: {ctx.name(side)}",
                f"Goal confirmed: {ctx.name(side)}",
                self.cite("end"),
            )
        elif choice == "no_goal" and counted:
            self.uncount_goal(ctx, pending["goal_entry"])

    # ======================================================================================
    # ball out, last touch, restarts
    # ======================================================================================
    def on_palheta(self, ctx: Ctx) -> None:
        pos = ctx.entry.data.get("pos")
        if pos == "C":
            ctx.m["last_touch"] = None
            return
        if pos not in SIDES:
            raise Refused("'pos' deve ser A, C ou B", "'pos' must be A, C or B")
        self.last_touch(ctx, pos, "palheta")

    def on_last_touch(self, ctx: Ctx) -> None:
        self.last_touch(ctx, ctx.side(), "referee")

    def last_touch(self, ctx: Ctx, side: str, via: str) -> None:
        m = ctx.m
        info = {"side": side, "via": via, "direct": bool(ctx.entry.data.get("direct", True))}
        waiting = next((p for p in m["pending"] if p["kind"] == "ball_out_touch"), None)
        if waiting is not None:
            m["pending"].remove(waiting)
            self.resolve_ball_out(ctx, waiting["ball_out"], info)
        else:
            m["last_touch"] = info

    def on_ball_out(self, ctx: Ctx) -> None:
        m = ctx.m
        d = ctx.entry.data
        line = d.get("line")
        end = d.get("end")
        if line not in ("side", "end") or end not in (0, 1):
            raise Refused(
                "'line' deve ser side|end e 'end' 0|1", "'line' must be side|end, 'end' 0|1"
            )
        if not self.in_play(m):
            return
        ctx.announce("ball_out", "Bola fora", "Ball out")
        shot = m["shot_asked"]
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
        }
        m["shot_asked"] = None
        self.dead_ball(ctx)
        if m["last_touch"] is None:
            ctx.confirm(
                "ball_out_touch",
                self.cite("ball_out"),
                "Bola fora: quem tocou por último?",
                "Ball out: who touched it last?",
                ["A", "B"],
                default=other(m["turn"]) if m["turn"] else "A",
                reject=m["turn"] or "B",
                ball_out=info,
            )
            return
        last = m["last_touch"]
        self.resolve_ball_out(ctx, info, last)

    def resolve_ball_out_touch(self, ctx: Ctx, pending: dict[str, Any], choice: str) -> None:
        self.resolve_ball_out(
            ctx, pending["ball_out"], {"side": choice, "via": "referee", "direct": True}
        )

    def resolve_ball_out(self, ctx: Ctx, info: dict[str, Any], last: dict[str, Any]) -> None:
        m = ctx.m
        m["last_touch"] = None
        if not self.in_play(m):
            return
        kind, side, rule = self.ball_out_restart(ctx, info, last)
        self.set_restart(ctx, kind, side, rule)

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

    def on_restart(self, ctx: Ctx) -> None:
        """The referee gives (or corrects) a restart."""
        kind = ctx.entry.data.get("kind")
        if kind not in RESTART_NAMES:
            raise Refused(
                f"Tipos: {', '.join(RESTART_NAMES)}", f"Kinds: {', '.join(RESTART_NAMES)}"
            )
        if not self.in_play(ctx.m):
            raise Refused("A bola não está em jogo", "The ball is not in play")
        self.set_restart(ctx, str(kind), ctx.side(), "")

    # ======================================================================================
    # touches and turns
    # ======================================================================================
    def on_touch(self, ctx: Ctx) -> None:
        m = ctx.m
        side = ctx.side()
        disc = ctx.disc()
        if not self.in_play(m):
            raise Refused("A bola não está em jogo", "The ball is not in play")
        if disc is not None and disc in m["expelled"][side]:
            raise Refused(f"O botão {disc} foi expulso", f"Disc {disc} was sent off")
        restart = m["restart"]
        if restart and not restart["taken"] and restart["side"] == side:
            restart["taken"] = True
            restart["touches_since"] = 0
            if self.clock_mode == "ball-in-play" and not m["clock_running"]:
                ctx.device("resume")
                m["clock_running"] = True
        elif restart:
            restart["touches_since"] = restart.get("touches_since", 0) + 1
        m["lance_warnings"] = 0
        if disc is not None:
            m["last_disc"][side] = disc
        m["last_player"] = side
        self.count_touch(ctx, side, disc, bool(ctx.entry.data.get("hit", True)))

    def count_touch(self, ctx: Ctx, side: str, disc: int | None, hit: bool) -> None:
        """One lance per turn; the kick-off is two lances by the same team."""
        m = ctx.m
        restart = m["restart"]
        if (
            restart
            and restart["kind"] == "saida"
            and restart.get("touches_since", 0) == 0
            and restart["side"] == side
            and m.get("kickoff_touches", 0) == 0
        ):
            m["kickoff_touches"] = 1
            m["turn"] = side
        else:
            m["kickoff_touches"] = 2
            m["turn"] = other(side)
        if self.lance_ms:
            ctx.device("lance_restart")

    def on_lance_done(self, ctx: Ctx) -> None:
        """The referee says the last lance is over."""
        if ctx.m["status"] != "last_lance":
            raise Refused("Não há último lance em curso", "No last lance is being played")
        self.end_last_lance(ctx)

    def on_button(self, ctx: Ctx) -> None:
        m = ctx.m
        button = ctx.entry.data.get("button")
        if button in ("turnA", "turnB") and self.in_play(m):
            # the player presses its own button when its lance is over
            m["turn"] = other(str(button)[-1])
            m["lance_warnings"] = 0
            if self.lance_ms:
                ctx.device("lance_restart")
        elif button == "referee":
            ctx.announce("referee_button", "Árbitro chamado", "Referee called")

    def on_lance_expired(self, ctx: Ctx) -> None:
        m = ctx.m
        if not self.lance_ms or not self.in_play(m) or ctx.entry.data.get("warning"):
            return
        m["lance_warnings"] += 1
        self.lance_timeout(ctx, m["turn"])

    def lance_timeout(self, ctx: Ctx, side: str | None) -> None:
        """First expiry: the referee warns; a further one: a disciplinary foul to confirm."""
        m = ctx.m
        secs = m["clock_profile"]["lance_ms"] // 1000
        who = ctx.name(side) if side else "?"
        if m["lance_warnings"] == 1:
            ctx.announce(
                "lance_warning",
                f"{secs} s: {who}, jogue imediatamente",
                f"{secs} s: {who}, play now",
                self.cite("lance_time"),
            )
            ctx.device("beep", pattern="warning")
        elif side:
            self.propose_lance_foul(ctx, side, "disciplinary")

    def propose_lance_foul(self, ctx: Ctx, side: str, kind: str) -> None:
        if any(p["kind"] == "lance_timeout" for p in ctx.m["pending"]):
            return
        label = {
            "disciplinary": ("falta disciplinar", "a disciplinary foul"),
            "technical": ("falta técnica", "a technical foul"),
        }[kind]
        ctx.confirm(
            "lance_timeout",
            self.cite("lance_time"),
            f"{ctx.name(side)} passou do tempo do lance: {label[0]}?",
            f"{ctx.name(side)} went over the lance time: {label[1]}?",
            ["foul", "no_foul"],
            default="foul",
            reject="no_foul",
            side=side,
            foul=kind,
        )

    def resolve_lance_timeout(self, ctx: Ctx, pending: dict[str, Any], choice: str) -> None:
        if choice != "foul" or not self.in_play(ctx.m) and not ctx.m["status"] == "interval":
            return
        side = pending["side"]
        if pending["foul"] == "disciplinary":
            self.disciplinary_foul(ctx, side, None, self.cite("lance_time"))
        else:
            self.technical_foul(ctx, side, self.cite("lance_time"))

    # ======================================================================================
    # fouls and discipline
    # ======================================================================================
    def on_foul(self, ctx: Ctx) -> None:
        m = ctx.m
        side = ctx.side()  # the offender
        ftype = ctx.entry.data.get("type", "falta")
        if ftype not in FOUL_TYPES:
            raise Refused(f"Tipos: {', '.join(FOUL_TYPES)}", f"Types: {', '.join(FOUL_TYPES)}")
        if ctx.entry.data.get("at_alarm") and m.get("_reopen") and self.at_alarm_reopens():
            self.reopen_for_infraction(ctx)
        if m["status"] in ("last_lance", "awaiting_dead_ball"):
            ctx.announce(
                "foul_after_time",
                "Falta após o fim do tempo: não é cobrada",
                "Foul after time is up: not taken",
                self.cite("foul_after_time"),
            )
            self.dead_ball(ctx)
            self.end_period(ctx, self.cite("foul_after_time"))
            return
        if not self.in_play(m):
            raise Refused("A bola não está em jogo", "The ball is not in play")
        m["fouls"][side]["technical" if ftype == "tecnica" else "fouls"] += 1
        m["shot_asked"] = None
        self.award_free_kick(ctx, side, str(ftype))

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
            "Infração no instante do alarme: ainda será cobrada",
            "Infraction at the instant of the alarm: it is still taken",
            self.cite("infraction_alarm"),
        )

    def award_free_kick(self, ctx: Ctx, offender: str, ftype: str) -> None:
        m = ctx.m
        beneficiary = other(offender)
        where = ctx.entry.data.get("where", "opponent_half")
        if ftype == "tecnica":
            kind, rule = "falta_tecnica", self.cite("technical")
        elif ftype == "penalti" or where == "box":
            kind, rule = "penalti", self.cite("penalty")
        elif where == "own_half":  # the fouled disc was in its own half
            kind, rule = "falta_indireta", self.cite("free_kick")
        else:
            kind, rule = "falta_direta", self.cite("free_kick")
        self.reset_touches(m, beneficiary)
        self.set_restart(ctx, kind, beneficiary, rule, infraction=True)
        if m["status"] == "running" and m["time_up"]:
            self.begin_last_lance(ctx, beneficiary, "infraction", self.cite("infraction_alarm"))

    def technical_foul(self, ctx: Ctx, offender: str, rule: str) -> None:
        m = ctx.m
        m["fouls"][offender]["technical"] += 1
        m["shot_asked"] = None
        self.reset_touches(m, other(offender))
        self.set_restart(ctx, "falta_tecnica", other(offender), rule, infraction=True)

    def on_discipline(self, ctx: Ctx) -> None:
        side = ctx.side()
        kind = ctx.entry.data.get("type", "disciplinary")
        disc = ctx.disc()
        self.refuse_if_finished(ctx)
        if kind == "disciplinary":
            self.disciplinary_foul(ctx, side, disc, self.cite("disciplinary"))
        elif kind == "expel":
            if disc is None:
                raise Refused("Informe o botão expulso", "Say which disc is sent off")
            self.expel(ctx, side, disc, self.cite("expel"))
        elif kind == "end_match":
            self.forfeit(ctx, side, self.cite("forfeit"))
        else:
            self.other_discipline(ctx, side, str(kind), disc)

    def other_discipline(self, ctx: Ctx, side: str, kind: str, disc: int | None) -> None:
        raise Refused(
            "Tipos: disciplinary, expel, end_match", "Types: disciplinary, expel, end_match"
        )

    def disciplinary_foul(self, ctx: Ctx, side: str, disc: int | None, rule: str) -> None:
        m = ctx.m
        m["fouls"][side]["disciplinary"] += 1
        n = m["fouls"][side]["disciplinary"]
        ctx.announce(
            "disciplinary",
            f"Falta disciplinar de {ctx.name(side)} ({n}ª)",
            f"Disciplinary foul by {ctx.name(side)} (no. {n})",
            rule,
        )
        if self.in_play(m):
            m["shot_asked"] = None
            self.set_restart(
                ctx, "tiro_livre", other(side), self.cite("disciplinary_kick"), infraction=True
            )

    def expel(self, ctx: Ctx, side: str, disc: int | None, rule: str) -> None:
        m = ctx.m
        if disc is not None and disc in m["expelled"][side]:
            raise Refused(f"O botão {disc} já foi expulso", f"Disc {disc} is already sent off")
        m["expelled"][side].append(disc if disc is not None else -1)
        label = str(disc) if disc is not None else "(a escolher)"
        ctx.announce(
            "expelled",
            f"Botão {label} de {ctx.name(side)} expulso",
            f"{ctx.name(side)} disc {label if disc is not None else '(to choose)'} sent off",
            rule,
        )
        if self.min_discs and self.discs - len(m["expelled"][side]) < self.min_discs:
            self.forfeit(ctx, side, self.cite("min_discs"))

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
                f"{ctx.name(side)} já fez {limit} substituições",
                f"{ctx.name(side)} has already made {limit} substitutions",
                self.cite("substitutions"),
            )
        if out in m["expelled"][side]:
            raise Refused(
                "Botão expulso não pode ser substituído", "A sent-off disc cannot be replaced"
            )
        self.check_substitution_moment(ctx)
        m["substitutions"][side].append({"out": out, "in": into, "period": m["period"]})
        ctx.announce(
            "substitution",
            f"Substituição em {ctx.name(side)}: sai {out}, entra {into}",
            f"{ctx.name(side)} substitution: {out} off, {into} on",
            self.cite("substitutions"),
        )

    def check_substitution_moment(self, ctx: Ctx) -> None:
        return None

    def on_offside(self, ctx: Ctx) -> None:
        raise Refused("Não há impedimento nesta regra", "This ruleset has no offside")

    # ======================================================================================
    # device health
    # ======================================================================================
    def on_sensor_fault(self, ctx: Ctx) -> None:
        d = ctx.entry.data
        ctx.m["faults"].append(
            {"sensor": d.get("sensor"), "fault": d.get("fault"), "entry": ctx.entry.id}
        )
        ctx.announce(
            "sensor_fault",
            f"Falha no sensor {d.get('sensor')}: {d.get('fault')} — árbitro, confira os lances",
            f"Sensor {d.get('sensor')} fault: {d.get('fault')} — referee, watch the plays",
        )

    def on_gap(self, ctx: Ctx) -> None:
        ctx.m["gaps"] += 1
        ctx.announce(
            "gap",
            "Eventos do aparelho perdidos: confira placar e tempo",
            "Device events were lost: check the score and the time",
        )

    # ======================================================================================
    # shootout
    # ======================================================================================
    def on_shootout_kick(self, ctx: Ctx) -> None:
        so.kick(self, ctx)

    def on_keeper_choice(self, ctx: Ctx) -> None:
        so.keeper_choice(self, ctx)

    def on_shootout_result(self, ctx: Ctx) -> None:
        so.result(self, ctx)
