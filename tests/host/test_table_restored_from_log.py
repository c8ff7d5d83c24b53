"""Issue 45 (walk 45j-b H3): the host and the table both restarted, the table with no state of
its own (its flash state absent, as a fresh `futmesa sim`): the table's clock is restored from
the log, so what is played next is stored in the period the log is in.

Before: the table came back at period 0 and the host took it as it was — the 2nd half was
stored as the 1st ("1º tempo"), and a restart in the middle of the 2nd half went on at 00:00
of period 1. Real firmware on a pty (futmesa_testkit.livetable), a real SQLite file.
"""

from __future__ import annotations

import shutil
import time
from typing import Any

import pytest

import futmesa_wire as W
from futmesa.matchbook.wording import minutes_text, sentence
from futmesa.rules.timekeeping import CLOCK_STAMPED
from futmesa.store import EventLog, StoredEntry
from futmesa_testkit.livetable import LiveTable
from futmesa_testkit.waiting import wait_for

# 2 x 1 min at speed 60: a half of a second's worth each (the interval is never timed out
# by the test: the referee starts the 2nd half)
SETTINGS = {"period_ms": 60_000, "interval_ms": 600_000, "lance_ms": 3_600_000,
            "lance_warn_ms": 5_000}


def device_periods(live: LiveTable, since: int, kind: str) -> list[int]:
    rows = live.daemon.store.entries(live.daemon.match["id"])
    return [e.period for e in rows if e.id > since and e.source == "device" and e.kind == kind]


def newest_id(live: LiveTable) -> int:
    return max((e.id for e in live.daemon.store.entries(live.daemon.match["id"])), default=0)


def test_both_restarted_in_the_interval_the_next_half_is_the_2nd() -> None:
    with LiveTable(speed=60, ruleset="pastilha-8x2", settings=SETTINGS) as live:
        live.start_match()
        live.wait(lambda: live.match().get("status") == "interval", 90, "the interval")
        live.restart_with_a_blank_table()
        before = newest_id(live)
        live.wait(lambda: live.daemon.status is not None, 90, "the table's first status")
        live.referee("start_period")
        live.wait(lambda: device_periods(live, before, "clock_started"), 90,
                  "the 2nd half's clock to start")
        assert live.match()["period"] == 2
        assert device_periods(live, before, "clock_started") == [2]
        assert live.daemon.state_json()["period"] == 2
        # the 2nd half is played and ends the match, every entry of it in the 2nd half
        live.wait(lambda: live.match().get("finished"), 90, "the end of the match")
        rows = live.daemon.store.entries(live.daemon.match["id"])
        assert {e.period for e in rows if e.id > before and e.source == "device"
                and e.kind in CLOCK_STAMPED} == {2}


def test_both_restarted_in_the_2nd_half_its_clock_goes_on_from_the_log() -> None:
    settings = {**SETTINGS, "period_ms": 600_000}  # 10 s at speed 60: it is still running
    with LiveTable(speed=60, ruleset="pastilha-8x2", settings=settings) as live:
        live.start_match()
        live.daemon.link.command(W.CMD_ADJUST, x=599_000).result(timeout=30)  # to 09:59
        live.wait(lambda: live.match().get("status") == "interval", 90, "the interval")
        live.referee("start_period")
        live.wait(lambda: live.daemon.status.period == 2 and live.daemon.status.running
                  and live.daemon.status.clock_ms > 1_000, 90, "the 2nd half to run")
        live.restart_with_a_blank_table()
        live.wait(lambda: live.daemon.status is not None and live.daemon.status.period == 2
                  and live.daemon.status.running, 90,
                  "the table's clock restored to the log's 2nd half, running")
        # restored to the log's newest clock of the 2nd half; the match time it ran since
        # then (the log cannot say where it stopped) is offered as added time, as after a
        # board's own restore from flash
        reset = live.daemon.state_json()["link"]["reset"]
        assert reset is not None and reset["restored"] and reset["lost_ms"] > 1_000, reset
        assert live.match()["period"] == 2


