"""Minimal VL53L0X time-of-flight driver on machine.I2C: init, address change, non-blocking reads.

The init sequence is ST's, as ported by Pololu and Adafruit (data init,
reference SPADs, default tuning, timing budget, reference calibration);
ranging runs in continuous back-to-back mode. read()
never waits: it returns the newest distance once per measurement, NO_SAMPLE
in between, NO_ANSWER when the bus fails, and allocates nothing on success.
Used only by the ToF build of real boards (imported by boards.MachineBoard).
"""

import time

from micropython import const

NO_SAMPLE = const(-2)
NO_ANSWER = const(-1)
DEFAULT_ADDRESS = const(0x29)
_TIMEOUT_MS = const(200)

# ST's default tuning settings: (register, value) pairs
_TUNING = bytes((
    0xFF, 0x01, 0x00, 0x00, 0xFF, 0x00, 0x09, 0x00, 0x10, 0x00, 0x11, 0x00, 0x24, 0x01,
    0x25, 0xFF, 0x75, 0x00, 0xFF, 0x01, 0x4E, 0x2C, 0x48, 0x00, 0x30, 0x20, 0xFF, 0x00,
    0x30, 0x09, 0x54, 0x00, 0x31, 0x04, 0x32, 0x03, 0x40, 0x83, 0x46, 0x25, 0x60, 0x00,
    0x27, 0x00, 0x50, 0x06, 0x51, 0x00, 0x52, 0x96, 0x56, 0x08, 0x57, 0x30, 0x61, 0x00,
    0x62, 0x00, 0x64, 0x00, 0x65, 0x00, 0x66, 0xA0, 0xFF, 0x01, 0x22, 0x32, 0x47, 0x14,
    0x49, 0xFF, 0x4A, 0x00, 0xFF, 0x00, 0x7A, 0x0A, 0x7B, 0x00, 0x78, 0x21, 0xFF, 0x01,
    0x23, 0x34, 0x42, 0x00, 0x44, 0xFF, 0x45, 0x26, 0x46, 0x05, 0x40, 0x40, 0x0E, 0x06,
    0x20, 0x1A, 0x43, 0x40, 0xFF, 0x00, 0x34, 0x03, 0x35, 0x44, 0xFF, 0x01, 0x31, 0x04,
    0x4B, 0x09, 0x4C, 0x05, 0x4D, 0x04, 0xFF, 0x00, 0x44, 0x00, 0x45, 0x20, 0x47, 0x08,
    0x48, 0x28, 0x67, 0x00, 0x70, 0x04, 0x71, 0x01, 0x72, 0xFE, 0x76, 0x00, 0x77, 0x00,
    0xFF, 0x01, 0x0D, 0x01, 0xFF, 0x00, 0x80, 0x01, 0x01, 0xF8, 0xFF, 0x01, 0x8E, 0x01,
    0x00, 0x01, 0xFF, 0x00, 0x80, 0x00,
))


def _decode_timeout(val):
    # "(LSByte * 2^MSByte) + 1", in macro periods
    return ((val & 0xFF) << ((val >> 8) & 0xFF)) + 1


def _encode_timeout(mclks):
    mclks &= 0xFFFF
    if mclks <= 0:
        return 0
    ls = mclks - 1
    ms = 0
    while ls > 255:
        ls >>= 1
        ms += 1
    return ((ms << 8) | (ls & 0xFF)) & 0xFFFF


def _macro_ns(vcsel_pclks):
    return ((2304 * vcsel_pclks * 1655) + 500) // 1000


