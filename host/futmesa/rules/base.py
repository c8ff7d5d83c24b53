"""The base ruleset: the data every ruleset has and the rule functions they share.

A ruleset is a class: its class attributes are data (durations, limits, the
articles it cites, see core.py) and its methods are small rule functions,
grouped by concern in timekeeping.py, goals.py, play.py, discipline.py,
situations.py, moves.py and spots.py. The
four rulesets in this package subclass `Ruleset` and override only what their
document says differently. Handlers are named `on_<entry kind>`; the engine
calls them with a `Ctx` (see context.py). Articles are cited as in the
documents (`000 Art. 12 §1`).
"""

from __future__ import annotations

from futmesa.i18n import N_, NP_

from . import shootout as so
from .context import Ctx, Labels
from .core import MINUTE, RESTART_NAMES
from .discipline import DisciplineRules
from .goals import GoalRules
from .moves import MoveRules
from .play import PlayRules
from .situations import SituationRules
from .spots import SpotRules
from .timekeeping import TimeRules

__all__ = ["MINUTE", "RESTART_NAMES", "Ruleset"]


# device event kinds as the referee reads them (pt, en), for lost-event announcements and
# the read side's sentences (matchbook.wording)
LOST_NAMES = Labels({
    "goal_line": NP_("device event", "goal line"),
    "ball_out": NP_("device event", "ball out"),
    "palheta": NP_("device event", "palheta"),
    "button": NP_("device event", "turn button"),
    "clock_started": NP_("device event", "clock started"),
    "clock_stopped": NP_("device event", "clock stopped"),
    "period_over": NP_("device event", "end of period"),
    "lance_expired": NP_("device event", "lance expired"),
    "lance_started": NP_("device event", "lance started"),
    "sensor_fault": NP_("device event", "sensor fault"),
})


class Ruleset(TimeRules, GoalRules, PlayRules, DisciplineRules, SituationRules, MoveRules,
              SpotRules):
    """Defaults shared by every ruleset; subclasses override data and functions."""

    def on_sensor_fault(self, ctx: Ctx) -> None:
        d = ctx.entry.data
        ctx.m["faults"].append(
            {"sensor": d.get("sensor"), "fault": d.get("fault"), "entry": ctx.entry.id}
        )
        if d.get("fault") == "storage":  # the device's flash refused a write
            ctx.announce(
                "sensor_fault",
                N_("The device's memory does not take writes: the clock runs, but a device "
                   "reset loses the match time — note the time"),
            )
            return
        ctx.announce(
            "sensor_fault",
            N_("Sensor {sensor} fault: {fault} — referee, watch the plays"),
            fault=d.get("fault"),
            sensor=d.get("sensor"),
        )

    def on_sensor_ok(self, ctx: Ctx) -> None:
        sensor = ctx.entry.data.get("sensor")
        for fault in ctx.m["faults"]:
            if fault["sensor"] == sensor and fault.get("cleared") is None:
                fault["cleared"] = ctx.entry.id

    # the súmula's signatures and a reopening are records with no rule meaning: the read side
    # (matchbook.signing) reads them and the daemon refuses input to a closed match
    def on_signature(self, ctx: Ctx) -> None:
        """A signature on the súmula: recorded, it changes nothing in the match."""

    def on_reopen(self, ctx: Ctx) -> None:
        """"Reabrir" after the referee signed: recorded, it changes nothing in the match."""

    def on_review(self, ctx: Ctx) -> None:
        """"Rever": the referee asks to see the last seconds again (the camera's clip of them
        goes into the log beside it, docs/camera.md): recorded, it changes nothing in the match;
        what he then decides is his own input."""

    def on_gap(self, ctx: Ctx) -> None:
        ctx.m["gaps"] += 1
        ctx.announce("gap", N_("Device events were lost: check the score and the time"))

    def on_lost(self, ctx: Ctx) -> None:
        """A table reset lost events no host had acknowledged (one entry per kind, then a
        summary): the referee is told which kinds, to check the score and the time."""
        d = ctx.entry.data
        kind, count = d.get("kind"), d.get("count")
        if not isinstance(kind, str) or not isinstance(count, int):
            return  # the summary: the kinds were announced one by one
        ctx.announce(
            "lost",
            N_("Table reset: {count} {what} event(s) lost — check the score and the time"),
            count=count,
            what=LOST_NAMES.word(kind),
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
