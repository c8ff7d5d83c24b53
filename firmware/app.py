"""The firmware's main loop: one cooperative pass reads inputs, runs the clocks, the buzzer and the link.

A pass never blocks and allocates nothing in steady state (checked under
micropython.heap_lock() by tests/firmware and bench/firmware_bench.py).
Components report through App.emit(), which stamps each event with the
current period, match clock and device tick and puts it in the link's ring;
the link writes it on the same pass. The watchdog is fed at the end of a pass,
so it fires only if a pass (inputs, clock or link) stops returning.

Two host commands concern the table rather than the match: CMD_SET_THRESHOLD
(from `futmesa calibrate`) applies a goal line's ToF threshold at once and
keeps it in table.json, so it survives a reset; CMD_REPL (from `futmesa
flash`) ends the loop after its acknowledgement and hands the board back to
the MicroPython REPL (board.to_repl), so mpremote can reach it.
"""

import time

from micropython import const

import futmesa_wire as W
from buzzer import Buzzer
from inputs import Inputs, Tuning
from lance import LanceTimer
from link import DeviceLink
from matchclock import STATE_SIZE, MatchClock, clock_command

DEFAULT_RING = 512
CHECKPOINT_MS = const(1000)  # device ms between flash checkpoints of a running clock


class App:
    def __init__(self, board, store, ring_size=DEFAULT_RING):
        self.board = board
        self.store = store
        self.boot_id = store.next_boot_id()
        self.now = board.ticks_ms()
        self.passes = 0
        self.buzzer = Buzzer(board)
        self.clock = MatchClock(self)
        self.lance = LanceTimer(self)
        self.link = DeviceLink(board, self, self.boot_id, ring_size)
        # filter settings: defaults, then the board's (the sim adapts them to its speed),
        # then this table's own (table.json on flash)
        self.tuning = Tuning(getattr(board, "tuning", None))
        table = store.read_json("table.json")
        self.tuning.update(table)
        self.inputs = Inputs(self, board, self.tuning)
        if table:
            # thresholds `futmesa calibrate` measured for this table win over the board file
            for goal in self.inputs.goals:
                key = "tof%d_" % goal.index
                thr = table.get(key + "threshold_mm")
                if thr is not None:
                    goal.set_threshold(int(thr), int(table.get(key + "hysteresis_mm",
                                                               goal.hysteresis)))
        self.repl_requested = False
        profile = store.read("profile.bin")
        if profile:
            try:
                self.clock.set_profile(profile)
            except ValueError:
                board.log("stored clock profile unreadable: using defaults")
        self.clock.attach(store.slot("clock.bin", STATE_SIZE))
        self._last_checkpoint = self.now
        self.emit(W.EV_BOOT, 0, 0, ring_size)
        self._storage_reported = False
        store.on_fault = self._storage_fault
        if store.error:
            self._storage_fault(store.error)
        # what the previous boot made but no host acknowledged (kept on flash): EV_LOST
        self.link.report_lost(self.now, self.clock.period)
        if self.clock.restore(self.now):
            clock = self.clock
            if clock.running:
                # a reset mid-period: the clock goes on from its last checkpoint
                self.emit(W.EV_CLOCK_STARTED, 3, 0, clock.base_ms)
            elif clock.period and not clock.over:
                self.emit(W.EV_CLOCK_STOPPED, 3, 0, clock.base_ms)

    # -- event sink -------------------------------------------------------------
    def emit(self, kind, a=0, b=0, value=0):
        now = self.now
        self.link.push(now, kind, a, b, self.clock.period, self.clock.ms(now), value)
        self.link.status_dirty = True

    def status_changed(self):
        self.link.status_dirty = True

    def clock_changed(self, now):
        self.clock.checkpoint(now)
        self._last_checkpoint = now
        self.link.status_dirty = True

    def _storage_fault(self, code):
        """The flash refused a write: the clock goes on from RAM; report it once per boot."""
        if self._storage_reported:
            return
        self._storage_reported = True
        self.emit(W.EV_SENSOR_FAULT, W.SENSOR_STORAGE, W.FAULT_STORAGE, code)
        self.board.log("flash not writable (errno %d): the clock runs without persistence; "
                       "a reset will lose the match state" % code)

    # -- input reactions ----------------------------------------------------------
    def goal_line(self, index, held_ms):
        self.emit(W.EV_GOAL_LINE, index, 0, held_ms)
        self.clock.dead_ball(self.now)

    def ball_out(self, zone, line, end):
        self.emit(W.EV_BALL_OUT, zone, line, end)
        self.clock.dead_ball(self.now)

    def palheta(self, pos):
        self.emit(W.EV_PALHETA, pos)
        if pos == 1:
            self.clock.play_on(self.now)
        elif self.clock.running:
            self.lance.restart(self.now, 0 if pos == 0 else 1)

    def button(self, index):
        self.emit(W.EV_BUTTON, index)
        if index < 2 and self.clock.running:
            # a player presses its own button when its lance is over: the opponent's starts
            self.lance.restart(self.now, 1 - index)

    # -- host commands --------------------------------------------------------------
    def set_profile(self, payload):
        result = self.clock.take_profile(payload)
        if result != W.ACK_OK:
            return result
        self.store.write("profile.bin", payload)
        self.emit(W.EV_PROFILE_SET, 0, 0, self.clock.period_ms)
        return W.ACK_OK

    def command(self, code, a, b, c, x, y):
        now = self.now
        result = clock_command(self.clock, self.lance, code, a, b, x, now)
        if result is not None:
            return result
        if code == W.CMD_BEEP:
            return W.ACK_OK if self.buzzer.play(a, now) else W.ACK_REFUSED
        if code == W.CMD_SET_THRESHOLD:
            return self.set_threshold(a, x, y)
        if code == W.CMD_DIAG:
            self.link.diag = bool(a)
            return W.ACK_OK
        if code == W.CMD_REPL:
            self.repl_requested = True  # the loop ends after this pass (its ack is sent first)
            return W.ACK_OK
        return W.ACK_UNKNOWN

    def set_threshold(self, index, threshold_mm, hysteresis_mm):
        """A goal line's ToF threshold and hysteresis: applied now, kept in table.json."""
        goals = self.inputs.goals
        if not 0 <= index < len(goals) or not 0 < threshold_mm < self.tuning.tof_max_mm \
                or not 0 <= hysteresis_mm < self.tuning.tof_max_mm:
            return W.ACK_REFUSED
        goals[index].set_threshold(threshold_mm, hysteresis_mm)
        import json

        table = self.store.read_json("table.json") or {}
        key = "tof%d_" % index
        table[key + "threshold_mm"] = threshold_mm
        table[key + "hysteresis_mm"] = hysteresis_mm
        self.store.write("table.json", json.dumps(table).encode())
        self.board.log("goal line %d: threshold %d mm, hysteresis %d mm (kept in table.json)"
                       % (index, threshold_mm, hysteresis_mm))
        return W.ACK_OK

    # -- the loop ---------------------------------------------------------------------
    def step(self):
        board = self.board
        board.service()
        now = board.ticks_ms()
        self.now = now
        self.passes += 1
        self.inputs.poll(now)
        self.clock.poll(now)
        self.lance.poll(now)
        self.buzzer.poll(now)
        self.link.poll(board.real_ms(), now)
        if self.clock.running and time.ticks_diff(now, self._last_checkpoint) >= CHECKPOINT_MS:
            self._last_checkpoint = now
            self.clock.checkpoint(now)
        board.feed_watchdog()

    def run(self):
        board = self.board
        if getattr(board, "repl_boot", False):
            return  # booted for re-flashing (board.to_repl): straight to the REPL
        while not self.repl_requested:
            self.step()
            board.idle()
        self.buzzer.stop()
        to_repl = getattr(board, "to_repl", None)
        if to_repl is not None:
            to_repl(self.store)
