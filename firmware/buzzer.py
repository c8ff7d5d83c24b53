"""Non-blocking buzzer patterns on PWM: short warning, long end-of-period alarm, goal chirp."""

import time

from micropython import const

import futmesa_wire as W

_FREQ = const(2700)  # piezo resonance, Hz
_DUTY = const(32768)  # 50 % of duty_u16

# pattern -> (on ms, off ms, repeats); times in device ms
_PATTERNS = {
    W.BEEP_WARNING: (200, 0, 1),
    W.BEEP_PREWARN: (60, 60, 2),
    W.BEEP_ALARM: (2000, 0, 1),
    W.BEEP_GOAL: (80, 60, 3),
}


class Buzzer:
    def __init__(self, board):
        self.board = board
        self.pattern = 0
        self._on = 0
        self._off = 0
        self._left = 0
        self._sounding = False
        self._until = 0

    def play(self, pattern, now):
        spec = _PATTERNS.get(pattern)
        if spec is None:
            return False
        self.pattern = pattern
        self._on, self._off, self._left = spec
        self._start_tone(now)
        return True

    def _start_tone(self, now):
        self._sounding = True
        self._left -= 1
        self._until = time.ticks_add(now, self._on)
        self.board.buzzer(_FREQ, _DUTY)

    def poll(self, now):
        if not self.pattern or time.ticks_diff(now, self._until) < 0:
            return
        if self._sounding:
            self._sounding = False
            self.board.buzzer(0, 0)
            if self._left <= 0:
                self.pattern = 0
                return
            self._until = time.ticks_add(now, self._off)
        else:
            self._start_tone(now)
