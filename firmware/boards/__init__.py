"""Board layer: picks the board module by name; nothing else in the firmware touches hardware.

Every board object offers the same small interface (docs/firmware.md, "Board
interface"): ticks, the data channel, raw input reads, the buzzer, the
watchdog. Pins come from the board file (hardware/boards/<name>.json, copied
to flash as board.json), never from the logic. This module also holds what
the real boards share (MachineBoard, on top of `machine`) and the parsing of
the board file.
"""

import time

from micropython import const


NO_SAMPLE = const(-2)  # read_tof: no new measurement since the last read
NO_ANSWER = const(-1)  # read_tof: the sensor did not answer on the bus

# Used when no board file can be read (the zones of hardware/boards/sim.json).
DEFAULT_ZONES = ((1, 0), (0, 0), (0, 0), (1, 1), (0, 1), (0, 1))


def load(name, args):
    """Return a board object for `name` ("sim", "pico", "esp32", "bench", "rpi")."""
    if name == "sim":
        from boards.sim import SimBoard

        return SimBoard(args)
    if name == "pico":
        from boards.pico import PicoBoard

        return PicoBoard(args)
    if name == "esp32":
        from boards.esp32 import Esp32Board

        return Esp32Board(args)
    if name == "bench":
        from boards.bench import BenchBoard

        return BenchBoard(args)
    if name in ("rpi", "linux"):  # CPython on a Linux board (futmesa.sbc.device)
        from boards.linux import LinuxBoard

        return LinuxBoard(args, args.get("machine"))
    raise ValueError("unknown board %r: use sim, pico, esp32 or rpi" % name)


def read_board_file(path):
    """The board file as a dict, or None when it is missing or not JSON."""
    try:
        import json

        with open(path) as f:
            cfg = json.load(f)
    except (OSError, ValueError):
        return None
    return cfg if isinstance(cfg, dict) else None


def zones_from(cfg):
    """(line, end) per side-net zone, line 0 = side line / 1 = end line, in zone order."""
    if not cfg or "side_net" not in cfg:
        return DEFAULT_ZONES
    zones = []
    for z in sorted(cfg["side_net"], key=lambda z: int(z["zone"])):
        zones.append((1 if z["line"] == "end" else 0, int(z["end"])))
    return tuple(zones)


def goal_kinds_from(cfg, override=None):
    """"beam" or "tof" per goal line; `override` (e.g. --goal-sensor) wins over the file."""
    if override == "mixed":
        return ("beam", "tof")  # tests and the benchmark: one filter of each kind
    if override:
        kind = "tof" if override in ("tof", "vl53l0x") else "beam"
        return (kind, kind)
    kinds = ["beam", "beam"]
    if cfg:
        for g in cfg.get("goal_sensors", ()):
            kinds[int(g["id"])] = "tof" if g.get("type") == "vl53l0x" else "beam"
    return tuple(kinds)


def goal_params_from(cfg, i):
    """(threshold_mm, hysteresis_mm) of goal line i's ToF sensor (board file, or defaults)."""
    if cfg:
        for g in cfg.get("goal_sensors", ()):
            if int(g["id"]) == i:
                return int(g.get("threshold_mm", 100)), int(g.get("hysteresis_mm", 8))
    return 100, 8