def _mclks_to_us(mclks, vcsel_pclks):
    ns = _macro_ns(vcsel_pclks)
    return ((mclks * ns) + (ns // 2)) // 1000


def _us_to_mclks(us, vcsel_pclks):
    ns = _macro_ns(vcsel_pclks)
    return ((us * 1000) + (ns // 2)) // ns


class VL53L0X:
    def __init__(self, i2c, address=DEFAULT_ADDRESS, budget_us=33000):
        self.i2c = i2c
        self.budget_us = budget_us
        self.address = address
        self._w = bytearray(2)
        self._r1 = bytearray(1)
        self._r2 = bytearray(2)
        self._reg = bytearray(1)
        self._stop = 0

    # -- registers (allocation-free) -------------------------------------------------
    def write(self, reg, value):
        w = self._w
        w[0] = reg
        w[1] = value & 0xFF
        self.i2c.writeto(self.address, w)

    def read(self, reg):
        self._reg[0] = reg
        self.i2c.writeto(self.address, self._reg)
        self.i2c.readfrom_into(self.address, self._r1)
        return self._r1[0]

    def read16(self, reg):
        self._reg[0] = reg
        self.i2c.writeto(self.address, self._reg)
        self.i2c.readfrom_into(self.address, self._r2)
        return (self._r2[0] << 8) | self._r2[1]

    def write16(self, reg, value):
        self.write(reg, (value >> 8) & 0xFF)
        self.write(reg + 1, value & 0xFF)

    def _pairs(self, seq):
        for i in range(0, len(seq), 2):
            self.write(seq[i], seq[i + 1])

    def _wait(self, reg, mask, want_nonzero=True):
        start = time.ticks_ms()
        while (self.read(reg) & mask != 0) != want_nonzero:
            if time.ticks_diff(time.ticks_ms(), start) > _TIMEOUT_MS:
                raise OSError("VL53L0X timeout on register 0x%02x" % reg)

    # -- start-up (blocking, at boot only) ----------------------------------------------
    def set_address(self, new):
        self.write(0x8A, new & 0x7F)
        self.address = new & 0x7F

    def init(self):
        if self.read(0xC0) != 0xEE or self.read(0xC1) != 0xAA or self.read(0xC2) != 0x10:
            raise OSError("no VL53L0X at 0x%02x (wrong model id)" % self.address)
        self._pairs(b"\x88\x00\x80\x01\xff\x01\x00\x00")
        self._stop = self.read(0x91)
        self._pairs(b"\x00\x01\xff\x00\x80\x00")
        self.write(0x60, self.read(0x60) | 0x12)  # no MSRC / pre-range signal rate checks
        self.write(0x44, 0x00)  # final range signal rate limit 0.25 MCPS (9.7 fixed point)
        self.write(0x45, 0x20)
        self.write(0x01, 0xFF)
        count, aperture = self._spad_info()
        spads = bytearray(7)
        self._reg[0] = 0xB0
        self.i2c.writeto(self.address, self._reg)
        self.i2c.readfrom_into(self.address, memoryview(spads)[1:])
        self._pairs(b"\xff\x01\x4f\x00\x4e\x2c\xff\x00\xb6\xb4")
        first = 12 if aperture else 0
        enabled = 0
        for i in range(48):
            byte = 1 + i // 8
            bit = 1 << (i % 8)
            if i < first or enabled == count:
                spads[byte] &= ~bit & 0xFF
            elif spads[byte] & bit:
                enabled += 1
        spads[0] = 0xB0
        self.i2c.writeto(self.address, spads)
        self._pairs(_TUNING)
        self.write(0x0A, 0x04)  # interrupt on a new sample
        self.write(0x84, self.read(0x84) & ~0x10 & 0xFF)
        self.write(0x0B, 0x01)
        self.write(0x01, 0xE8)
        self.set_timing_budget(self.budget_us)
        self.write(0x01, 0x01)
        self._ref_calibration(0x40)
        self.write(0x01, 0x02)
        self._ref_calibration(0x00)
        self.write(0x01, 0xE8)

    def set_timing_budget(self, budget_us):
        """Measurement timing budget (µs, ≥ 20000): the final-range timeout gets what the
        enabled sequence steps leave (ST's VL53L0X_SetMeasurementTimingBudgetMicroSeconds)."""
        if budget_us < 20000:
            raise OSError("VL53L0X timing budget below 20000 us")
        seq = self.read(0x01)
        tcc, dss, msrc = seq & 0x10, seq & 0x08, seq & 0x04
        pre_range, final_range = seq & 0x40, seq & 0x80
        pre_vcsel = ((self.read(0x50) + 1) & 0xFF) << 1
        msrc_us = _mclks_to_us((self.read(0x46) + 1) & 0xFF, pre_vcsel)
        pre_mclks = _decode_timeout(self.read16(0x51))
        pre_us = _mclks_to_us(pre_mclks, pre_vcsel)
        final_vcsel = ((self.read(0x70) + 1) & 0xFF) << 1
        used = 1320 + 960
        if tcc:
            used += msrc_us + 590
        if dss:
            used += 2 * (msrc_us + 690)
        elif msrc:
            used += msrc_us + 660
        if pre_range:
            used += pre_us + 660
        if final_range:
            used += 550
            if used > budget_us:
                raise OSError("VL53L0X timing budget too small for the sequence")
            mclks = _us_to_mclks(budget_us - used, final_vcsel)
            if pre_range:
                mclks += pre_mclks
            self.write16(0x71, _encode_timeout(mclks))
        self.budget_us = budget_us

    def _spad_info(self):
        self._pairs(b"\x80\x01\xff\x01\x00\x00\xff\x06")
        self.write(0x83, self.read(0x83) | 0x04)
        self._pairs(b"\xff\x07\x81\x01\x80\x01\x94\x6b\x83\x00")
        self._wait(0x83, 0xFF)
        self.write(0x83, 0x01)
        tmp = self.read(0x92)
        self._pairs(b"\x81\x00\xff\x06")
        self.write(0x83, self.read(0x83) & ~0x04 & 0xFF)
        self._pairs(b"\xff\x01\x00\x01\xff\x00\x80\x00")
        return tmp & 0x7F, (tmp >> 7) & 1

    def _ref_calibration(self, vhv):
        self.write(0x00, 0x01 | vhv)
        self._wait(0x13, 0x07)
        self.write(0x0B, 0x01)
        self.write(0x00, 0x00)

    def start(self):
        """Continuous back-to-back ranging."""
        self._pairs(b"\x80\x01\xff\x01\x00\x00")
        self.write(0x91, self._stop)
        self._pairs(b"\x00\x01\xff\x00\x80\x00")
        self.write(0x00, 0x02)

    # -- the loop --------------------------------------------------------------------
    def sample(self):
        """The newest distance in mm, NO_SAMPLE if none since the last call, NO_ANSWER on a bus error."""
        try:
            if self.read(0x13) & 0x07 == 0:
                return NO_SAMPLE
            mm = self.read16(0x1E)
            self.write(0x0B, 0x01)
        except OSError:
            return NO_ANSWER
        return mm


def start_all(i2c, machine, goals, kinds, boot_delay_ms=10, log=None, budget_us=33000):
    """Give every ToF goal sensor its address through XSHUT and start it (hardware/README.md).

    Returns a list indexed by goal id: a started VL53L0X, or None for a sensor
    that did not answer (switched off again, so it cannot hold 0x29) or a goal
    line that is not a ToF build.
    """
    xshut = {}
    for g in goals:
        i = int(g["id"])
        if kinds[i] == "tof":
            pin = machine.Pin(int(g["xshut"]), machine.Pin.OUT)
            pin.value(0)
            xshut[i] = pin
    time.sleep_ms(10)
    sensors: list = [None, None]
    for g in goals:
        i = int(g["id"])
        if i not in xshut:
            continue
        xshut[i].value(1)
        time.sleep_ms(boot_delay_ms)
        s = VL53L0X(i2c, DEFAULT_ADDRESS, budget_us)
        try:
            s.set_address(int(g["address"], 16))
            s.init()
            s.start()
            sensors[i] = s
        except OSError as exc:
            xshut[i].value(0)
            if log:
                log("ToF sensor %d did not start: %s" % (i, exc))
    return sensors
