"""The known rulesets by name, `load_ruleset` (by id), and `resolve_ruleset` (a person's
words: the id or the title, with or without accents or capitals: "gaúcha", "CBFM 1 Toque")."""

from __future__ import annotations

import difflib
import importlib
import inspect
import pkgutil
import re
import unicodedata
from pathlib import Path
from typing import Any

from futmesa.i18n import _

from .base import Ruleset

# Modules of this package that hold the engine, not rulesets.
_ENGINE_MODULES = frozenset({
    "base", "context", "core", "corrections", "discipline", "engine", "goals", "model", "ordering",
    "play", "possession", "registry", "settings", "shootout", "situations", "timekeeping",
})


def _discover() -> dict[str, type[Ruleset]]:
    """Every Ruleset subclass defined in a module of this package: a new ruleset is a new file."""
    found: dict[str, type[Ruleset]] = {}
    for module_info in sorted(pkgutil.iter_modules([str(Path(__file__).parent)]),
                              key=lambda m: m.name):
        if module_info.name in _ENGINE_MODULES or module_info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{__package__}.{module_info.name}")
        for _name, cls in inspect.getmembers(module, inspect.isclass):
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


class UnknownRuleset(KeyError):
    """A ruleset a person named that matches none (or several); str() is one line."""

    def __str__(self) -> str:
        return str(self.args[0])


def fold(text: str) -> str:
    """``text`` without accents, capitals or punctuation: "Regra Gaúcha (LGFM)" -> "regra
    gaucha lgfm"."""
    plain = "".join(c for c in unicodedata.normalize("NFKD", text)
                    if not unicodedata.combining(c))
    return " ".join(w for w in re.split(r"[^0-9a-z]+", plain.lower()) if w)


def _words(name: str) -> set[str]:
    return set(fold(f"{name} {RULESETS[name].title}").split())


def resolve_ruleset(text: str) -> str:
    """The id of the ruleset a person named by its id or its title (whole, or enough of
    its words to tell it apart); UnknownRuleset with a "você quis dizer" otherwise."""
    if text in RULESETS:
        return text
    wanted = fold(text)
    for name, cls in RULESETS.items():
        if wanted and wanted in (fold(name), fold(cls.title)):
            return name
    words = set(wanted.split())
    hits = [name for name in RULESETS if words and words <= _words(name)]
    if len(hits) == 1:
        return hits[0]
    known = "; ".join(f"{cls.title} ({name})" for name, cls in RULESETS.items())
    if len(hits) > 1:
        which = _(" or ").join(f'"{RULESETS[n].title}"' for n in hits)
        raise UnknownRuleset(_('ruleset "{text}" is ambiguous: {which}? Rulesets: {known}')
                             .format(text=text, which=which, known=known))
    labels = {fold(label): name for name, cls in RULESETS.items()
              for label in (name, cls.title)}
    close = difflib.get_close_matches(wanted, list(labels), n=1, cutoff=0.5)
    hint = (_(' did you mean "{title}"?').format(title=RULESETS[labels[close[0]]].title)
            if close else "")
    raise UnknownRuleset(_('unknown ruleset "{text}";{hint} rulesets: {known}').format(
        text=text, hint=hint, known=known))
