"""The table's inputs: goal lines, side-net zones, the palheta divisória and buttons.

Each filter turns raw readings into exactly one event per physical
occurrence, and allocates nothing while doing it:

- a goal line (break-beam or VL53L0X time-of-flight) counts a goal when it
  has been blocked for at least `min_blocked_ms` and then clears (the ball
  went through); blocks that start within `refractory_ms` of a goal are the
  same ball rattling in the net. A line blocked longer than `stuck_ms` is a
  sensor fault and never a goal; so is a ToF sensor that stops answering on
  I2C, reads out of range, or whose empty-goal baseline drifts.
- a beam is an edge with debounce: the block starts on the first blocked
  read and ends only after `beam_debounce_ms` of clear reads;
- a ToF sensor needs `tof_samples` consecutive samples below the threshold
  to be blocked, and as many above threshold + hysteresis to be clear;
- a side-net zone fires on its first active read, then is quiet for
  `net_refractory_ms` and until it has been inactive `net_rearm_ms`;
- the palheta and the buttons must be stable `switch_ms` / `button_ms`.

All times are per table (Tuning, from table.json on flash). The ToF thresholds
come from the board file unless `futmesa calibrate` set this table's own
(CMD_SET_THRESHOLD, kept in table.json and applied at once: set_threshold).

The last raw reading of every input is kept (raw_mm, raw_beam, net_bits,
pal_raw, button_bits) for the host's live view (MSG_DIAG, docs/protocol.md):
the filters read each input once per pass, and the diagnostic stream must not
steal a ToF sample from them.
"""

import time

from micropython import const

import futmesa_wire as W

NO_SAMPLE = const(-2)  # board.read_tof: nothing new since the last read
NO_ANSWER = const(-1)  # board.read_tof: the sensor did not answer
_SETTLE = const(64)  # ToF samples before the empty-goal baseline is taken
_EMA_SHIFT = const(6)  # baseline = exponential average over ~2**6 samples
RETRY_MS = const(250)  # a ToF sensor that does not answer is asked again this often


class Tuning:
    """Per-table filter settings (defaults, then table.json on flash overrides them)."""

    def __init__(self, cfg=None):
        self.min_blocked_ms = 15  # shorter blocks are noise, not a ball
        self.refractory_ms = 1500  # a ball rattling in the net is one goal
        self.stuck_ms = 4000  # no goal keeps a line blocked this long: a fault
        self.beam_debounce_ms = 5  # a beam must read clear this long to end a block
        self.tof_samples = 3  # consecutive ToF samples to change state
        self.tof_max_mm = 2000  # farther (or 0) is out of range
        self.tof_fail_samples = 5  # consecutive bad samples / bus errors before a fault
        self.drift_mm = 30  # the empty-goal baseline may move this much
        self.net_refractory_ms = 800
        self.net_rearm_ms = 20
        self.switch_ms = 30
        self.button_ms = 20
        self.update(cfg)

    def update(self, cfg):
        """Take the known keys of a dict (unknown keys are ignored)."""
        if cfg:
            for key in cfg:
                if key in self.__dict__:
                    setattr(self, key, int(cfg[key]))


