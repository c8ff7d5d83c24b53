"""The rules package's public API: the registry, clock profiles, corrections,
re-running a match under another ruleset, and the Match state JSON keys."""

from __future__ import annotations

import json

import pytest

from futmesa.rules import RULESETS, Engine, Entry, load_ruleset, ruleset_names
from futmesa.rules.corrections import effective_entries


def entries(*steps: tuple[str, dict]) -> list[Entry]:
    device = {"clock_started", "goal_line", "ball_out", "alarm", "palheta"}
    return [
        Entry(i, kind, data, "device" if kind in device else "referee", 1, i * 1000, i * 1000)
        for i, (kind, data) in enumerate(steps, 1)
    ]


def test_registry_knows_the_four_rulesets_and_names_them_on_a_typo() -> None:
    assert set(ruleset_names()) >= {"cbfm-1toque", "gaucha", "pastilha-8x2", "mesa-posta"}
    assert list(RULESETS) == ruleset_names()
    with pytest.raises(KeyError, match="known rulesets: cbfm-1toque, gaucha"):
        load_ruleset("pastilha-8x3")


@pytest.mark.parametrize(
    ("name", "period_ms", "mode", "end", "lance_ms"),
    [
        ("cbfm-1toque", 25 * 60_000, "continuous", "at-alarm", 15_000),
        ("gaucha", 25 * 60_000, "continuous", "at-alarm", 15_000),
        ("pastilha-8x2", 10 * 60_000, "continuous", "at-alarm", 10_000),
        ("pastilha-8x2-clube", 5 * 60_000, "continuous", "at-alarm", 10_000),
        ("mesa-posta", 60_000, "ball-in-play", "next-dead-ball", 0),
    ],
)
def test_clock_profiles(name: str, period_ms: int, mode: str, end: str, lance_ms: int) -> None:
    profile = load_ruleset(name).clock_profile({})
    assert profile["periods"] == 2
    assert profile["period_ms"] == period_ms
    assert (profile["clock_mode"], profile["end_mode"], profile["lance_ms"]) == (
        mode,
        end,
        lance_ms,
    )
    assert json.loads(json.dumps(profile)) == profile


def test_extra_time_only_in_knockout_and_settings_override_durations() -> None:
    rs = load_ruleset("pastilha-8x2")
    assert rs.clock_profile({"competition": "league"})["extra_periods"] == 0
    knockout = rs.clock_profile({"competition": "knockout"})
    assert (knockout["extra_periods"], knockout["extra_ms"]) == (1, 4 * 60_000)
    assert rs.clock_profile({"competition": "knockout", "extra_time": False})["extra_ms"] == 0
    assert rs.clock_profile({"period_ms": 5 * 60_000})["period_ms"] == 5 * 60_000


def test_state_json_has_the_contract_keys() -> None:
    engine = Engine(load_ruleset("cbfm-1toque"), {"teams": {"A": {"name": "Bahia"}}})
    d = engine.initial_state().to_dict()
    for key in (
        "score",
        "period",
        "periods",
        "teams",
        "status",
        "finished",
        "turn",
        "shot_asked",
        "fouls",
        "expelled",
        "touches",
        "shootout",
        "announcements",
        "pending",
        "corrections",
        "result",
    ):
        assert key in d
    assert d["teams"]["A"] == {"name": "Bahia", "color": "#1f6feb"}
    assert d["status"] == "not_started" and d["finished"] is False
    assert json.loads(json.dumps(d)) == d


def test_corrections_latest_wins_and_can_be_undone() -> None:
    log = entries(
        ("shot_asked", {"side": "A", "disc": 7}),
        ("void", {"target": 1}),
        ("amend", {"target": 1, "data": {"side": "A", "disc": 9}}),
        ("void", {"target": 3}),  # undo the amendment: back to voided
    )
    assert effective_entries(log) == []
    assert effective_entries(log[:3])[0].data == {"side": "A", "disc": 9}
    assert effective_entries(log[:1]) == log[:1]
    # a correction may not target itself or a later entry
    assert effective_entries(entries(("void", {"target": 1}), ("alarm", {})))[0].kind == "alarm"


