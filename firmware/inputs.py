"""The table's inputs: goal lines, side-net zones, the palheta divisória and buttons.

Each filter turns raw readings into exactly one event per physical
occurrence: a goal line must stay blocked for a minimum time, then a
refractory period keeps a ball rattling in the net from counting twice; a
line blocked for longer than a goal can last is a sensor fault, never a goal.
"""

import time

from micropython import const

import futmesa_wire as W

MIN_BLOCKED_MS = const(15)  # a ball crossing takes longer than this; shorter is noise
REFRACTORY_MS = const(1500)  # after a goal, the same line is ignored this long (rattle)
STUCK_MS = const(8000)  # longer than any goal can keep a line blocked: a fault
NET_REFRACTORY_MS = const(800)  # one ball out per zone per this time
SWITCH_STABLE_MS = const(30)  # the palheta switch must be stable this long
TOF_BLOCKED_MM = const(35)  # ToF: closer than this is the ball on the line ...
TOF_CLEAR_MM = const(60)  # ... and farther than this is clear again (hysteresis)
TOF_MAX_MM = const(2000)


class GoalLine:
    """One goal-line sensor (break-beam or ToF distance) with its filters."""

    def __init__(self, app, index, kind):
        self.app = app
        self.index = index
        self.kind = kind  # "beam" or "tof"
        self.blocked = False
        self.since = 0
        self.reported = False
        self.refractory_until = 0
        self.in_refractory = False
        self.fault = 0
        self.seen_clear = False

    def _read(self, board):
        if self.kind == "tof":
            mm = board.read_tof(self.index)
            if mm < 0:
                return -W.FAULT_NO_ANSWER
            if mm > TOF_MAX_MM:
                return -W.FAULT_OUT_OF_RANGE
            if self.blocked:
                return 1 if mm < TOF_CLEAR_MM else 0
            return 1 if mm < TOF_BLOCKED_MM else 0
        return board.read_beam(self.index)

    def poll(self, board, now):
        raw = self._read(board)
        if raw < 0:
            self._set_fault(-raw)
            return
        if self.fault == W.FAULT_NO_ANSWER or self.fault == W.FAULT_OUT_OF_RANGE:
            self._clear_fault()
        if raw:
            if not self.blocked:
                self.blocked = True
                self.since = now
                self.reported = False
            held = time.ticks_diff(now, self.since)
            if held >= STUCK_MS:
                self._set_fault(W.FAULT_STUCK)
            elif (not self.reported and self.seen_clear and not self.fault
                  and held >= MIN_BLOCKED_MS):
                self.reported = True
                if self.in_refractory and time.ticks_diff(now, self.refractory_until) < 0:
                    return
                self.in_refractory = True
                self.refractory_until = time.ticks_add(now, REFRACTORY_MS)
                self.app.goal_line(self.index, held)
        else:
            self.seen_clear = True
            self.blocked = False
            if self.fault == W.FAULT_STUCK:
                self._clear_fault()

    def _set_fault(self, code):
        if self.fault != code:
            self.fault = code
            self.app.emit(W.EV_SENSOR_FAULT, self.index, code)

    def _clear_fault(self):
        self.fault = 0
        self.app.emit(W.EV_SENSOR_OK, self.index)


class Inputs:
    def __init__(self, app, board):
        self.app = app
        self.board = board
        kind = getattr(board, "goal_sensor_type", "beam")
        self.goals = [GoalLine(app, 0, kind), GoalLine(app, 1, kind)]
        self.zones = board.net_zones()
        n = len(self.zones)
        self.net_state = [0] * n
        self.net_until = [0] * n
        self.palheta = board.read_palheta()
        self._pal_candidate = self.palheta
        self._pal_since = 0
        self.buttons = [0, 0, 0]

    def poll(self, now):
        board = self.board
        for goal in self.goals:
            goal.poll(board, now)
        zones = self.zones
        for z in range(len(zones)):
            v = board.read_net(z)
            if v and not self.net_state[z]:
                if time.ticks_diff(now, self.net_until[z]) >= 0:
                    self.net_until[z] = time.ticks_add(now, NET_REFRACTORY_MS)
                    line, end = zones[z]
                    self.app.ball_out(z, line, end)
            self.net_state[z] = v
        pos = board.read_palheta()
        if pos != self._pal_candidate:
            self._pal_candidate = pos
            self._pal_since = now
        elif pos != self.palheta and time.ticks_diff(now, self._pal_since) >= SWITCH_STABLE_MS:
            self.palheta = pos
            self.app.palheta(pos)
        for i in range(3):
            v = board.read_button(i)
            if v and not self.buttons[i]:
                self.app.button(i)
            self.buttons[i] = v
