"""The official match clock: periods, interval, extra time, clock modes and end-of-period modes.

Time is only ever compared through ticks_diff/ticks_add, so the clock is
exact across the tick wraparound. The clock is a base value (ms) plus the tick
at which it had that value; while running it advances one ms per tick.

Modes (the PROFILE the host sends, kept on flash):
- clock mode `continuous` (000 Art. 8 §9, 001, 003): runs until the period
  ends, stopped only by the referee; `ball-in-play` (004 "A partida"): stops
  the moment a goal-line or side-net sensor fires (dead_ball) and restarts on
  "play on" (palheta back to the centre, or the host);
- end mode `at-alarm` (000 Art. 8 §10): the period ends exactly at its limit,
  on the loop pass in which the limit is reached, and the alarm starts on that
  same pass; `next-dead-ball` (004): at the limit the time is up (a warning
  beep, EV_TIME_UP), the clock goes on and the period ends with the alarm at
  the next dead ball.

The state (period, running, clock ms, added time) lives in a flash slot,
rewritten without allocating on every change and every CHECKPOINT_MS while
running, so a reset resumes from it (docs/firmware.md, "Resume after a reset").
"""

import struct
try:
    from micropython import const
except ImportError:  # CPython: the light simulated tables (futmesa_testkit.lighttable)
    from futmesa_wire import const


import futmesa_wire as W

_STATE_FMT = "<BBBBiiIi"  # magic, period, flags, spare, clock ms, added ms, checkpoints, spare
STATE_SIZE = const(20)
_MAGIC = const(0xC7)
_F_RUNNING = const(1)
_F_INTERVAL = const(2)
_F_OVER = const(4)
_F_TIME_UP = const(8)
REASON_START = const(0)
REASON_RESUME = const(1)
REASON_PLAY_ON = const(2)
REASON_RESTORED = const(3)  # EV_CLOCK_STARTED/STOPPED: state restored after a reset
STOP_PAUSE = const(0)
STOP_DEAD_BALL = const(1)
STOP_PERIOD_OVER = const(2)
# what a malformed PROFILE raises: struct's own error on CPython (the light tables)
_PROFILE_ERRORS = (ValueError, TypeError) + ((struct.error,) if hasattr(struct, "error") else ())


