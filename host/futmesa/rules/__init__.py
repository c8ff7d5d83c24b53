"""Rules engine and rulesets: what each table event means under a chosen ruleset.

from futmesa.rules import load_ruleset, Engine, Entry
engine = Engine(load_ruleset("cbfm-1toque"), settings={...})
state, effects = engine.replay(entries)
"""

from .base import Ruleset
from .engine import Engine
from .model import CORRECTION_KINDS, DEVICE_KINDS, Effect, Entry, MatchState
from .registry import RULESETS, UnknownRuleset, load_ruleset, resolve_ruleset, ruleset_names

__all__ = [
    "CORRECTION_KINDS",
    "DEVICE_KINDS",
    "RULESETS",
    "Effect",
    "Engine",
    "Entry",
    "MatchState",
    "Ruleset",
    "load_ruleset",
    "resolve_ruleset",
    "UnknownRuleset",
    "ruleset_names",
]
