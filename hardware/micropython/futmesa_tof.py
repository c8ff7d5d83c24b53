"""On-board goal-line VL53L0X sensors through Adafruit's unmodified `adafruit_vl53l0x` driver.

Runs on the board (MicroPython, copied there by `futmesa flash` together with
`adafruit_vl53l0x` and `adafruit_bus_device`; the firmware's board layer,
firmware/boards/__init__.py, imports it for ToF goal lines) and in the test
suite (the MicroPython unix VM and CPython, on the fake bus of
futmesa.hardware.fakei2c).

- `BusioI2C` gives a `machine.I2C` the few `busio.I2C` methods Adafruit's
  drivers call (try_lock, unlock, writeto / readfrom_into with start/end).
  The start/end views of a buffer are made once and kept, so the driver's
  steady-state reads allocate nothing (docs/firmware.md, "Memory").
- The driver times out with CircuitPython's `time.monotonic()`, which
  MicroPython lacks: `start_all` hands the driver module a clock that has it.
  That clock counts integer milliseconds (no float per reading, and it keeps
  counting across the `ticks_ms` wrap), so the driver's `io_timeout_s` is given
  in ms.
- `start_all(i2c, machine, cfg, goals, log)` gives every VL53L0X of the board
  file its address through the XSHUT pins (all off; then one at a time on at
  0x29 and moved to its `address`), starts continuous ranging, and returns one
  reader per goal id (None where a sensor did not start). A reader's `read()`
  is the newest distance in mm, NO_SAMPLE (-2) when no new measurement is
  ready, NO_ANSWER (-1) when the sensor does not answer: the board interface
  of firmware/boards (`read_tof`). It never waits: the driver's (blocking)
  `range` is read only once `data_ready` says a measurement is there.
"""

import time

NO_SAMPLE = -2
NO_ANSWER = -1
DEFAULT_ADDRESS = 0x29
_CACHED_BUFFERS = 8  # one per sensor's register buffer, plus room for start-up's


if hasattr(time, "ticks_ms"):  # MicroPython
    _mono = [time.ticks_ms(), 0]  # last ticks_ms seen, ms counted so far

    def _elapsed_ms():
        now = time.ticks_ms()
        _mono[1] += time.ticks_diff(now, _mono[0])  # small ints: nothing allocated
        _mono[0] = now
        return _mono[1]

    def _rebase():
        """Restart the count at 0: called between driver calls, so no wait spans it, and the
        count stays a small int on a 32-bit board however long the uptime (docs/firmware.md)."""
        _mono[0] = time.ticks_ms()
        _mono[1] = 0

    def _sleep_ms(ms):
        time.sleep_ms(ms)

else:  # CPython (tests)

    def _elapsed_ms():
        return int(time.monotonic() * 1000)

    def _sleep_ms(ms):
        time.sleep(ms / 1000)

    def _rebase():
        pass


class _Clock:
    """The `time` the Adafruit driver sees: a monotonic() in integer ms on any port."""

    @staticmethod
    def monotonic():
        return _elapsed_ms()


class BusioI2C:
    """`busio.I2C` methods on top of a `machine.I2C`."""

    def __init__(self, i2c):
        self._i2c = i2c
        self._locked = False
        self._bufs = []  # buffers the driver sliced lately ...
        self._views = []  # ... and, for each, {start << 16 | end: memoryview}

    def _view(self, buffer, start, end):
        """buffer[start:end] without a copy, made once per buffer and range."""
        if start == 0 and end == len(buffer):
            return buffer
        bufs = self._bufs
        for i in range(len(bufs)):
            if bufs[i] is buffer:
                views = self._views[i]
                break
        else:
            if len(bufs) >= _CACHED_BUFFERS:  # start-up's one-off buffers go first
                bufs.pop(0)
                self._views.pop(0)
            views = {}
            bufs.append(buffer)
            self._views.append(views)
        key = (start << 16) | end
        v = views.get(key)
        if v is None:
            v = views[key] = memoryview(buffer)[start:end]
        return v

    def try_lock(self):
        if self._locked:
            return False
        self._locked = True
        return True

    def unlock(self):
        self._locked = False

    def scan(self):
        return self._i2c.scan()

    def writeto(self, address, buffer, *, start=0, end=None):
        if end is None:
            end = len(buffer)
        self._i2c.writeto(address, self._view(buffer, start, end))

    def readfrom_into(self, address, buffer, *, start=0, end=None):
        if end is None:
            end = len(buffer)
        self._i2c.readfrom_into(address, self._view(buffer, start, end))

    def writeto_then_readfrom(
        self, address, out_buffer, in_buffer, *, out_start=0, out_end=None, in_start=0, in_end=None
    ):
        self.writeto(address, out_buffer, start=out_start, end=out_end)
        self.readfrom_into(address, in_buffer, start=in_start, end=in_end)


class GoalTof:
    """One started sensor: non-blocking reads for the firmware's loop."""

    def __init__(self, sensor):
        self.sensor = sensor

    def read(self):
        _rebase()  # the driver's timeouts only ever span one read: count from 0 again
        try:
            if not self.sensor.data_ready:
                return NO_SAMPLE
            return self.sensor.range
        except (OSError, RuntimeError):
            return NO_ANSWER


def start_all(i2c, machine, cfg, goals, log=None):
    import adafruit_vl53l0x

    adafruit_vl53l0x.time = _Clock  # the driver's timeouts call time.monotonic(): ms here
    bus = BusioI2C(i2c)
    tof = cfg.get("tof", {})
    budget = int(tof.get("timing_budget_us", 33000))
    boot_ms = int(tof.get("boot_delay_ms", 10))
    timeout_ms = int(tof.get("io_timeout_ms", 500))
    mine = [g for g in goals if g.get("type") == "vl53l0x"]
    pins = {}
    for g in mine:
        pins[int(g["id"])] = machine.Pin(int(g["xshut"]), machine.Pin.OUT, value=0)
    _sleep_ms(10)
    readers = [None] * (1 + max([int(g["id"]) for g in goals] or [0]))
    for g in sorted(mine, key=lambda g: int(g["id"])):
        gid = int(g["id"])
        pin = pins[gid]
        pin.value(1)
        _sleep_ms(boot_ms)
        try:
            # io_timeout_s in ms: the driver compares it with _Clock's ms
            s = adafruit_vl53l0x.VL53L0X(bus, DEFAULT_ADDRESS, io_timeout_s=timeout_ms)
            s.set_address(int(g["address"], 16))
            s.measurement_timing_budget = budget
            s.start_continuous()
        except (OSError, RuntimeError, ValueError) as exc:
            pin.value(0)  # off again, so it cannot sit on 0x29 when the next one starts
            if log:
                log("goal sensor %d did not start: %s" % (gid, exc))
            continue
        readers[gid] = GoalTof(s)
    return readers