class MachineBoard:
    """What pico and esp32 share: pins from the board file through `machine`.

    The data channel is the USB serial (sys.stdin.buffer / sys.stdout.buffer,
    polled without blocking) or a machine.UART. Break-beam pins latch their
    blocking edge in a hard IRQ, so a beam broken for less than one loop pass
    (e.g. while a flash write stalls the loop) is still seen.
    """

    name = "machine"
    tick_bits = 30  # MicroPython's ticks_ms period on these ports is 2**30
    tick_rate = 1000
    state_dir = "/state"
    board_file = "board.json"
    wdt_ms = 4000

    def __init__(self, args, machine=None):
        if machine is None:  # tests pass a stand-in
            import machine
        self.machine = machine
        cfg = args.get("board_cfg")  # main.py: already read (or the image's default)
        if cfg is None:
            cfg = read_board_file(args.get("board_file", self.board_file))
        if cfg is None:
            raise OSError("board file %s missing or unreadable: flash it with `futmesa flash`"
                          % self.board_file)
        self.config = cfg
        self.state_dir = args.get("state", self.state_dir)
        # to_repl left this flag and reset the board: boot straight into the REPL, with
        # Ctrl-C working and no watchdog, so mpremote can copy the new firmware
        self.repl_boot = _take_flag(self.state_dir + "/" + REPL_FLAG)
        if cfg.get("data_channel", {}).get("type") != "uart" and not self.repl_boot:
            # the data channel is the REPL's USB port: from here on a host's bytes (a HELLO
            # holds 0x03) must not interrupt the start-up, which waits for the ToF sensors
            import micropython

            micropython.kbd_intr(-1)
        pull_up = cfg.get("input_pull") == "up"
        external = cfg.get("external_pullups", ())  # e.g. ESP32 GPIO 34-39: no internal pull
        self._active = int(cfg.get("input_active", 0))
        self.kinds = goal_kinds_from(cfg, args.get("goal_sensor"))
        self._zones = zones_from(cfg)

        def inp(n):
            if pull_up and int(n) not in external:
                return machine.Pin(int(n), machine.Pin.IN, machine.Pin.PULL_UP)
            return machine.Pin(int(n), machine.Pin.IN)

        self._net = [inp(z["pin"]) for z in sorted(cfg["side_net"], key=lambda z: z["zone"])]
        pal = cfg["palheta"]
        self._pal_a = inp(pal["pin_a"])
        self._pal_b = inp(pal["pin_b"])
        self._buttons = [None, None, None]
        for i, key in enumerate(("turnA", "turnB", "referee")):
            if key in cfg.get("buttons", {}):
                self._buttons[i] = inp(cfg["buttons"][key])
        # goal lines
        self._beam = [None, None]
        self._beam_level = [1, 1]
        self._beam_latch = bytearray(2)
        self._tof = [None, None]
        goals = sorted(cfg["goal_sensors"], key=lambda g: g["id"])
        self._goal_cfg = goals
        for g in goals:
            i = int(g["id"])
            if self.kinds[i] == "beam":
                self._beam[i] = inp(g["beam_pin"])
                self._beam_level[i] = int(g.get("beam_blocked", 1))
                self._arm_beam_irq(i)
        if "tof" in self.kinds:
            self._start_tof(cfg, goals)
        # outputs
        bz = cfg["buzzer"]
        self._pwm = machine.PWM(machine.Pin(int(bz["pin"])))
        self._pwm.duty_u16(0)
        self.buzzer_freq = int(bz.get("freq", 2700))
        led = cfg.get("led")
        self._led = machine.Pin(int(led["pin"]), machine.Pin.OUT) if led else None
        self._wdt = None
        self._open_channel(cfg.get("data_channel", {}))
        if not args.get("no_watchdog") and not self.repl_boot:
            self._wdt = machine.WDT(timeout=self.wdt_ms)

    # -- time ------------------------------------------------------------------
    def ticks_ms(self):
        return time.ticks_ms()

    def real_ms(self):
        return time.ticks_ms()

    def idle(self):
        pass  # the loop is the only task: spin, keeping input latency to one pass

    def unique_id(self):
        uid = self.machine.unique_id()
        return bytes(uid[:8]) + bytes(8 - min(8, len(uid)))

    # -- data channel ----------------------------------------------------------
    def _open_channel(self, dc):
        import sys

        self._uart = None
        if dc.get("type") == "uart":
            self._uart = self.machine.UART(int(dc["uart_id"]), int(dc.get("baud", 115200)),
                                           tx=self.machine.Pin(int(dc["tx"])),
                                           rx=self.machine.Pin(int(dc["rx"])))
            self._in = self._uart
            self._out = self._uart
        else:
            # the data channel is the REPL's USB port: Ctrl-C must be a data byte
            import micropython
            import select

            if not self.repl_boot:
                micropython.kbd_intr(-1)
            self._in = sys.stdin.buffer
            self._out = sys.stdout.buffer
            self._poll = select.poll()
            self._poll.register(sys.stdin, select.POLLIN)
            self._pollres = None

    def port_ready(self):
        return True

    def port_readinto(self, buf):
        if self._uart is not None:
            if not self._uart.any():
                return 0
            return self._uart.readinto(buf) or 0
        # ipoll returns the poll object itself as the iterator of ready streams, which is
        # always true: only iterating it says whether stdin has a byte. (Testing its truth
        # made every pass block in readinto until the host sent something: the loop
        # stopped after the handshake and the watchdog reset the board.) Iterating reuses
        # its result tuple: no allocation when idle.
        for _ready in self._poll.ipoll(0):
            return self._in.readinto(buf, 1) or 0  # one byte: more could block on USB
        return 0

    def port_write(self, buf, n=-1):
        if n < 0:
            n = len(buf)
        # stream.write(buf, max_len): no memoryview slice, so nothing is allocated
        return self._out.write(buf, n) or 0

    # -- inputs ----------------------------------------------------------------
    def goal_kinds(self):
        return self.kinds

    def goal_params(self, i):
        return goal_params_from(self.config, i)

    def _arm_beam_irq(self, i):
        pin = self._beam[i]
        latch = self._beam_latch
        trigger = self.machine.Pin.IRQ_RISING if self._beam_level[i] else self.machine.Pin.IRQ_FALLING

        def _edge(_pin, i=i):
            latch[i] = 1

        pin.irq(_edge, trigger, hard=True)

    def read_beam(self, i):
        blocked = 1 if self._beam[i].value() == self._beam_level[i] else 0
        if self._beam_latch[i]:
            self._beam_latch[i] = 0
            return 1
        return blocked

    def _start_tof(self, cfg, goals):
        # Adafruit's VL53L0X driver (adafruit_vl53l0x + adafruit_bus_device) through
        # futmesa_tof (hardware/micropython/), which `futmesa flash` copies next to the firmware
        from futmesa_tof import start_all  # type: ignore[import-not-found]

        m = self.machine
        bus = cfg["i2c"]
        self._i2c = m.I2C(int(bus["id"]), sda=m.Pin(int(bus["sda"])), scl=m.Pin(int(bus["scl"])),
                          freq=int(bus.get("freq", 400000)))
        mine = [g for g in goals if self.kinds[int(g["id"])] == "tof"]
        readers = start_all(self._i2c, m, cfg, mine, self.log)
        self._tof = [readers[i] if i < len(readers) else None for i in (0, 1)]

    def read_tof(self, i):
        """mm, NO_SAMPLE or NO_ANSWER; reads the distance only once the sensor has one ready."""
        s = self._tof[i]
        if s is None:
            return NO_ANSWER
        return s.read()

    def net_zones(self):
        return self._zones

    def read_net(self, zone):
        return 1 if self._net[zone].value() == self._active else 0

    def read_palheta(self):
        a = self._pal_a.value() == self._active
        b = self._pal_b.value() == self._active
        if a and not b:
            return 0
        if b and not a:
            return 2
        return 1 if not a else 3  # 3: both contacts closed, a wiring fault

    def read_button(self, i):
        pin = self._buttons[i]
        if pin is None:
            return 0
        return 1 if pin.value() == self._active else 0

    # -- outputs ---------------------------------------------------------------
    def buzzer(self, freq, duty):
        if freq:
            self._pwm.freq(freq)
        self._pwm.duty_u16(duty)

    def log(self, text):
        pass  # stdout is the data channel on USB boards: nothing else may be written there

    def feed_watchdog(self):
        """Called by App.step only at the end of a pass in which the loop and the link ran."""
        if self._wdt is not None:
            self._wdt.feed()

    def service(self):
        pass

    def to_repl(self, store):
        """The host asked for the REPL (CMD_REPL, `futmesa flash`): give the USB port back.

        Ctrl-C works again at once. A running watchdog cannot be stopped on rp2 or
        esp32, so the board then resets into a REPL-only boot (a flag file on flash,
        taken at the next boot) instead of returning while the watchdog counts down.
        """
        import micropython

        micropython.kbd_intr(3)
        self.buzzer(0, 0)
        if self._wdt is not None:
            store.write(REPL_FLAG, b"1")
            time.sleep_ms(200)  # let USB deliver the acknowledgement before the reset
            self.machine.reset()


REPL_FLAG = "repl.flag"


def _take_flag(path):
    """True if the file at path existed (it is removed: the flag holds for one boot)."""
    import os

    try:
        os.remove(path)
    except OSError:
        return False
    return True