# issue 45 (walk 46a M5): only a table that really rebooted is told 'reiniciou'. A board with
# no state of its own reuses boot id 1 (the log extends it past 65535: futmesa.link.protocol)


def running_in_period_1(live: LiveTable) -> bool:
    status = live.daemon.status
    return status is not None and status.period == 1 and status.running


def test_serve_restarted_on_a_table_that_reused_its_boot_id_is_no_table_reset() -> None:
    settings = {**SETTINGS, "period_ms": 600_000}  # 10 s at speed 60: it is still running
    with LiveTable(speed=60, ruleset="pastilha-8x2", settings=settings) as live:
        live.start_match()
        live.restart_with_a_blank_table()  # boot 1 again, its seqs from 1 again
        live.wait(lambda: running_in_period_1(live), 90, "the 1st half restored, running")
        uid = live.daemon.info.uid
        live.wait(lambda: live.daemon.store.last_committed(uid)[0] > 0xFFFF, 90,
                  "an event of the new boot in the log (its boot extended past 65535)")
        live.stop_host()  # serve alone, for a while; the table runs on, the same boot
        live.start_host()
        live.wait(lambda: live.daemon.connected and running_in_period_1(live), 90,
                  "the table's first status to the restarted host")
        assert live.daemon.state_json()["link"]["reset"] is None  # no banner, no offer


def test_a_table_rebooted_while_serve_was_stopped_is_a_reset() -> None:
    settings = {**SETTINGS, "period_ms": 600_000}
    with LiveTable(speed=60, ruleset="pastilha-8x2", settings=settings) as live:
        live.start_match()
        live.wait(lambda: live.daemon.status.clock_ms > 1_000, 90, "the 1st half to run")
        live.stop_host()
        live.sim.kill_firmware()
        live.sim.boot()  # its flash state kept: boot 2, its clock restored from flash
        live.start_host()
        live.wait(lambda: live.daemon.connected and live.daemon.status is not None, 90,
                  "the table's first status to the restarted host")
        reset = live.daemon.state_json()["link"]["reset"]
        assert reset is not None and reset["boot"] == 2, reset
def test_a_blank_table_restarted_while_serve_runs_is_a_reset() -> None:
    settings = {**SETTINGS, "period_ms": 600_000}
    with LiveTable(speed=60, ruleset="pastilha-8x2", settings=settings) as live:
        live.start_match()
        live.wait(lambda: live.daemon.status.clock_ms > 1_000, 90, "the 1st half to run")
        before = newest_id(live)
        live.sim.kill_firmware()
        shutil.rmtree(live.sim.state_dir, ignore_errors=True)
        live.sim.boot()  # boot 1 again, with no events: its seqs restart from 1
        live.wait(lambda: (live.daemon.state_json()["link"]["reset"] or {}).get("restored")
                  and running_in_period_1(live), 90, "the reset seen, its clock restored")
        # the new boot's events (its clock set and resumed) are the match's, in the 1st half
        live.wait(lambda: device_periods(live, before, "clock_started"), 90,
                  "the restored clock's start in the match")
        assert set(device_periods(live, before, "clock_started")) == {1}
        assert live.match()["period"] == 1


def test_a_match_opened_on_a_boot_numbered_past_65535_plays_its_events() -> None:
    # the table once came back blank (boot 1 again: the log's boot 65536); serve restarted
    # after that match, the next match opens at the table's connection
    with LiveTable(speed=60, ruleset="pastilha-8x2", settings=SETTINGS) as live:
        live.start_match()
        live.restart_with_a_blank_table()
        uid = live.daemon.info.uid
        live.wait(lambda: live.daemon.store.last_committed(uid)[0] > 0xFFFF
                  and live.match().get("status") == "interval", 90,
                  "the new boot's 1st half over, in the log")
        old = int(live.daemon.match["id"])
        live.stop_host()
        EventLog(live.db).end_match(old)
        live.start_host()
        live.wait(lambda: live.daemon.connected and live.daemon.match is not None
                  and live.daemon.match["id"] != old, 90, "the next match, opened")
        before = newest_id(live)
        live.start_match()
        live.wait(lambda: device_periods(live, before, "clock_started"), 90,
                  "the table's clock start in the new match")


