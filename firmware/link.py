"""Device side of the serial link: the event ring, handshake, acknowledgements, replay, commands.

Every event gets the next sequence number and is kept, as its encoded raw
frame, in a preallocated ring until the host acknowledges it (cumulatively,
after committing it). When acknowledgements stop advancing the device
resends from the oldest unacknowledged event. The host says in HELLO what it
already has; what the ring no longer holds is answered with a GAP notice and
a status snapshot. Nothing is sent while no host has said anything for
SILENCE_MS (and nothing before a HELLO), so a stalled host can never block
the loop on a full output buffer. Commands run
strictly in sequence order, once each (their last seq persists on flash).
While the host asked for it (CMD_DIAG), a DIAG frame with the raw sensor
readings goes out every DIAG_MS, from preallocated buffers like STATUS; it
stops with the connection (silence, a new HELLO) so only a host that asks gets it.
The protocol is described in docs/protocol.md.

Events a host has not acknowledged survive a reset as a small record on flash
(`pending.bin`: the boot, the first and last unacknowledged seq, a count per
event kind), rewritten at most every PENDING_MS and only once events have gone
unacknowledged for PENDING_GRACE_MS with no ack progress, so a connected table
(acks within milliseconds) never writes it. The next boot reports it as EV_LOST events, and
the host records the gap with the kinds lost. At boot the device announces
itself (an unsolicited HELLO_ACK, seq 0; up to ANNOUNCE_TIMES, until a HELLO)
so a host still talking to the previous boot sees the reset at once instead
of after SILENCE_MS.

With FUTMESA_TRACE_EVENTS set in the environment (unix port only), every
event pushed is also printed as `EV <boot> <seq> <kind>`: the ground truth
the fault tests compare the host's log with. Off, push allocates nothing.
"""

import struct

try:
    from micropython import const
except ImportError:  # CPython: the light simulated tables (futmesa_testkit.lighttable)
    from futmesa_wire import const

import futmesa_wire as W

time_diff = W.ticks_diff  # the board's ms ring (time.ticks_diff on MicroPython)

try:
    from os import getenv

    TRACE = bool(getenv("FUTMESA_TRACE_EVENTS"))
except (ImportError, AttributeError):  # a real board: no environment
    TRACE = False

RESEND_MS = const(300)  # real ms without ack progress before resending the unacked events
RESEND_MAX_MS = const(1200)  # ... doubling after each fruitless resend, up to this
NACK_MS = const(100)  # a repeated ack resends at once, but not more often than this
WINDOW = const(24)  # frames in flight: bounds the bytes waiting in OS/USB buffers
BURST = const(6)  # frames written per loop pass, so one pass stays short
STATUS_MS = const(1000)  # heartbeat: a status snapshot at least this often
SILENCE_MS = const(3000)  # host silent this long: stop sending until it says HELLO again
DIAG_MS = const(50)  # real ms between DIAG frames while the host asked for them
PENDING_MS = const(250)  # real ms between flash writes of the unacknowledged-events record
PENDING_GRACE_MS = const(300)  # unacknowledged this long (no ack progress) before it is written
ANNOUNCE_MS = const(200)  # real ms between the boot announcements (ANNOUNCE_TIMES in all)
ANNOUNCE_TIMES = const(3)
RESERVE = const(16)  # seqs reserved on flash per write: one write per RESERVE events
_RESERVE_SIZE = const(8)  # <HHI: boot id, 0, reserved up to seq
_PENDING_KINDS = const(24)  # event kinds counted in the record (kind 0 unused)
_PENDING_SIZE = const(60)  # <HHII + 24 x u16 counts
# Sequence numbers stay below 2**30 so they are small ints on 32-bit ports;
# reaching the limit starts a new boot id (docs/protocol.md, "Sequence numbers").
SEQ_MAX = const(0x3FFFFFFF)
_RX_SIZE = const(128)
_EVF = const(28)  # W.EVENT_FRAME_SIZE
_ACK_BODY = const(18)  # header + ACK payload: the CRC's input
_PING_BODY = const(16)


