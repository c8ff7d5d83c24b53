"""`futmesa calibrate` on the fake bus: measure, propose, save the board file, verify."""

import json

import pytest
from click.testing import CliRunner

from futmesa.cli import cli
from futmesa.deploy.calibrate import CalibrateError, link_source, run_calibration
from futmesa.hardware.boardfile import load_board
from futmesa.hardware.tof import GoalLineDetector


class Sensor:
    """What one goal sensor measures next: a script of readings, then its distance."""

    def __init__(self, distance_mm):
        self.distance_mm = distance_mm
        self.script = []


class Table:
    """Two sensors across 150 mm goals, as the calibration reads them (`goals`, `read`: the
    link's DIAG distances on a real table; tests/sbc/test_pi_calibrate.py runs that path);
    `prompt` plays the user following instructions."""

    def __init__(self, empty=150, ball=None, miss=False):
        ball = ball or {"near": 20, "middle": 70, "far": 128}
        self.devs = [Sensor(empty) for _ in (0, 1)]
        self.empty = empty
        self.ball = ball
        self.miss = miss
        self.prompts = []

    def prompt(self, msg):
        self.prompts.append(msg)
        goal = int(msg.split("Goal line ")[1].split(":")[0])
        dev = self.devs[goal]
        dev.script = []
        if "take every ball" in msg:
            dev.distance_mm = self.empty
        elif "near the sensor" in msg:
            dev.distance_mm = self.ball["near"]
        elif "middle" in msg:
            dev.distance_mm = self.ball["middle"]
        elif "far side" in msg:
            dev.distance_mm = self.ball["far"]
        elif "test ball" in msg:
            dev.distance_mm = self.empty
            # the ball rolls in, rests against the far side, and is taken out
            passing = [self.empty] * 5 + [self.ball["far"] + (40 if self.miss else 0)] * 10
            dev.script = passing + [self.empty] * 5

    def goals(self):
        return [0, 1]

    def read(self, goal):
        dev = self.devs[goal]
        return dev.script.pop(0) if dev.script else dev.distance_mm


def test_calibration_measures_saves_and_verifies(tmp_path):
    board = load_board("rpi")
    t = Table()
    src = t
    out = tmp_path / "rpi-calibrated.json"
    lines = []
    results = run_calibration(src, board, out, t.prompt, lines.append, balls=3, samples=5)
    for gid in (0, 1):
        r = results[gid]
        # between the farthest ball (128) and the empty goal (150)
        assert 128 < r.threshold_mm < 150
        assert r.verified == 3 and r.extra == 0
    saved = load_board(out)
    assert saved.name == "rpi"
    assert [g["threshold_mm"] for g in saved.goal_sensors] == [
        results[0].threshold_mm, results[1].threshold_mm]
    # everything else in the board file is unchanged
    before, after = json.loads(board.path.read_text()), json.loads(out.read_text())
    for g in before["goal_sensors"] + after["goal_sensors"]:
        g.pop("threshold_mm"), g.pop("hysteresis_mm")
    assert before == after
    assert lines[-1] == "verified: every test ball was seen exactly once"
    # the saved threshold sees a far-side ball the default (100 mm) would have missed
    d = GoalLineDetector(saved.goal_sensors[0]["threshold_mm"])
    assert [d.feed(128), d.feed(128)] == [None, True]
    d0 = GoalLineDetector(board.goal_sensors[0]["threshold_mm"])
    assert [d0.feed(128), d0.feed(128)] == [None, None]


def test_ball_indistinguishable_from_empty_goal_is_refused(tmp_path):
    board = load_board("rpi")
    t = Table(empty=150, ball={"near": 146, "middle": 147, "far": 148})
    src = t
    with pytest.raises(CalibrateError, match="too close together"):
        run_calibration(src, board, tmp_path / "x.json", t.prompt, lambda s: None, samples=3)


def test_missed_test_ball_fails_verification(tmp_path):
    board = load_board("rpi")
    t = Table(miss=True)
    src = t
    with pytest.raises(CalibrateError, match="did not see every test ball"):
        run_calibration(src, board, tmp_path / "x.json", t.prompt, lambda s: None,
                        balls=2, samples=3)


def test_link_calibration_without_a_board_says_what_to_do():
    with pytest.raises(CalibrateError, match="no board at /dev/ttyACM97.*futmesa doctor"):
        link_source("/dev/ttyACM97")


def test_cli_needs_to_know_where_the_sensors_are():
    r = CliRunner().invoke(cli, ["calibrate", "--board", "pico"])
    assert r.exit_code == 1 and "--sbc" in r.output and "--port" in r.output


class FakeLink:
    """Plays a board with the diagnostic stream calibration uses (LinkSource docs)."""

    import futmesa_wire as _W

    CMD_DIAG, CMD_SET_THRESHOLD = _W.CMD_DIAG, _W.CMD_SET_THRESHOLD

    def __init__(self, port, sink):
        import threading

        self.sink = sink
        self.mm = {0: 150, 1: 150}
        self.script = {0: [], 1: []}
        self.streaming = threading.Event()
        self.stopped = threading.Event()
        self.commands = []
        self.thread = threading.Thread(target=self._feed, daemon=True)

    def start(self):
        from types import SimpleNamespace

        self.sink.on_device(SimpleNamespace(boot_id=1, newest=0))
        self.thread.start()

    def stop(self):
        self.stopped.set()

    def _feed(self):
        import time

        while not self.stopped.is_set():
            if self.streaming.is_set():
                vals = []
                for g in (0, 1):
                    vals.append(self.script[g].pop(0) if self.script[g] else self.mm[g])
                self.sink.on_diag(None, 0, (*vals, 0, 0, 1, 0))
            time.sleep(0.0005)

    def command(self, code, a=0, b=0, c=0, x=0, y=0):
        from concurrent.futures import Future

        import futmesa_wire as W

        self.commands.append((code, a, x, y))
        if code == self.CMD_DIAG:
            (self.streaming.set if a else self.streaming.clear)()
        f = Future()
        f.set_result(W.ACK_OK)
        return f


def test_link_calibration_against_the_expected_interface(tmp_path, monkeypatch):
    from futmesa.deploy import calibrate as cal

    links = []

    def factory(port, sink):
        links.append(FakeLink(port, sink))
        return links[-1]

    src = cal.link_source("/dev/ttyACM0", "pico", link_factory=factory)
    link = links[0]
    spots = {"take every ball": 150, "near": 30, "middle": 75, "far side": 120}

    def prompt(msg):
        goal = int(msg.split("Goal line ")[1].split(":")[0])
        for key, mm in spots.items():
            if key in msg:
                link.mm[goal] = mm
        if "test ball" in msg:
            link.mm[goal] = 150
            link.script[goal] = [150] * 3 + [120] * 8 + [150] * 200
        # drop samples measured before the user acted, as a real stream would have moved on
        while not src.sink.samples.empty():
            src.sink.samples.get_nowait()

    results = cal.run_calibration(src, load_board("pico"), tmp_path / "p.json", prompt,
                                  lambda s: None, balls=2, samples=5)
    src.stop()
    sets = [c for c in link.commands if c[0] == FakeLink.CMD_SET_THRESHOLD]
    assert sets == [(FakeLink.CMD_SET_THRESHOLD, g, results[g].threshold_mm,
                     results[g].hysteresis_mm) for g in (0, 1)]
    assert all(120 < results[g].threshold_mm < 150 for g in (0, 1))
    assert link.commands[0] == (FakeLink.CMD_DIAG, 1, 0, 0)
    assert link.commands[-1] == (FakeLink.CMD_DIAG, 0, 0, 0)