# issue 45 (walk 47a H1): the referee's entries are stamped with the table's clock too; a
# table restored from the log comes back at the newest clock the log knows of the period, not
# at its newest device entry's (the TV went from 00:22 back to 00:09)


def test_a_blank_table_comes_back_at_the_referees_newest_stamp() -> None:
    settings = {**SETTINGS, "period_ms": 600_000}
    with LiveTable(speed=60, ruleset="pastilha-8x2", settings=settings) as live:
        live.start_match()
        live.wait(lambda: live.daemon.status.clock_ms > 60_000, 90, "the 1st half to run")
        live.sim.kill_firmware()  # the table off; the referee enters a foul meanwhile, once
        # the host says the table is lost (its clock, counted on to then, is the TV's, walk 49a)
        wait_for(lambda: not live.daemon.connected, 30, "the link to go down")
        live.referee("foul", {"side": "B", "disc": 6, "type": "falta", "where": "opponent_half"})
        rows = live.daemon.store.entries(live.daemon.match["id"])
        stamp = rows[-1]
        device = [e for e in rows if e.source == "device" and e.kind in CLOCK_STAMPED]
        assert stamp.source == "referee" and stamp.clock_ms > device[-1].clock_ms, rows[-3:]
        before = newest_id(live)
        shutil.rmtree(live.sim.state_dir, ignore_errors=True)
        live.sim.boot()  # back blank: boot 1 again
        live.wait(lambda: [e for e in live.daemon.store.entries(live.daemon.match["id"])
                           if e.id > before and e.kind == "clock_adjusted"], 90,
                  "the table's clock set from the log")
        restored = next(e for e in live.daemon.store.entries(live.daemon.match["id"])
                        if e.id > before and e.kind == "clock_adjusted")
        assert (restored.period, restored.clock_ms) == (1, stamp.clock_ms)
        # the log says a restore to that time, not a move by it (walk 48a L1: "Relógio ajustado
        # em +16 s" read as 16 s added)
        mmss = f"{stamp.clock_ms // 60_000:02d}:{stamp.clock_ms // 1000 % 60:02d}"
        assert sentence(restored.kind, restored.data, {}) == (
            f"Relógio restaurado para {mmss} (o último tempo que o servidor conhecia)")
        # the restore is in the log, so the account says it (walk 47a H1: the Resumo did not)
        logged = [e for e in live.daemon.store.entries(live.daemon.match["id"])
                  if e.kind == "clock_restored"]
        assert [(e.period, e.clock_ms) for e in logged] == [(1, stamp.clock_ms)], logged


# issue 45 (walk47b M2): the table lost power with play going on; the referee's answer to the
# reset offer advances its clock by the time it did not count. Before: the only answer was
# "Acrescentar", added time — the half ended that much later again (02:26 on a 2:00 half)


def test_the_table_lost_power_and_play_went_on_its_clock_is_advanced_not_lengthened() -> None:
    settings = {**SETTINGS, "period_ms": 3_600_000}  # an hour at speed 60: a minute's run
    with LiveTable(speed=60, ruleset="cbfm-1toque", settings=settings) as live:
        live.start_match()
        live.wait(lambda: live.daemon.status.clock_ms > 1_000, 90, "the 1st half to run")
        live.sim.kill_firmware()  # the power cut: its flash state kept (its reboot's time
        live.sim.boot()  # is tens of seconds of match time at speed 60)
        live.wait(lambda: ((live.daemon.state_json()["link"]["reset"] or {}).get("lost_ms")
                           or 0) >= 1_000 and running_in_period_1(live), 90,
                  "the offer of the match time the restored clock did not count")
        lost = live.daemon.state_json()["link"]["reset"]["lost_ms"] // 1000 * 1000
        before = newest_id(live)
        live.referee("clock_catch_up", {"ms": lost})
        rows = lambda: live.daemon.store.entries(live.daemon.match["id"])  # noqa: E731
        live.wait(lambda: any(e.id > before and e.kind == "clock_adjusted" for e in rows()),
                  90, "the table's clock advanced")
        adjusted = [e for e in rows() if e.id > before and e.kind == "clock_adjusted"]
        assert adjusted[0].data["delta_ms"] == lost
        assert sentence(adjusted[0].kind, adjusted[0].data, {}) == (
            f"Relógio ajustado em +{minutes_text(lost)}")
        # the period's end stays where the rules put it: no added time, on the table or the log
        assert live.daemon.status.added_ms == 0 and live.match()["added_ms"] == 0
        assert live.daemon.state_json()["link"]["reset"]["lost_ms"] == 0  # the offer answered
        asked = next(e for e in rows() if e.kind == "clock_catch_up")  # the súmula's words
        assert sentence(asked.kind, asked.data, {}) == (
            f"Árbitro adianta o relógio {minutes_text(lost)}: o jogo continuou com a mesa "
            "desligada")


