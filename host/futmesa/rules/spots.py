"""Where a restart is taken and how it is set up: the restart in force carries its `spot`
(and whose half or area it is in, `spot_of`; the flank, `flank`), derived when it is called
from the ruleset's data — by the article it is called under (`rule_spots`), else by its kind
(`restart_spots`) — and set by the referee's one tap (`kick_spot_choice`) only where the
engine cannot know it (the favoured side's choice of a bico, 000 Art. 26 §2 II B; a technical
foul on the penalty mark, 001 Art. XXIX b, m). A penalty carries its set-up (`setup`, the
document's words as codes) and whether the discs cleared for a kick go back after it
(`cleared_discs_return`); `disc_distances` says which opponents are cleared for a free kick
(003 Art. 73 §1), put back once the kick is over (`discs_restored`)."""

from __future__ import annotations

from typing import Any, ClassVar

from futmesa.i18n import N_, NP_

from .answers import corners_of
from .context import SIDES, Ctx, Labels, Refused, other
from .core import RESTART_NAMES, RulesCore

# the places a kick is taken from, as the referee reads them on the restart card and the súmula
SPOT_NAMES = Labels({
    "centre": NP_("kick spot", "at the centre of the field"),
    "ball": NP_("kick spot", "where the ball is"),
    "foul": NP_("kick spot", "where the foul was"),
    "ball_out": NP_("kick spot", "where the ball went out"),
    "where_the_ball_stops": NP_("kick spot", "where the ball stops"),
    "penalty_mark": NP_("kick spot", "on the penalty mark"),
    "corner_mark": NP_("kick spot", "at the corner mark"),
    "big_area": NP_("kick spot", "anywhere in the big area"),
    "big_area_corner": NP_("kick spot", "at a corner of the big area"),
    "small_area_corner": NP_("kick spot", "at the nearest corner of the small area"),
    "midline_side_line": NP_("kick spot", "on the side line at the halfway line"),
})
# what a penalty's set-up asks of the referee, in each document's words
SETUP_NAMES = Labels({
    "clear_big_area_to_nearest_spot": NP_(
        "penalty set-up", "discs in the big area moved out, each to the nearest place"),
    "clear_all_discs_from_big_area": NP_(
        "penalty set-up", "every disc moved out of the big area"),
    "clear_all_discs_but_kicker_from_big_area_and_meia_lua": NP_(
        "penalty set-up", "every disc but the kicker out of the big area and the half-moon"),
    "all_discs_out_of_area": NP_("penalty set-up", "every disc out of the area"),
    "kicker_behind_ball_in_area_or_meia_lua": NP_(
        "penalty set-up", "the kicker behind the ball, in the area or the half-moon"),
    "goalkeeper_front_on_goal_line": NP_(
        "penalty set-up", "the goalkeeper's front on the goal line"),
    "goalkeeper_facing_goal_line_from_inside": NP_(
        "penalty set-up", "the goalkeeper facing the goal line from inside"),
    "goalkeeper_on_line": NP_("penalty set-up", "the goalkeeper on the line"),
})
FLANKS = ("left", "right")


def disc_code(code: Any) -> tuple[str, int] | None:
    """("B", 4) for "B4"; None for anything else."""
    text = str(code)
    if len(text) >= 2 and text[0] in SIDES and text[1:].isdigit() and int(text[1:]) <= 99:
        return text[0], int(text[1:])
    return None


