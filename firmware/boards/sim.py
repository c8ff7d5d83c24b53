"""Simulated board for the unix port: inputs driven from stdin, buzzer observed on stdout.

The data channel is a pty (normally one end of a socat pair) opened raw and
non-blocking (VMIN=0, VTIME=0). Time runs `speed` times faster than real
time, through the same ticks arithmetic the real boards use, and can start
near the tick wrap point (`tick_start`) to exercise wraparound.
See docs/architecture.md for the control lines.
"""

import select
import sys
import time

from micropython import const

from boards import goal_kinds_from, goal_params_from, read_board_file, zones_from
from boards.ptyport import PtyPort

_PULSE_MS = const(40)  # a sim goal/out pulse lasts at least this (device ms) ...
_PULSE_READS = const(4)  # ... and blocked for at least 3 reads, whatever the speed (ToF: N samples)
_PARTS = __file__.rsplit("/", 2)
_FIRMWARE_DIR = _PARTS[0] if len(_PARTS) == 3 else "."
BOARD_FILE = _FIRMWARE_DIR + "/../hardware/boards/sim.json"
_STDIN_POLL_MS = const(5)  # real ms between looks at the control channel


class SimBoard:
    name = "sim"

    def __init__(self, args):
        self.port_path = args.get("port")
        self.state_dir = args.get("state", "/tmp/futmesa-sim")
        self.speed = int(args.get("speed", "1"))
        self.exit_on_eof = args.get("exit_on_eof", "0") == "1"  # set by host/futmesa/sim/table.py
        self.uid = bytes(args.get("uid", "SIM00001").encode()[:8])
        self.tick_rate = self.speed * 1000  # device ms per 1000 real ms
        self.tick_bits = 32  # unix-port ticks wrap at 2**62; frames carry them mod 2**32
        # Time: ticks = tick_start + speed * real elapsed, wrapping like ticks_ms.
        self._t0_us = time.ticks_us()
        # ticks made from an int: the sim board is its own (scaled) time source
        self._tick_start = time.ticks_add(0, int(args.get("tick_start", "0")))  # type: ignore[type-var]
        # Inputs
        self.beams = [0, 0]
        self._beam_until = [0, 0]
        self._beam_reads = [0, 0]
        self._beam_pulse = [False, False]
        self.tof_mm = [120, 120]
        self._tof_pulse_mm = [0, 0]  # `tof N MM MS`: a reading held for a while (0: none)
        self._tof_pulse_reads = [0, 0]
        self._tof_pulse_until = [0, 0]
        self.tof_dead = [False, False]
        self.nets = [0] * 6
        self._net_until = [0] * 6
        self._net_reads = [0] * 6
        self._net_pulse = [False] * 6
        self.palheta = 1
        self.buttons = [0, 0, 0]
        self._button_reads = [0, 0, 0]
        self._button_until = [0, 0, 0]
        self.config = read_board_file(args.get("board_file", BOARD_FILE))
        self.goal_sensor_type = args.get("goal_sensor", "beam")
        # At speed N one loop pass spans N times more device time, so a pulse of a few
        # passes can look like a line blocked for seconds: stretch the stuck limit.
        self.tuning = {"stuck_ms": max(4000, self.speed * 40)}
        self.kinds = goal_kinds_from(self.config, self.goal_sensor_type)
        self._zones = zones_from(self.config)
        self.nets = [0] * len(self._zones)
        self._net_until = [0] * len(self._zones)
        self._net_reads = [0] * len(self._zones)
        self._net_pulse = [False] * len(self._zones)
        # Buzzer
        self._buz = (0, 0)
        # Control channel
        self._poll = select.poll()
        self._poll.register(sys.stdin, select.POLLIN)
        self._stdin_open = True
        self._stdin_last = time.ticks_ms()
        # Data channel
        self.port = PtyPort(self.port_path)

    # -- time ------------------------------------------------------------------
    def ticks_ms(self):
        elapsed_us = time.ticks_diff(time.ticks_us(), self._t0_us)
        return time.ticks_add(self._tick_start, (elapsed_us * self.speed) // 1000)  # type: ignore[type-var]

    def real_ms(self):
        return time.ticks_ms()

    def idle(self):
        time.sleep_us(200)

    def unique_id(self):
        return self.uid

    # -- data channel ----------------------------------------------------------
    def port_ready(self):
        return self.port.ready()

    def port_readinto(self, buf):
        return self.port.readinto(buf)

    def port_write(self, buf, n=-1):
        return self.port.write(buf, n)

    # -- inputs ----------------------------------------------------------------
    def read_beam(self, i):
        """1 when goal line i's beam is blocked."""
        if self._beam_pulse[i]:
            self._beam_reads[i] += 1
            if (self._beam_reads[i] >= _PULSE_READS
                    and time.ticks_diff(self.ticks_ms(), self._beam_until[i]) >= 0):
                self._beam_pulse[i] = False
                self.beams[i] = 0
        return self.beams[i]

    def read_tof(self, i):
        """Distance in mm from ToF sensor i, or -1 when it does not answer."""
        if self.tof_dead[i]:
            return -1
        if self.read_beam(i):
            return 20
        mm = self._tof_pulse_mm[i]
        if mm:
            self._tof_pulse_reads[i] += 1
            if (self._tof_pulse_reads[i] >= _PULSE_READS
                    and time.ticks_diff(self.ticks_ms(), self._tof_pulse_until[i]) >= 0):
                self._tof_pulse_mm[i] = 0
            return mm
        return self.tof_mm[i]

    def read_net(self, zone):
        if self._net_pulse[zone]:
            self._net_reads[zone] += 1
            if (self._net_reads[zone] >= _PULSE_READS
                    and time.ticks_diff(self.ticks_ms(), self._net_until[zone]) >= 0):
                self._net_pulse[zone] = False
                self.nets[zone] = 0
        return self.nets[zone]

    def read_palheta(self):
        """0 towards A, 1 centre, 2 towards B."""
        return self.palheta

    def read_button(self, i):
        if self.buttons[i]:
            self._button_reads[i] += 1
            if (self._button_reads[i] >= _PULSE_READS * 2
                    and time.ticks_diff(self.ticks_ms(), self._button_until[i]) >= 0):
                self.buttons[i] = 0
            return 1
        return 0

    def net_zones(self):
        """(line, end) of each side-net zone (0 side / 1 end line, end 0|1), from sim.json."""
        return self._zones

    def goal_kinds(self):
        return self.kinds

    def goal_params(self, i):
        return goal_params_from(self.config, i)

    # -- outputs ---------------------------------------------------------------
    def buzzer(self, freq, duty):
        if (freq, duty) != self._buz:
            self._buz = (freq, duty)
            print("BUZ", freq, duty, self.ticks_ms())  # the device ms it changed at

    def log(self, text):
        print("LOG", text)

    def feed_watchdog(self):
        pass

    def to_repl(self, store):
        """CMD_REPL: a real board returns to its REPL; the sim process ends cleanly."""
        self.buzzer(0, 0)
        self.log("leaving the loop for the REPL (host request): the simulated board exits")
        self.port.drop()
        sys.exit(0)

    # -- control channel (stdin) -----------------------------------------------
    def service(self):
        """Apply pending control lines; called by the loop, cheap when idle."""
        if not self._stdin_open:
            return
        now = time.ticks_ms()
        if time.ticks_diff(now, self._stdin_last) < _STDIN_POLL_MS:
            return
        self._stdin_last = now
        while self._poll.poll(0):
            line = sys.stdin.readline()
            if not line:
                self._stdin_open = False
                if self.exit_on_eof:
                    # the process driving this simulated table is gone: so is the table
                    self.log("control channel closed: the simulated table stops")
                    raise SystemExit(0)
                return
            self._command(line.split())

    def _command(self, words):
        if not words:
            return
        cmd = words[0]
        try:
            if cmd == "goal":
                self._pulse_beam(int(words[1]))
            elif cmd == "beam":
                i = int(words[1])
                self._beam_pulse[i] = False
                self.beams[i] = int(words[2])
            elif cmd == "tof":
                i = int(words[1])
                if len(words) > 3:  # held for MS device ms and as many reads as a pulse
                    self._tof_pulse_mm[i] = int(words[2])
                    self._tof_pulse_reads[i] = 0
                    self._tof_pulse_until[i] = time.ticks_add(self.ticks_ms(), int(words[3]))
                else:
                    self._tof_pulse_mm[i] = 0
                    self.tof_mm[i] = int(words[2])
            elif cmd == "i2c":
                self.tof_dead[int(words[1])] = words[2] == "dead"
            elif cmd == "out":
                z = int(words[1])
                self.nets[z] = 1
                self._net_pulse[z] = True
                self._net_reads[z] = 0
                self._net_until[z] = time.ticks_add(self.ticks_ms(), _PULSE_MS)
            elif cmd == "net":
                z = int(words[1])
                self._net_pulse[z] = False
                self.nets[z] = int(words[2])
            elif cmd == "sync":  # every earlier control line has been applied
                print("SYNC", words[1])
            elif cmd == "palheta":
                self.palheta = {"A": 0, "C": 1, "B": 2}[words[1]]
            elif cmd == "button":
                i = {"turnA": 0, "turnB": 1, "referee": 2}[words[1]]
                self.buttons[i] = 1
                self._button_reads[i] = 0
                self._button_until[i] = time.ticks_add(self.ticks_ms(), 3 * _PULSE_MS)
            elif cmd == "unplug":
                self.port.unplug()
            elif cmd == "replug":
                self.port.replug()
            elif cmd == "ping":
                print("PONG")
            else:
                self.log("unknown sim command: " + " ".join(words))
        except (IndexError, ValueError, KeyError):
            self.log("bad sim command: " + " ".join(words))

    def _pulse_beam(self, i):
        self.beams[i] = 1
        self._beam_pulse[i] = True
        self._beam_reads[i] = 0
        self._beam_until[i] = time.ticks_add(self.ticks_ms(), _PULSE_MS)