# issue 45 (walk 49a H2): `futmesa sim` stopped for 28 s with the ball in play, and started
# again blank. The TV stood at 01:43 (the table's last clock the host heard) and the clock came
# back at 01:32 — the log's newest entry —, the offer only the cut's length: the 11 s between
# were lost even after "Sim", and the TV went backwards. The table's own clock, as the host last
# knew it, is the restore point; what it did not count runs from there to its return.


def table_gone(live: LiveTable) -> dict[str, Any]:
    """The table and its cable gone, as `futmesa sim` stopped: the TV's clock, standing."""
    live.sim.kill_firmware()
    live.sim.unplug()
    wait_for(lambda: not live.daemon.connected, 30, "the link to go down")
    return live.daemon.state_json()["clock"]


def back_blank(live: LiveTable, before: int) -> tuple[float, StoredEntry]:
    """The table back blank (boot 1 again) in the 1st half: when it was back (host Unix ms)
    and the host's ``clock_restored`` entry."""
    shutil.rmtree(live.sim.state_dir, ignore_errors=True)
    live.sim.plug()
    live.sim.boot()
    live.wait(lambda: (live.daemon.state_json()["link"]["reset"] or {}).get("restored")
              and running_in_period_1(live), 90, "the reset seen, its clock restored")
    back = time.time() * 1000
    rows = live.daemon.store.entries(live.daemon.match["id"])
    return back, next(e for e in rows if e.id > before and e.kind == "clock_restored")


@pytest.mark.parametrize("ruleset", ["mesa-posta", "cbfm-1toque", "gaucha"])
def test_a_blank_table_after_a_power_cut_comes_back_at_the_clock_the_tv_stood_at(
        ruleset: str) -> None:
    settings = {**SETTINGS, "period_ms": 3_600_000}  # an hour at speed 60: a minute's run
    with LiveTable(speed=60, ruleset=ruleset, settings=settings) as live:
        live.start_match()
        if ruleset == "mesa-posta":  # its clock held until the kick-off (004 A partida)
            live.referee("touch", {"side": "A"})
        live.wait(lambda: running_in_period_1(live) and live.daemon.status.clock_ms > 30_000,
                  90, "the 1st half to run past the log's newest entry")
        before = newest_id(live)
        shown = table_gone(live)
        assert not shown["running"] and shown["ms"] > 30_000, shown
        back, restored = back_blank(live, before)
        # the clock the TV stood at, not the log's newest entry's (00:00 and a bit)
        # (to a second of match time at 60×: the link's measured rate may differ from the one
        # the table declares by a hair)
        assert restored.period == 1 and restored.clock_ms >= shown["ms"] - 1_000, (
            restored, shown)
        # offered: from when the table was lost to its return, nothing it counted before
        cut = (back - live.daemon.lost_wall_ms) * shown["rate"]
        assert 0 < restored.data["lost_ms"] <= cut * 1.05 + 2_000, (restored.data, cut)
        assert live.daemon.state_json()["link"]["reset"]["lost_ms"] == restored.data["lost_ms"]
        assert live.daemon.state_json()["clock"]["ms"] >= shown["ms"] - 1_000  # not backwards