class GoalLine:
    """One goal-line sensor (break-beam or ToF distance) with its filters."""

    def __init__(self, app, index, kind, tuning, threshold_mm=100, hysteresis_mm=8):
        self.app = app
        self.index = index
        self.tof = kind == "tof"
        self.t = tuning
        self.set_threshold(threshold_mm, hysteresis_mm)
        self.raw_mm = NO_SAMPLE  # newest ToF sample not yet reported in a DIAG
        self.raw_beam = 0
        self.blocked = False
        self.armed = False  # the line has been seen clear since boot
        self.since = 0  # tick the current block started
        self.consumed = False  # the current block can no longer be a goal
        self.refractory_until = 0
        self.in_refractory = False
        self.fault = 0
        self.goals = 0
        # beam
        self._clear_since = 0
        self._clearing = False
        # ToF
        self._run = 0  # consecutive samples on the other side of the threshold
        self._run_since = 0
        self._bad = 0  # consecutive failed samples
        self._bad_code = 0
        self._good = 0
        self._base = 0  # baseline * 2**_EMA_SHIFT
        self._samples = 0
        self.reference = 0
        self._retry_at = 0

    def set_threshold(self, threshold_mm, hysteresis_mm):
        """Blocked below threshold_mm, clear again above threshold_mm + hysteresis_mm."""
        self.threshold = threshold_mm
        self.hysteresis = hysteresis_mm
        self.clear_mm = threshold_mm + hysteresis_mm
        self.drift_floor = threshold_mm + hysteresis_mm  # an empty goal must read clear

    # -- goals ---------------------------------------------------------------
    def _start_block(self, at):
        self.blocked = True
        self.since = at
        self.consumed = not self.armed or self.fault != 0
        if self.in_refractory and time.ticks_diff(at, self.refractory_until) < 0:
            self.consumed = True  # the same ball, rattling: the quiet time starts again
            self.refractory_until = time.ticks_add(at, self.t.refractory_ms)

    def _end_block(self, now):
        self.blocked = False
        held = time.ticks_diff(now, self.since)
        if not self.consumed and held >= self.t.min_blocked_ms and not self.fault:
            self.goals += 1
            self.in_refractory = True
            self.refractory_until = time.ticks_add(now, self.t.refractory_ms)
            self.app.goal_line(self.index, held)
        self.consumed = True
        if self.fault == W.FAULT_STUCK:
            self._clear_fault()

    def _check_stuck(self, now):
        if time.ticks_diff(now, self.since) >= self.t.stuck_ms:
            self.consumed = True
            self._set_fault(W.FAULT_STUCK)

    # -- the loop ------------------------------------------------------------
    def poll(self, board, now):
        if self.tof:
            if self.fault == W.FAULT_NO_ANSWER and time.ticks_diff(now, self._retry_at) < 0:
                return  # a dead bus can stall each transaction: ask again only now and then
            mm = board.read_tof(self.index)
            if mm != NO_SAMPLE:
                self.raw_mm = mm
            self._poll_tof(mm, now)
        else:
            raw = board.read_beam(self.index)
            self.raw_beam = raw
            self._poll_beam(raw, now)

    def _poll_beam(self, raw, now):
        if raw:
            self._clearing = False
            if not self.blocked:
                self._start_block(now)
            self._check_stuck(now)
        elif self.blocked:
            if not self._clearing:
                self._clearing = True
                self._clear_since = now
            if time.ticks_diff(now, self._clear_since) >= self.t.beam_debounce_ms:
                self._clearing = False
                self._end_block(self._clear_since)
            else:
                self._check_stuck(now)
        else:
            self.armed = True

    def _poll_tof(self, mm, now):
        if mm == NO_SAMPLE:
            if self.blocked:
                self._check_stuck(now)
            return
        t = self.t
        if mm < 0 or mm == 0 or mm > t.tof_max_mm:
            code = W.FAULT_NO_ANSWER if mm < 0 else W.FAULT_OUT_OF_RANGE
            if code != self._bad_code:
                self._bad_code = code
                self._bad = 0
            self._bad += 1
            self._good = 0
            self._run = 0
            if self._bad >= t.tof_fail_samples:
                if self.blocked:
                    self.consumed = True
                self._set_fault(code)
                self._retry_at = time.ticks_add(now, RETRY_MS)
            return
        self._bad = 0
        self._bad_code = 0
        self._good += 1
        if (self.fault == W.FAULT_NO_ANSWER or self.fault == W.FAULT_OUT_OF_RANGE) \
                and self._good >= t.tof_samples:
            self._clear_fault()
        if self.blocked:
            if mm > self.clear_mm:
                if self._run == 0:
                    self._run_since = now
                self._run += 1
                if self._run >= t.tof_samples:
                    self._run = 0
                    self._end_block(self._run_since)
                    return
            else:
                self._run = 0
            self._check_stuck(now)
            return
        # clear: track the empty-goal baseline, watch for a ball
        self.armed = True
        if mm < self.threshold:
            if self._run == 0:
                self._run_since = now
            self._run += 1
            if self._run >= t.tof_samples:
                self._run = 0
                self._start_block(self._run_since)
                self._check_stuck(now)
        else:
            self._run = 0
            self._track_baseline(mm)  # only readings of an empty goal feed the baseline

    def _track_baseline(self, mm):
        if self._samples == 0:
            self._base = mm << _EMA_SHIFT
        else:
            self._base += mm - (self._base >> _EMA_SHIFT)
        if self._samples < _SETTLE:
            self._samples += 1
            if self._samples == _SETTLE and not self.reference:
                self.reference = self._base >> _EMA_SHIFT
            return
        base = self._base >> _EMA_SHIFT
        off = base - self.reference
        if off < 0:
            off = -off
        if off > self.t.drift_mm or base < self.drift_floor:
            if self.fault != W.FAULT_DRIFT:
                self._set_fault(W.FAULT_DRIFT)
        elif self.fault == W.FAULT_DRIFT and off <= self.t.drift_mm // 2:
            self._clear_fault()

    def _set_fault(self, code):
        if self.fault != code:
            self.fault = code
            self.app.emit(W.EV_SENSOR_FAULT, self.index, code)

    def _clear_fault(self):
        if self.fault:
            self.fault = 0
            self.app.emit(W.EV_SENSOR_OK, self.index)


