"""Penalty shootouts: alternate kicks in series, then sudden death.

The series lengths and the rule for which discs may kick come from the ruleset
(`shootout_series`, `shootout_rotation`): 003 Art. 28 (5, then 3, then one each,
different discs within a series) and 004 "Disputa de pênaltis" (5 each, every
disc once before any twice, then sudden death). A shootout ends as soon as one
side can no longer catch up. The goalkeeper's choice (004 "Pênaltis") is kept
secret until the kick is recorded, then revealed with it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from futmesa.i18n import N_, NP_

from .context import SIDES, Ctx, Labels, Refused, other

if TYPE_CHECKING:
    from .core import RulesCore as Ruleset

KEEPER_CHOICES = ("left", "middle", "right")
# the goalkeeper's side, as the penalty and shoot-out announcements name it
KEEPER_SIDES = Labels({"left": NP_("goalkeeper's side", "left"),
                       "middle": NP_("goalkeeper's side", "middle"),
                       "right": NP_("goalkeeper's side", "right")})


def begin(rs: Ruleset, ctx: Ctx) -> None:
    m = ctx.m
    from_phase = m["phase"]
    m["phase"] = "shootout"
    m["status"] = "shootout"
    m["shootout"] = {
        "from_phase": from_phase,
        "first": None,
        "next": None,
        "series": 0,
        "series_lengths": list(rs.shootout_series),
        "series_kicks": {"A": 0, "B": 0},
        "used": {"A": [], "B": []},
        "tally": {"A": 0, "B": 0},
        "kicks": [],
        "in_progress": None,
    }
    ctx.announce("shootout", N_("Level: penalty shootout"), rs.cite("shootout"))


def _shootout(rs: Ruleset, ctx: Ctx) -> dict[str, Any]:
    m = ctx.m
    if m["phase"] != "shootout" or m["finished"] or m["shootout"] is None:
        raise Refused(N_("No shootout is being played"))
    return m["shootout"]


def _eligible(rs: Ruleset, ctx: Ctx, side: str) -> int:
    # outfield discs still on the team (the goalkeeper does not kick)
    return max(1, rs.discs - 1 - len(ctx.m["expelled"][side]))


def _check_disc(rs: Ruleset, ctx: Ctx, sh: dict[str, Any], side: str, disc: int) -> None:
    if disc in ctx.m["expelled"][side]:
        raise Refused(N_("Disc {disc} was sent off"), disc=disc)
    used = sh["used"][side]
    in_series = sh["series"] < len(sh["series_lengths"])
    if rs.shootout_rotation == "distinct-per-series":
        if in_series and disc in used:
            raise Refused(
                N_("Disc {disc} already kicked in this series: use different discs"),
                disc=disc, rule=rs.cite("shootout_discs"),
            )
    elif disc in used and len(used) < _eligible(rs, ctx, side):
        raise Refused(
            N_("Disc {disc} already kicked: every disc kicks once before any kicks twice"),
            disc=disc, rule=rs.cite("shootout_discs"),
        )


def kick(rs: Ruleset, ctx: Ctx) -> None:
    sh = _shootout(rs, ctx)
    side = ctx.side()
    if ctx.entry.data.get("goalkeeper"):
        # the goalkeeper does not kick: "Goleiros não 'jogam' e, portanto, não será permitida
        # nenhum tipo de cobrança com o goleiro" (003 Art. 37 §3)
        raise Refused(N_("The goalkeeper takes no shoot-out kick: another disc kicks"),
                      rule=rs.cite("keeper_no_kick"))
    disc = ctx.disc(required=True)
    assert disc is not None
    if sh["in_progress"]:
        raise Refused(N_("A kick is still waiting for its result"))
    if sh["next"] and side != sh["next"]:
        raise Refused(
            N_("Kicks alternate: it is {team}'s turn"),
            team=ctx.name(sh['next']), rule=rs.cite("shootout"),
        )
    _check_disc(rs, ctx, sh, side, disc)
    if sh["first"] is None:
        sh["first"] = side
    choice = ctx.entry.data.get("keeper_choice")
    if choice is not None and choice not in KEEPER_CHOICES:
        raise Refused(N_("Goalkeeper: left, middle or right"))
    scored = ctx.entry.data.get("scored")
    if scored is None:
        sh["in_progress"] = {"side": side, "disc": disc, "entry": ctx.entry.id}
        ctx.announce(
            "shootout_kick",
            N_("{team} to kick, disc {disc}"),
            rs.cite("shootout"),
            disc=disc,
            team=ctx.name(side),
        )
        return
    _record(rs, ctx, sh, side, disc, bool(scored), choice)


def goal_line(rs: Ruleset, ctx: Ctx, scored: bool = True) -> None:
    """The ball crossed a goal line during the shootout (`scored: False`: the referee voided
    that goal, so the kick is a miss)."""
    sh = ctx.m["shootout"]
    if not sh or not sh["in_progress"]:
        ctx.announce(
            "goal_line_ignored",
            N_("Goal sensor tripped with no kick being taken: ignored"),
        )
        return
    p = sh.pop("in_progress")
    sh["in_progress"] = None
    _record(rs, ctx, sh, p["side"], p["disc"], scored, None)


def result(rs: Ruleset, ctx: Ctx) -> None:
    sh = _shootout(rs, ctx)
    if not sh["in_progress"]:
        raise Refused(N_("No kick is being taken"))
    p = sh["in_progress"]
    sh["in_progress"] = None
    _record(rs, ctx, sh, p["side"], p["disc"], bool(ctx.entry.data.get("scored")), None)


def pending_penalty(rs: Ruleset, m: dict[str, Any], untouched: bool = False
                    ) -> dict[str, Any] | None:
    """The in-match penalty whose outcome is not known yet (`untouched`: and not yet
    kicked), where the goalkeeper chooses in secret."""
    r = m.get("restart")
    if not rs.penalty_keeper_secret or m["phase"] == "shootout" or m["finished"]:
        return None
    if not r or r["kind"] != "penalti" or r.get("kicked") or (untouched and r["taken"]):
        return None
    return r


def keeper_choice(rs: Ruleset, ctx: Ctx) -> None:
    m = ctx.m
    penalty = pending_penalty(rs, m, untouched=True)
    if penalty is None:
        _shootout(rs, ctx)
    side = ctx.side()  # the defending side
    choice = ctx.entry.data.get("choice")
    if choice not in KEEPER_CHOICES:
        raise Refused(N_("Goalkeeper: left, middle or right"))
    if penalty is not None and side != other(penalty["side"]):
        raise Refused(
            N_("The penalty is {team}'s: the choice is {keeper_team}'s goalkeeper's"),
            team=ctx.name(penalty['side']),
            keeper_team=ctx.name(other(penalty['side'])),
            rule=rs.cite("keeper_choice"),
        )
    ctx.m["_secret"] = {"side": side, "choice": choice, "penalty": penalty is not None}
    ctx.announce(
        "keeper_choice",
        N_("{team}'s goalkeeper choice recorded (secret)"),
        rs.cite("keeper_choice"),
        team=ctx.name(side),
    )


def penalty_kicked(rs: Ruleset, ctx: Ctx, side: str, disc: int | None, scored: bool) -> None:
    """004 Pênaltis: an in-match penalty was kicked (its asked shot ended): the goalkeeper's
    secret choice, if one was entered, is revealed with the kick."""
    m = ctx.m
    penalty = pending_penalty(rs, m)
    if penalty is None or penalty["side"] != side:
        return
    penalty["kicked"] = True
    secret = m.pop("_secret", None)
    choice = secret["choice"] if secret and secret.get("penalty") else None
    m.setdefault("penalties", []).append(
        {"side": side, "disc": disc, "scored": scored, "keeper_choice": choice,
         "period": m["period"], "entry": ctx.entry.id}
    )
    if choice:
        ctx.announce(
            "penalty_keeper",
            N_("{team}'s penalty: goal; goalkeeper: {keeper}") if scored
            else N_("{team}'s penalty: no goal; goalkeeper: {keeper}"),
            rs.cite("keeper_choice"),
            team=ctx.name(side),
            keeper=KEEPER_SIDES.word(choice),
        )


def _record(
    rs: Ruleset,
    ctx: Ctx,
    sh: dict[str, Any],
    side: str,
    disc: int,
    scored: bool,
    choice: str | None,
) -> None:
    m = ctx.m
    secret = m.pop("_secret", None)
    if choice is None and secret and secret["side"] == other(side):
        choice = secret["choice"]
    sh["kicks"].append(
        {
            "side": side,
            "disc": disc,
            "scored": scored,
            "keeper_choice": choice,
            "series": sh["series"],
            "entry": ctx.entry.id,
        }
    )
    sh["tally"][side] += int(scored)
    sh["series_kicks"][side] += 1
    used = sh["used"][side]
    if rs.shootout_rotation == "all-before-repeat" and len(used) >= _eligible(rs, ctx, side):
        used.clear()
    used.append(disc)
    sh["next"] = other(side)
    code = "shootout_goal" if scored else "shootout_miss"
    tally_a, tally_b = sh["tally"]["A"], sh["tally"]["B"]
    if choice:
        ctx.announce(
            code,
            N_("{team} ({disc}): scored; goalkeeper: {keeper} — {tally_a}–{tally_b}") if scored
            else N_("{team} ({disc}): missed; goalkeeper: {keeper} — {tally_a}–{tally_b}"),
            rs.cite("shootout"),
            team=ctx.name(side),
            disc=disc,
            keeper=KEEPER_SIDES.word(choice),
            tally_a=tally_a,
            tally_b=tally_b,
        )
    else:
        ctx.announce(
            code,
            N_("{team} ({disc}): scored — {tally_a}–{tally_b}") if scored
            else N_("{team} ({disc}): missed — {tally_a}–{tally_b}"),
            rs.cite("shootout"),
            team=ctx.name(side),
            disc=disc,
            tally_a=tally_a,
            tally_b=tally_b,
        )
    _check_end(rs, ctx, sh)


def _check_end(rs: Ruleset, ctx: Ctx, sh: dict[str, Any]) -> None:
    lengths = sh["series_lengths"]
    t, k = sh["tally"], sh["series_kicks"]
    n = lengths[sh["series"]] if sh["series"] < len(lengths) else 1
    remaining = {s: n - k[s] for s in SIDES}
    winner = None
    # 004: ends when one side can no longer catch up; 003 Art. 28 does not say (setting
    # `shootout_early_end: false` plays every series out)
    early = rs.setting("shootout_early_end", True) or (remaining["A"] == remaining["B"] == 0)
    if early and t["A"] > t["B"] + remaining["B"]:
        winner = "A"
    elif early and t["B"] > t["A"] + remaining["A"]:
        winner = "B"
    if winner:
        rs.finish(ctx, winner, "shootout", rs.cite("shootout"), shootout=dict(t))
        return
    if remaining["A"] == 0 and remaining["B"] == 0:
        # level after the series: next series, or another sudden-death round
        if sh["series"] < len(lengths):
            sh["series"] += 1
            if rs.shootout_rotation == "distinct-per-series":
                sh["used"] = {"A": [], "B": []}
            if sh["series"] < len(lengths):
                ctx.announce("shootout_series", N_("New series of {kicks} kicks"),
                             rs.cite("shootout"), kicks=lengths[sh["series"]])
            else:
                ctx.announce("shootout_series", N_("Sudden death: one kick each"),
                             rs.cite("shootout"))
        sh["series_kicks"] = {"A": 0, "B": 0}
