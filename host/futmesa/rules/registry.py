"""The known rulesets by name, and `load_ruleset`."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from pathlib import Path
from typing import Any

from .base import Ruleset

# Modules of this package that hold the engine, not rulesets.
_ENGINE_MODULES = frozenset({
    "base", "context", "core", "corrections", "discipline", "engine", "goals", "model", "ordering",
    "play", "registry", "settings", "shootout", "situations", "timekeeping",
})


def _discover() -> dict[str, type[Ruleset]]:
    """Every Ruleset subclass defined in a module of this package: a new ruleset is a new file."""
    found: dict[str, type[Ruleset]] = {}
    for module_info in sorted(pkgutil.iter_modules([str(Path(__file__).parent)]),
                              key=lambda m: m.name):
        if module_info.name in _ENGINE_MODULES or module_info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{__package__}.{module_info.name}")
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if (issubclass(cls, Ruleset) and cls.__module__ == module.__name__
                    and cls.name != Ruleset.name):
                if cls.name in found and found[cls.name] is not cls:
                    raise RuntimeError(f"two rulesets are called {cls.name!r}")
                found[cls.name] = cls
    return found


RULESETS: dict[str, type[Ruleset]] = _discover()


def ruleset_names() -> list[str]:
    return list(RULESETS)


def load_ruleset(name: str, settings: dict[str, Any] | None = None) -> Ruleset:
    """The ruleset called `name`; KeyError naming the known rulesets otherwise."""
    try:
        cls = RULESETS[name]
    except KeyError:
        raise KeyError(f"unknown ruleset {name!r}; known rulesets: {', '.join(RULESETS)}") from None
    return cls(settings)
