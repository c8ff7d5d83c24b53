"""Device side of the serial link: the event ring, handshake, acknowledgements, replay, commands.

Every event gets the next sequence number and is kept, as its encoded raw
frame, in a preallocated ring until the host acknowledges it (cumulatively,
after committing it). When acknowledgements stop advancing the device
resends from the oldest unacknowledged event. The host says in HELLO what it
already has; what the ring no longer holds is answered with a GAP notice and
a status snapshot. Nothing is sent while no host has said HELLO recently, so
a stalled host can never block the loop on a full output buffer.
"""

import struct
from time import ticks_diff as time_diff

from micropython import const

import futmesa_wire as W

RESEND_MS = const(300)  # real ms without ack progress before resending the unacked events
WINDOW = const(24)  # frames in flight: bounds the bytes waiting in OS/USB buffers
BURST = const(6)  # frames written per loop pass, so one pass stays short
STATUS_MS = const(1000)  # heartbeat: a status snapshot at least this often
SILENCE_MS = const(3000)  # host silent this long: stop sending until it says HELLO again
_RX_SIZE = const(128)
_EVF = const(28)  # W.EVENT_FRAME_SIZE


class DeviceLink:
    def __init__(self, board, app, boot_id, ring_size):
        self.board = board
        self.app = app
        self.boot_id = boot_id
        self.size = ring_size
        self.ring = bytearray(ring_size * _EVF)
        self.next_seq = 1
        self.acked = 0
        self.sent = 0
        self.connected = False
        self.last_cmd_seq = 0
        self.last_rx = 0
        self.last_progress = 0
        self.last_status = 0
        self.status_dirty = True
        self.bad_frames = 0
        # preallocated buffers
        self._body = bytearray(W.HEADER_SIZE + W.EVENT_SIZE)
        self._tx = bytearray(_EVF + 2)
        self._st_body = bytearray(W.HEADER_SIZE + 32)
        self._st_raw = bytearray(W.STATUS_FRAME_SIZE)
        self._st_tx = bytearray(W.STATUS_FRAME_SIZE + 2)
        self._chunk = bytearray(64)
        self._rx = bytearray(_RX_SIZE)
        self._rx_len = 0
        self._rx_skip = False
        self._dec = bytearray(_RX_SIZE)

    # -- events ------------------------------------------------------------------
    def oldest(self):
        first = self.next_seq - self.size
        return first if first > 1 else 1

    def push(self, ticks, kind, a, b, period, clock_ms, value):
        seq = self.next_seq
        W.pack_event_frame(self._body, self.ring, (seq % self.size) * _EVF, self.boot_id, seq,
                           ticks & 0xFFFFFFFF, kind, a, b, period, clock_ms, value)
        self.next_seq = seq + 1
        return seq

    def _send_event(self, seq):
        n = W.cobs_encode_into(self.ring, _EVF, self._tx, (seq % self.size) * _EVF)
        self.board.port_write(self._tx, n)

    # -- the loop ----------------------------------------------------------------
    def poll(self, real_now, ticks):
        board = self.board
        if not board.port_ready():
            self.connected = False
            return
        self._receive(real_now)
        if not self.connected:
            return
        if time_diff(real_now, self.last_rx) >= SILENCE_MS:
            self.connected = False
            return
        # events the ring overwrote before the host acknowledged them
        if self.acked < self.oldest() - 1:
            self._send_gap(self.boot_id, self.acked + 1, ticks)
            self.acked = self.oldest() - 1
            if self.sent < self.acked:
                self.sent = self.acked
        # resend from the oldest unacknowledged when acks stop advancing
        if self.sent > self.acked and time_diff(real_now, self.last_progress) >= RESEND_MS:
            self.sent = self.acked
            self.last_progress = real_now
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

    def send_status(self, ticks):
        app = self.app
        clock = app.clock
        lance = app.lance
        flags = clock.flags()
        if lance.running:
            flags |= W.ST_LANCE_RUNNING
        W.pack_status_frame(self._st_body, self._st_raw, self.boot_id, self.next_seq - 1,
                            ticks & 0xFFFFFFFF, clock.period, flags, app.inputs.palheta,
                            lance.side, clock.ms(ticks), clock.length(), clock.added_ms,
                            lance.remaining(ticks), lance.length(), self.next_seq - 1,
                            self.acked)
        n = W.cobs_encode_into(self._st_raw, W.STATUS_FRAME_SIZE, self._st_tx)
        self.board.port_write(self._st_tx, n)

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

    def _frame(self, n, real_now):
        try:
            m = W.cobs_decode_into(self._rx, n, self._dec)
            msg = W.check_raw(self._dec, m)
        except W.FrameError:
            self.bad_frames += 1
            return
        self.last_rx = real_now
        dec = self._dec
        if msg == W.MSG_HELLO:
            self._hello(dec, m, real_now)
            return
        if not self.connected:
            return  # anything but HELLO waits for a handshake
        if msg == W.MSG_ACK:
            boot, seq = struct.unpack_from(W.ACK_FMT, dec, W.HEADER_SIZE)
            if boot != self.boot_id:
                return
            if seq > self.acked:
                self.acked = seq if seq <= self.sent else self.sent
                self.last_progress = real_now
            elif seq == self.acked and self.sent > self.acked:
                # a repeated ack: the host is missing the next event — resend now
                if time_diff(real_now, self.last_progress) >= RESEND_MS // 3:
                    self.sent = self.acked
                    self.last_progress = real_now
        elif msg == W.MSG_CMD or msg == W.MSG_PROFILE:
            seq = struct.unpack_from("<I", dec, 4)[0]
            if seq <= self.last_cmd_seq:
                self._cmd_ack(seq, dec[W.HEADER_SIZE] if msg == W.MSG_CMD else 0, W.ACK_DUPLICATE)
                return
            if msg == W.MSG_CMD:
                code, a, b, c, x, y = struct.unpack_from(W.CMD_FMT, dec, W.HEADER_SIZE)
                result = self.app.command(code, a, b, c, x, y)
            else:
                code = 0
                result = self.app.set_profile(bytes(dec[W.HEADER_SIZE:m - W.CRC_SIZE]))
            self.last_cmd_seq = seq
            self._cmd_ack(seq, code, result)
        elif msg == W.MSG_PING:
            echo = struct.unpack_from(W.PING_FMT, dec, W.HEADER_SIZE)[0]
            self._write(W.MSG_PONG, 0, struct.pack(W.PING_FMT, echo))

    def _hello(self, dec, m, real_now):
        if m - W.CRC_SIZE - W.HEADER_SIZE < 8:
            self.bad_frames += 1
            return
        proto, last_boot, last_seq = struct.unpack_from(W.HELLO_FMT, dec, W.HEADER_SIZE)
        if proto != W.PROTO_VERSION or dec[0] != W.PROTO_VERSION:
            self._write(W.MSG_REFUSE, 0, struct.pack(W.REFUSE_FMT, W.PROTO_VERSION, proto))
            self.board.log("refused host with protocol %d (device speaks %d)"
                           % (proto, W.PROTO_VERSION))
            self.connected = False
            return
        self.last_progress = real_now
        clock = self.app.clock
        fw = W.FIRMWARE_VERSION
        payload = struct.pack(W.HELLO_ACK_FMT, W.PROTO_VERSION, fw[0], fw[1], fw[2],
                              self.board.name.encode(), self.board.unique_id(), self.oldest(),
                              self.next_seq - 1, self.board.tick_rate,
                              self.board.tick_bits) + clock.profile_bytes()
        payload += struct.pack("<I", self.last_cmd_seq)
        ticks = self.board.ticks_ms()
        identify = last_seq == W.IDENTIFY_ONLY
        # header seq 0: "this is who I am"; 1: "replaying from your cursor"
        self._write(W.MSG_HELLO_ACK, 0 if identify else 1, payload, ticks)
        if identify:
            self.connected = False
            return
        self.connected = True
        start = last_seq + 1 if last_boot == self.boot_id else 1
        if start > self.next_seq:
            start = self.next_seq  # the host has more than this boot made: it is another device's
        if start < self.oldest():
            self._send_gap(last_boot if last_boot == self.boot_id else self.boot_id, start, ticks)
            start = self.oldest()
        self.acked = start - 1
        self.sent = self.acked
        self.status_dirty = True

    def _send_gap(self, boot, seq, ticks):
        self._write(W.MSG_GAP, 0, struct.pack(W.GAP_FMT, boot, seq, self.oldest(),
                                              self.next_seq - 1), ticks)
        self.send_status(ticks)

    def _cmd_ack(self, seq, code, result):
        self._write(W.MSG_CMD_ACK, seq, struct.pack(W.CMD_ACK_FMT, result, code, 0))

    def _write(self, msg_type, seq, payload, ticks=None):
        if ticks is None:
            ticks = self.board.ticks_ms()
        frame = W.encode_frame(msg_type, self.boot_id, seq, ticks, payload)
        self.board.port_write(frame)