def test_a_correction_recomputes_and_keeps_who_and_when() -> None:
    engine = Engine(load_ruleset("cbfm-1toque"))
    log = entries(
        ("clock_started", {}),
        ("touch", {"side": "A", "disc": 8}),  # the kick-off: no shot from it (000 Art. 12 §5)
        ("shot_asked", {"side": "A", "disc": 7}),
        ("goal_line", {"goal": 1}),
    )
    state, _ = engine.replay(log)
    assert state.to_dict()["score"] == {"A": 1, "B": 0}
    void = Entry(5, "void", {"target": 4, "reason": "post"}, author="árbitro", at=123)
    state, effects = engine.apply(state, void)
    d = state.to_dict()
    assert d["score"] == {"A": 0, "B": 0}
    assert d["corrections"] == [
        {
            "id": 5,
            "kind": "void",
            "target": 4,
            "target_kind": "goal_line",
            "data": None,
            "author": "árbitro",
            "at": 123,
            "reason": "post",
            "in_effect": True,
        }
    ]
    assert effects[0].data["code"] == "correction"
    assert len(state.log) == 5  # nothing erased


def test_club_variant_inherits_everything_but_the_half_length() -> None:
    base, club = RULESETS["pastilha-8x2"], RULESETS["pastilha-8x2-clube"]
    assert issubclass(club, base)
    assert club.period_ms == 5 * 60_000 and base.period_ms == 10 * 60_000
    assert club.cites == base.cites and club.touch_limit == base.touch_limit


def test_a_correction_of_nothing_is_refused_and_changes_nothing() -> None:
    engine = Engine(load_ruleset("gaucha"))
    log = entries(("clock_started", {}), ("shot_asked", {"side": "A", "disc": 7}))
    state, _ = engine.replay(log)
    for bad in (
        Entry(3, "void", {"target": 99}),
        Entry(3, "amend", {"target": 2}),  # no data
        Entry(3, "void", {"target": "2"}),
    ):
        new, effects = engine.apply(state, bad)
        assert [e.data["code"] for e in effects] == ["refused"]
        d = new.to_dict()
        assert d["corrections"] == []
        assert {k: v for k, v in d.items() if k != "log_length"} == {
            k: v for k, v in state.to_dict().items() if k != "log_length"
        }


@pytest.mark.parametrize(
    ("kind", "data"),
    [
        ("set_up", {"teams": [1]}),
        ("set_up", {"teams": {"A": [1]}}),
        ("restart", {"kind": ["lateral"], "side": "A"}),
        ("touch", {"side": "A", "disc": [1]}),
        ("shot_asked", {"side": "A", "disc": "7"}),
        ("confirm", {"target": [1]}),
        ("keeper_choice", {"side": "A", "choice": ["left"]}),
        ("invented", {}),
    ],
)
def test_malformed_referee_inputs_are_refused_not_crashes(kind: str, data: dict) -> None:
    engine = Engine(load_ruleset("pastilha-8x2"))
    state = engine.initial_state()
    if kind in ("restart", "touch", "shot_asked"):
        state, _ = engine.apply(state, Entry(1, "clock_started", {}, "device"))
    before = state.to_dict()
    new, effects = engine.apply(state, Entry(2, kind, data))
    assert [e.data["code"] for e in effects] == ["refused"]
    after = new.to_dict()
    assert after["announcements"][:-1] == before["announcements"]
    assert {k: v for k, v in after.items() if k not in ("announcements", "log_length")} == {
        k: v for k, v in before.items() if k not in ("announcements", "log_length")
    }


@pytest.mark.parametrize(
    "settings",
    [
        {"teams": [1]},
        {"teams": {"A": {"name": 5}}},
        {"period_ms": "ten minutes"},
        {"competition": "cup"},
        {"kickoff": "C"},
        {"extra_time": "yes"},
        {"periods": 0},
    ],
)
def test_bad_settings_say_what_to_write(settings: dict) -> None:
    with pytest.raises(ValueError, match='settings "'):
        Engine(load_ruleset("cbfm-1toque"), settings)


@pytest.mark.parametrize("name", ruleset_names())
def test_a_replay_of_no_entry_is_the_initial_state(name: str) -> None:
    """A match just made has no entry: the book's check (replaying the log and stepping it one
    entry at a time agree) must hold there too — before, a new «A mesa está posta» match logged
    'reproduzir o registro e aplicá-lo passo a passo dão resultados diferentes' (the replay
    published void_gives_back, the initial state did not)."""
    engine = Engine(load_ruleset(name))
    replayed, _effects = engine.replay([])
    assert replayed.to_dict() == engine.initial_state().to_dict()
    stepped = engine.initial_state()
    for entry in entries(("clock_started", {}), ("goal_line", {"line": 0})):
        stepped, _effects = engine.apply(stepped, entry)
    assert stepped.to_dict() == engine.replay(stepped.log)[0].to_dict()
