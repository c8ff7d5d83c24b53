"""Non-blocking buzzer patterns on PWM: short warning, long end-of-period alarm, goal chirp.

play() switches the tone on at once (the end-of-period alarm sounds on the
very pass the period expires); poll() switches it off and on again as the
pattern says, by ticks comparison only. A pattern never cuts off a more
important one that is still sounding (the alarm outranks everything).
"""

import time

from micropython import const

import futmesa_wire as W

_FREQ = const(2700)  # piezo resonance, Hz (the board file's buzzer.freq overrides it)
_DUTY = const(32768)  # 50 % of duty_u16

# pattern -> (on ms, off ms, repeats, priority)
_PATTERNS = {
    W.BEEP_WARNING: (200, 0, 1, 2),
    W.BEEP_PREWARN: (60, 60, 2, 1),
    W.BEEP_ALARM: (2000, 0, 1, 3),
    W.BEEP_GOAL: (80, 60, 3, 1),
}


class Buzzer:
    def __init__(self, board):
        self.board = board
        self.freq = getattr(board, "buzzer_freq", _FREQ)
        self.pattern = 0
        self.priority = 0
        self.started = 0  # tick at which the current pattern started
        self._on = 0
        self._off = 0
        self._left = 0
        self._sounding = False
        self._until = 0

    def play(self, pattern, now):
        """Start `pattern` now; False if unknown or a more important pattern is sounding."""
        spec = _PATTERNS.get(pattern)
        if spec is None:
            return False
        if self.pattern and spec[3] < self.priority:
            return False
        self.pattern = pattern
        self._on, self._off, self._left, self.priority = spec
        self.started = now
        self._start_tone(now)
        return True

    def stop(self):
        self.pattern = 0
        self.priority = 0
        self._sounding = False
        self.board.buzzer(0, 0)

    def _start_tone(self, now):
        self._sounding = True
        self._left -= 1
        self._until = time.ticks_add(now, self._on)
        self.board.buzzer(self.freq, _DUTY)

    def poll(self, now):
        if not self.pattern or time.ticks_diff(now, self._until) < 0:
            return
        if self._sounding:
            self._sounding = False
            self.board.buzzer(0, 0)
            if self._left <= 0:
                self.pattern = 0
                self.priority = 0
                return
            self._until = time.ticks_add(now, self._off)
        else:
            self._start_tone(now)
