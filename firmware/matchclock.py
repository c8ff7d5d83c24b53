"""The official match clock: periods, interval, extra time, clock modes and end-of-period modes.

Time is only ever compared through ticks_diff/ticks_add, so the clock is
exact across the tick wraparound. The clock is kept as a base value plus the
tick at which it had that value; while running it advances one ms per tick.
"""

import struct
import time

import futmesa_wire as W

_STATE_FMT = "<BBBBiii"  # period, running, interval, flags, base_ms, added_ms, spare


class MatchClock:
    def __init__(self, app):
        self.app = app
        # profile (defaults: 000 Art. 8 §9 — two halves of 25 minutes)
        self.periods = 2
        self.extra_periods = 0
        self.clock_mode = W.CLOCK_CONTINUOUS
        self.end_mode = W.END_AT_ALARM
        self.period_ms = 25 * 60 * 1000
        self.interval_ms = 5 * 60 * 1000
        self.extra_ms = 0
        self.lance_ms = 15000
        self.prewarn_ms = 0
        self.configured = False
        # state
        self.period = 0
        self.running = False
        self.interval = False
        self.over = False
        self.time_up = False
        self.base_ms = 0
        self.base_ticks = 0
        self.added_ms = 0
        self.deadline = 0

    # -- profile -----------------------------------------------------------------
    def set_profile(self, payload):
        (self.periods, self.extra_periods, self.clock_mode, self.end_mode, self.period_ms,
         self.interval_ms, self.extra_ms, self.lance_ms, self.prewarn_ms, _flags
         ) = struct.unpack(W.PROFILE_FMT, payload)
        self.configured = True

    def profile_bytes(self):
        return struct.pack(W.PROFILE_FMT, self.periods, self.extra_periods, self.clock_mode,
                           self.end_mode, self.period_ms, self.interval_ms, self.extra_ms,
                           self.lance_ms, self.prewarn_ms, 0)

    # -- persistence -------------------------------------------------------------
    def state_bytes(self, now):
        flags = (1 if self.over else 0) | (2 if self.time_up else 0)
        return struct.pack(_STATE_FMT, self.period, 1 if self.running else 0,
                           1 if self.interval else 0, flags, self.ms(now), self.added_ms, 0)

    def restore(self, raw, now):
        """Resume from a stored state after a reset (a running clock goes on running)."""
        period, running, interval, flags, base_ms, added, _ = struct.unpack(_STATE_FMT, raw)
        self.period = period
        self.interval = bool(interval)
        self.over = bool(flags & 1)
        self.time_up = bool(flags & 2)
        self.base_ms = base_ms
        self.added_ms = added
        self.base_ticks = now
        self.running = bool(running)
        self._arm()

    # -- reading -----------------------------------------------------------------
    def length(self):
        """Length of the current period (regular or extra), without added time."""
        if self.period > self.periods:
            return self.extra_ms
        return self.period_ms

    def limit(self):
        return self.length() + self.added_ms

    def ms(self, now):
        if not self.running:
            return self.base_ms
        value = self.base_ms + time.ticks_diff(now, self.base_ticks)
        limit = self.limit()
        if value > limit and self.end_mode == W.END_AT_ALARM:
            return limit
        return value

    def flags(self):
        f = 0
        if self.running:
            f |= W.ST_RUNNING
        if self.interval:
            f |= W.ST_INTERVAL
        if self.over:
            f |= W.ST_MATCH_OVER
        if self.time_up:
            f |= W.ST_TIME_UP
        if self.configured:
            f |= W.ST_CONFIGURED
        return f

    # -- commands ----------------------------------------------------------------
    def _rebase(self, now):
        self.base_ms = self.ms(now)
        self.base_ticks = now

    def _arm(self):
        self.deadline = time.ticks_add(self.base_ticks, self.limit() - self.base_ms)

    def _changed(self, now):
        self.app.clock_changed(now)

    def start(self, now):
        """Kick off period 1, or the next period after an interval."""
        if self.over:
            return W.ACK_REFUSED
        if self.running:
            return W.ACK_DUPLICATE
        if self.period == 0 or self.interval:
            if self.period >= self.periods + self.extra_periods:
                return W.ACK_REFUSED
            self.period += 1
            self.base_ms = 0
            self.added_ms = 0
            self.interval = False
            self.time_up = False
            self.app.emit(W.EV_PERIOD_STARTED)
        self.base_ticks = now
        self.running = True
        self._arm()
        self.app.emit(W.EV_CLOCK_STARTED, 0)
        self._changed(now)
        return W.ACK_OK

    def pause(self, now, reason=0):
        if not self.running:
            return W.ACK_DUPLICATE
        self._rebase(now)
        self.running = False
        self.app.emit(W.EV_CLOCK_STOPPED, reason)
        self._changed(now)
        return W.ACK_OK

    def resume(self, now, reason=1):
        if self.running:
            return W.ACK_DUPLICATE
        if self.period == 0 or self.interval or self.over:
            return W.ACK_REFUSED
        self.base_ticks = now
        self.running = True
        self._arm()
        self.app.emit(W.EV_CLOCK_STARTED, reason)
        self._changed(now)
        return W.ACK_OK

    def add_time(self, now, ms):
        if self.period == 0 or self.interval or self.over or ms <= 0:
            return W.ACK_REFUSED
        self._rebase(now)
        self.added_ms += ms
        self._arm()
        self.app.emit(W.EV_TIME_ADDED, 0, 0, ms)
        self._changed(now)
        return W.ACK_OK

    def adjust(self, now, delta):
        if self.period == 0:
            return W.ACK_REFUSED
        self._rebase(now)
        self.base_ms = max(0, self.base_ms + delta)
        self._arm()
        self.app.emit(W.EV_CLOCK_ADJUSTED, 0, 0, delta)
        self._changed(now)
        return W.ACK_OK

    def set_clock(self, now, period, ms):
        if period < 1 or period > self.periods + self.extra_periods or ms < 0:
            return W.ACK_REFUSED
        delta = ms - self.ms(now)
        self.period = period
        self.interval = False
        self.over = False
        self.base_ms = ms
        self.base_ticks = now
        self._arm()
        self.app.emit(W.EV_CLOCK_ADJUSTED, 0, 0, delta)
        self._changed(now)
        return W.ACK_OK

    def new_match(self, now):
        self.period = 0
        self.running = False
        self.interval = False
        self.over = False
        self.time_up = False
        self.base_ms = 0
        self.added_ms = 0
        self._changed(now)
        return W.ACK_OK

    def dead_ball(self, now):
        """The ball left play (sensor or referee): stops a ball-in-play clock, ends a time-up period."""
        if self.time_up and self.end_mode == W.END_NEXT_DEAD_BALL:
            self._end_period(now, now)
            return
        if self.running and self.clock_mode == W.CLOCK_BALL_IN_PLAY:
            self.pause(now, 1)

    def play_on(self, now):
        if self.clock_mode == W.CLOCK_BALL_IN_PLAY and not self.running:
            return self.resume(now, 2)
        return W.ACK_DUPLICATE if self.running else W.ACK_REFUSED

    # -- the loop ----------------------------------------------------------------
    def poll(self, now):
        if not self.running or self.time_up:
            return
        if time.ticks_diff(now, self.deadline) < 0:
            return
        if self.end_mode == W.END_AT_ALARM:
            self._end_period(now, self.deadline)
        else:
            self.time_up = True
            self.app.buzzer.play(W.BEEP_WARNING, now)
            self.app.emit(W.EV_TIME_UP)
            self._changed(now)

    def _end_period(self, now, at):
        # 000 Art. 8 §10: the half ends exactly when the alarm starts.
        self.base_ms = self.limit() if self.end_mode == W.END_AT_ALARM else self.ms(now)
        self.base_ticks = at
        self.running = False
        self.time_up = False
        self.app.buzzer.play(W.BEEP_ALARM, now)
        self.app.emit(W.EV_ALARM, W.BEEP_ALARM)
        self.app.emit(W.EV_PERIOD_OVER)
        self.app.emit(W.EV_CLOCK_STOPPED, 2)
        if self.period >= self.periods + self.extra_periods:
            self.over = True
            self.app.emit(W.EV_MATCH_OVER)
        else:
            self.interval = True
        self._changed(now)