class MatchClock:
    def __init__(self, app):
        self.app = app
        # profile (defaults: 000 Art. 8 §9 — two halves of 25 minutes, 15 s per lance)
        self.periods = 2
        self.extra_periods = 0
        self.clock_mode = W.CLOCK_CONTINUOUS
        self.end_mode = W.END_AT_ALARM
        self.period_ms = 25 * 60 * 1000
        self.interval_ms = 5 * 60 * 1000
        self.extra_ms = 0
        self.lance_ms = 15000
        self.prewarn_ms = 0
        self.profile_flags = 0
        self.configured = False
        # state
        self.period = 0
        self.running = False
        self.interval = False
        self.over = False
        self.time_up = False
        self.base_ms = 0
        self.base_ticks = W.ticks_ms()
        self.added_ms = 0
        self.deadline = self.base_ticks
        self.interval_end = self.base_ticks
        self.interval_alarm = False
        self.checkpoints = 0
        self.slot = None
        # when the clock stopped, and whether on a dead ball (play_on's give_back)
        self.dead_ball_since = self.base_ticks
        self.dead_ball_stop = False

    # -- profile -----------------------------------------------------------------
    def set_profile(self, payload):
        """Apply a PROFILE payload (raises ValueError when it is malformed or impossible)."""
        (periods, extra_periods, clock_mode, end_mode, period_ms, interval_ms, extra_ms,
         lance_ms, prewarn_ms, flags) = struct.unpack(W.PROFILE_FMT, payload)
        if (periods < 1 or period_ms <= 0 or clock_mode > 1 or end_mode > 1 or lance_ms < 0
                or prewarn_ms < 0 or interval_ms < 0 or (extra_periods and extra_ms <= 0)):
            raise ValueError("impossible clock profile")
        self.periods = periods
        self.extra_periods = extra_periods
        self.clock_mode = clock_mode
        self.end_mode = end_mode
        self.period_ms = period_ms
        self.interval_ms = interval_ms
        self.extra_ms = extra_ms
        self.lance_ms = lance_ms
        self.prewarn_ms = prewarn_ms
        self.profile_flags = flags
        self.configured = True

    def take_profile(self, payload):
        """A PROFILE from the host (firmware/app.py and the light simulated tables): its
        ACK_* code; refused while the clock runs or when set_profile refuses it."""
        if self.running:
            return W.ACK_REFUSED
        if payload == self.profile_bytes() and self.configured:
            return W.ACK_DUPLICATE
        try:
            self.set_profile(payload)
        except _PROFILE_ERRORS:
            return W.ACK_REFUSED
        return W.ACK_OK

    def profile_bytes(self):
        return struct.pack(W.PROFILE_FMT, self.periods, self.extra_periods, self.clock_mode,
                           self.end_mode, self.period_ms, self.interval_ms, self.extra_ms,
                           self.lance_ms, self.prewarn_ms, self.profile_flags)

    # -- persistence -------------------------------------------------------------
    def attach(self, slot):
        """Use `slot` (nvstore.Slot of STATE_SIZE bytes) for the state; restore() reads it."""
        self.slot = slot

    def checkpoint(self, now):
        """Write the state with the current clock value to flash; allocates nothing."""
        slot = self.slot
        if slot is None:
            return
        flags = ((_F_RUNNING if self.running else 0) | (_F_INTERVAL if self.interval else 0)
                 | (_F_OVER if self.over else 0) | (_F_TIME_UP if self.time_up else 0))
        self.checkpoints += 1
        struct.pack_into(_STATE_FMT, slot.buf, 0, _MAGIC, self.period, flags, 0, self.ms(now),
                         self.added_ms, self.checkpoints & 0xFFFFFFF, 0)
        slot.flush()

    def restore(self, now):
        """Resume from the stored state after a reset; returns True when there was one.

        A clock that was running goes on running from the last checkpoint: the
        time the reset took is not counted (docs/firmware.md explains why).
        """
        slot = self.slot
        if slot is None or not slot.valid:
            return False
        magic, period, flags, _, ms, added, count, _ = struct.unpack_from(_STATE_FMT, slot.buf, 0)
        if magic != _MAGIC or period > self.periods + self.extra_periods or ms < 0:
            return False
        self.period = period
        self.running = bool(flags & _F_RUNNING)
        self.interval = bool(flags & _F_INTERVAL)
        self.over = bool(flags & _F_OVER)
        self.time_up = bool(flags & _F_TIME_UP)
        self.base_ms = ms
        self.added_ms = added
        self.base_ticks = now
        self.checkpoints = count
        self.interval_alarm = True  # an interval interrupted by a reset is not timed again
        self._arm()
        return True

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
        value = self.base_ms + W.ticks_diff(now, self.base_ticks)
        if self.end_mode == W.END_AT_ALARM:
            limit = self.length() + self.added_ms
            if value > limit:
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

    # -- commands (each returns an ACK_* code; repeating one is harmless) --------
    def _rebase(self, now):
        self.base_ms = self.ms(now)
        self.base_ticks = now

    def _arm(self):
        self.deadline = W.ticks_add(self.base_ticks, self.limit() - self.base_ms)

    def _changed(self, now):
        self.app.clock_changed(now)

    def start(self, now):
        """Kick off period 1, or the next period after an interval."""
        if self.over:
            return W.ACK_REFUSED
        if self.running:
            return W.ACK_DUPLICATE
        if not (self.period == 0 or self.interval):
            return self.resume(now)
        if self.period >= self.periods + self.extra_periods:
            return W.ACK_REFUSED
        self.period += 1
        self.base_ms = 0
        self.added_ms = 0
        self.interval = False
        self.time_up = False
        self.app.emit(W.EV_PERIOD_STARTED, 0, 0, self.length())
        self.base_ticks = now
        self.running = True
        self._arm()
        self.app.emit(W.EV_CLOCK_STARTED, REASON_START)
        self._changed(now)
        return W.ACK_OK

    def pause(self, now, reason=STOP_PAUSE):
        if not self.running:
            return W.ACK_DUPLICATE
        self._rebase(now)
        self.running = False
        self.dead_ball_since = now
        self.dead_ball_stop = reason == STOP_DEAD_BALL
        self.app.emit(W.EV_CLOCK_STOPPED, reason)
        self._changed(now)
        return W.ACK_OK

    def resume(self, now, reason=REASON_RESUME):
        if self.running:
            return W.ACK_DUPLICATE
        if self.period == 0 or self.interval or self.over:
            return W.ACK_REFUSED
        self.base_ticks = now
        self.running = True
        self.dead_ball_stop = False
        self._arm()
        self.app.emit(W.EV_CLOCK_STARTED, reason)
        self._changed(now)
        return W.ACK_OK

    def add_time(self, now, ms):
        """Added time announced by the referee, on top of the period's length."""
        if self.period == 0 or self.interval or self.over or ms <= 0:
            return W.ACK_REFUSED
        self._rebase(now)
        self.added_ms += ms
        self._arm()
        if self.time_up and W.ticks_diff(now, self.deadline) < 0:
            self.time_up = False  # next-dead-ball: the added time is still to be played
        self.app.emit(W.EV_TIME_ADDED, 0, 0, ms)
        self._changed(now)
        return W.ACK_OK

    def adjust(self, now, delta):
        """Correction by the host: move the clock by `delta` ms (never below 0)."""
        if self.period == 0 or self.interval or self.over:
            return W.ACK_REFUSED
        self._rebase(now)
        before = self.base_ms
        self.base_ms = max(0, before + delta)
        self._arm()
        if self.time_up and W.ticks_diff(now, self.deadline) < 0:
            self.time_up = False
        self.app.emit(W.EV_CLOCK_ADJUSTED, 0, 0, self.base_ms - before)
        self._changed(now)
        return W.ACK_OK

    def set_clock(self, now, period, ms):
        """Correction by the host: this is period `period` at clock `ms` (state kept otherwise)."""
        if period < 1 or period > self.periods + self.extra_periods or ms < 0:
            return W.ACK_REFUSED
        if period == self.period and ms == self.ms(now) and not self.interval:
            return W.ACK_DUPLICATE
        delta = ms - self.ms(now)
        if period != self.period:
            self.added_ms = 0
        self.period = period
        self.interval = False
        self.over = False
        self.base_ms = ms
        self.base_ticks = now
        self._arm()
        self.time_up = self.end_mode == W.END_NEXT_DEAD_BALL and ms >= self.limit()
        self.app.emit(W.EV_CLOCK_ADJUSTED, 0, 0, delta)
        self._changed(now)
        return W.ACK_OK

    def new_match(self, now):
        if self.period == 0 and not self.running:
            return W.ACK_DUPLICATE
        self.period = 0
        self.running = False
        self.interval = False
        self.over = False
        self.time_up = False
        self.dead_ball_stop = False
        self.base_ms = 0
        self.added_ms = 0
        self._changed(now)
        return W.ACK_OK

    def interval_from(self, now):
        """The rules ended the period now (the last lance after the alarm is the period's,
        001 Art. XXI §1): the interval, "entre o término da primeira fase e o início da
        segunda" (000 Art. 8 §9), is counted from here."""
        if not self.interval:
            return W.ACK_REFUSED
        self.interval_end = W.ticks_add(now, self.interval_ms)
        self.interval_alarm = False
        return W.ACK_OK

    def dead_ball(self, now):
        """The ball left play (sensor or referee): stops a ball-in-play clock, ends a time-up period."""
        if self.time_up and self.end_mode == W.END_NEXT_DEAD_BALL:
            self._end_period(now, now)
            return W.ACK_OK
        if self.running and self.clock_mode == W.CLOCK_BALL_IN_PLAY:
            return self.pause(now, STOP_DEAD_BALL)
        return W.ACK_DUPLICATE

    def play_on(self, now, give_back=0):
        """Ball-in-play mode: the clock runs again. `give_back`: the dead ball it stopped on
        never was (the referee voided it), so the time since that stop counts as played."""
        if self.clock_mode == W.CLOCK_BALL_IN_PLAY and not self.running:
            if (give_back and self.dead_ball_stop
                    and not (self.period == 0 or self.interval or self.over)):
                gone = W.ticks_diff(now, self.dead_ball_since)
                if gone > 0:
                    self.base_ms += gone
                    self.app.emit(W.EV_CLOCK_ADJUSTED, 0, 0, gone)
            return self.resume(now, REASON_PLAY_ON)
        return W.ACK_DUPLICATE if self.running else W.ACK_REFUSED

    # -- the loop ----------------------------------------------------------------
    def poll(self, now):
        if not self.running or self.time_up:
            if self.interval and not self.interval_alarm and self.interval_ms > 0:
                if W.ticks_diff(now, self.interval_end) >= 0:
                    self.interval_alarm = True
                    self.app.buzzer.play(W.BEEP_WARNING, now)
                    self.app.emit(W.EV_ALARM, W.BEEP_WARNING)
            return
        if W.ticks_diff(now, self.deadline) < 0:
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
        if self.end_mode == W.END_AT_ALARM:
            self.base_ms = self.limit()
        else:
            self.base_ms = self.ms(now)
        self.base_ticks = at
        self.running = False
        self.time_up = False
        self.app.buzzer.play(W.BEEP_ALARM, now)
        self.app.lance.stop()
        self.app.emit(W.EV_ALARM, W.BEEP_ALARM)
        self.app.emit(W.EV_PERIOD_OVER)
        self.app.emit(W.EV_CLOCK_STOPPED, STOP_PERIOD_OVER)
        if self.period >= self.periods + self.extra_periods:
            self.over = True
            self.app.emit(W.EV_MATCH_OVER)
        else:
            self.interval = True
            self.interval_alarm = False
            self.interval_end = W.ticks_add(at, self.interval_ms)
        self._changed(now)


def clock_command(clock, lance, code, a, b, x, now):
    """A host command to the match clock or the lance timer, as the device runs it
    (firmware/app.py) and the light simulated tables too: its ACK_* code, or None when
    ``code`` is none of these."""
    if code == W.CMD_START or code == W.CMD_NEW_PERIOD:
        return clock.start(now)
    if code == W.CMD_PAUSE:
        return clock.pause(now)
    if code == W.CMD_RESUME:
        return clock.resume(now)
    if code == W.CMD_ADJUST:
        return clock.adjust(now, x)
    if code == W.CMD_ADD_TIME:
        return clock.add_time(now, x)
    if code == W.CMD_LANCE:
        return lance.stop() if b else lance.restart(now, a)
    if code == W.CMD_PLAY_ON:
        return clock.play_on(now, a)
    if code == W.CMD_DEAD_BALL:
        return clock.dead_ball(now)
    if code == W.CMD_INTERVAL:
        return clock.interval_from(now)
    if code == W.CMD_SET_CLOCK:
        return clock.set_clock(now, a, x)
    if code == W.CMD_NEW_MATCH:
        lance.stop()
        return clock.new_match(now)
    return None
