"""The firmware's VL53L0X driver on the register-level fake bus (host/futmesa/hardware/fakei2c.py)."""

from boards.vl53l0x import NO_ANSWER, NO_SAMPLE, start_all
from fakei2c import FakeI2C, FakeMachine, FakeMachineI2C, FakeVL53L0X
from fwtest import check, eq

GOALS = [{"id": 0, "xshut": 6, "address": "0x30"}, {"id": 1, "xshut": 7, "address": "0x31"}]


def rig(faulty=False):
    bus = FakeI2C()
    devs = [bus.add(FakeVL53L0X(distance_mm=140, powered=False)),
            bus.add(FakeVL53L0X(distance_mm=60, powered=False))]
    devs[0].spad_never_ready = faulty
    machine = FakeMachine({6: devs[0], 7: devs[1]})
    return bus, devs, machine


def test_address_assignment_and_continuous_non_blocking_reads():
    bus, devs, machine = rig()
    sensors = start_all(FakeMachineI2C(bus), machine, GOALS, ("tof", "tof"), 0)
    eq(bus.scan(), [0x30, 0x31], "both moved off 0x29")
    check(sensors[0] is not None and sensors[1] is not None, "both started")
    got = []
    for _ in range(20):
        v = sensors[0].sample()
        if v != NO_SAMPLE:
            got.append(v)
    check(len(got) >= 2, "samples keep coming in continuous mode: %r" % got)
    eq(got[0], 140, "distance")
    devs[1].distance_mm = 33
    vals = [sensors[1].sample() for _ in range(12)]
    check(33 in vals and NO_SAMPLE in vals, "new distance, and no sample between: %r" % vals)


def test_sensor_that_fails_is_skipped_and_reports_no_answer():
    bus, devs, machine = rig(faulty=True)
    logs = []
    sensors = start_all(FakeMachineI2C(bus), machine, GOALS, ("tof", "tof"), 0, logs.append)
    check(sensors[0] is None, "the faulty one is not started")
    check(sensors[1] is not None, "the other still starts")
    check(len(logs) == 1 and "0" in logs[0], "logged: %r" % logs)
    eq(bus.scan(), [0x31], "the faulty one is switched off (not left on 0x29)")
    devs[1].dead = True
    eq(sensors[1].sample(), NO_ANSWER, "a sensor that stops answering")