class DeviceLink:
    def __init__(self, board, app, boot_id, ring_size):
        self.board = board
        self.app = app
        self.boot_id = boot_id
        self.size = ring_size
        # frames carry ticks mod 2**32; the mask is the board's tick period - 1, built
        # from halves so it stays a small int on a 32-bit port (tick_bits 30): a literal
        # 0xFFFFFFFF there is a boxed int, and every `ticks & 0xFFFFFFFF` allocated
        half = 1 << (min(board.tick_bits, 32) - 1)
        self._tick_mask = (half - 1) | half
        self.ring = bytearray(ring_size * _EVF)
        self.seq_max = SEQ_MAX
        self.next_seq = 1
        self.acked = 0
        self.sent = 0
        self.connected = False
        self.last_cmd_seq = self._load_cmd_seq()
        self._cmd_res = bytearray(8)  # results of the last 8 commands, by seq % 8
        for i in range(8):
            self._cmd_res[i] = W.ACK_DUPLICATE
        self.last_rx = 0
        self.last_progress = 0
        self.resend_ms = RESEND_MS
        self.last_status = 0
        self.status_dirty = True
        self.bad_frames = 0
        self.diag = False  # CMD_DIAG: stream raw readings
        self.last_diag = 0
        # preallocated buffers
        self._body = bytearray(W.HEADER_SIZE + W.EVENT_SIZE)
        self._tx = bytearray(_EVF + 2)
        self._st_body = bytearray(W.HEADER_SIZE + 32)
        self._st_raw = bytearray(W.STATUS_FRAME_SIZE)
        self._st_tx = bytearray(W.STATUS_FRAME_SIZE + 2)
        self._sm_body = bytearray(W.HEADER_SIZE + 4)
        self._sm_raw = bytearray(W.SMALL_FRAME_SIZE)
        self._sm_tx = bytearray(W.SMALL_FRAME_SIZE + 2)
        self._dg_body = bytearray(W.HEADER_SIZE + 8)
        self._dg_raw = bytearray(W.DIAG_FRAME_SIZE)
        self._dg_tx = bytearray(W.DIAG_FRAME_SIZE + 2)
        self._chunk = bytearray(64)
        self._rx = bytearray(_RX_SIZE)
        self._rx_len = 0
        self._rx_skip = False
        self._dec = bytearray(_RX_SIZE)
        self._crc_got = bytearray(4)  # the CRC of a received ACK/PING, as bytes
        # the unacknowledged-events record on flash (or in RAM only, without a store)
        store = getattr(app, "store", None)
        slot = getattr(store, "slot", None)
        self._pend = slot("pending.bin", _PENDING_SIZE) if slot is not None else None
        self._pend_buf = self._pend.buf if self._pend is not None else bytearray(_PENDING_SIZE)
        self.lost = self._previous_pending()  # (boot, first, last, counts) or None
        self._pend_acked = 0  # the acked and newest seq the record on flash describes
        self._pend_newest = 0  # ... 0: the record is empty
        if self.lost is not None:
            self._clear_pending()
        # the seq reservation on flash: this boot numbers events at most up to `_reserved`
        # without writing again; the previous boot's tells how far it may have gone
        self._res = slot("seqres.bin", _RESERVE_SIZE) if slot is not None else None
        self._res_buf = self._res.buf if self._res is not None else bytearray(_RESERVE_SIZE)
        self.reserved_prev = self._previous_reservation()  # (made, reserved) or None
        self._reserved = 0
        self._unacked_since = 0  # real ms since events are unacknowledged with no progress
        self._since_acked = 0
        self._unacked = False
        self._pend_at = 0
        self._announce = ANNOUNCE_TIMES  # unsolicited HELLO_ACKs once the port is up
        self._announce_at = 0
        self._announcement = b""

    # -- unacknowledged events survive a reset, as a record on flash -----------------
    def _previous_pending(self):
        buf = self._pend_buf
        boot, _, first, last = struct.unpack_from("<HHII", buf, 0)
        prev = (self.boot_id - 2) % 0xFFFF + 1  # the boot before this one
        if boot == 0 or boot != prev or first < 1 or last < first or last > SEQ_MAX:
            return None
        return boot, first, last, bytes(buf[12:_PENDING_SIZE])

    def _previous_reservation(self):
        boot, _, reserved = struct.unpack_from("<HHI", self._res_buf, 0)
        prev = (self.boot_id - 2) % 0xFFFF + 1
        if boot == 0 or boot != prev or reserved < RESERVE or reserved > SEQ_MAX:
            return None
        return reserved - RESERVE + 1, reserved

    def _reserve(self, seq):
        """Seq crosses the reservation on flash: reserve up to seq + RESERVE - 1 (one write).

        Written before the event exists, so a reset at any moment leaves on flash a bound
        on what this boot numbered; the next boot reports it (report_lost)."""
        reserved = seq + RESERVE - 1
        # never beyond the boot's last seq (a new boot id follows it: _new_epoch)
        self._reserved = reserved if reserved < self.seq_max else self.seq_max
        struct.pack_into("<HHI", self._res_buf, 0, self.boot_id, 0, self._reserved)
        if self._res is not None:
            self._res.flush()

    def _clear_pending(self):
        buf = self._pend_buf
        for i in range(_PENDING_SIZE):
            buf[i] = 0
        if self._pend is not None:
            self._pend.flush()
        self._pend_acked = 0
        self._pend_newest = 0

    def report_lost(self, ticks, period):
        """Push EV_LOST events for the previous boot's unacknowledged events (App, at boot)."""
        lost = self.lost
        res = self.reserved_prev
        self.lost = None
        self.reserved_prev = None
        if lost is not None:
            boot, first, last, counts = lost
            for kind in range(1, _PENDING_KINDS):
                n = counts[2 * kind] | counts[2 * kind + 1] << 8
                if n:
                    self.push(ticks, W.EV_LOST, kind, 0, period, first, n)
            self.push(ticks, W.EV_LOST, 0, 0, period, first, last)
        if res is not None:
            # the previous boot made event res[0] and numbered at most up to res[1]: the host
            # records what it lacks of that, so an event made after the record above (in the
            # last moments before the reset) is never lost without a trace
            self.push(ticks, W.EV_LOST, 0, W.LOST_RESERVED, period, res[0], res[1])

    def _track_pending(self, real_now):
        """Keep the record on flash in step with the unacknowledged events (bounded writes)."""
        newest = self.next_seq - 1
        acked = self.acked
        if acked >= newest:
            self._unacked = False
            if self._pend_newest:
                self._clear_pending()  # all acknowledged: one write, then nothing
            return
        if not self._unacked or acked != self._since_acked:
            # acks still progress: the host is there and committing, nothing is at risk
            self._unacked = True
            self._since_acked = acked
            self._unacked_since = real_now
            return
        if time_diff(real_now, self._unacked_since) < PENDING_GRACE_MS:
            return
        if self._pend_acked == acked and self._pend_newest == newest:
            return
        if self._pend_newest and time_diff(real_now, self._pend_at) < PENDING_MS:
            return
        self._save_pending(acked, newest, real_now)

    def _save_pending(self, acked, newest, real_now):
        buf = self._pend_buf
        for i in range(_PENDING_SIZE):
            buf[i] = 0
        struct.pack_into("<HHII", buf, 0, self.boot_id, 0, acked + 1, newest)
        seq = acked + 1
        oldest = self.oldest()
        if seq < oldest:
            seq = oldest  # overwritten in the ring: counted in the range, kinds unknown
        ring = self.ring
        size = self.size
        while seq <= newest:
            kind = ring[(seq % size) * _EVF + 12]
            if kind < _PENDING_KINDS:
                i = 12 + 2 * kind
                n = buf[i] | buf[i + 1] << 8
                if n < 0xFFFF:
                    n += 1
                    buf[i] = n & 0xFF
                    buf[i + 1] = n >> 8
            seq += 1
        if self._pend is not None:
            self._pend.flush()
        self._pend_acked = acked
        self._pend_newest = newest
        self._pend_at = real_now

    # -- command numbers survive a reset, so a retried command is never run twice --
    def _load_cmd_seq(self):
        store = getattr(self.app, "store", None)
        raw = store.read("cmdseq.bin") if store is not None else None
        return struct.unpack("<I", raw)[0] if raw and len(raw) == 4 else 0

    def _save_cmd_seq(self, seq):
        store = getattr(self.app, "store", None)
        if store is not None:
            store.write("cmdseq.bin", struct.pack("<I", seq))

    # -- events ------------------------------------------------------------------
    def oldest(self):
        """The oldest sequence number the ring still holds (next_seq when it is empty)."""
        first = self.next_seq - self.size
        return first if first > 1 else 1

    def push(self, ticks, kind, a, b, period, clock_ms, value):
        seq = self.next_seq
        if seq > self.seq_max:
            self._new_epoch()
            seq = 1
        if seq > self._reserved:
            self._reserve(seq)
        W.pack_event_frame(self._body, self.ring, (seq % self.size) * _EVF, self.boot_id, seq,
                           ticks & self._tick_mask, kind, a, b, period, clock_ms, value)
        self.next_seq = seq + 1
        if TRACE:
            print("EV", self.boot_id, seq, kind)
        return seq

    def _new_epoch(self):
        # The sequence space of this boot is used up: continue under a new boot
        # id, exactly as after a reset (the host records what it had not acked).
        self.boot_id = self.app.store.next_boot_id()
        self.app.boot_id = self.boot_id
        self.next_seq = 1
        self.acked = 0
        self.sent = 0
        self._reserved = 0  # the new boot id reserves its own seqs at its first event
        self.connected = False  # the host must identify the new boot first

    def _send_event(self, seq):
        n = W.cobs_encode_into(self.ring, _EVF, self._tx, (seq % self.size) * _EVF)
        self.board.port_write(self._tx, n)

    # -- the loop ----------------------------------------------------------------
    def poll(self, real_now, ticks):
        board = self.board
        self._track_pending(real_now)
        if not board.port_ready():
            self.connected = False
            self.diag = False
            return
        self._receive(real_now)
        if self._announce and (self._announce == ANNOUNCE_TIMES
                               or time_diff(real_now, self._announce_at) >= ANNOUNCE_MS):
            # "I just booted": a host talking to the previous boot learns of the reset now
            # (said a few times, a noisy line may eat one; it stops at the first HELLO)
            # (the frame is built once, at the first one: the repeats allocate nothing)
            if self._announce == ANNOUNCE_TIMES:
                self._announcement = self._hello_ack_frame(0, ticks)
            self._announce -= 1
            self._announce_at = real_now
            self.board.port_write(self._announcement)
        if not self.connected:
            return
        if time_diff(real_now, self.last_rx) >= SILENCE_MS:
            self.connected = False
            self.diag = False
            return
        # events the ring overwrote before the host acknowledged them
        oldest = self.oldest()
        if self.acked < oldest - 1:
            self._send_gap(self.boot_id, self.acked + 1, ticks)
            self.acked = oldest - 1
            if self.sent < self.acked:
                self.sent = self.acked
        # resend from the oldest unacknowledged when acks stop advancing
        if self.sent > self.acked and time_diff(real_now, self.last_progress) >= self.resend_ms:
            self.sent = self.acked
            self.last_progress = real_now
            # back off while nothing gets through (a host that stopped reading must
            # not have the same frames piled into its buffers ten times a second)
            if self.resend_ms < RESEND_MAX_MS:
                self.resend_ms *= 2
        burst = 0
        last = self.next_seq - 1
        while self.sent < last and self.sent - self.acked < WINDOW and burst < BURST:
            self.sent += 1
            self._send_event(self.sent)
            burst += 1
        if self.status_dirty or time_diff(real_now, self.last_status) >= STATUS_MS:
            self.send_status(ticks)
            self.last_status = real_now
            self.status_dirty = False
        if self.diag and time_diff(real_now, self.last_diag) >= DIAG_MS:
            self.send_diag(ticks)
            self.last_diag = real_now

    def send_status(self, ticks):
        app = self.app
        clock = app.clock
        lance = app.lance
        flags = clock.flags()
        if lance.running:
            flags |= W.ST_LANCE_RUNNING
        if self.connected:
            flags |= W.ST_HOST_LINK
        W.pack_status_frame(self._st_body, self._st_raw, self.boot_id, self.next_seq - 1,
                            ticks & self._tick_mask, clock.period, flags, app.inputs.palheta,
                            lance.side, clock.ms(ticks), clock.length(), clock.added_ms,
                            lance.remaining(ticks), lance.length(), self.next_seq - 1,
                            self.acked)
        n = W.cobs_encode_into(self._st_raw, W.STATUS_FRAME_SIZE, self._st_tx)
        self.board.port_write(self._st_tx, n)

    def send_diag(self, ticks):
        """The raw readings since the last DIAG (allocation-free, like STATUS)."""
        inputs = self.app.inputs
        g0 = inputs.goals[0]
        g1 = inputs.goals[1]
        W.pack_diag_frame(self._dg_body, self._dg_raw, self.boot_id, ticks & self._tick_mask,
                          g0.raw_mm if g0.tof else W.DIAG_NO_SAMPLE,
                          g1.raw_mm if g1.tof else W.DIAG_NO_SAMPLE, inputs.beam_bits(),
                          inputs.net_bits & 0xFF, inputs.pal_raw, inputs.button_bits)
        g0.raw_mm = W.DIAG_NO_SAMPLE
        g1.raw_mm = W.DIAG_NO_SAMPLE
        n = W.cobs_encode_into(self._dg_raw, W.DIAG_FRAME_SIZE, self._dg_tx)
        self.board.port_write(self._dg_tx, n)

    def _send_small(self, msg_type, seq, word):
        W.pack_small_frame(self._sm_body, self._sm_raw, msg_type, self.boot_id, seq,
                           self.board.ticks_ms() & self._tick_mask, word)
        n = W.cobs_encode_into(self._sm_raw, W.SMALL_FRAME_SIZE, self._sm_tx)
        self.board.port_write(self._sm_tx, n)

    # -- receiving ---------------------------------------------------------------
    def _receive(self, real_now):
        board = self.board
        chunk = self._chunk
        while True:
            n = board.port_readinto(chunk)
            if not n:
                return
            for i in range(n):
                byte = chunk[i]
                if byte == 0:
                    if self._rx_skip:
                        self._rx_skip = False
                    elif self._rx_len:
                        self._frame(self._rx_len, real_now)
                    self._rx_len = 0
                elif self._rx_skip:
                    continue
                elif self._rx_len >= _RX_SIZE:
                    self._rx_skip = True
                    self._rx_len = 0
                    self.bad_frames += 1
                else:
                    self._rx[self._rx_len] = byte
                    self._rx_len += 1

    def _crc_ok(self, m):
        # check_raw without allocating, for the steady-state frames (ACK, PING): the CRC
        # is computed into 4 bytes (crc32_into; a CRC as a Python int is boxed on a 32-bit
        # port from 2**30 up: the RP2040 allocated 16 bytes for most received frames)
        body = m - W.CRC_SIZE
        dec = self._dec
        got = self._crc_got
        W.crc32_into(dec, body, W._SEED_LO, W._SEED_HI, got, 0)
        return (dec[body] == got[0] and dec[body + 1] == got[1]
                and dec[body + 2] == got[2] and dec[body + 3] == got[3])

    def _frame(self, n, real_now):
        try:
            m = W.cobs_decode_into(self._rx, n, self._dec)
        except W.FrameError:
            self.bad_frames += 1
            return
        dec = self._dec
        if m >= 2 and ((m == _ACK_BODY + 4 and dec[1] == W.MSG_ACK)
                       or (m == _PING_BODY + 4 and dec[1] == W.MSG_PING)):
            if dec[0] != W.PROTO_VERSION or not self._crc_ok(m):
                self.bad_frames += 1
                return
            msg = dec[1]
        else:
            try:
                msg = W.check_raw(dec, m)
            except W.FrameError:
                self.bad_frames += 1
                return
        self.last_rx = real_now
        if msg == W.MSG_HELLO:
            self._hello(dec, m, real_now)
            return
        if not self.connected:
            return  # anything but HELLO waits for a handshake
        size = m - W.CRC_SIZE - W.HEADER_SIZE
        if msg == W.MSG_ACK:
            if size < 6:
                self.bad_frames += 1
                return
            # read without struct (no tuple): boot u16, seq u32 (< 2**30: a small int)
            boot = dec[12] | dec[13] << 8
            seq = dec[14] | dec[15] << 8 | dec[16] << 16 | dec[17] << 24
            if boot != self.boot_id or seq >= self.next_seq:
                return  # not an ack of this boot's events
            if seq > self.acked:
                # everything up to seq is committed on the host
                self.acked = seq
                if self.sent < seq:
                    self.sent = seq
                self.last_progress = real_now
                self.resend_ms = RESEND_MS
            elif seq == self.acked and self.sent > self.acked:
                # a repeated ack: the host is missing the next event — resend now
                if time_diff(real_now, self.last_progress) >= NACK_MS:
                    self.sent = self.acked
                    self.last_progress = real_now
        elif msg == W.MSG_CMD or msg == W.MSG_PROFILE:
            seq = struct.unpack_from("<I", dec, 4)[0]
            code = dec[W.HEADER_SIZE] if msg == W.MSG_CMD else 0
            last = self.last_cmd_seq
            if seq <= last:
                # a retry of a command already executed: never run it twice; answer with
                # the result it had (if still remembered)
                result = self._cmd_res[seq & 7] if last - seq < 8 else W.ACK_DUPLICATE
                self._send_small(W.MSG_CMD_ACK, seq, result | (code << 8))
                return
            if seq != last + 1:
                return  # an earlier command is missing: the host resends them in order
            if msg == W.MSG_CMD:
                if size < 12:
                    self.bad_frames += 1
                    return
                code, a, b, c, x, y = struct.unpack_from(W.CMD_FMT, dec, W.HEADER_SIZE)
                if code == W.CMD_REPLAY:
                    result = self._replay_from(x, y, self.board.ticks_ms())
                else:
                    result = self.app.command(code, a, b, c, x, y)
            else:
                result = self.app.set_profile(bytes(dec[W.HEADER_SIZE:m - W.CRC_SIZE]))
            self.last_cmd_seq = seq
            self._cmd_res[seq & 7] = result
            self._save_cmd_seq(seq)
            self._send_small(W.MSG_CMD_ACK, seq, result | (code << 8))
        elif msg == W.MSG_PING:
            if size < 4:
                self.bad_frames += 1
                return
            self._send_small(W.MSG_PONG, 0,
                             dec[12] | dec[13] << 8 | dec[14] << 16 | dec[15] << 24)

    def _hello(self, dec, m, real_now):
        if m - W.CRC_SIZE - W.HEADER_SIZE < 8:
            self.bad_frames += 1
            return
        proto, last_boot, last_seq = struct.unpack_from(W.HELLO_FMT, dec, W.HEADER_SIZE)
        if proto != W.PROTO_VERSION or dec[0] != W.PROTO_VERSION:
            self._write(W.MSG_REFUSE, 0, struct.pack(W.REFUSE_FMT, W.PROTO_VERSION, proto))
            self.board.log("refused a host speaking protocol %d (this firmware speaks %d):"
                           " update futmesa or the firmware" % (proto, W.PROTO_VERSION))
            self.connected = False
            return
        self.last_progress = real_now
        self._announce = 0  # a host is talking to this boot: no more announcements
        ticks = self.board.ticks_ms()
        identify = last_seq == W.IDENTIFY_ONLY
        if identify:
            self.diag = False  # a host (re)starting its session: it asks again if it wants it
        # header seq 0: "this is who I am" (all of it); 1: "replaying from your cursor"
        # (the small answer: only what the host needs to resume)
        if identify:
            self._send_hello_ack(0, ticks)
        else:
            self._write(W.MSG_HELLO_ACK, 1, struct.pack(
                W.RESUME_ACK_FMT, W.PROTO_VERSION, self.board.unique_id(), self.oldest(),
                self.next_seq - 1, self.last_cmd_seq), ticks)
        if identify:
            self.connected = False
            return
        # A HELLO may also arrive mid-replay (a retry that crossed our answer):
        # the cursor it carries is never ahead of what the host has committed,
        # so restarting from it can only resend events the host then drops.
        # A cursor beyond what this boot made (the host's log has another device's
        # or another epoch's events under this boot id) is clamped: nothing to send.
        self.connected = True
        self._replay_from(last_boot, last_seq + 1, ticks)

    def _hello_ack_frame(self, seq, ticks):
        fw = W.FIRMWARE_VERSION
        payload = struct.pack(W.HELLO_ACK_FMT, W.PROTO_VERSION, fw[0], fw[1], fw[2],
                              self.board.name.encode(), self.board.unique_id(), self.oldest(),
                              self.next_seq - 1, self.board.tick_rate,
                              self.board.tick_bits) + self.app.clock.profile_bytes()
        payload += struct.pack("<I", self.last_cmd_seq)
        return W.encode_frame(W.MSG_HELLO_ACK, self.boot_id, seq, ticks, payload)

    def _send_hello_ack(self, seq, ticks):
        self.board.port_write(self._hello_ack_frame(seq, ticks))

    def _replay_from(self, boot, seq, ticks):
        """Resend this boot's events from seq (CMD_REPLAY; a HELLO cursor does the same)."""
        start = seq if boot == self.boot_id else 1
        if start < 1:
            start = 1
        if start > self.next_seq:
            start = self.next_seq
        if start < self.oldest():
            self._send_gap(self.boot_id, start, ticks)
            start = self.oldest()
        self.acked = start - 1
        self.sent = self.acked
        self.resend_ms = RESEND_MS
        self.status_dirty = True
        return W.ACK_OK

    def _send_gap(self, boot, seq, ticks):
        self._write(W.MSG_GAP, 0, struct.pack(W.GAP_FMT, boot, seq, self.oldest(),
                                              self.next_seq - 1), ticks)
        self.send_status(ticks)

    def _write(self, msg_type, seq, payload, ticks=None):
        # rare frames (handshake, gap): allocating here is fine
        if ticks is None:
            ticks = self.board.ticks_ms()
        frame = W.encode_frame(msg_type, self.boot_id, seq, ticks, payload)
        self.board.port_write(frame)
