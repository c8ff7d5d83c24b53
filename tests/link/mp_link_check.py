# Run by tests/link/test_device_link.py under `micropython`: the device side of the link
# (firmware/link.py) driven frame by frame through a fake board, checking the protocol rules
# of docs/protocol.md. Each check prints "ok <name>"; the last line is "OK <n>".
import struct
import sys

from devhost import ack_frame, check, hello_frame

import futmesa_wire as W
import link as L

try:
    import micropython
except ImportError:
    micropython = None

UID = b"TESTUID1"


class Board:
    name = "sim"
    tick_rate = 1000
    tick_bits = 32

    def __init__(self):
        self.t = 1000
        self.rx = bytearray()
        self.rx_pos = 0
        self.out = bytearray()
        self.count_only = False
        self.written = 0
        self.logs = []

    def ticks_ms(self):
        return self.t

    def unique_id(self):
        return UID

    def port_ready(self):
        return True

    def port_readinto(self, buf):
        n = len(self.rx) - self.rx_pos
        if n > len(buf):
            n = len(buf)
        if n <= 0:
            if self.rx_pos:
                self.rx_pos = 0
                self.rx[:] = b""
            return 0
        pos = self.rx_pos
        for i in range(n):
            buf[i] = self.rx[pos + i]
        self.rx_pos = pos + n
        return n

    def port_write(self, buf, n=-1):
        if n < 0:
            n = len(buf)
        if self.count_only:
            self.written += n
            return n
        self.out += bytes(buf[:n])
        return n

    def log(self, text):
        self.logs.append(text)


class Clock:
    period = 1
    added_ms = 0

    def flags(self):
        return W.ST_RUNNING

    def ms(self, t):
        return 5000

    def length(self):
        return 1500000

    def profile_bytes(self):
        return struct.pack(W.PROFILE_FMT, 2, 0, 0, 0, 1500000, 300000, 0, 15000, 0, 0)


class Lance:
    running = False
    side = 2

    def remaining(self, t):
        return 0

    def length(self):
        return 15000


class Inputs:
    palheta = 1


class Slot:
    """nvstore.Slot's interface over the fake store's files; counts flash writes."""

    def __init__(self, store, name, size):
        self.store = store
        self.name = name
        self.buf = bytearray(size)
        old = store.files.get(name)
        if old is not None and len(old) == size:
            self.buf[:] = old
        store.files[name] = bytes(self.buf)
        store.counts[name] = 0

    def flush(self):
        # allocation-free like nvstore.Slot (the steady-state check below runs under heap_lock):
        # the file is this buffer from the first write on
        self.store.files[self.name] = self.buf
        self.store.counts[self.name] += 1
        self.store.flushes += 1


class Store:
    def __init__(self):
        self.files = {}
        self.counts = {}  # flash writes per file
        self.boot = 7
        self.flushes = 0

    def slot(self, name, size):
        return Slot(self, name, size)

    def read(self, name):
        return self.files.get(name)

    def write(self, name, data):
        self.files[name] = bytes(data)

    def next_boot_id(self):
        self.boot += 1
        return self.boot


class App:
    def __init__(self):
        self.clock = Clock()
        self.lance = Lance()
        self.inputs = Inputs()
        self.store = Store()
        self.boot_id = 7
        self.commands = []

    def command(self, code, a, b, c, x, y):
        self.commands.append((code, x))
        return W.ACK_REFUSED if code == W.CMD_PAUSE else W.ACK_OK

    def set_profile(self, payload):
        return W.ACK_OK


def setup(ring=64):
    board = Board()
    app = App()
    link = L.DeviceLink(board, app, 7, ring)
    # at boot the device announces itself (HELLO_ACK seq 0: a host still talking to the
    # previous boot sees the reset at once), a few times, until a host says HELLO
    link.poll(board.t, board.t)
    fs = frames(board)
    check(len(fs) == 1 and fs[0].msg_type == W.MSG_HELLO_ACK and fs[0].seq == 0
          and fs[0].boot_id == 7, "announced at boot")
    link.poll(board.t, board.t)
    check(frames(board) == [], "not again at once")
    hello(board, 0, W.IDENTIFY_ONLY)  # a host answers: no more announcements
    step(board, link, L.ANNOUNCE_MS)
    fs = frames(board)
    check([(f.msg_type, f.seq) for f in fs] == [(W.MSG_HELLO_ACK, 0)], "the identify answer")
    step(board, link, 10 * L.ANNOUNCE_MS)
    check(frames(board) == [], "then silent until a HELLO")
    return board, app, link


def send(board, msg_type, boot, seq, payload):
    board.rx += W.encode_frame(msg_type, boot, seq, 0, payload)