class SpotRules(RulesCore):
    """Where the restart in force is taken, and the penalty's set-up."""

    # restart kind -> where it is taken when its article says nothing else
    restart_spots: ClassVar[dict[str, str]] = {
        "saida": "centre", "penalti": "penalty_mark",
        "lateral": "ball_out", "lateral_cedida": "ball_out", "lateral_cavada": "ball_out",
        "escanteio": "corner_mark", "escanteio_cedido": "corner_mark",
        "escanteio_cavado": "corner_mark",
        "falta_direta": "foul", "falta_indireta": "foul",
        "falta_tecnica": "ball", "tiro_livre": "ball",
    }
    # the article a restart is called under -> {"spot", "of": "offender" | "beneficiary" (whose
    # area or mark), other keys copied onto the restart}: the document's own place for it
    rule_spots: ClassVar[dict[str, dict[str, Any]]] = {}
    # restart kind -> the places the referee may set with one tap, where the engine cannot know
    # which applies (the technical foul's reason is the referee's)
    spot_choices: ClassVar[dict[str, tuple[str, ...]]] = {}
    # the penalty's set-up, the document's steps in order (codes of SETUP_NAMES)
    penalty_setup: ClassVar[tuple[str, ...]] = ()
    # restart kind -> whether the discs cleared for its kick go back after it
    cleared_return: ClassVar[dict[str, bool]] = {}
    # a free kick's minimum distance (mm) from the ball for the opponents, cleared by the
    # referee and put back after the kick (003 Art. 73 §1); None: no input for it
    free_kick_distance_mm: ClassVar[int | None] = None

    def place_restart(self, ctx: Ctx, r: dict[str, Any]) -> None:
        """Where the restart `r` (just called) is taken: its article's place, else its kind's;
        the flank the ball went out on, where the entry says it."""
        spec = self.rule_spots.get(r.get("rule", ""))
        if "spot" not in r:
            spot = spec["spot"] if spec else self.restart_spots.get(r["kind"])
            if (not spec and r["kind"] in ("falta_tecnica", "tiro_livre")
                    and ctx.entry.kind == "ball_out" and ctx.entry.data.get("line") == "side"):
                # a kick that won a throw-in it may not: where the ball went out (000 Art. 23
                # II A "no local exato em que transpôs a linha", Art. 26 §2 I C; 001 XXXIII §1)
                spot = "ball_out"
            if spot:
                r["spot"] = spot
        whose = spec.get("of") if spec else ("offender" if r.get("spot") == "penalty_mark"
                                             else None)
        if whose and "spot_of" not in r:
            r["spot_of"] = r["side"] if whose == "beneficiary" else other(r["side"])
        for key, value in (spec or {}).items():
            if key not in ("spot", "of"):
                r[key] = value
        # a place other than its kind's usual one is said (the announcement, the restart card)
        r["spot_told"] = bool(r.get("spot")) and r.get("spot") != self.restart_spots.get(r["kind"])
        flank = ctx.entry.data.get("flank") if ctx.entry.kind == "ball_out" else None
        if flank in FLANKS and "flank" not in r:
            r["flank"] = flank  # "pelo lado em que saiu" (001 Art. XXXIII §2)
        if self.spot_choices.get(r["kind"]) and not spec:
            # what the console offers; never where the article names the place (walk45h-a low:
            # "Cobrança onde a bola saiu" offered at the lance time's foul, 001 XXIX e)
            r["spot_choices"] = list(self.spot_choices[r["kind"]])
        if r["kind"] == "penalti" and self.penalty_setup:
            r["setup"] = list(self.penalty_setup)
        if r["kind"] in self.cleared_return:
            r["cleared_discs_return"] = self.cleared_return[r["kind"]]

    def announce_restart(self, ctx: Ctx, r: dict[str, Any]) -> None:
        """The restart called, to whom; and where, when its article puts it elsewhere than
        its kind's usual place (the súmula and the TV say it)."""
        kind, spot = r["kind"], r.get("spot")
        if not r.get("spot_told"):
            ctx.announce("restart_" + kind, N_("{restart} to {team}"), r["rule"],
                         restart=RESTART_NAMES.word(kind, capital=True),
                         team=ctx.name(r["side"]))
            return
        ctx.announce("restart_" + kind, N_("{restart} to {team}, taken {spot}"), r["rule"],
                     restart=RESTART_NAMES.word(kind, capital=True), team=ctx.name(r["side"]),
                     spot=SPOT_NAMES.word(spot))

    def ask_kick_spot(self, ctx: Ctx, spot: str, rule: str) -> None:
        """The favoured side chooses where its kick is taken, among the bicos of either big
        area (000 Art. 26 §2 II B "poderá optar por qualquer 'bico' de área"): asked."""
        r = ctx.m["restart"]
        r["spot"], r["spot_chosen_by"], r["spot_told"] = spot, r["side"], True
        r.pop("spot_of", None)
        options = [f"{s}_{f}" for s in SIDES for f in FLANKS]
        named = corners_of({s: ctx.name(s) for s in SIDES})  # "Área de X, bico esquerdo"
        ctx.confirm(
            "kick_spot",
            rule,
            N_("{team} chooses the corner of a big area the kick is taken from"),
            options,
            default=f"{other(r['side'])}_left",
            reject=f"{other(r['side'])}_right",
            values={"team": ctx.name(r["side"])},
            named=named,
            side=r["side"],
        )

    def resolve_kick_spot(self, ctx: Ctx, pending: dict[str, Any], choice: str) -> None:
        whose, flank = choice.split("_", 1)
        self.set_kick_spot(ctx, str(ctx.m["restart"].get("spot")), whose, flank,
                           pending["rule"])

    def on_kick_spot_choice(self, ctx: Ctx) -> None:
        """`kick_spot_choice {spot, spot_of, flank}`: where the restart in force is taken, the
        referee's one tap where the engine cannot know it — a place the ruleset lists for the
        restart (`spot_choices`), or the favoured side's answer to the question of a bico."""
        m = ctx.m
        r = m["restart"]
        d = ctx.entry.data
        if not r or r.get("taken") or not self.in_play(m):
            raise Refused(N_("No restart is waiting to be taken"))
        if ctx.side(required=False) not in ("", r["side"]):
            raise Refused(N_("The place is chosen by {team}, whose kick it is"),
                          team=ctx.name(r["side"]))
        asked = next((p for p in m["pending"] if p["kind"] == "kick_spot"), None)
        spot = d.get("spot")
        allowed = tuple(r.get("spot_choices") or ())  # none where its article names it
        if asked is not None:
            allowed = (str(r.get("spot")),)
        if spot not in allowed:
            raise Refused(N_("This restart's place is the rule's, not a choice"),
                          rule=self.cite("kick_spot"))
        whose = d.get("spot_of", other(r["side"]))
        flank = d.get("flank")
        if whose not in SIDES or (flank is not None and flank not in FLANKS):
            raise Refused(N_("'spot_of': A or B; 'flank': left or right"))
        if asked is not None:
            if flank is None:
                raise Refused(N_("Say the corner: 'flank' left or right"), rule=asked["rule"])
            m["pending"].remove(asked)
        self.set_kick_spot(ctx, str(spot), str(whose), flank,
                           asked["rule"] if asked else self.cite("kick_spot"))

    def set_kick_spot(self, ctx: Ctx, spot: str, whose: str, flank: str | None,
                      rule: str) -> None:
        r = ctx.m["restart"]
        r["spot"], r["spot_of"], r["spot_told"] = spot, whose, True
        if flank:
            r["flank"] = flank
        else:
            r.pop("flank", None)
        restart = RESTART_NAMES.word(r["kind"], capital=True)
        if flank and spot == "big_area_corner":
            # the bico chosen, said as its button said it (walk46a M1: "cobrança no bico da
            # área grande (Alvorada)" named neither which bico nor whose area plainly)
            ctx.announce(
                "kick_spot",
                N_("{restart} for {team}: taken at the left corner of {area}'s big area")
                if flank == "left" else
                N_("{restart} for {team}: taken at the right corner of {area}'s big area"),
                rule,
                restart=restart,
                team=ctx.name(r["side"]),
                area=ctx.name(whose),
            )
            return
        ctx.announce(
            "kick_spot",
            N_("{restart} for {team}: taken {spot} ({area})"),
            rule,
            team=ctx.name(r["side"]),
            restart=restart,
            spot=SPOT_NAMES.word(spot),
            area=ctx.name(whose),
        )

    # -- the discs cleared for a free kick (003 Art. 73 §1) ------------------------------------
    def on_disc_distances(self, ctx: Ctx) -> None:
        """`disc_distances {mm: {"B4": 45, …}}`: each disc's distance from the ball at the free
        kick waiting: the opponents closer than the minimum are cleared by the referee and put
        back once the kick is over (003 Art. 73 §1, "serão recolocados … em suas posições
        originais")."""
        m = ctx.m
        r = m["restart"]
        limit = self.free_kick_distance_mm
        if limit is None:
            raise Refused(N_("Not in this ruleset"))
        if (not r or r.get("taken") or not r.get("infraction") or r["kind"] == "penalti"
                or not self.in_play(m)):
            raise Refused(N_("Only before a free kick is taken"), rule=self.cite("distance"))
        mm = ctx.entry.data.get("mm")
        if not isinstance(mm, dict) or not all(
                disc_code(k) and isinstance(v, int | float) and v >= 0 for k, v in mm.items()):
            raise Refused(N_("'mm': each disc (side and number, e.g. B4) with its distance in mm"))
        near = sorted(((v, str(k)) for k, v in mm.items()
                       if disc_code(k)[0] != r["side"] and v < limit))  # type: ignore[index]
        r["discs_to_clear"] = [k for _, k in near]
        if r["discs_to_clear"]:
            ctx.announce(
                "discs_cleared",
                N_("Discs moved away from the free kick: {discs}"),
                self.cite("distance"),
                discs=", ".join(r["discs_to_clear"]),
            )

    def restore_cleared(self, ctx: Ctx) -> None:
        """The kick is over and play goes on: the discs cleared for it go back."""
        r = ctx.m.get("restart")
        if not r or not r.get("taken") or not r.get("discs_to_clear") or r.get("restored"):
            return
        r["restored"] = True
        ctx.m["discs_restored"] = list(r["discs_to_clear"])
        ctx.announce(
            "discs_restored",
            N_("The discs moved for the free kick go back: {discs}"),
            self.cite("distance"),
            discs=", ".join(r["discs_to_clear"]),
        )
