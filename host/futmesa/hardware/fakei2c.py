"""Register-level fake I2C bus with fake VL53L0X sensors, for testing the real Adafruit driver.

`FakeI2C` has the methods `busio.I2C` has (`try_lock`, `unlock`, `writeto`,
`readfrom_into`, `writeto_then_readfrom`, `scan`, `deinit`), so Adafruit's
`adafruit_vl53l0x.VL53L0X` runs on it unmodified. `FakeVL53L0X` models what
that driver relies on: the model id registers (0xC0/0xC1/0xC2 = 0xEE/0xAA/0x10),
register pages selected through 0xFF, auto-increment on multi-byte access,
the SPAD-info poll on 0x83 (reads 0 for a few reads after 0 is written, then
non-zero) and the SPAD info on 0x92, the self-clearing start bit on 0x00,
data ready in RESULT_INTERRUPT_STATUS (0x13), the range at 0x1E/0x1F,
interrupt clear on 0x0B, the address change on 0x8A and power control
through the XSHUT pin (powering up restores address 0x29 and all registers).

Progress is counted in register reads, not in time, so tests are exact.
The module is written in the subset MicroPython runs, so the same fake
drives the driver under the `micropython` VM too.
"""

DEFAULT_ADDRESS = 0x29
EREMOTEIO = 121  # what Linux i2c-dev raises when nobody acknowledges the address

_SYSRANGE_START = 0x00
_INTERRUPT_CLEAR = 0x0B
_INTERRUPT_STATUS = 0x13
_RANGE_HI = 0x1E
_SLAVE_ADDRESS = 0x8A
_SPAD_POLL = 0x83
_SPAD_INFO = 0x92
_PAGE = 0xFF


class FakeVL53L0X:
    """One simulated sensor. Set `distance_mm` to what it should measure next."""

    def __init__(
        self,
        distance_mm=150,
        spad_info=0x86,
        spad_poll_reads=2,
        measure_reads=2,
        powered=True,
        model_id=(0xEE, 0xAA, 0x10),
    ):
        self.distance_mm = distance_mm
        self.spad_info = spad_info
        self.spad_poll_reads = spad_poll_reads
        self.measure_reads = measure_reads
        self.model_id = model_id
        self.dead = False  # True: stops acknowledging (a broken cable)
        self.spad_never_ready = False  # True: a faulty part whose 0x83 poll never ends
        self.never_ready = False  # True: measurements never complete
        self.measurements = 0
        self.script = []  # distances for the next measurements, used before distance_mm
        self.powered = False
        self.address = DEFAULT_ADDRESS
        if powered:
            self.power(True)

    # -- power / XSHUT -------------------------------------------------------

    def power(self, on):
        on = bool(on)
        if on and not self.powered:
            self._reset()
        self.powered = on

    def _reset(self):
        self.address = DEFAULT_ADDRESS
        self.page = 0
        self.index = 0
        self.regs = {}
        for page in (0, 1):
            self.regs[page] = bytearray(256)
        r = self.regs[0]
        r[0xC0], r[0xC1], r[0xC2] = self.model_id
        r[0x84] = 0x11  # GPIO_HV_MUX_ACTIVE_HIGH
        for i in range(0xB0, 0xB6):  # reference SPAD map: every SPAD good
            r[i] = 0xFF
        self.regs[1][0x91] = 0x3C  # stop variable
        self.spad_poll = 0x10
        self.spad_countdown = 0
        self.pending = -1  # register reads left before the running measurement completes
        self.continuous = False

    def present(self):
        return self.powered and not self.dead

    # -- register file -------------------------------------------------------

    def _bank(self):
        return self.regs[0] if self.page == 0 else self.regs[1]

    def _tick(self):
        if self.pending > 0:
            self.pending -= 1
        if self.pending == 0 and not self.never_ready:
            self.pending = -1
            self.measurements += 1
            mm = self.script.pop(0) if self.script else self.distance_mm
            mm = max(0, min(int(mm), 8190))
            r = self.regs[0]
            r[_RANGE_HI] = (mm >> 8) & 0xFF
            r[_RANGE_HI + 1] = mm & 0xFF
            r[0x14] = 0x0B << 3  # range status: valid
            r[_INTERRUPT_STATUS] = 0x04  # new sample ready
            r[_SYSRANGE_START] &= 0xFE  # the start bit clears itself

    def _start(self, value):
        self.continuous = bool(value & 0x02)
        if value & 0x03:
            self.pending = self.measure_reads
            self.regs[0][_INTERRUPT_STATUS] = 0

    def read_reg(self, reg):
        if reg == _PAGE:
            return self.page
        if reg == _SPAD_POLL:
            if self.spad_countdown > 0 or self.spad_never_ready:
                self.spad_countdown -= 1
                return 0x00
            return self.spad_poll
        if reg == _SPAD_INFO:
            return self.spad_info
        if self.page == 0 and reg in (_SYSRANGE_START, _INTERRUPT_STATUS):
            self._tick()
        return self._bank()[reg]

    def write_reg(self, reg, value):
        value &= 0xFF
        if reg == _PAGE:
            self.page = value
            return
        if reg == _SPAD_POLL:
            if value == 0x00:
                self.spad_countdown = self.spad_poll_reads
            self.spad_poll = value if value else 0x10
            return
        if self.page == 0:
            if reg == _SLAVE_ADDRESS:
                self.address = value & 0x7F
                return
            if reg == _SYSRANGE_START:
                self.regs[0][reg] = value & 0x01
                if value == 0x01 and self.continuous:
                    self.continuous = False  # the stop sequence writes 0x01
                self._start(value)
                return
            if reg == _INTERRUPT_CLEAR:
                if value & 0x01:
                    self.regs[0][_INTERRUPT_STATUS] = 0
                    if self.continuous:
                        self.pending = self.measure_reads
                return
        self._bank()[reg] = value

    # -- bus side ------------------------------------------------------------

    def on_write(self, data):
        if not data:
            return
        self.index = data[0]
        for value in data[1:]:
            self.write_reg(self.index, value)
            self.index = (self.index + 1) & 0xFF

    def on_read(self, n):
        out = bytearray(n)
        for i in range(n):
            out[i] = self.read_reg(self.index)
            self.index = (self.index + 1) & 0xFF
        return out


