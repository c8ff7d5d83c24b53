"""Linux SBC mode: the host reads the Raspberry Pi board's inputs itself (fake bus and pins)."""

import json

import pytest

from futmesa.hardware.boardfile import load_board
from futmesa.hardware.fakei2c import FakeI2C, FakePin, FakeVL53L0X
from futmesa.hardware.sbc import GOAL_REFRACTORY_MS, SbcTable


class Rig:
    """A fake Raspberry Pi: pins by BCM number, two ToF sensors on I2C, a manual clock."""

    def __init__(self, board):
        self.board = board
        self.now = 0
        self.bus = FakeI2C()
        self.tof = {}
        for g in board.goal_sensors:
            if g["type"] == "vl53l0x":
                self.tof[g["id"]] = self.bus.add(FakeVL53L0X(distance_mm=150))
        xshut = {g["xshut"]: g["id"] for g in board.goal_sensors if "xshut" in g}
        self.pins = {}

        def factory(number, role):
            if role == "output" and number in xshut:
                pin = FakePin(f"D{number}", self.tof.get(xshut[number]), value=False)
            else:
                pin = FakePin(f"D{number}", value=True)  # pulled up: inactive
            self.pins[number] = pin
            return pin

        self.table = SbcTable(
            board, i2c=self.bus, pin_factory=factory, clock_ms=lambda: self.now,
            sleep=lambda s: None, io_timeout_s=0.2,
        )

    def run(self, ms, step=1):
        out = []
        for _ in range(0, ms, step):
            self.now += step
            out += self.table.poll()
        return out


def kinds(events):
    return [(e["kind"], e["data"]) for e in events]


def test_tof_goal_side_net_palheta_and_buttons():
    rig = Rig(load_board("rpi"))
    assert rig.table.start() == []
    assert rig.bus.scan() == [0x30, 0x31]
    assert rig.run(20) == []

    rig.tof[1].distance_mm = 40  # ball wholly past goal line 1
    ev = rig.run(20)
    assert kinds(ev) == [("goal_line", {"goal": 1})]
    assert rig.run(GOAL_REFRACTORY_MS) == []  # the ball lying in the goal is one goal
    rig.tof[1].distance_mm = 150
    assert rig.run(20) == []

    zone = load_board("rpi").side_net[4]
    rig.pins[zone["pin"]].level(0)
    rig.now += 1
    assert rig.table.poll() == []  # not debounced yet
    ev = rig.run(10)
    assert kinds(ev) == [("ball_out", {"zone": 4, "line": "side", "end": 1})]
    rig.pins[zone["pin"]].level(1)
    assert rig.run(10) == []

    pal = rig.board["palheta"]
    rig.pins[pal["pin_b"]].level(0)
    assert kinds(rig.run(10)) == [("palheta", {"pos": "B"})]
    rig.pins[pal["pin_b"]].level(1)
    assert kinds(rig.run(10)) == [("palheta", {"pos": "C"})]

    rig.pins[rig.board["buttons"]["referee"]].level(0)
    assert kinds(rig.run(10)) == [("button", {"button": "referee"})]
    rig.pins[rig.board["buttons"]["referee"]].level(1)
    assert rig.run(10) == []


def test_line_blocked_too_long_is_a_stuck_fault():
    from futmesa.hardware.sbc import STUCK_MS

    rig = Rig(load_board("rpi"))
    rig.table.start()
    rig.tof[0].distance_mm = 30  # the goalkeeper pushed into the goal, over the beam
    ev = rig.run(STUCK_MS + 50)
    assert kinds(ev)[0] == ("goal_line", {"goal": 0})  # the first moment looks like a ball
    assert [(e["kind"], e["data"].get("fault")) for e in ev[1:]] == [("sensor_fault", "stuck")]
    rig.tof[0].distance_mm = 150
    assert kinds(rig.run(20)) == [("sensor_ok", {"sensor": 0})]


def test_bounce_shorter_than_debounce_is_ignored():
    rig = Rig(load_board("rpi"))
    rig.table.start()
    pin = rig.pins[rig.board.side_net[0]["pin"]]
    for _ in range(5):
        pin.level(0)
        rig.run(2)
        pin.level(1)
        rig.run(2)
    assert rig.run(10) == []


def test_dead_sensor_is_a_fault_and_recovers():
    rig = Rig(load_board("rpi"))
    rig.tof[0].dead = True
    faults = rig.table.start()
    assert kinds(faults)[0][0] == "sensor_fault"
    assert faults[0]["data"]["sensor"] == 0
    assert "XSHUT pin 17" in faults[0]["data"]["detail"]
    # goal 1 still works
    rig.tof[1].distance_mm = 30
    assert kinds(rig.run(20)) == [("goal_line", {"goal": 1})]

    # a sensor that stops answering in play is reported once
    rig.tof[1].dead = True
    ev = rig.run(20)
    assert kinds(ev)[0][0] == "sensor_fault" and ev[0]["data"]["sensor"] == 1
    assert [e["data"]["fault"] for e in ev] == ["no_answer"]
    rig.tof[1].dead = False
    ev = rig.run(20)
    assert kinds(ev) == [("sensor_ok", {"sensor": 1})]


def test_break_beam_build(tmp_path):
    data = json.loads(load_board("rpi").path.read_text())
    for g in data["goal_sensors"]:
        g["type"] = "beam"
    p = tmp_path / "rpi.json"
    p.write_text(json.dumps(data))
    rig = Rig(load_board(p))
    assert rig.table.start() == []
    assert rig.bus.transactions == 0  # no I2C at all in the break-beam build
    # both pins read 1 (pulled up) at start: beams blocked at start are not goals
    assert rig.run(10) == []
    for g in data["goal_sensors"]:
        rig.pins[g["beam_pin"]].level(0)  # receiver pulls low while the beam is intact
    assert rig.run(10) == []
    beam = rig.pins[data["goal_sensors"][0]["beam_pin"]]
    beam.level(1)  # broken
    assert kinds(rig.run(10)) == [("goal_line", {"goal": 0})]


def test_poll_before_start_is_an_error():
    rig = Rig(load_board("rpi"))
    with pytest.raises(RuntimeError, match="start"):
        rig.table.poll()


def test_sbc_doctor_reports_and_watches():
    from futmesa.deploy.doctor import run_sbc_doctor

    rig = Rig(load_board("rpi"))
    rig.tof[0].dead = True
    lines = []
    t = {"now": 0.0}

    def sleep(s):
        t["now"] += s
        rig.now += 2
        if rig.now == 10:
            rig.tof[1].distance_mm = 30  # a ball into goal 1 while watching

    fails = run_sbc_doctor(rig.table, watch_s=0.1, echo=lines.append,
                           clock=lambda: t["now"], sleep=sleep)
    text = "\n".join(lines)
    assert fails == 1
    assert "FAIL goal line 0: VL53L0X at 0x30 did not start" in text and "XSHUT pin 17" in text
    assert "ok   goal line 1: VL53L0X at 0x31" in text
    assert "live goal_line {'goal': 1}" in text


def test_sbc_doctor_cli_off_a_raspberry_pi_says_what_to_do():
    from click.testing import CliRunner

    from futmesa.cli import cli

    r = CliRunner().invoke(cli, ["--lang", "en", "doctor", "--sbc", "--board", "rpi"])
    # on this test machine Blinka has no Raspberry Pi pins: a clear message, not a traceback
    assert r.exit_code == 1, r.output
    assert "Error:" in r.output and "Traceback" not in r.output
