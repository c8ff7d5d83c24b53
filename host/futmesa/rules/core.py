"""The core of every ruleset: its data (durations, limits, cited articles), the
initial match dict, and the small helpers the rule functions share.

A ruleset is a class: its class attributes are data (durations, limits, the
articles it cites) and its methods are small rule functions. The four rulesets
in this package subclass `Ruleset` and override only what their document says
differently. Handlers are named `on_<entry kind>`; the engine calls them with a
`Ctx` (see context.py). Articles are cited as in the documents (`000 Art. 12 §1`).
"""

from __future__ import annotations

from typing import Any, ClassVar

from futmesa.i18n import N_, NP_

from .context import SIDES, Ctx, Labels, Refused
from .settings import check_settings

MINUTE = 60_000
# Two things closer than this (ms, on the time every entry carries: see Ctx.instant) happened
# "at the same instant" — one rule for every same-instant case: a goal and the alarm (000 Art.
# 8 §10 "simultaneamente"), a shot asked and the alarm (003 Art. 29 "ao mesmo tempo"; 000 Art.
# 12 §6 "antes do início do alarme"), an infraction and the alarm (000 Art. 18 §4).
SAME_INSTANT_MS = 300


def _given(settings: dict[str, Any], key: str, default: Any) -> Any:
    """A setting's value when the club gave one (0 included), else the ruleset's default."""
    value = settings.get(key)
    return default if value is None else value


def same_instant(a: int | None, b: int | None) -> bool:
    """Whether two instants (see Ctx.instant) are the same for the rules."""
    return a is not None and b is not None and abs(int(a) - int(b)) <= SAME_INSTANT_MS
RESTART_NAMES = Labels({
    "saida": NP_("restart kind", "kick-off"),
    "lateral": NP_("restart kind", "throw-in"),
    "lateral_cedida": NP_("restart kind", "throw-in (cedida)"),
    "lateral_cavada": NP_("restart kind", "throw-in (cavada)"),
    "escanteio": NP_("restart kind", "corner"),
    "escanteio_cedido": NP_("restart kind", "corner (cedido)"),
    "escanteio_cavado": NP_("restart kind", "corner (cavado)"),
    "tiro_de_meta": NP_("restart kind", "goal kick"),
    "reposicao": NP_("restart kind", "restart from the area"),
    "falta_direta": NP_("restart kind", "free kick (direct or indirect)"),
    "falta_indireta": NP_("restart kind", "indirect free kick"),
    "falta_tecnica": NP_("restart kind", "technical foul (indirect free kick)"),
    "penalti": NP_("restart kind", "penalty"),
    "tiro_livre": NP_("restart kind", "free kick"),
    "bola_do_goleiro": NP_("restart kind", "goalkeeper's ball"),
})
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


