"""`futmesa calibrate --port` end to end against the simulated board (real firmware under
`micropython`, real pty, real HostLink): live distances over MSG_DIAG, thresholds written
with CMD_SET_THRESHOLD, kept on the device's flash across a reset and used by its goal filter.
"""

import json
import threading
import time

import pytest

from futmesa.deploy.calibrate import link_source, run_calibration
from futmesa.deploy.probe import probe
from futmesa.hardware.boardfile import load_board
from futmesa.sim.table import SimTable

EMPTY, BALL = 120, 20  # sim ToF readings: goal empty / ball wholly past the line


# Deadlines for a busy machine: each wait ends as soon as its condition holds
PATIENCE_S = 60


@pytest.fixture
def sim(monkeypatch):
    monkeypatch.setenv("FUTMESA_TRACE_EVENTS", "1")  # the firmware prints `EV boot seq kind`
    with SimTable(speed=1, goal_sensor="tof") as table:
        probe(table.host_port, timeout_s=PATIENCE_S, want_status=False)
        yield table


def goal_events(sim, since=0):
    """Goal-line events (kind 1) the firmware numbered, from its own trace."""
    return [ln for ln in sim.lines[since:] if ln.startswith("EV ") and ln.split()[3] == "1"]


def rolled_in_and_out(sim, goal, mm=BALL):
    """A ball rolled onto the line and out again: the sim board holds the reading for as
    many of its readings as a goal needs, however slowly a busy machine runs it; the
    board's own filter then counts it (or not) by its threshold."""
    sim.send(f"tof {goal} {mm} 300")


class CalibrateReads:
    """What the calibration read (goal, mm), so the test's "user" keeps the test ball in
    until the calibration has seen it for a few readings: condition, not wall time."""

    def __init__(self, monkeypatch):
        from futmesa.deploy.calibrate import LinkSource

        self.seen = []
        real_read = LinkSource.read

        def read(source, goal):
            mm = real_read(source, goal)
            self.seen.append((goal, mm))
            return mm

        monkeypatch.setattr(LinkSource, "read", read)

    def roll_test_ball(self, sim, goal):
        """In a thread, as the user does after Enter: the ball in until the calibration
        read it 4 times, then out."""
        start = len(self.seen)

        def roll():
            deadline = time.monotonic() + PATIENCE_S
            sim.send(f"tof {goal} {BALL}")
            while (sum(1 for g, mm in self.seen[start:] if g == goal and mm == BALL) < 4
                   and time.monotonic() < deadline):
                time.sleep(0.01)
            sim.send(f"tof {goal} {EMPTY}")

        threading.Thread(target=roll, daemon=True).start()


def wait_goal_events(sim, since, n):
    deadline = time.monotonic() + PATIENCE_S
    while len(goal_events(sim, since)) < n and time.monotonic() < deadline:
        time.sleep(0.02)
    return goal_events(sim, since)


def test_calibrate_over_the_link_sets_thresholds_the_device_keeps_and_uses(sim, tmp_path,
                                                                           monkeypatch):
    board = load_board("sim")
    assert [g["threshold_mm"] for g in board.goal_sensors] == [100, 100]  # the old ones
    reads = CalibrateReads(monkeypatch)
    prompts = []

    def prompt(msg):
        prompts.append(msg)
        goal = int(msg.split("Goal line ")[1].split(":")[0])
        if "test ball" in msg:
            # after Enter the ball rolls in, rests against the far side, and is taken out
            sim.send(f"tof {goal} {EMPTY}")
            reads.roll_test_ball(sim, goal)
        elif "take every ball" in msg:
            sim.send(f"tof {goal} {EMPTY}")
        else:
            sim.send(f"tof {goal} {BALL}")
        sim.sync()  # the scene is set before the user presses Enter

    source = link_source(sim.host_port, "sim", timeout_s=PATIENCE_S)
    lines = []
    try:
        results = run_calibration(source, board, tmp_path / "sim-calibrated.json", prompt,
                                  lines.append, balls=1, samples=4)
    finally:
        source.stop()
    # proposed midway between the ball (20) and the empty goal (120)
    for g in (0, 1):
        assert results[g].empty_mm == [EMPTY] * 4
        assert results[g].ball_mm == [BALL] * 3
        assert (results[g].threshold_mm, results[g].hysteresis_mm) == (70, 25)
        assert results[g].verified == 1 and results[g].extra == 0
    assert "the board now uses the new thresholds" in lines
    assert lines[-1] == "verified: every test ball was seen exactly once"
    saved = json.loads((tmp_path / "sim-calibrated.json").read_text())
    assert [g["threshold_mm"] for g in saved["goal_sensors"]] == [70, 70]
    # the device logged and stored them
    table = json.loads((sim.dir / "flash" / "table.json").read_text())
    assert table["tof0_threshold_mm"] == 70 and table["tof1_hysteresis_mm"] == 25

    # a reset: the device must come back with the calibrated thresholds, not the board file's
    sim.reset()
    probe(sim.host_port, timeout_s=PATIENCE_S, want_status=False)
    time.sleep(0.3)
    start = len(sim.lines)
    # 85 mm: a ball under the old threshold (100) but not under the new one (70); then a
    # ball that is a goal under both: only that one is counted
    rolled_in_and_out(sim, 0, 85)
    sim.send(f"tof 0 {BALL} 300")
    assert len(wait_goal_events(sim, start, 1)) == 1, sim.output_tail(40)
    assert goal_events(sim, start) == wait_goal_events(sim, start, 1)


def test_the_old_threshold_would_have_taken_85_mm_for_a_goal(sim):
    """The control: without calibration the same 85 mm reading IS a goal (threshold 100)."""
    time.sleep(0.3)
    start = len(sim.lines)
    rolled_in_and_out(sim, 0, 85)
    assert len(wait_goal_events(sim, start, 1)) == 1, sim.output_tail(40)


def test_the_calibrate_command_against_the_sim_board(sim, tmp_path, monkeypatch):
    """`futmesa calibrate --port` itself: the user's answers are played on the sim's sensors."""
    import click
    from click.testing import CliRunner

    from futmesa.cli import cli

    reads = CalibrateReads(monkeypatch)

    def answer(msg, **kw):
        goal = int(msg.split("Goal line ")[1].split(":")[0])
        if "test ball" in msg:
            reads.roll_test_ball(sim, goal)
        else:
            sim.send(f"tof {goal} {EMPTY if 'take every ball' in msg else BALL}")
            sim.sync()  # the scene is set before the user presses Enter
        return ""

    monkeypatch.setattr(click, "prompt", answer)
    out = tmp_path / "cal.json"
    r = CliRunner().invoke(cli, ["calibrate", "--board", "sim", "--port", sim.host_port,
                                 "--out", str(out), "--balls", "1",
                                 "--timeout", str(PATIENCE_S)])
    assert r.exit_code == 0, r.output
    assert "proposed: threshold 70 mm, hysteresis 25 mm" in r.output
    assert "verified: every test ball was seen exactly once" in r.output
    assert f"futmesa flash --board {out}" in r.output
    table = json.loads((sim.dir / "flash" / "table.json").read_text())
    assert (table["tof0_threshold_mm"], table["tof1_threshold_mm"]) == (70, 70)
