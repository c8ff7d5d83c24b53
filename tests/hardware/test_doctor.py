"""`futmesa doctor` against the simulated board on a pty, and with no board at all."""

import shutil
import time

import pytest
from click.testing import CliRunner

from futmesa.cli import cli
from futmesa.deploy.doctor import run_doctor
from futmesa.deploy.probe import ProbeError, probe
from futmesa.sim.table import SimTable


def ball_through_tof_goal(sim, goal):
    """The ball sits in front of a ToF goal sensor for 300 ms (the board's own time), then
    leaves: the sim board holds the reading for that long and for enough reads."""
    sim.send(f"tof {goal} 40 300")


def doctor_until(sim, *wanted, fails=None, patience_s=20.0):
    """The doctor's report, once it says every `wanted` text (and `fails` FAIL lines if
    given): the board applies what the test sent on its next loops, so the test waits for
    the report to show it, never for a fixed time. Returns (fails, report)."""
    deadline = time.monotonic() + patience_s
    while True:
        lines = []
        n = run_doctor(port=sim.host_port, echo=lines.append)
        text = "\n".join(lines)
        if all(w in text for w in wanted) and (fails is None or n == fails):
            return n, text
        assert time.monotonic() < deadline, f"the doctor never said {wanted}:\n{text}"
        time.sleep(0.05)


@pytest.fixture(scope="module")
def sim():
    with SimTable(speed=1, goal_sensor="tof") as table:
        probe(table.host_port, timeout_s=10)  # wait for the firmware to be up
        yield table


def test_doctor_reports_versions_and_sensor_state(sim):
    sim.send("i2c 0 dead")
    ball_through_tof_goal(sim, 1)
    sim.ball_out(3)
    sim.palheta("B")
    fails, text = doctor_until(sim, "FAIL goal line 0: no_answer",
                               "ok   goal line 1: working (1 goal(s) seen since boot)",
                               "3:1", "palheta: B")
    assert fails == 1, text
    assert "ok   firmware 0.1.0" in text and "protocol 2" in text
    assert "table sim-SIM00001" in text
    assert "XSHUT" in text  # with what to do
    sim.send("i2c 0 ok")
    doctor_until(sim, "ok   goal line 0", fails=0)


def test_doctor_watch_shows_live_events(sim):
    lines = []
    # the goal happens as soon as the watch has started
    run_doctor(port=sim.host_port, watch_s=3, echo=lines.append,
               ready=lambda: ball_through_tof_goal(sim, 0))
    live = [x for x in lines if x.startswith("live ")]
    assert any("goal_line" in x and "'goal': 0" in x for x in live), lines


def test_doctor_shows_what_each_sensor_reads_now(sim):
    sim.send("tof 0 137")
    sim.send("tof 1 40")  # a ball sits in goal 1 (below its 100 mm threshold)
    sim.send("net 2 1")
    sim.palheta("A")
    try:
        doctor_until(sim, "ok   goal line 0 now: 137 mm (clear)",
                     "ok   goal line 1 now: 40 mm (blocked)",
                     "side-net zones active: 2; palheta A; buttons pressed: none")
        sim.send("i2c 0 dead")
        doctor_until(sim, "warn goal line 0 now: the sensor does not answer")
    finally:
        for line in ("i2c 0 ok", "tof 0 150", "tof 1 150", "net 2 0", "palheta C"):
            sim.send(line)
        doctor_until(sim, "ok   goal line 0 now: 150 mm (clear)",
                     "ok   goal line 1 now: 150 mm (clear)", "buttons pressed: none")


def test_doctor_does_not_take_events_from_the_daemon(sim):
    # the probe acknowledges nothing the daemon will lack: a fresh handshake still
    # gets the whole ring replayed
    before = probe(sim.host_port, replay=True).info.newest
    ball_through_tof_goal(sim, 0)  # line 0: line 1 may still be in its quiet time
    deadline = time.monotonic() + 20
    while probe(sim.host_port).info.newest == before:  # until the goal is in the ring
        assert time.monotonic() < deadline, "the goal never reached the board's ring"
        time.sleep(0.05)
    run_doctor(port=sim.host_port, echo=lambda s: None)
    again = probe(sim.host_port, replay=True)
    assert again.events and again.events[-1][0] == again.info.newest
    assert again.events[0][0] == again.info.oldest