class RulesCore:
    """Data and helpers shared by every ruleset; subclasses override the data."""

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
    # the restarts whose kick is the asked shot, never recorded taken by the one tap of a
    # ball-in-play clock (possession.restart_tap): the penalty, "um chute pedido da marca do
    # pênalti" (004 Pênaltis); its shot's result takes it (possession.kicked)
    shot_kicks: ClassVar[tuple[str, ...]] = ("penalti",)
    end_mode: ClassVar[str] = "at-alarm"  # or "next-dead-ball"
    lance_ms: ClassVar[int] = 15_000
    lance_warn_ms: ClassVar[int] = 5_000
    # when the lance runs out: "at" its time (000 Art. 26 §1 A "ao atingir este tempo") or
    # "past" it, from its first millisecond over (001 "mais de quinze segundos")
    lance_over: ClassVar[str] = "at"
    # what a lance timer run out again after the warning is: "disciplinary" (000 Art. 26
    # §1 A), "technical" (001 Art. XXIX e) or "cera" (003 Art. 71 §único, Art. 84)
    lance_foul: ClassVar[str] = "disciplinary"
    # how often the referee warns a player who reaches the lance time: "every_lance" (000 Art.
    # 26 §1 A: "ao atingir este tempo, o árbitro deverá advertir") or "once" a match (003 Art.
    # 71 §único: "depois de já ter sido advertido"); setting `lance_warning`
    lance_warning: ClassVar[str] = "every_lance"
    # the lance on when the referee stopped play counts afresh when he resumes it (True), or
    # goes on from where it waited (False: the device's lance waits with its stopped clock)
    lance_fresh_after_stop: ClassVar[bool] = False
    # -- teams -------------------------------------------------------------------------
    discs: ClassVar[int] = 11
    min_discs: ClassVar[int] = 0  # below this the match cannot go on (0: not stated)
    substitutions: ClassVar[int | None] = 3
    corner_kind: ClassVar[str] = "escanteio"  # the corner given for a ball in off a defender
    # -- touches -----------------------------------------------------------------------
    touch_limit: ClassVar[int | None] = None  # per possession / turn, None: one lance per turn
    # -- the referee's inputs for what the table cannot see, beyond those of every ruleset
    # (possession.offers says when each applies; the console offers only those):
    # "offside", "ball_on_arc", "discs_moved", "keeper_kick_hit", "pass", "disc_out",
    # "rebound_midline", "free_kick_choice", "straight_out", "pass_touched_opponent",
    # "ball_stopped_big"
    referee_inputs: ClassVar[frozenset[str]] = frozenset()
    # -- tie-break -----------------------------------------------------------------------
    shootout_series: ClassVar[tuple[int, ...]] = ()  # kicks per side per series, then 1 each
    shootout_rotation: ClassVar[str] = "distinct-per-series"  # or "all-before-repeat"
    # a shot asked at the same instant as the alarm is not taken (003 Art. 29; 000 Art. 12 §6
    # only allows one asked before it); False where the last lance is the turn's anyway
    shot_needs_before_alarm: ClassVar[bool] = True
    # an infraction at the same instant as the alarm is still taken (000 Art. 18 §4 "no
    # mesmo instante"); False: only one the referee places before it (`at_alarm`)
    infraction_same_instant_taken: ClassVar[bool] = True
    # an infraction called BEFORE the alarm and not taken yet: "pending" — still taken as the
    # last lance (003 Art. 74 §único "ocorra uma falta e, na seqüência, o alarme toque", Art.
    # 29 "prorrogada para permitir a cobrança de penalidade"); "same_instant" — only one at
    # the alarm's own instant is (000 Art. 18 §4), any earlier one ends with the period, which
    # "ocorrerá simultaneamente com o início do alarme" (000 Art. 8 §10)
    pending_infraction_at_alarm: ClassVar[str] = "pending"
    # the lances an infraction's kick taken as the last lance has, where the restart's own
    # `lances` do not say (003 Art. 74 §único b: the indirect kick is the pass, then the shot)
    last_lance_kick_lances: ClassVar[dict[str, int]] = {}
    # the asked shot struck by another disc than the one named (a `touch` with `shot: true`):
    # False — refused (000 Art. 12 §1: only the disc named takes it); True — it happened, and
    # the goal it scores is not valid (003 Art. 54 §2 "não poderá ser trocado, em hipótese
    # alguma"); a plain touch by another disc is refused either way (§3: no giving the shot up)
    other_disc_voids_shot: ClassVar[bool] = False
    # restart kind -> article: the kicks whose taker missing the ball ("furou", a `touch` with
    # `hit: false`) is a technical foul (000 Art. 23 I A, IV A; 001 Art. XLVIIII)
    missed_kick_rules: ClassVar[dict[str, str]] = {}
    # the goalkeeper chooses in secret for an in-match penalty too (004 Pênaltis)
    penalty_keeper_secret: ClassVar[bool] = False
    # -- restarts: what each one allows its taker -----------------------------------------
    # kind -> {"lances": lances in a row for the taker (None: the usual turn), "forbid":
    # outcomes the taker may not obtain from it ("lateral", "escanteio", "tiro_de_meta",
    # "goal"), "then": "technical" (a technical foul for the opponent) or "reverse" (the
    # restart goes to the other side), "rule": the article}
    restart_rules: ClassVar[dict[str, dict[str, Any]]] = {}
    # -- the kicker who waits for another touch: restart kind -> ("refuse" | "technical",
    # article) for its taker's disc playing again before another disc touched the ball
    # (possession.kicker_waits; 000 Art. 23 II G, III A, IV B, 27 C; 003 Art. 66 §3, 67 §2)
    taker_waits: ClassVar[dict[str, tuple[str, str]]] = {}
    # -- who kicks off after a goal: "conceding" where the document says so (004 Saída de
    # bola "depois de um gol quem sofreu recomeça o jogo"), else "ask": the referee is asked
    # (000, 001 and 003 are silent), the conceding side's kick-off offered until he answers
    kickoff_after_goal: ClassVar[str] = "ask"
    # -- articles cited by the shared functions ------------------------------------------
    cites: ClassVar[dict[str, str]] = {}

    def __init__(self, settings: dict[str, Any] | None = None) -> None:
        self.settings = check_settings(settings or {})

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
            # 0 is a club's real choice here (no interval, no warning), not "unset"
            "interval_ms": int(_given(s, "interval_ms", self.interval_ms)),
            "extra_periods": extra,
            "extra_ms": int(s.get("extra_ms") or self.extra_ms) if extra else 0,
            "clock_mode": self.clock_mode,
            "end_mode": self.end_mode,
            "lance_ms": int(s.get("lance_ms") or self.lance_ms),
            "lance_warn_ms": int(_given(s, "lance_warn_ms", self.lance_warn_ms))
            if self.lance_ms
            else 0,
            "lance_over": self.lance_over if self.lance_ms else "at",
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
            "clock_ms": 0,
            "time_up": False,
            "alarm_at": None,
            "added_ms": 0,
            "kickoff": {"first": first, "next": first},
            "ends": {"A": 0, "B": 1},
            "turn": None,
            "shot_asked": None,
            "restart": None,
            "last_touch": None,
            "palheta": None,
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
            "warned": {"A": False, "B": False},
            "last_disc": {"A": None, "B": None},
            "last_player": None,
            "goals": [],
            "shootout": None,
            "penalties": [],
            "decision_pending": False,
            "pending": [],
            "announcements": [],
            # each change of a counter of ``fouls`` by the entry that made it (engine.py,
            # counted_by): the account lists every foul the rules count (walk47b M1)
            "fouls_counted": [],
            # each restart taken, by the entry that took it (engine.py taken_at)
            "restarts_taken": [],
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
        """The ball is out of play: a ball-in-play clock stops (the device stops it by
        itself on its own sensors; this covers dead balls only the referee sees)."""
        if self.clock_mode == "ball-in-play" and ctx.m["clock_running"]:
            ctx.device("dead_ball")
            ctx.m["clock_running"] = False  # as commanded; the device confirms with clock_stopped

    def ball_rolls(self, ctx: Ctx) -> None:
        """A restart was taken — by its taker's touch, or by the asked shot that was its kick
        (possession.kicked): the ball is in play, so a ball-in-play clock runs again (004 A
        partida "só corre com a bola rolando"; walk45i-b M-b: a shot straight from a
        lateral left the clock stopped)."""
        if self.clock_mode == "ball-in-play" and not ctx.m["clock_running"]:
            ctx.device("play_on")
            ctx.m["clock_running"] = True

    def rolls_on(self, ctx: Ctx) -> None:
        """A touch with the ball in play and no restart waiting: a ball-in-play clock standing
        still for a dead ball the match no longer has (one the referee voided whose give-back
        the table never confirmed) runs again, as at a restart's touch (004 A partida "só corre
        com a bola rolando"; walk46b H1: a Toque after the void left it PARADO). The
        referee's own stop stays his to end (Relógio), and a dead ball still asked about
        (a question pending) keeps it stopped."""
        m = ctx.m
        r = m["restart"]
        if (self.clock_mode == "ball-in-play" and not m["clock_running"] and self.in_play(m)
                and not (r and not r.get("taken")) and not m.get("_referee_stop")
                and not m["pending"]):
            self.ball_rolls(ctx)

    def set_restart(self, ctx: Ctx, kind: str, side: str, rule: str, **extra: Any) -> None:
        m = ctx.m
        # a sanction given with no lance played between (a disciplinary foul, the lance time):
        # no other disc has touched the ball since the kick (a foul is a lance: it may have)
        waiting = (self.still_waiting(m, side) if extra.get("infraction") and ctx.entry.kind
                   in ("discipline", "confirm", "lance_expired", "set_piece_distance") else None)
        m["restart"] = {"kind": kind, "side": side, "rule": rule, "taken": False, **extra}
        if waiting:
            m["restart"]["waiting"] = waiting
        if extra.get("infraction"):
            m["restart"]["called_at"] = ctx.instant()  # the alarm compares it (time_up)
        spec = self.restart_rules.get(kind)
        if spec:
            # the restart's own limits hold until the opponent touches the ball
            m["restart"].update(
                lances=spec.get("lances"), forbid=list(spec.get("forbid", ())),
                then=spec.get("then", "technical"), limit_rule=spec["rule"],
                taker_lances=0, open=True,
            )
            if spec.get("out_rule"):
                # the kick may not leave the field on its first lance (000 Art. 25 B)
                m["restart"]["out_rule"] = spec["out_rule"]
        self.place_restart(ctx, m["restart"])
        self.mark_referee_choices(m["restart"])
        m["turn"] = side
        m["lance_warnings"] = 0
        self.announce_restart(ctx, m["restart"])
        if kind == "tiro_de_meta" and self.cite("rearrange_goal_kick"):
            # "a retomada de jogo com arrumação das equipes" (000 Art. 13); "A arrumação das
            # equipes só se dará ... antes, de tiro-de-meta" (003 Art. 64)
            ctx.announce("rearrange", N_("Teams re-arrange for {team}'s goal kick"),
                         self.cite("rearrange_goal_kick"), team=ctx.name(side))
        self.dead_ball(ctx)
        if self.lance_ms:
            ctx.device("lance_restart", side=ctx.m["turn"])

    def still_waiting(self, m: dict[str, Any], side: str) -> dict[str, Any] | None:
        """The kicker of the restart in force who still waits for another touch when `side` is
        given an infraction's kick on the same ball (a disciplinary kick right after his
        technical-foul kick: he "só intervir no próximo lance de sua equipe depois que a bola
        for tocada por qualquer outro jogador", 000 Art. 27 C): {disc, rule}, carried by the
        new restart (possession.kicker_waits refuses him)."""
        r = m.get("restart")
        if not r or r.get("side") != side:
            return None
        if not r.get("taken"):
            held: dict[str, Any] | None = r.get("waiting")
            return held
        rule = self.taker_waits.get(r["kind"])
        if rule is None or r.get("kicker") is None or r.get("kicker_free"):
            return None
        return {"disc": r["kicker"], "rule": rule[1]}

    def mark_referee_choices(self, restart: dict[str, Any]) -> None:
        """What the console may offer for this restart (docs/rulesets.md, "Entradas do
        árbitro"): `taker_choice` (who takes it: "disc" or "goalkeeper"), `side_choice` (the
        favoured team picks the side), `waivable` (he may play a normal lance instead)."""
        kind = restart["kind"]
        taker = getattr(self, "taker_rules", {}).get(kind)
        if taker:
            restart["taker_choice"] = taker[0]
        if self.cite("side_choice") and kind in getattr(self, "side_choice_kinds", ()):
            # unless the article it is called under says (its place has no side: spots.py)
            restart.setdefault("side_choice", True)
        blocked = getattr(self, "not_waivable", ())
        if (self.cite("waive") and kind != "saida" and kind not in blocked
                and restart.get("foul_type") not in blocked):
            restart["waivable"] = True
            if getattr(self, "waived_is_spent", False):
                restart["waive_spends"] = True  # 001 XXIII §6: as if taken, the opponent plays

    def reset_touches(self, m: dict[str, Any], side: str) -> None:
        if m["touches"]:
            t = m["touches"][side]
            t.update(count=0, limit=self.setting("touch_limit", self.touch_limit), disc=None, run=0)

    def shot_struck(self, ctx: Ctx, shot: dict[str, Any], hit: bool = True) -> None:
        """The asked shot ended (its result, its ball out) with no touch entered for it: where
        touches are counted, the shot is its shooter's touch (003 Art. 47 §6: the opponent's
        count goes back to zero; Art. 48, 49: the 8th touch is the shot). None here."""

    def shot_limit(self, m: dict[str, Any], side: str) -> Refused | None:
        """A ruleset's own reason why `side` may not ask for a shot now (possession.py asks
        it after the shared checks); None: no further limit."""
        return None

    def lance_limit(self, m: dict[str, Any], side: str, disc: int | None) -> Refused | None:
        """A ruleset's own reason why `side` may not play a lance now (possession.touch_refusal
        asks it after the shared checks); None: no further limit."""
        return None

    def turn_holder(self, m: dict[str, Any], side: str) -> str | None:
        """Where the ruleset fixes no turns (no `cites["turns"]`): the side that alone may play
        now (`side`: the vez), or None when either may (possession.holder)."""
        return None

    def refuse_if_finished(self, ctx: Ctx) -> None:
        if ctx.m["finished"]:
            raise Refused(N_("The match is over"))

    # -- implemented by the rule mixins (timekeeping, goals, discipline); declared here
    #    so each mixin can call the others ------------------------------------------------
    def start_from_kickoff(self, ctx: Ctx, side: str) -> None:
        raise NotImplementedError

    def place_restart(self, ctx: Ctx, r: dict[str, Any]) -> None:
        raise NotImplementedError

    def announce_restart(self, ctx: Ctx, r: dict[str, Any]) -> None:
        raise NotImplementedError

    def restore_cleared(self, ctx: Ctx) -> None:
        raise NotImplementedError

    def ask_kickoff_side(self, ctx: Ctx, conceding: str) -> None:
        raise NotImplementedError

    def begin_last_lance(self, ctx: Ctx, side: str | None, reason: str, rule: str) -> None:
        raise NotImplementedError

    def end_last_lance(self, ctx: Ctx) -> None:
        raise NotImplementedError

    def last_lance_played(self, ctx: Ctx, side: str) -> None:
        raise NotImplementedError

    def end_period(self, ctx: Ctx, rule: str) -> None:
        raise NotImplementedError

    def goal_pending(self, m: dict[str, Any]) -> bool:
        raise NotImplementedError

    def decide(self, ctx: Ctx) -> None:
        raise NotImplementedError

    def finish(self, ctx: Ctx, winner: str | None, reason: str, rule: str, **extra: Any) -> None:
        raise NotImplementedError

    def technical_foul(self, ctx: Ctx, offender: str, rule: str) -> None:
        raise NotImplementedError

    def disciplinary_foul(self, ctx: Ctx, side: str, disc: int | None, rule: str) -> None:
        raise NotImplementedError

    def cera_foul(self, ctx: Ctx, side: str) -> None:
        raise NotImplementedError

    def resolve_goal_no_shot(self, ctx: Ctx, pending: dict[str, Any], choice: str) -> None:
        raise NotImplementedError