class Inputs:
    def __init__(self, app, board, tuning=None):
        self.app = app
        self.board = board
        t = tuning or Tuning()
        self.t = t
        kinds = board.goal_kinds()
        self.goals = []
        for i in range(2):
            thr, hyst = board.goal_params(i)
            self.goals.append(GoalLine(app, i, kinds[i], t, thr, hyst))
        self.zones = board.net_zones()
        n = len(self.zones)
        self.net_fired = bytearray(n)  # 1 from the zone's event until it is re-armed
        self.net_until = [0] * n  # end of the zone's quiet time
        self.net_high_at = [0] * n  # last tick the zone read active
        self.palheta = board.read_palheta()
        self.pal_raw = self.palheta
        self.net_bits = 0
        self.button_bits = 0
        self._pal_candidate = self.palheta
        self._pal_since = 0
        self.buttons = bytearray(3)
        self._btn_candidate = bytearray(3)
        self._btn_since = [0, 0, 0]

    def beam_bits(self):
        """Bit i set: goal line i's last raw read was blocked (a ToF line: below threshold)."""
        bits = 0
        for goal in self.goals:
            if goal.tof:
                if goal.blocked:
                    bits |= 1 << goal.index
            elif goal.raw_beam:
                bits |= 1 << goal.index
        return bits

    def poll(self, now):
        board = self.board
        for goal in self.goals:
            goal.poll(board, now)
        self._poll_nets(board, now)
        self._poll_palheta(board, now)
        self._poll_buttons(board, now)

    def _poll_nets(self, board, now):
        zones = self.zones
        fired = self.net_fired
        bits = 0
        for z in range(len(zones)):
            if board.read_net(z):
                bits |= 1 << z
                self.net_high_at[z] = now
                if not fired[z]:
                    fired[z] = 1
                    self.net_until[z] = time.ticks_add(now, self.t.net_refractory_ms)
                    line, end = zones[z]
                    self.app.ball_out(z, line, end)
            elif fired[z]:
                if (time.ticks_diff(now, self.net_until[z]) >= 0
                        and time.ticks_diff(now, self.net_high_at[z]) >= self.t.net_rearm_ms):
                    fired[z] = 0
        self.net_bits = bits

    def _poll_palheta(self, board, now):
        pos = board.read_palheta()
        self.pal_raw = pos
        if pos > 2:
            return  # both contacts closed: a wiring fault, keep the last position
        if pos != self._pal_candidate:
            self._pal_candidate = pos
            self._pal_since = now
        elif pos != self.palheta and time.ticks_diff(now, self._pal_since) >= self.t.switch_ms:
            self.palheta = pos
            self.app.palheta(pos)

    def _poll_buttons(self, board, now):
        cand = self._btn_candidate
        bits = 0
        for i in range(3):
            v = board.read_button(i)
            if v:
                bits |= 1 << i
            if v != cand[i]:
                cand[i] = v
                self._btn_since[i] = now
            elif v != self.buttons[i] and time.ticks_diff(now, self._btn_since[i]) >= self.t.button_ms:
                self.buttons[i] = v
                if v:
                    self.app.button(i)
        self.button_bits = bits
