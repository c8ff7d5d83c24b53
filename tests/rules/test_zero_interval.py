"""A club's 0 is a real setting (no interval, no lance warning), not "unset"; a 0-ms half or
extra period is refused with the way out (issue 47's organiser walk)."""

from __future__ import annotations

import pytest

from futmesa.rules import RULESETS
from futmesa.rules.settings import BadSettings, check_settings


@pytest.mark.parametrize("name", sorted(RULESETS))
def test_zero_interval_is_sent_as_zero(name: str) -> None:
    rules = RULESETS[name]({"interval_ms": 0})
    assert rules.clock_profile()["interval_ms"] == 0
    assert RULESETS[name]({}).clock_profile()["interval_ms"] > 0


def test_zero_lance_warning_is_kept() -> None:
    rules = RULESETS["cbfm-1toque"]({"lance_warn_ms": 0})
    assert rules.clock_profile()["lance_warn_ms"] == 0


@pytest.mark.parametrize("key", ["period_ms", "extra_ms"])
def test_zero_half_is_refused(key: str) -> None:
    with pytest.raises(BadSettings, match=key):
        check_settings({key: 0})
