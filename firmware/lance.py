"""Per-move (lance) timer: a countdown restarted by the palheta, a turn button or the host.

000 Art. 8 §3 and 001 Art. XXIX e: 15 s per lance; 003 Arts. 64 §7, 70, 71:
10 s per palhetada. At expiry: a short warning beep and an EV_LANCE_EXPIRED
(value: how many times this lance has run out); an optional pre-warning
before the first expiry. The lance runs out when its time is reached (000 "ao
atingir este tempo") or, with the profile's PROFILE_LANCE_PAST flag, on the
first millisecond past it (001 "mais de quinze segundos", 003 "10 segundos é o
tempo máximo").

After an expiry the timer keeps counting for the same player: at 15 s the
referee only warns (000 Art. 26 §1 A "ao atingir este tempo, o árbitro deverá
advertir"; 003 Art. 71 §único "depois de já ter sido advertido"), so the
device starts another full lance for the same side and reports each further
expiry; the host's rules turn the second one into the sanction (see
docs/rulesets.md, "The lance timer"). The count goes on until the lance is
restarted (a palheta, a turn button, the host) or stopped (the end of a period,
a new match), at most MAX_EXPIRIES times. While the match clock is stopped (a referee's pause) the lance
waits with it.
"""

try:
    from micropython import const
except ImportError:  # CPython: the light simulated tables (futmesa_testkit.lighttable)
    from futmesa_wire import const


import futmesa_wire as W

# expiries reported for one lance: the warning, the sanction, and one more in case the
# referee waived it; then the timer stops, so a lance nobody plays (a demo, an unplugged
# host) cannot fill the event ring
MAX_EXPIRIES = const(3)


class LanceTimer:
    def __init__(self, app):
        self.app = app
        self.running = False
        self.side = 2
        self.deadline = 0
        self.prewarned = False
        self.expiries = 0  # how many times this lance has run out
        self.last = 0  # the pass the lance was last looked at (to hold it while the clock stops)

    def length(self):
        return self.app.clock.lance_ms

    def restart(self, now, side):
        if self.length() <= 0:
            return W.ACK_REFUSED
        self.side = side
        self.running = True
        self.prewarned = False
        self.expiries = 0
        self.last = now
        self.deadline = W.ticks_add(now, self.length())
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
        left = W.ticks_diff(self.deadline, now)
        return left if left > 0 else 0

    def poll(self, now):
        if not self.running:
            return
        if not self.app.clock.running:
            # the lance waits while the match clock is stopped
            self.deadline = W.ticks_add(now, W.ticks_diff(self.deadline, self.last))
            self.last = now
            return
        self.last = now
        left = W.ticks_diff(self.deadline, now)
        prewarn = self.app.clock.prewarn_ms
        if prewarn > 0 and not self.prewarned and left <= prewarn:
            self.prewarned = True
            self.app.buzzer.play(W.BEEP_PREWARN, now)
            self.app.emit(W.EV_LANCE_EXPIRED, self.side, 1)
        if left < 0 or (left == 0 and not self.app.clock.profile_flags & W.PROFILE_LANCE_PAST):
            # the limit reached ("ao atingir", 000 Art. 26 §1 A) or, with PROFILE_LANCE_PAST,
            # passed ("mais de quinze segundos", 001 Art. XXIX e; "10 segundos é o tempo
            # máximo", 003 Art. 71); the same player's lance goes on counting (000 Art. 26
            # §1 A, 003 Art. 71 §único)
            self.expiries += 1
            self.prewarned = True  # no pre-warning inside the overrun
            self.deadline = W.ticks_add(now, left + self.length())
            self.app.buzzer.play(W.BEEP_WARNING, now)
            self.app.emit(W.EV_LANCE_EXPIRED, self.side, 0, self.expiries)
            if self.expiries >= MAX_EXPIRIES:
                self.running = False
            self.app.status_changed()