def frames(board):
    out = []
    for block in bytes(board.out).split(b"\x00")[:-1]:
        out.append(W.decode_frame(block))
    board.out = bytearray()
    return out


def events(fs):
    return [f.seq for f in fs if f.msg_type == W.MSG_EVENT]


def step(board, link, ms=1):
    board.t += ms
    link.poll(board.t, board.t)


def push(link, n, kind=W.EV_BUTTON):
    for _ in range(n):
        link.push(0, kind, 0, 0, 1, 0, 0)


def hello(board, boot, seq, proto=W.PROTO_VERSION):
    board.rx += hello_frame(boot, seq, proto)


def ack(board, seq, boot=7):
    board.rx += ack_frame(boot, seq)


def connect(board, link, boot=0, seq=0):
    hello(board, boot, seq)
    step(board, link)
    fs = frames(board)
    check(fs[0].msg_type == W.MSG_HELLO_ACK and fs[0].seq == 1, "HELLO_ACK first")
    return fs


n_ok = 0


def ok(name):
    global n_ok
    n_ok += 1
    print("ok", name)


# 1. identify-only HELLO: who I am, and nothing else is sent
board, app, link = setup()
push(link, 3)
hello(board, 0, W.IDENTIFY_ONLY)
step(board, link)
fs = frames(board)
check(len(fs) == 1 and fs[0].msg_type == W.MSG_HELLO_ACK and fs[0].seq == 0, "identify")
proto, _, _, _, bname, uid, oldest, newest, rate, bits = struct.unpack_from(
    W.HELLO_ACK_FMT, fs[0].payload)
check((proto, uid, oldest, newest, rate) == (W.PROTO_VERSION, UID, 1, 3, 1000), "HELLO_ACK fields")
check(struct.unpack_from("<I", fs[0].payload, len(fs[0].payload) - 4)[0] == 0, "last cmd")
for _ in range(5):
    step(board, link, 100)
check(frames(board) == [], "silent until a cursor HELLO")
ok("identify only")

# 2. cursor HELLO: replay what the host lacks, in order, windowed and in bursts
board, app, link = setup()
push(link, 40)
fs = connect(board, link, 7, 10)
# the answer to a cursor HELLO is the small RESUME one: only what the host needs to resume
check(len(fs[0].payload) == struct.calcsize(W.RESUME_ACK_FMT) == 22, "RESUME answer size")
check(struct.unpack(W.RESUME_ACK_FMT, fs[0].payload) == (W.PROTO_VERSION, UID, 1, 40, 0),
      "RESUME fields (proto, uid, oldest, newest, last cmd)")
check(len(W.cobs_encode(W.build_frame(W.MSG_HELLO_ACK, 7, 1, 0, fs[0].payload))) == 40,
      "RESUME answer: 40 bytes on the wire")
check(events(fs) == list(range(11, 11 + L.BURST)), "first burst from cursor+1")
for _ in range(10):
    step(board, link)
got = events(frames(board))
check(got == list(range(11 + L.BURST, 11 + L.WINDOW)), "window bounds frames in flight")
ok("replay from cursor, window")

# 3. cumulative ack opens the window; acks beyond what exists are ignored
ack(board, 20)
step(board, link)
check(link.acked == 20, "cumulative ack")
ack(board, 99)
step(board, link)
check(link.acked == 20, "ack of a seq never made is ignored")
ack(board, 30, boot=6)
step(board, link)
check(link.acked == 20, "ack for another boot is ignored")
ok("cumulative ack")

# 4. no ack progress for RESEND_MS: resend from the oldest unacknowledged
for _ in range(5):
    step(board, link)
frames(board)
step(board, link, L.RESEND_MS)
check(events(frames(board))[0] == 21, "resend from acked+1 after a stall")
for _ in range(5):
    step(board, link)
frames(board)
step(board, link, L.RESEND_MS)
check(events(frames(board)) == [], "backs off: no second resend after RESEND_MS")
step(board, link, L.RESEND_MS)
check(events(frames(board))[0] == 21, "second resend after 2 x RESEND_MS")
ok("resend on stall, with backoff")

# 5. a repeated ack (the host saw a later seq) resends at once
step(board, link, L.NACK_MS)
frames(board)
ack(board, 20)
step(board, link, L.NACK_MS)
check(events(frames(board))[0] == 21, "repeated ack resends")
ok("repeated ack")

# 6. HELLO mid-replay with an older cursor: answer, restart from it
hello(board, 7, 12)
step(board, link)
fs = frames(board)
check(fs[0].msg_type == W.MSG_HELLO_ACK and events(fs)[0] == 13, "restart from new cursor")
ok("HELLO mid-replay")

