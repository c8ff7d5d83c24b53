"""The known rulesets by name, and `load_ruleset`."""

from __future__ import annotations

from typing import Any

from .base import Ruleset
from .cbfm_1toque import Cbfm1Toque
from .gaucha import Gaucha
from .mesa_posta import MesaPosta
from .pastilha_8x2 import Pastilha8x2
from .pastilha_8x2_clube import Pastilha8x2Clube

RULESETS: dict[str, type[Ruleset]] = {
    cls.name: cls for cls in (Cbfm1Toque, Gaucha, Pastilha8x2, MesaPosta, Pastilha8x2Clube)
}


def ruleset_names() -> list[str]:
    return list(RULESETS)


def load_ruleset(name: str, settings: dict[str, Any] | None = None) -> Ruleset:
    """The ruleset called `name`; KeyError naming the known rulesets otherwise."""
    try:
        cls = RULESETS[name]
    except KeyError:
        raise KeyError(f"unknown ruleset {name!r}; known rulesets: {', '.join(RULESETS)}") from None
    return cls(settings)