# walk50b M1: the table off at 01:11 for 24 s; the referee entered a shot asked and a goal the
# sensor did not see meanwhile. Phone and TV stood at 01:11, but the two entries were stamped
# 01:18 and 01:20 (the host's clock counted on while the table was away), the restore point
# became the newest of them and the question said «sem energia 00:15» for a 24-s cut. An entry
# made while the table is away is stamped at the clock the screens show; the clock comes back
# there and the whole cut is offered


def test_an_entry_while_the_table_is_off_is_stamped_at_the_clock_the_screens_show() -> None:
    settings = {**SETTINGS, "period_ms": 3_600_000}  # an hour at speed 60: a minute's run
    with LiveTable(speed=60, ruleset="pastilha-8x2", settings=settings) as live:
        live.start_match()
        live.wait(lambda: running_in_period_1(live) and live.daemon.status.clock_ms > 30_000,
                  90, "the 1st half to run past the log's newest entry")
        shown = table_gone(live)
        lost_at = live.daemon.lost_wall_ms
        # a second of the cut (a minute of match time at 60×) before the referee's entry
        wait_for(lambda: time.time() * 1000 > lost_at + 1_000, 30, "a second of the cut")
        live.referee("foul", {"side": "B", "disc": 6, "type": "falta", "where": "opponent_half"})
        stamp = live.daemon.store.entries(live.daemon.match["id"])[-1]
        assert stamp.source == "referee" and abs(stamp.clock_ms - shown["ms"]) <= 1_000, (
            stamp, shown)  # what the screens showed, not a clock nobody saw
        assert live.daemon.state_json()["clock"]["ms"] == shown["ms"]  # still standing
        back, restored = back_blank(live, before=newest_id(live))
        assert restored.period == 1 and abs(restored.clock_ms - shown["ms"]) <= 1_000, (
            restored, shown)
        # offered: the whole cut, from when the table was lost to its return — at least to
        # when the host saw it back (its first status comes after), at most to now
        seen = live.daemon.state_json()["link"]["reset"]["at"]
        low, high = ((end - lost_at) * shown["rate"] for end in (seen, back))
        assert low * 0.95 - 2_000 <= restored.data["lost_ms"] <= high * 1.05 + 2_000, (
            restored.data, low, high)


# walk50c M3: a Gaúcha lance counting when the table lost power for 21 s. The table came back
# with its clock (from flash, or from the log when blank) but no lance: the phone and the TV
# showed "lance 15", dimmed, until the next Toque — and passing 15 s, the falta técnica (001
# Art. XXIX e), silently stopped applying. The lance of the team that has it runs again.


@pytest.mark.parametrize("blank", [False, True], ids=["flash-kept", "blank"])
def test_after_a_power_cut_the_lance_of_the_team_on_turn_runs_again(blank: bool) -> None:
    settings = {**SETTINGS, "period_ms": 3_600_000}  # an hour at speed 60: a minute's run
    with LiveTable(speed=60, ruleset="gaucha", settings=settings) as live:
        live.start_match(kickoff="B")
        live.referee("touch", {"side": "B", "disc": 5})  # the kick-off: B's lance counts
        live.wait(lambda: running_in_period_1(live) and live.daemon.status.lance_running
                  and live.daemon.status.lance_side == 1, 90, "B's lance to run")
        live.sim.kill_firmware()  # the power cut
        wait_for(lambda: not live.daemon.connected, 30, "the link to go down")
        if blank:
            shutil.rmtree(live.sim.state_dir, ignore_errors=True)
        live.sim.boot()
        live.wait(lambda: (live.daemon.state_json()["link"]["reset"] or {}).get("restored")
                  and running_in_period_1(live), 90, "the reset seen, its clock restored")
        live.wait(lambda: live.daemon.status.lance_running, 90,
                  "the lance to run again after the power cut")
        assert live.daemon.status.lance_side == 1  # B's: the team on turn