# 7. ring overflow while connected and unacked: GAP + status snapshot, then the oldest held
board, app, link = setup(ring=8)
connect(board, link, 0, 0)
push(link, 20)
step(board, link)
fs = frames(board)
gap = [f for f in fs if f.msg_type == W.MSG_GAP]
check(len(gap) == 1, "one GAP")
check(struct.unpack(W.GAP_FMT, gap[0].payload) == (7, 1, 13, 20), "GAP fields")
i = fs.index(gap[0])
check(fs[i + 1].msg_type == W.MSG_STATUS, "status snapshot follows the GAP")
check(events(fs)[0] == 13, "then the oldest event held")
ok("overflow gap")

# 8. HELLO with a cursor older than the ring: GAP, then from the oldest
board, app, link = setup(ring=8)
push(link, 30)
fs = connect(board, link, 7, 4)
check(fs[1].msg_type == W.MSG_GAP, "GAP right after HELLO_ACK")
check(struct.unpack(W.GAP_FMT, fs[1].payload) == (7, 5, 23, 30), "GAP asked/oldest/newest")
check(events(fs)[0] == 23, "replay from the oldest held")
ok("cursor before the ring")

# 9. HELLO for another boot: replay this boot from 1
board, app, link = setup()
push(link, 3)
fs = connect(board, link, 6, 100)
check(events(fs) == [1, 2, 3], "another boot's cursor replays from 1")
ok("other boot cursor")


# 10. commands: strictly in order, once, retries answered with the original result
def cmd(board, seq, code, x=0):
    send(board, W.MSG_CMD, 7, seq, struct.pack(W.CMD_FMT, code, 0, 0, 0, x, 0))


def cmd_acks(fs):
    return [(f.seq, f.payload[0], f.payload[1]) for f in fs if f.msg_type == W.MSG_CMD_ACK]


board, app, link = setup()
connect(board, link)
cmd(board, 1, W.CMD_PAUSE)
step(board, link)
check(cmd_acks(frames(board)) == [(1, W.ACK_REFUSED, W.CMD_PAUSE)], "cmd 1 acked")
cmd(board, 1, W.CMD_PAUSE)
step(board, link)
check(cmd_acks(frames(board)) == [(1, W.ACK_REFUSED, W.CMD_PAUSE)], "retry: same result")
cmd(board, 3, W.CMD_ADJUST, 500)
step(board, link)
check(cmd_acks(frames(board)) == [], "cmd 3 before 2: ignored")
cmd(board, 2, W.CMD_ADJUST, 100)
cmd(board, 3, W.CMD_ADJUST, 500)
step(board, link)
check(cmd_acks(frames(board)) == [(2, 0, W.CMD_ADJUST), (3, 0, W.CMD_ADJUST)], "2 then 3")
check(app.commands == [(W.CMD_PAUSE, 0), (W.CMD_ADJUST, 100), (W.CMD_ADJUST, 500)],
      "each command ran exactly once, in order")
check(app.store.files["cmdseq.bin"] == struct.pack("<I", 3), "last command seq persisted")
push(link, 5)
for _ in range(5):
    step(board, link)
ack(board, 5)
step(board, link)
frames(board)
send(board, W.MSG_CMD, 7, 4, struct.pack(W.CMD_FMT, W.CMD_REPLAY, 0, 0, 0, 7, 2))
step(board, link)
fs = frames(board)
check(cmd_acks(fs) == [(4, 0, W.CMD_REPLAY)] and events(fs) == [2, 3, 4, 5], "CMD_REPLAY")
check(len(app.commands) == 3, "CMD_REPLAY is the link's, not the app's")
link2 = L.DeviceLink(board, app, 8, 16)  # a reset: the counter survives on flash
check(link2.last_cmd_seq == 4, "restored after reset")
ok("commands in order, idempotent")

# 11. PING -> PONG echo with the device ticks
send(board, W.MSG_PING, 7, 0, struct.pack(W.PING_FMT, 0xDEADBEEF))
step(board, link)
pong = [f for f in frames(board) if f.msg_type == W.MSG_PONG]
check(len(pong) == 1 and pong[0].payload == struct.pack("<I", 0xDEADBEEF), "PONG echo")
check(pong[0].ticks == board.t, "PONG carries device ticks")
ok("ping/pong")

# 12. host silent for SILENCE_MS: stop sending; a HELLO brings it back
board, app, link = setup()
connect(board, link)
step(board, link, L.SILENCE_MS)
push(link, 2)
frames(board)
for _ in range(5):
    step(board, link, 200)
