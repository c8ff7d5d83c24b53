"""A `machine` stand-in for running the real-board layer (boards.MachineBoard) on the unix port.

Pins hold levels a test sets (`level()`), fire their IRQ handler on the edges
they were armed for, and power a fake VL53L0X when wired to its XSHUT line;
PWM, WDT and UART record what the firmware did. The I2C bus is fakei2c's
register-level fake.
"""

from fakei2c import FakeI2C, FakeMachineI2C


class FakeMachineModule:
    def __init__(self, wiring=None, bus=None):
        m = self
        self.pins = {}
        self.wiring = dict(wiring or {})
        self.bus = bus or FakeI2C()
        self.pwms = []
        self.wdts = []
        self.uarts = []
        self.timers = []
        self.resets = 0  # machine.reset() calls (a real board would reboot there)
        self.uid = b"\xe6\x61\x41\x04\x03\x2b\x5c\x2e"  # an RP2040 flash id (8 bytes)

        class Pin:
            IN = 0
            OUT = 1
            PULL_UP = 1
            IRQ_RISING = 1
            IRQ_FALLING = 2

            def __init__(self, n, mode=0, pull=None, value=None):
                self.n = n
                self.mode = mode
                self.pull = pull
                self._v = 1 if pull == Pin.PULL_UP else 0
                self.handler = None
                self.trigger = 0
                self.sensor = m.wiring.get(n)
                m.pins[n] = self
                if value is not None:
                    self.value(value)

            def value(self, v=None):
                if v is None:
                    return self._v
                self._v = 1 if v else 0
                if self.sensor is not None:
                    self.sensor.power(bool(self._v))

            def level(self, v):
                """Drive an input from outside (tests), firing an armed IRQ on its edge."""
                old = self._v
                self._v = 1 if v else 0
                if self.handler is not None:
                    if (old == 0 and self._v == 1 and self.trigger & Pin.IRQ_RISING) or (
                            old == 1 and self._v == 0 and self.trigger & Pin.IRQ_FALLING):
                        self.handler(self)

            def irq(self, handler=None, trigger=3, hard=False):
                self.handler = handler
                self.trigger = trigger

        class PWM:
            def __init__(self, pin):
                self.pin = pin
                self.f = 0
                self.duty = 0
                m.pwms.append(self)

            def freq(self, f=None):
                if f is not None:
                    self.f = f
                return self.f

            def duty_u16(self, d=None):
                if d is not None:
                    self.duty = d
                return self.duty

        class WDT:
            def __init__(self, id=0, timeout=5000):
                self.timeout = timeout
                self.feeds = 0
                m.wdts.append(self)

            def feed(self):
                self.feeds += 1

        class UART:
            def __init__(self, id, baudrate=115200, tx=None, rx=None):
                self.rx = bytearray()
                self._tx = bytearray(64 * 1024)
                self._tx_len = 0
                m.uarts.append(self)

            def any(self):
                return len(self.rx)

            def readinto(self, buf):
                n = min(len(buf), len(self.rx))
                for i in range(n):
                    buf[i] = self.rx[i]
                self.rx = self.rx[n:]
                return n

            def write(self, buf, n=-1):  # a stream write: (buf[, max_len]) as on the board
                # like the board's UART, it allocates nothing (the loop runs under heap_lock
                # in the tests): bytes go into preallocated room, byte by byte
                n = len(buf) if n < 0 else min(n, len(buf))
                room = len(self._tx) - self._tx_len
                if n > room:
                    n = room  # a full FIFO takes fewer bytes, as a real one does
                for i in range(n):
                    self._tx[self._tx_len + i] = buf[i]
                self._tx_len += n
                return n

            @property
            def tx(self):
                """What the firmware wrote so far (read outside the measured loop)."""
                return bytes(self._tx[:self._tx_len])

        def I2C(id, sda=None, scl=None, freq=400000):
            return FakeMachineI2C(m.bus)

        class Timer:
            """A periodic timer: the test calls `fire()` for each period that passes."""

            def __init__(self, id=-1, mode=1, period=-1, callback=None):
                self.period = period
                self.callback = callback
                m.timers.append(self)

            def fire(self):
                self.callback(self)

        self.Pin = Pin
        self.PWM = PWM
        self.WDT = WDT
        self.UART = UART
        self.I2C = I2C
        self.Timer = Timer

    def unique_id(self):
        return self.uid

    def reset(self):
        self.resets += 1