def test_no_board_is_a_clear_error(tmp_path):
    with pytest.raises(ProbeError, match="does not exist"):
        run_doctor(port=str(tmp_path / "ttyACM9"), echo=lambda s: None)
    r = CliRunner().invoke(cli, ["--lang", "en", "doctor", "--port", str(tmp_path / "nothing")])
    assert r.exit_code == 1 and "is the board plugged in" in r.output


def test_silent_pty_is_a_clear_error(tmp_path):
    import os
    master, slave = os.openpty()
    try:
        with pytest.raises(ProbeError, match="answered the futmesa handshake"):
            probe(os.ttyname(slave), timeout_s=0.5)
    finally:
        os.close(master)
        os.close(slave)


def _port(device, serial, vid=0x2E8A):
    from types import SimpleNamespace

    return SimpleNamespace(device=device, serial_number=serial, vid=vid,
                           description="Board in FS mode")


def test_find_board_by_usb_serial_number(monkeypatch):
    from futmesa.deploy import probe as pr

    ports = [_port("/dev/ttyACM0", "E6614C311B5A"), _port("/dev/ttyACM1", "E6614C31AAAA"),
             _port("/dev/ttyS0", None, vid=None)]
    monkeypatch.setattr(pr, "serial_ports", lambda: ports)
    assert pr.find_port("e6614c31aaaa") == "/dev/ttyACM1"
    with pytest.raises(ProbeError, match="several USB serial ports: pass --port or --serial"):
        pr.find_port()
    with pytest.raises(ProbeError, match="no USB serial port with serial number 123"):
        pr.find_port("123")
    monkeypatch.setattr(pr, "serial_ports", lambda: ports[2:])
    r = CliRunner().invoke(cli, ["--lang", "en", "doctor"])
    assert r.exit_code == 1 and "no board found on USB" in r.output and "/dev/ttyS0" in r.output


def test_cli_doctor_on_the_sim(sim):
    r = CliRunner().invoke(cli, ["--lang", "en", "doctor", "--port", sim.host_port])
    assert r.exit_code == 0, r.output
    assert "ok   firmware" in r.output and r.output.rstrip().endswith("no problems found")


def _firmware_with_pico(tmp_path):
    from futmesa.deploy import flash as fl

    src = tmp_path / "fw"
    shutil.copytree(fl.firmware_dir(), src, ignore=shutil.ignore_patterns("*.egg-info"))
    if not (src / "boards" / "pico.py").exists():
        (src / "boards" / "pico.py").write_text("class PicoBoard:\n    name = 'pico'\n")
    return src


def test_flash_version_check_against_the_real_firmware(sim, tmp_path, monkeypatch):
    """The post-reset check of `futmesa flash` talks to the (simulated) firmware for real."""
    import subprocess

    from futmesa.deploy import flash as fl

    monkeypatch.setenv("FUTMESA_FIRMWARE_DIR", str(_firmware_with_pico(tmp_path)))
    ok = subprocess.CompletedProcess([], 0, "", "")
    # the sim answers with its real versions but says it is the 'sim' board
    with pytest.raises(fl.FlashError, match="the board says it is 'sim', not 'pico'"):
        fl.flash("pico", sim.host_port, run=lambda a, **k: ok, echo=lambda s: None,
                 timeout_s=5, detect=lambda p: None)


def test_doctor_watch_counts_a_fault_seen_while_watching(sim):
    """Issue 14: `doctor --watch` printed a stuck-sensor fault, then "no problems found"."""
    lines = []
    sim.send("i2c 0 ok")
    try:
        fails = run_doctor(port=sim.host_port, watch_s=4, echo=lines.append,
                           ready=lambda: sim.send("i2c 0 dead"))
    finally:
        sim.send("i2c 0 ok")
    text = "\n".join(lines)
    assert any(x.startswith("live sensor_fault") for x in lines), text
    assert "FAIL sensor 0 reported a fault while watching: no_answer" in text
    assert fails >= 1
