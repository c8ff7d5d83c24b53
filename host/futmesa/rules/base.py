"""The base ruleset: the data every ruleset has and the rule functions they share.

A ruleset is a class: its class attributes are data (durations, limits, the
articles it cites, see core.py) and its methods are small rule functions,
grouped by concern in timekeeping.py, goals.py, play.py and discipline.py. The
four rulesets in this package subclass `Ruleset` and override only what their
document says differently. Handlers are named `on_<entry kind>`; the engine
calls them with a `Ctx` (see context.py). Articles are cited as in the
documents (`000 Art. 12 §1`).
"""

from __future__ import annotations

from . import shootout as so
from .context import Ctx
from .core import MINUTE, RESTART_NAMES
from .discipline import DisciplineRules
from .goals import GoalRules
from .play import PlayRules
from .timekeeping import TimeRules

__all__ = ["MINUTE", "RESTART_NAMES", "Ruleset"]


class Ruleset(TimeRules, GoalRules, PlayRules, DisciplineRules):
    """Defaults shared by every ruleset; subclasses override data and functions."""

    def on_sensor_fault(self, ctx: Ctx) -> None:
        d = ctx.entry.data
        ctx.m["faults"].append(
            {"sensor": d.get("sensor"), "fault": d.get("fault"), "entry": ctx.entry.id}
        )
        if d.get("fault") == "storage":  # the device's flash refused a write
            ctx.announce(
                "sensor_fault",
                "A memória do aparelho não grava: o relógio segue, mas se o aparelho reiniciar "
                "o tempo de jogo se perde — anote o tempo",
                "The device's memory does not take writes: the clock runs, but a device reset "
                "loses the match time — note the time",
            )
            return
        ctx.announce(
            "sensor_fault",
            f"Falha no sensor {d.get('sensor')}: {d.get('fault')} — árbitro, confira os lances",
            f"Sensor {d.get('sensor')} fault: {d.get('fault')} — referee, watch the plays",
        )

    def on_sensor_ok(self, ctx: Ctx) -> None:
        sensor = ctx.entry.data.get("sensor")
        for fault in ctx.m["faults"]:
            if fault["sensor"] == sensor and fault.get("cleared") is None:
                fault["cleared"] = ctx.entry.id

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
