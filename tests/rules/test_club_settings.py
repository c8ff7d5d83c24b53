"""The club settings that settle contradictions between articles go from an organiser's settings
file to the engine, and a wrong value is one clear line."""

from __future__ import annotations

import pytest

from futmesa.config import SettingsError, validate_settings
from futmesa.rules import Engine, load_ruleset

CLUB = {"lateral_taker": "half", "lance_warning": "once", "second_cera": "grade",
        "keeper_foul": "penalti", "foul_at_alarm": "not_taken", "failed_area": "choice",
        "last_lance_fouls": "against_player", "expel_from": 4, "shootout_early_end": False}


def test_the_settings_file_takes_every_club_reading_and_the_engine_keeps_it() -> None:
    settings = validate_settings(CLUB)
    assert settings == CLUB
    for name in ("cbfm-1toque", "gaucha", "pastilha-8x2", "mesa-posta"):
        engine = Engine(load_ruleset(name), settings)
        assert {k: engine.ruleset.settings[k] for k in CLUB} == CLUB


@pytest.mark.parametrize(("key", "bad"), [("keeper_foul", "sometimes"), ("expel_from", 5),
                                          ("lance_warning", "never")])
def test_a_wrong_value_is_one_line_saying_what_to_write(key: str, bad: object) -> None:
    with pytest.raises(SettingsError) as err:
        validate_settings({key: bad})
    assert key in str(err.value) and "\n" not in str(err.value)
    with pytest.raises(ValueError):
        load_ruleset("cbfm-1toque", {key: bad})
