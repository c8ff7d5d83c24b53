"""A whole match (short clock profile) on the virtual Pico through the daemon and web server
that `futmesa serve` runs, with a watchdog reset and a reset-button press mid-match.

The event log must hold exactly what the device emitted on its USB CDC (the
harness's `EV` lines): nothing lost, duplicated or invented; after each reset
the clock resumes from its last flash checkpoint instead of starting over.
"""

from __future__ import annotations

import time
from typing import Any

import pytest
from link.harness import check_log, truth

import futmesa_wire as W
from futmesa.store import EventLog
from futmesa_testkit.livetable import LiveTable

SETTINGS = {"period_ms": 8000, "interval_ms": 2000, "extra_time": False, "shootout": False}


def wait(cond: Any, timeout: float, what: str, pico: Any) -> None:
    deadline = time.monotonic() + timeout
    while not cond():
        if not pico.alive:
            raise AssertionError("the virtual Pico stopped:\n" + pico.output_tail())
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}\n"
                                 + pico.output_tail())
        time.sleep(0.05)


# how long the emulated chip may show no progress of its own clock before the test calls it
# stopped (a loaded 2-core box runs it at a few % of real time, but never at 0)
STALL_S = 180


def wait_device(cond: Any, device_ms: int, what: str, pico: Any) -> None:
    """Wait for ``cond`` within ``device_ms`` of the emulated chip's own time (the match clock
    is device time: a slow emulator is not a late firmware); fail at once if the chip stops,
    or if its clock does not move for STALL_S of wall time."""
    start = seen = pico.device_ms()
    moved_at = time.monotonic()
    while not cond():
        if not pico.alive:
            raise AssertionError("the virtual Pico stopped:\n" + pico.output_tail())
        now = pico.device_ms()
        if now > seen:
            seen, moved_at = now, time.monotonic()
        if now - start > device_ms:
            raise AssertionError(f"{what} did not happen within {device_ms} device ms\n"
                                 + pico.output_tail())
        if time.monotonic() - moved_at > STALL_S:
            raise AssertionError(f"waiting for {what}: the device clock stood still for "
                                 f"{STALL_S} s at {seen} ms\n" + pico.output_tail())
        time.sleep(0.2)


def answer_pending(live: LiveTable) -> None:
    for q in list(live.match().get("pending", [])):
        accept = q.get("kind") != "lance_timeout"
        live.referee("confirm", {"target": q["id"], "accept": accept})


def reset_resumes(live: LiveTable, pico: Any, how: str) -> None:
    d = live.daemon
    wait(lambda: d.status is not None and d.status.running and d.status.clock_ms > 1000, 300,
         "the clock past 1 s", pico)
    before, boot = d.status.clock_ms, d.info.boot_id
    n = len(pico.resets)
    pico.send(how)
    wait(lambda: len(pico.resets) > n, 60, f"the {how} reset", pico)
    wait(lambda: d.info is not None and d.info.boot_id == boot + 1 and d.connected, 300,
         "the host to reconnect to the new boot", pico)
    wait(lambda: d.status is not None and d.status.running, 120, "the resumed clock", pico)
    # resumed from its last checkpoint (at most a second before the reset), not from 0
    assert d.status.clock_ms >= before - 1100, (how, before, d.status)
    wait(lambda: any(e[0] == boot + 1 and e[2] == W.EV_CLOCK_STARTED for e in truth(pico)),
         120, f"the new boot's clock_started event after the {how} reset", pico)


@pytest.mark.timeout(2400)
def test_whole_match_with_resets_loses_nothing(pico_factory, tmp_path) -> None:
    pico = pico_factory("tof")
    with LiveTable(ruleset="cbfm-1toque", settings=SETTINGS, sim=pico,
                   db=tmp_path / "match.sqlite") as live:
        wait(lambda: live.running is not None and live.daemon.connected
             and live.daemon.match is not None, 300, "the table to connect", pico)
        d = live.daemon
        live.referee("set_up", {"kickoff": "A"})
        live.referee("start_period")
        wait(lambda: d.status is not None and d.status.running, 120, "the clock to start", pico)
        # the kiosk's clock follows device time: the published rate is the measured one
        wait(lambda: d.link.timesync.measured, 120, "a measured device clock rate", pico)
        rate = d.state_json()["clock"]["rate"]
        assert 0.005 < rate < 0.9, f"the emulated RP2040 runs slower than real time: {rate}"
        for line in ("goal 0", "out 2", "palheta B", "palheta C", "button turnA"):
            pico.send(line)
            # each input held/settled for 250 ms of device time, whatever the emulator's pace
            t0 = pico.device_ms()
            wait(lambda t0=t0: pico.device_ms() >= t0 + 250, 120, "250 device ms", pico)
        reset_resumes(live, pico, "wdt")
        # the period is 8 s of device time: well within 30 s of it, however slow the emulator
        wait_device(lambda: live.match().get("status") in ("interval", "finished"), 30_000,
                    "the end of period 1", pico)
        answer_pending(live)
        live.referee("start_period")
        wait(lambda: d.status is not None and d.status.period == 2 and d.status.running, 300,
             "period 2", pico)
        pico.send("goal 1")
        reset_resumes(live, pico, "reset")
        wait_device(lambda: bool(live.match().get("finished")) or (
            answer_pending(live) is None and bool(live.match().get("finished"))), 30_000,
            "the final whistle", pico)
        store = EventLog(live.db)
        try:
            # every event the device emitted on its CDC is in the log (the last ones may
            # still be on their way when the final whistle is seen)
            # the device may still make an event after the host saw the final whistle (its
            # clock stopping): the check holds once the device's output and the log agree
            last: list[AssertionError] = []

            def agrees() -> bool:
                try:
                    check_log(store, truth(pico))
                except AssertionError as exc:
                    last[:] = [exc]
                    return False
                return True

            try:
                wait(agrees, 120, "the host to catch up", pico)
            except Exception:
                if last:
                    raise last[0] from None
                raise
            produced = truth(pico)
        finally:
            store.close()
        kinds = {e[2] for e in produced}
        assert {W.EV_BOOT, W.EV_GOAL_LINE, W.EV_BALL_OUT, W.EV_PALHETA} <= kinds, kinds
        assert len({e[0] for e in produced}) == 3  # three boots: power-up, watchdog, button
        assert pico.resets == ["watchdog", "button"]
