"""Per-move (lance) timer: a countdown restarted by the palheta, a turn button or the host.

000 Art. 8 §3 and 001 Art. XXIX e: 15 s per lance; 003 Arts. 64 §7, 70, 71:
10 s per palhetada. At expiry: a short warning beep and an EV_LANCE_EXPIRED;
an optional pre-warning before it.
"""

import time

import futmesa_wire as W


class LanceTimer:
    def __init__(self, app):
        self.app = app
        self.running = False
        self.side = 2
        self.deadline = 0
        self.prewarned = False

    def length(self):
        return self.app.clock.lance_ms

    def restart(self, now, side):
        if self.length() <= 0:
            return W.ACK_REFUSED
        self.side = side
        self.running = True
        self.prewarned = False
        self.deadline = time.ticks_add(now, self.length())
        self.app.emit(W.EV_LANCE_STARTED, side)
        self.app.status_changed()
        return W.ACK_OK

    def stop(self):
        if not self.running:
            return W.ACK_DUPLICATE
        self.running = False
        self.app.status_changed()
        return W.ACK_OK

    def remaining(self, now):
        if not self.running:
            return self.length()
        left = time.ticks_diff(self.deadline, now)
        return left if left > 0 else 0

    def poll(self, now):
        if not self.running:
            return
        left = time.ticks_diff(self.deadline, now)
        prewarn = self.app.clock.prewarn_ms
        if prewarn > 0 and not self.prewarned and left <= prewarn:
            self.prewarned = True
            self.app.buzzer.play(W.BEEP_PREWARN, now)
            self.app.emit(W.EV_LANCE_EXPIRED, self.side, 1)
        if left <= 0:
            self.running = False
            self.app.buzzer.play(W.BEEP_WARNING, now)
            self.app.emit(W.EV_LANCE_EXPIRED, self.side, 0)
            self.app.status_changed()
