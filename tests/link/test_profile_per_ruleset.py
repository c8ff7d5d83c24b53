"""The clock profile each ruleset sends to the table: when its lance runs out and its
pre-warning, as the documents say (issue 30 family 4)."""

from __future__ import annotations

import pytest

import futmesa_wire as W
from futmesa.link.messages import Profile
from futmesa.rules import load_ruleset


@pytest.mark.parametrize(
    ("ruleset", "lance_ms", "prewarn_ms", "past"),
    [
        ("cbfm-1toque", 15_000, 5_000, False),  # 000 Art. 26 §1 A "ao atingir este tempo"
        ("gaucha", 15_000, 5_000, True),  # 001 Art. XXIX e "mais de quinze segundos"
        ("pastilha-8x2", 10_000, 3_000, True),  # 003 Art. 71 "10 segundos é o tempo máximo"
        ("mesa-posta", 0, 0, False),  # 004: no per-move timer
    ],
)
def test_the_lance_limit_reaches_the_table_as_written(ruleset: str, lance_ms: int,
                                                      prewarn_ms: int, past: bool) -> None:
    profile = Profile.from_dict(load_ruleset(ruleset).clock_profile(None))
    assert profile.lance_ms == lance_ms
    assert profile.prewarn_ms == prewarn_ms, "the pre-warning the docs promise is sent"
    assert bool(profile.flags & W.PROFILE_LANCE_PAST) is past
    assert Profile.unpack(profile.pack()) == profile, "the flags survive the wire"