check(frames(board) == [] and not link.connected, "silent host: device stops sending")
fs = connect(board, link, 7, 0)
check(events(fs) == [1, 2], "resumes after HELLO")
ok("silence")

# 13. protocol mismatch: REFUSE and say so
board, app, link = setup()
hello(board, 0, 0, proto=W.PROTO_VERSION + 1)
step(board, link)
fs = frames(board)
check(len(fs) == 1 and fs[0].msg_type == W.MSG_REFUSE, "REFUSE")
check(struct.unpack(W.REFUSE_FMT, fs[0].payload) == (W.PROTO_VERSION, W.PROTO_VERSION + 1),
      "REFUSE fields")
check(not link.connected and "refused" in board.logs[0], "device logs the refusal")
ok("version refusal")

# 14. bad frames are counted, never fatal
board, app, link = setup()
board.rx += b"\x05\x01\x02\x00" + b"\x07" * 300 + b"\x00" + b"\x00\x00"
step(board, link)
check(link.bad_frames == 2, "bad frames counted: " + str(link.bad_frames))
connect(board, link)
ok("bad frames")

# 15. sequence space used up: continue under a new boot id
board, app, link = setup()
link.seq_max = 5
push(link, 7)
check(link.boot_id == 8 and link.next_seq == 3 and app.boot_id == 8, "new epoch")
check(not link.connected, "the host must identify the new boot")
fs = connect(board, link)
check(fs[0].boot_id == 8 and events(fs) == [1, 2], "the new boot's events from 1")
ok("seq rollover")

# 16. unacknowledged events survive a reset as a flash record, written at a bounded rate,
# and the next boot reports them as EV_LOST (per kind, then the summary)
board, app, link = setup()
connect(board, link)
ack(board, 0)
push(link, 3)  # buttons, acknowledged
ack(board, 3)
step(board, link)
check(app.store.counts["pending.bin"] == 0, "nothing written while acks keep up")
for i in range(300):  # a connected table, busy: 3 s of events, each acked 5 ms later
    push(link, 1, W.EV_PALHETA)
    step(board, link, 5)
    ack(board, 4 + i)
    step(board, link, 5)
check(app.store.counts["pending.bin"] == 0, "a connected table never writes the record: "
      + str(app.store.counts["pending.bin"]))
# the cable is pulled: events pile up unacknowledged
push(link, 2, W.EV_GOAL_LINE)
push(link, 3, W.EV_BUTTON)
step(board, link)  # the pass that sees them unacknowledged
step(board, link, L.PENDING_GRACE_MS - 10)
check(app.store.counts["pending.bin"] == 0, "not within the grace time")
step(board, link, 20)
check(app.store.counts["pending.bin"] == 1, "written once past the grace time")
for _ in range(30):
    push(link, 1, W.EV_BALL_OUT)
    step(board, link, 50)  # 1.5 s of events, one every 50 ms
