"""`futmesa calibrate --port` against the virtual Pico: the real image reads its two VL53L0X
sensors through the real driver on the emulated I2C bus (fakei2c's register model behind
the harness), streams them over MSG_DIAG, takes the thresholds with CMD_SET_THRESHOLD and
then uses them in its own goal filter.

The user's answers are played on the emulated sensors: an empty goal reads 120 mm, the
ball wholly past the line 20 mm, a test ball is 20 mm for 400 ms of device time.
"""

from __future__ import annotations

import json
import threading
import time

import pytest
from link.harness import RecordingSink, truth, wait_until

import futmesa_wire as W
from futmesa.deploy.probe import probe
from futmesa.link import HostLink
from futmesa.store import EventLog

EMPTY, BALL = 120, 20


def hold(pico, goal: int, mm: int, device_ms: int) -> None:
    """The sensor reads `mm` for `device_ms` of the emulated chip's time, then the empty goal."""
    pico.tof(goal, mm)
    t0 = pico.device_ms()
    while pico.device_ms() < t0 + device_ms:
        time.sleep(0.05)
    pico.tof(goal, EMPTY)


def goals_seen(pico, start: int) -> list[tuple[int, int, int]]:
    return [e for e in truth(pico)[start:] if e[2] == W.EV_GOAL_LINE]


@pytest.mark.timeout(1800)
def test_calibrate_on_the_pico_sets_thresholds_it_keeps_and_uses(pico_factory, tmp_path,
                                                                monkeypatch) -> None:
    import click
    from click.testing import CliRunner

    from futmesa.cli import cli

    pico = pico_factory("tof")  # the image's default board file: two VL53L0X goal sensors
    pico.start()
    probe(pico.host_port, timeout_s=600, want_status=False)  # futmesa is up
    prompts: list[str] = []

    def answer(msg: str, **_kw: object) -> str:
        prompts.append(msg)
        goal = int(msg.split("Goal line ")[1].split(":")[0])
        if "test ball" in msg:
            # after Enter the ball rolls in and is taken out again (device time)
            threading.Thread(target=hold, args=(pico, goal, BALL, 400), daemon=True).start()
        else:
            pico.tof(goal, EMPTY if "take every ball" in msg else BALL)
            pico.device_ms()  # the harness has applied it before the readings are taken
        return ""

    monkeypatch.setattr(click, "prompt", answer)
    out = tmp_path / "pico-calibrated.json"
    r = CliRunner().invoke(cli, ["calibrate", "--board", "pico", "--port", pico.host_port,
                                 "--out", str(out), "--balls", "1", "--timeout", "120"])
    assert r.exit_code == 0, r.output + "\n" + pico.output_tail()
    assert r.output.count("empty goal: median 120 mm (min 120, max 120)") == 2, r.output
    assert r.output.count("proposed: threshold 70 mm, hysteresis 25 mm") == 2, r.output
    assert "the board now uses the new thresholds" in r.output
    assert "verified: every test ball was seen exactly once" in r.output
    saved = json.loads(out.read_text())
    assert [(g["threshold_mm"], g["hysteresis_mm"]) for g in saved["goal_sensors"]] == \
        [(70, 25), (70, 25)]
    assert len(prompts) == 2 * (1 + 3 + 1)
    assert pico.resets == []

    # the device's own filter uses them: 85 mm (a goal for the old 100 mm threshold) is not one
    store = EventLog(tmp_path / "events.sqlite")
    link = HostLink(pico.host_port, RecordingSink(store))
    link.start()
    try:
        wait_until(lambda: link.connected, 600, "a connection", pico)
        start = len(truth(pico))
        hold(pico, 0, 85, 600)
        hold(pico, 0, BALL, 400)  # the control: a real ball is seen, once
        wait_until(lambda: goals_seen(pico, start), 300, "the goal-line event", pico)
        t0 = pico.device_ms()
        wait_until(lambda: pico.device_ms() > t0 + 500, 300, "half a device second", pico)
        assert len(goals_seen(pico, start)) == 1, truth(pico)[start:]
    finally:
        link.stop()
        store.close()
