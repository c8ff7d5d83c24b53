"""Adafruit's real VL53L0X driver against the register-level fake bus."""

import pytest
from adafruit_vl53l0x import VL53L0X

from futmesa.hardware.fakei2c import FakeI2C, FakeVL53L0X
from futmesa.hardware.tof import GoalLineDetector, propose_threshold

T = 0.2  # io_timeout_s: a wrong fake fails instead of hanging


def test_driver_initialises_and_ranges_single_shot():
    bus = FakeI2C()
    dev = bus.add(FakeVL53L0X(distance_mm=123))
    s = VL53L0X(bus, io_timeout_s=T)
    # the driver computed the reference SPAD map from 0x92 (6 SPADs, aperture → from 12 on)
    assert list(dev.regs[0][0xB0:0xB6]) == [0x00, 0xF0, 0x03, 0x00, 0x00, 0x00]
    assert s.range == 123
    dev.distance_mm = 47
    assert s.range == 47
    assert dev.measurements >= 4  # two reference calibrations + two ranges


def test_driver_continuous_mode_and_data_ready():
    bus = FakeI2C()
    dev = bus.add(FakeVL53L0X(distance_mm=200))
    s = VL53L0X(bus, io_timeout_s=T)
    s.start_continuous()
    seen = []
    for mm in (200, 180, 35):
        dev.distance_mm = mm
        while not s.data_ready:
            pass
        seen.append(s.range)
    # the first sample was measured before 180 was set: continuous mode latches per sample
    assert seen[-1] == 35
    s.stop_continuous()
    assert not s.is_continuous_mode


def test_wrong_model_id_is_rejected():
    bus = FakeI2C([FakeVL53L0X(model_id=(0xEE, 0xAA, 0x11))])
    with pytest.raises(RuntimeError, match="ID register"):
        VL53L0X(bus, io_timeout_s=T)


def test_spad_poll_that_never_ends_times_out():
    dev = FakeVL53L0X()
    dev.spad_never_ready = True
    with pytest.raises(RuntimeError, match="Timeout"):
        VL53L0X(FakeI2C([dev]), io_timeout_s=0.05)


def test_measurement_that_never_completes_times_out():
    bus = FakeI2C()
    dev = bus.add(FakeVL53L0X())
    s = VL53L0X(bus, io_timeout_s=T)
    dev.never_ready = True
    with pytest.raises(RuntimeError, match="Timeout"):
        s.io_timeout_s = 0.05
        _ = s.range


def test_no_sensor_on_bus():
    with pytest.raises(ValueError, match="No I2C device"):
        VL53L0X(FakeI2C(), io_timeout_s=T)


def test_detector_hysteresis_and_confirmation():
    d = GoalLineDetector(threshold_mm=100, hysteresis_mm=8, confirm=2)
    assert d.feed(150) is None
    assert d.feed(60) is None  # one sample is not enough
    assert d.feed(150) is None
    assert d.feed(60) is None
    assert d.feed(61) is True
    assert d.feed(104) is None and d.feed(104) is None  # inside the hysteresis band
    assert d.feed(120) is None
    assert d.feed(120) is False
    assert d.feed(8190) is None  # "no target" is clear


def test_propose_threshold():
    thr, hyst = propose_threshold([148, 150, 151], [60, 72, 80])
    assert 80 < thr < 148 and thr == 80 + (148 - 80) // 2
    assert hyst == (148 - 80) // 4
    with pytest.raises(ValueError, match="too close"):
        propose_threshold([100, 102], [98, 99])
    with pytest.raises(ValueError, match="ball"):
        propose_threshold([150], [])
