"""A new match's set-up is dated before its 1st period, at 00:00 — never with the clock the
table still showed from the match before (walk #45 H5: "Mesa configurada" nº 1 at "2º 02:00")."""

from __future__ import annotations

import threading

import pytest

from futmesa.store import EventLog
from futmesa.table.device import DeviceInputs
from futmesa_testkit.livetable import LiveTable


def _profile_set(live: LiveTable) -> tuple[int, int] | None:
    rows = live.daemon.store.entries(live.daemon.match["id"])
    return next(((e.period, e.clock_ms) for e in rows if e.kind == "profile_set"), None)


def _into_the_interval(live: LiveTable) -> int:
    live.start_match()
    live.wait(lambda: live.daemon.status.in_interval, 90, "the interval")
    return int(live.daemon.match["id"])


def test_a_new_match_from_the_console_is_set_up_before_its_first_period() -> None:
    # 003 Art. 27 a: pastilha's 5-minute halves (5 s here); then cbfm's 25 minutes (000 Art. 8)
    with LiveTable(speed=60, ruleset="pastilha-8x2-clube") as live:
        old = _into_the_interval(live)
        live.daemon.new_match("cbfm-1toque")
        live.wait(lambda: live.daemon.match["id"] != old and _profile_set(live) is not None,
                  60, "the new match's set-up entry")
        assert _profile_set(live) == (0, 0)


def test_a_new_match_opened_when_the_table_connects_is_set_up_before_its_first_period() -> None:
    with LiveTable(speed=60, ruleset="pastilha-8x2-clube") as live:
        old = _into_the_interval(live)
        live.stop_host()
        EventLog(live.db).end_match(old)  # the match was over; futmesa serves another ruleset
        live.ruleset = "cbfm-1toque"
        live.start_host()
        live.wait(lambda: live.daemon.match is not None and live.daemon.match["id"] != old
                  and _profile_set(live) is not None, 60, "the new match's set-up entry")
        assert _profile_set(live) == (0, 0)


def test_a_referee_quicker_than_the_tables_first_status_still_sends_the_profile(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The period started before the table's first status reached the host (CI 49: the Pico
    emulator's first status came after the referee's start): the match's clock profile still
    reaches the table before the start, and the status that follows is this match's period,
    not "a match this event log does not hold" (which left the table on its old profile)."""
    heard = threading.Event()
    real = DeviceInputs.on_status

    def late(self: DeviceInputs, *args: object) -> None:
        if heard.is_set():
            real(self, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(DeviceInputs, "on_status", late)
    # 003 Art. 27 a: pastilha-8x2-clube's halves (5 s here at 60×)
    with LiveTable(speed=60, ruleset="pastilha-8x2-clube") as live:
        live.wait(lambda: live.daemon.match is not None and live.daemon.connected, 60,
                  "the table")
        assert live.daemon.device.fresh  # no status heard yet: the race of CI 49
        live.referee("set_up", {"kickoff": "A"})
        live.referee("start_period")
        heard.set()
        live.wait(lambda: _profile_set(live) is not None, 60, "the match's clock profile")
        live.wait(lambda: live.daemon.status is not None and live.daemon.status.in_interval,
                  90, "the interval at the ruleset's 5-minute half")


# the organiser's settings file (futmesa serve --settings), in the engine's units
ORGANISER = {"table_name": "Mesa Walk", "referee": "Árbitro Teste", "event": "Copa Walk",
             "period_ms": 180_000, "interval_ms": 60_000}


def test_nova_partida_from_the_console_keeps_the_organisers_settings() -> None:
    """Walk #45 M3: "Nova partida" opened its match from the console's form alone — "Mesa 1"
    for the settings' "Mesa Walk", no referee, the ruleset's interval. The organiser's file is
    the base; what the form sends (teams, rules, a changed period) is laid over it."""
    teams = {"A": {"name": "Vasco da Mesa", "color": "#000000"},
             "B": {"name": "Grêmio de Botão", "color": "#1e90ff"}}
    with LiveTable(speed=60, ruleset="cbfm-1toque", settings=dict(ORGANISER)) as live:
        live.wait(lambda: live.daemon.match is not None, 60, "the first match")
        old = live.daemon.match["id"]
        opened = live.referee("new_match", {"ruleset": "pastilha-8x2",
                                            "settings": {"teams": teams, "competition": "league",
                                                         "period_ms": 240_000}})
        live.wait(lambda: live.daemon.match["id"] != old, 60, "the new match")
        # the console's result line says which (walk45i-a, low: only "✓ nova partida")
        assert opened["said"]["pt"] == ("Nova partida: Vasco da Mesa × Grêmio de Botão — "
                                        "Pastilha 8x2 (FEFUMERJ / CBFM)"), opened
        match = live.daemon.store.match(live.daemon.match["id"])
        assert match is not None
        assert match["ruleset"] == "pastilha-8x2" and match["referee"] == "Árbitro Teste"
        assert match["settings"]["teams"] == teams
        assert match["settings"]["interval_ms"] == 60_000  # the settings', not pastilha's 2 min
        assert match["settings"]["period_ms"] == 240_000  # what the referee changed
        assert match["settings"]["event"] == "Copa Walk"
        state = live.daemon.state_json()
        assert state["table_name"] == "Mesa Walk"
        # the console's "Mais" form is prefilled with the match's referee and period length
        assert state["referee"] == "Árbitro Teste" and state["period_ms"] == 240_000


def test_the_settings_referee_is_the_author_of_the_first_matchs_inputs() -> None:
    """Walk #45g G2: the first match's registro and súmula said "Árbitro" for every referee
    input although the settings file names the referee; a console that does not say who it
    is (its generic "árbitro"/"referee") writes as the match's referee."""
    with LiveTable(speed=60, ruleset="cbfm-1toque", settings=dict(ORGANISER)) as live:
        live.wait(lambda: live.daemon.match is not None, 60, "the first match")
        live.daemon.referee("set_up", {"kickoff": "A"}, "árbitro")
        live.daemon.referee("set_up", {"kickoff": "B"}, "referee")
        live.daemon.referee("set_up", {"kickoff": "A"}, "Outro Nome")
        rows = [e for e in live.daemon.store.entries(live.daemon.match["id"])
                if e.source == "referee"]
        assert [e.author for e in rows] == ["Árbitro Teste", "Árbitro Teste", "Outro Nome"]