n = app.store.counts["pending.bin"]
check(2 <= n <= 2 + 1500 // L.PENDING_MS, "at most one write per PENDING_MS: " + str(n))
step(board, link, L.PENDING_MS)
rec = struct.unpack_from("<HHII", app.store.files["pending.bin"])
check(rec[3] == link.next_seq - 1 and app.store.counts["pending.bin"] <= n + 1,
      "the newest events written")
n = app.store.counts["pending.bin"]
step(board, link, 5 * L.PENDING_MS)
check(app.store.counts["pending.bin"] == n, "nothing new, nothing written")
# reset: a new link on the same flash, the next boot id
board2 = Board()
app2 = App()
app2.store = app.store
reborn = L.DeviceLink(board2, app2, 8, 64)
check(reborn.lost is not None and reborn.lost[:3] == (7, 304, 338), "record read: "
      + str(reborn.lost and reborn.lost[:3]))
reborn.report_lost(0, 1)
lost = []
for seq in range(1, reborn.next_seq):
    raw = reborn.ring[(seq % 64) * 28:(seq % 64) * 28 + 28]
    kind, a, b, period, clock_ms, value = struct.unpack_from(W.EVENT_FMT, raw, 12)
    lost.append((kind, a, clock_ms, value))
check(lost == [(W.EV_LOST, W.EV_GOAL_LINE, 304, 2), (W.EV_LOST, W.EV_BALL_OUT, 304, 30),
               (W.EV_LOST, W.EV_BUTTON, 304, 3), (W.EV_LOST, 0, 304, 338),
               (W.EV_LOST, 0, 337, 352)], "EV_LOST (the last: the seq reservation): "
      + str(lost))
check(app.store.files["pending.bin"] == bytes(60), "the record is cleared at boot")
again = L.DeviceLink(Board(), app2, 9, 64)
check(again.lost is None, "reported once")
ok("unacknowledged events survive a reset")

# 16b. the seq reservation: one flash write per RESERVE events, written before the event
# exists, so a reset at any moment leaves a bound on what the boot numbered
board, app, link = setup()
check(app.store.counts["seqres.bin"] == 0, "nothing reserved before the first event")
push(link, 1)
check(app.store.counts["seqres.bin"] == 1
      and struct.unpack("<HHI", app.store.files["seqres.bin"]) == (7, 0, L.RESERVE),
      "the first event reserves 1..RESERVE")
push(link, L.RESERVE - 1)
check(app.store.counts["seqres.bin"] == 1, "no write within the reservation")
push(link, 1)  # seq RESERVE + 1 crosses it
check(app.store.counts["seqres.bin"] == 2
      and struct.unpack("<HHI", app.store.files["seqres.bin"]) == (7, 0, 2 * L.RESERVE),
      "crossing it: one write, RESERVE further")
push(link, 3 * L.RESERVE)
check(app.store.counts["seqres.bin"] == 5, "one write per RESERVE events: "
      + str(app.store.counts["seqres.bin"]))
made = link.next_seq - 1  # 4 * RESERVE + 1: no pending record (never unacknowledged long)
reborn = L.DeviceLink(Board(), App(), 8, 64)
reborn.app.store = app.store
reborn = L.DeviceLink(Board(), reborn.app, 8, 64)
check(reborn.lost is None and reborn.reserved_prev == (4 * L.RESERVE + 1, 5 * L.RESERVE),
      "the previous boot's reservation read: " + str(reborn.reserved_prev))
reborn.report_lost(0, 1)
raw = reborn.ring[28:56]
check(struct.unpack_from(W.EVENT_FMT, raw, 12) == (W.EV_LOST, 0, W.LOST_RESERVED, 1,
                                                   4 * L.RESERVE + 1, 5 * L.RESERVE),
      "reported as EV_LOST a=0 b=LOST_RESERVED (made, reserved)")
check(made <= 5 * L.RESERVE and struct.unpack("<HHI", app.store.files["seqres.bin"])[0] == 8,
      "the new boot reserves its own seqs at its first event")
check(L.DeviceLink(Board(), reborn.app, 9, 64).reserved_prev[1] == L.RESERVE,
      "reported once: the next boot sees boot 8's own reservation")
board, app, link = setup()
link.seq_max = L.RESERVE + 4  # near the end of the seq space: never reserved beyond it
push(link, L.RESERVE + 1)
check(struct.unpack("<HHI", app.store.files["seqres.bin"]) == (7, 0, L.RESERVE + 4),
      "the reservation stops at the last seq: "
      + str(struct.unpack("<HHI", app.store.files["seqres.bin"])))
ok("seq reservation")

# 17. a record of another boot than the previous one is not believed
store = Store()
store.files["pending.bin"] = struct.pack("<HHII", 3, 0, 1, 5) + bytes(48)
app3 = App()
app3.store = store
check(L.DeviceLink(Board(), app3, 7, 64).lost is None, "not the previous boot")
ok("stale record ignored")

# 18. steady state allocates nothing: pushing, sending event frames and the status,
# receiving the host's ACKs and PINGs (and answering PONG)
if micropython is not None and hasattr(micropython, "heap_lock") and not L.TRACE:
    board, app, link = setup()
    connect(board, link)
    board.count_only = True
    step(board, link)
    acks = [W.encode_frame(W.MSG_ACK, 7, 0, 0, struct.pack(W.ACK_FMT, 7, i)) for i in range(51)]
    ping = W.encode_frame(W.MSG_PING, 7, 0, 0, struct.pack(W.PING_FMT, 12345))
    board.rx = bytearray(4096)  # preallocated: the fake port must not allocate either
    board.rx[:] = b""
    micropython.heap_lock()
    try:
        for i in range(50):
            link.push(board.t, W.EV_BUTTON, 0, 0, 1, 1000, 0)
            link.status_dirty = True  # as App.emit does: a status frame per event too
            board.t += 1
            board.rx += acks[i]  # the host acks what it has committed
            if i % 10 == 0:
                board.rx += ping
            link.poll(board.t, board.t)
    finally:
        micropython.heap_unlock()
    check(link.acked == 49 and link.bad_frames == 0, "acks parsed: " + str(link.acked))
    check(board.written >= 50 * 29, "frames were written: " + str(board.written))
    ok("no allocation in steady state")

print("OK", n_ok)
sys.exit(0)
