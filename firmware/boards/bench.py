"""A scripted board for tests and the benchmark: inputs set in-process, ticks set by the caller.

Nothing here touches stdin, a pty or the clock of the machine, so a loop on
this board can run under micropython.heap_lock(). Ticks are whatever the test
says (`t`, or `step_ms` added on every pass), so a test can put them just
before the wrap point. The data channel is two preallocated buffers: bytes
the "host" queued with feed() are read by the link, and written frames are
counted (and kept in `tx` when `capture` is on).
"""

import time

from boards import DEFAULT_ZONES, NO_ANSWER, goal_kinds_from, goal_params_from, zones_from


class BenchBoard:
    name = "bench"
    tick_rate = 1000
    # ticks wrap like the port's ticks_ms: at 2**30 on a 32-bit port (rp2, esp32), where a
    # 32-bit mask would be a boxed int; frames carry the unix port's mod 2**32
    tick_bits = 30 if time.ticks_add(0, -1) <= 0x3FFFFFFF else 32  # type: ignore[type-var]

    def __init__(self, args=None, cfg=None):
        args = args or {}
        self.config = cfg
        self.state_dir = args.get("state", "/tmp/futmesa-bench")
        self.uid = b"BENCH001"
        # ticks made from an int: this board is its own time source
        self.t = time.ticks_add(0, int(args.get("tick_start", "0")))  # type: ignore[type-var]
        self.step_ms = int(args.get("step_ms", "0"))
        self.kinds = goal_kinds_from(cfg, args.get("goal_sensor", "beam"))
        self._zones = zones_from(cfg) if cfg else DEFAULT_ZONES
        # inputs
        self.beams = bytearray(2)
        self.tof_mm = [120, 120]
        self.tof_dead = bytearray(2)
        self.nets = bytearray(len(self._zones))
        self.palheta = 1
        self.buttons = bytearray(3)
        self.tof_reads = [0, 0]
        # outputs
        self.buz_freq = 0
        self.buz_duty = 0
        self.buz_changes = 0
        self.feeds = 0
        self.logs = []
        # data channel
        self.connected = True
        self._rx = bytearray(4096)
        self._rx_len = 0
        self._rx_pos = 0
        self.capture = bool(args.get("capture", False))
        self.tx = bytearray(int(args.get("tx_size", "65536")) if self.capture else 1)
        self.tx_len = 0
        self.tx_bytes = 0
        self.writes = 0

    # -- time ------------------------------------------------------------------
    def ticks_ms(self):
        return self.t

    def real_ms(self):
        return self.t

    def advance(self, ms):
        self.t = time.ticks_add(self.t, ms)  # type: ignore[type-var]

    def idle(self):
        pass

    def unique_id(self):
        return self.uid

    def service(self):
        if self.step_ms:
            self.t = time.ticks_add(self.t, self.step_ms)  # type: ignore[type-var]

    # -- data channel ----------------------------------------------------------
    def feed(self, data):
        """Queue bytes from the host (allocates only when called outside the loop)."""
        if self._rx_pos == self._rx_len:
            self._rx_pos = self._rx_len = 0
        for b in data:
            self._rx[self._rx_len] = b
            self._rx_len += 1

    def port_ready(self):
        return self.connected

    def port_readinto(self, buf):
        n = 0
        size = len(buf)
        while self._rx_pos < self._rx_len and n < size:
            buf[n] = self._rx[self._rx_pos]
            self._rx_pos += 1
            n += 1
        return n

    def port_write(self, buf, n=-1):
        if n < 0:
            n = len(buf)
        self.writes += 1
        self.tx_bytes += n
        if self.capture:
            tx = self.tx
            pos = self.tx_len
            for i in range(n):
                tx[pos + i] = buf[i]
            self.tx_len = pos + n
        return n

    def take_tx(self):
        """The captured bytes so far (allocates; for tests), emptying the capture."""
        data = bytes(self.tx[:self.tx_len])
        self.tx_len = 0
        return data

    # -- inputs ----------------------------------------------------------------
    def goal_kinds(self):
        return self.kinds

    def goal_params(self, i):
        return goal_params_from(self.config, i)

    def read_beam(self, i):
        return self.beams[i]

    def read_tof(self, i):
        self.tof_reads[i] += 1
        if self.tof_dead[i]:
            return NO_ANSWER
        return self.tof_mm[i]

    def net_zones(self):
        return self._zones

    def read_net(self, zone):
        return self.nets[zone]

    def read_palheta(self):
        return self.palheta

    def read_button(self, i):
        return self.buttons[i]

    # -- outputs ---------------------------------------------------------------
    def buzzer(self, freq, duty):
        if freq != self.buz_freq or duty != self.buz_duty:
            self.buz_freq = freq
            self.buz_duty = duty
            self.buz_changes += 1

    def log(self, text):
        self.logs.append(text)

    def feed_watchdog(self):
        self.feeds += 1

    # -- a scripted match, every sensor busy -------------------------------------
    def scenario(self, i):
        """Set the inputs for pass i (1 ms per pass): goals on both lines, balls out on
        every zone, palheta moves, button presses, ToF noise. Allocates nothing."""
        phase = i % 2000
        self.beams[0] = 1 if 100 <= phase < 140 else 0
        if 1100 <= phase < 1140:
            self.tof_mm[1] = 30 + i % 5
        else:
            self.tof_mm[1] = 118 + i % 5
        zone_phase = i % 700
        zone = (i // 700) % len(self.nets)
        self.nets[zone] = 1 if zone_phase < 3 else 0
        pal = i % 6000
        self.palheta = 0 if 300 <= pal < 2000 else (2 if 3300 <= pal < 5000 else 1)
        self.buttons[(i // 2500) % 3] = 1 if 500 <= i % 2500 < 560 else 0