class FakePin:
    """A digital pin with the `value` attribute `digitalio.DigitalInOut` has.

    As an output wired to a sensor's XSHUT it powers that sensor; as an input
    it reads whatever a test sets with `level`.
    """

    def __init__(self, name="pin", sensor=None, value=True):
        self.name = name
        self.sensor = sensor
        self._value = bool(value)
        self.direction = None
        self.pull = None
        self.writes = 0
        if sensor is not None:
            sensor.power(self._value)

    @property
    def value(self):
        return self._value

    @value.setter
    def value(self, v):
        self._value = bool(v)
        self.writes += 1
        if self.sensor is not None:
            self.sensor.power(self._value)

    def level(self, v):
        """Set the level an input reads (tests)."""
        self._value = bool(v)

    def switch_to_output(self, value=False, drive_mode=None):
        self.direction = "output"
        self.value = value

    def switch_to_input(self, pull=None):
        self.direction = "input"
        self.pull = pull

    def deinit(self):
        pass


class FakeI2C:
    """A `busio.I2C` look-alike holding any number of fake sensors."""

    def __init__(self, devices=()):
        self.devices = list(devices)
        self.locked = False
        self.transactions = 0

    def add(self, device):
        self.devices.append(device)
        return device

    def _find(self, address):
        found = None
        for d in self.devices:
            if d.present() and d.address == address:
                if found is not None:
                    # two devices answering at one address garble the bus
                    raise OSError(EREMOTEIO, f"bus conflict at 0x{address:02x}")
                found = d
        if found is None:
            raise OSError(EREMOTEIO, f"no device answers at 0x{address:02x}")
        return found

    def try_lock(self):
        if self.locked:
            return False
        self.locked = True
        return True

    def unlock(self):
        self.locked = False

    def scan(self):
        return sorted(d.address for d in self.devices if d.present())

    def writeto(self, address, buffer, *, start=0, end=None):
        if end is None:
            end = len(buffer)
        self.transactions += 1
        self._find(address).on_write(bytes(buffer[start:end]))

    def readfrom_into(self, address, buffer, *, start=0, end=None):
        if end is None:
            end = len(buffer)
        self.transactions += 1
        data = self._find(address).on_read(end - start)
        for i in range(end - start):
            buffer[start + i] = data[i]

    def writeto_then_readfrom(
        self, address, out_buffer, in_buffer, *, out_start=0, out_end=None, in_start=0, in_end=None
    ):
        self.writeto(address, out_buffer, start=out_start, end=out_end)
        self.readfrom_into(address, in_buffer, start=in_start, end=in_end)

    def deinit(self):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.deinit()
        return False


class FakeMachineI2C:
    """The `machine.I2C` methods (writeto, readfrom_into, scan) on top of a FakeI2C."""

    def __init__(self, bus):
        self.bus = bus

    def scan(self):
        return self.bus.scan()

    def writeto(self, address, buf, stop=True):
        self.bus.writeto(address, buf)
        return len(buf)

    def readfrom_into(self, address, buf, stop=True):
        self.bus.readfrom_into(address, buf)


class FakeMachine:
    """A `machine` module stand-in whose Pins power fake sensors (their XSHUT lines)."""

    def __init__(self, wiring=None):
        machine = self
        self.wiring = dict(wiring or {})  # pin number -> FakeVL53L0X
        self.pins = {}

        class Pin:
            OUT = 1
            IN = 0

            def __init__(self, n, mode=0, value=None):
                self.n = n
                self.fake = FakePin(f"GP{n}", machine.wiring.get(n), value=bool(value))
                machine.pins[n] = self

            def value(self, v=None):
                if v is None:
                    return int(self.fake.value)
                self.fake.value = v

        self.Pin = Pin
