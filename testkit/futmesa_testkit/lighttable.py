"""A lightweight simulated table: the device side of the wire protocol in plain CPython, on a pty.

For scale benchmarks: many tables in one process (one asyncio loop), so a bench can put 64–256
tables on one ``futmesa serve`` and measure the daemon, not 256 MicroPython processes. The
MicroPython sims (:mod:`futmesa.sim.table`) stay for the firmware's own tests; this one speaks
the same protocol from the same module (``futmesa_wire``: frames, COBS, CRC, message layouts)
and follows docs/protocol.md sections 6–9 as ``firmware/link.py`` does:

- the boot announcement (HELLO_ACK seq 0, up to 3 times), the identification and the small
  RESUME answer to a cursor HELLO, replay from the host's cursor;
- numbered events kept until acknowledged, a window of 24 in flight, go-back-N resend after
  300 ms without ack progress (doubling up to 1200 ms), a repeated ack resends at once;
- STATUS on every change and every second; PONG echoing PING (time sync); silence after 3 s;
- commands run once each, in sequence order, with their results remembered (CMD_ACK);
  PROFILE; CMD_REPLAY.

The match clock and the lance timer are the device's own: ``firmware/matchclock.py`` and
``firmware/lance.py`` run here under CPython (installed, like ``futmesa_wire``, as top-level
modules), with this table as their app (``emit``, ``status_changed``, ``clock_changed``). The
command dispatch follows ``firmware/app.py``. Sensors are not filtered: ``goal(line)`` is one
``goal_line`` event. No flash, no buzzer: a table lives as long as its process (one boot).

:class:`LightFleet` runs many tables on one asyncio loop; :func:`play_script` plays the demo's
scripted match (:data:`futmesa.sim.demo_match.SCRIPT`) on one table, the referee's inputs
going to ``futmesa serve`` over HTTP with that table's own token.
"""

from __future__ import annotations

import asyncio
import os
import struct
import time
import tty
import uuid
from collections.abc import Awaitable, Callable
from typing import Any

import futmesa_wire as W
from lance import LanceTimer
from matchclock import MatchClock, clock_command

RESEND_MS = 300
RESEND_MAX_MS = 1200
NACK_MS = 100
WINDOW = 24
STATUS_MS = 1000
SILENCE_MS = 3000
ANNOUNCE_MS = 200
ANNOUNCE_TIMES = 3
RING = 4096  # events kept (a match makes a few hundred): reported in the boot event
OUT_LIMIT = 64 * 1024  # bytes waiting for a host that stopped reading: then frames are dropped
TICKS_MAX = (1 << 30) - 1  # the device's tick counter wraps here (ticks_add, ticks_diff)
TICK_S = 0.05  # the fleet's loop pass (frames go out at once: this is for the timers)


class _NoBuzzer:
    """A light table makes no sound: the host hears the alarm as its event."""

    def play(self, code: int, now: int) -> bool:
        return True


class LightTable:
    """One simulated table on a pty: ``path`` is what ``futmesa serve --device`` opens."""

    board = "sim"

    def __init__(self, uid: str, speed: float = 1.0, boot_id: int = 1) -> None:
        self.uid = uid.encode()[:8]
        self.speed = speed
        self.boot_id = boot_id
        self.master, self._slave = os.openpty()
        tty.setraw(self._slave)  # no echo, no line discipline, before the host opens it
        os.set_blocking(self.master, False)
        self.path = os.ttyname(self._slave)
        self._t0 = time.monotonic()
        # the device's own clock and lance timer (firmware/matchclock.py, firmware/lance.py),
        # with this table as their app: emit() numbers the event, no flash, no buzzer
        self.buzzer = _NoBuzzer()
        self.clock = MatchClock(self)
        self.lance = LanceTimer(self)
        self.palheta_pos = 1
        # the link
        self.frames: list[bytes] = []  # every event frame of this boot, encoded; seq = index + 1
        self.kinds: list[int] = []  # every event's kind, by seq - 1 (the ground truth)
        self.acked = 0
        self.sent = 0
        self.connected = False
        self.last_cmd_seq = 0
        self._cmd_res = [W.ACK_DUPLICATE] * 8
        self.last_rx = 0
        self.last_progress = 0
        self.resend_ms = RESEND_MS
        self.last_status = -STATUS_MS
        self.status_dirty = True
        self.bad_frames = 0
        self._deframer = W.Deframer()
        self._out = bytearray()
        self._announce = ANNOUNCE_TIMES
        self._announce_at = 0
        self.on_event: Callable[[int, int], None] | None = None  # (seq, kind), after it is sent
        self.push(W.EV_BOOT, 0, 0, RING)

    @property
    def table_id(self) -> str:
        """The id the host gives this table (board name and unique id)."""
        return f"{self.board}-{self.uid.decode()}"

    # -- time -------------------------------------------------------------------------------
    def real_ms(self) -> int:
        return int((time.monotonic() - self._t0) * 1000)

    def ticks(self) -> int:
        """The device's tick counter (ms, on the same 2**30 ring as the Pico's), ``speed``
        times faster than real time."""
        return int((time.monotonic() - self._t0) * 1000 * self.speed) & TICKS_MAX

    # -- the table's inputs (what the demo's sensors do) ------------------------------------
    def goal(self, line: int) -> None:
        self.push(W.EV_GOAL_LINE, line, 0, 40)
        self.clock.dead_ball(self.ticks())
        self.poll()

    def ball_out(self, zone: int) -> None:
        line, end = {0: (1, 0), 1: (0, 0), 2: (0, 0), 3: (1, 1), 4: (0, 1), 5: (0, 1)}[zone]
        self.push(W.EV_BALL_OUT, zone, line, end)
        self.clock.dead_ball(self.ticks())
        self.poll()

    def palheta(self, pos: str) -> None:
        code = {"A": 0, "C": 1, "B": 2}[pos]
        self.palheta_pos = code
        self.push(W.EV_PALHETA, code)
        now = self.ticks()
        if code == 1:
            self.clock.play_on(now)
        elif self.clock.running:
            self.lance.restart(now, 0 if code == 0 else 1)
        self.poll()

    # -- events ----------------------------------------------------------------------------
    def push(self, kind: int, a: int = 0, b: int = 0, value: int = 0) -> int:
        now = self.ticks()
        seq = len(self.frames) + 1
        payload = struct.pack(W.EVENT_FMT, kind, a, b, self.clock.period, self.clock.ms(now),
                              value)
        self.frames.append(W.encode_frame(W.MSG_EVENT, self.boot_id, seq, now & 0xFFFFFFFF,
                                          payload))
        self.kinds.append(kind)
        self.status_dirty = True
        return seq

    @property
    def newest(self) -> int:
        return len(self.frames)

    # what the firmware's clock and lance timer call on their app (firmware/app.py)
    def emit(self, kind: int, a: int = 0, b: int = 0, value: int = 0) -> None:
        self.push(kind, a, b, value)

    def status_changed(self) -> None:
        self.status_dirty = True

    def clock_changed(self, now: int) -> None:
        self.status_dirty = True  # no flash to checkpoint: a light table lives one boot

    def command(self, code: int, a: int, b: int, x: int, y: int) -> int:
        """A host command, as ``firmware/app.py`` runs it (no beeps, no sensor commands)."""
        result = clock_command(self.clock, self.lance, code, a, b, x, self.ticks())
        if result is not None:
            return int(result)
        if code == W.CMD_BEEP:
            return W.ACK_OK
        if code == W.CMD_REPLAY:
            return self._replay_from(x, y)
        return W.ACK_UNKNOWN

    # -- the link (firmware/link.py) ----------------------------------------------------------
    def _write(self, data: bytes) -> None:
        if len(self._out) < OUT_LIMIT:  # a host that stopped reading: drop (it resends anyway)
            self._out += data
        self.flush()

    def flush(self) -> None:
        while self._out:
            try:
                n = os.write(self.master, self._out)
            except (BlockingIOError, InterruptedError):
                return
            except OSError:  # nobody holds the other end: nothing to write to
                self._out.clear()
                return
            del self._out[:n]

    def _frame(self, msg_type: int, seq: int, payload: bytes) -> None:
        self._write(W.encode_frame(msg_type, self.boot_id, seq, self.ticks() & 0xFFFFFFFF,
                                   payload))

    def _hello_ack(self) -> bytes:
        fw = W.FIRMWARE_VERSION
        payload = struct.pack(W.HELLO_ACK_FMT, W.PROTO_VERSION, fw[0], fw[1], fw[2],
                              self.board.encode(), self.uid, 1, self.newest,
                              round(self.speed * 1000), 32)
        payload += self.clock.profile_bytes() + struct.pack("<I", self.last_cmd_seq)
        return W.encode_frame(W.MSG_HELLO_ACK, self.boot_id, 0, self.ticks() & 0xFFFFFFFF,
                              payload)

    def _replay_from(self, boot: int, seq: int) -> int:
        start = seq if boot == self.boot_id else 1
        start = min(max(start, 1), self.newest + 1)
        self.acked = self.sent = start - 1
        self.resend_ms = RESEND_MS
        self.status_dirty = True
        return W.ACK_OK

    def on_readable(self) -> None:
        """Read what the host wrote and handle every complete frame."""
        try:
            data = os.read(self.master, 4096)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            return  # the host's end is closed
        for block in self._deframer.feed(data):
            try:
                frame = W.decode_frame(block)
            except W.FrameError:
                self.bad_frames += 1
                continue
            self._handle(frame)
        self.poll()

    def _handle(self, f: W.Frame) -> None:
        now = self.real_ms()
        self.last_rx = now
        p = f.payload
        if f.msg_type == W.MSG_HELLO:
            proto, last_boot, last_seq = struct.unpack_from(W.HELLO_FMT, p, 0)
            if proto != W.PROTO_VERSION or f.version != W.PROTO_VERSION:
                self._frame(W.MSG_REFUSE, 0, struct.pack(W.REFUSE_FMT, W.PROTO_VERSION, proto))
                self.connected = False
                return
            self.last_progress = now
            self._announce = 0
            if last_seq == W.IDENTIFY_ONLY:
                self._write(self._hello_ack())
                self.connected = False
                return
            self._frame(W.MSG_HELLO_ACK, 1, struct.pack(
                W.RESUME_ACK_FMT, W.PROTO_VERSION, self.uid, 1, self.newest, self.last_cmd_seq))
            self.connected = True
            self._replay_from(last_boot, last_seq + 1)
            return
        if not self.connected:
            return
        if f.msg_type == W.MSG_ACK:
            boot, seq = struct.unpack_from(W.ACK_FMT, p, 0)
            if boot != self.boot_id or seq > self.newest:
                return
            if seq > self.acked:
                self.acked = seq
                self.sent = max(self.sent, seq)
                self.last_progress = now
                self.resend_ms = RESEND_MS
            elif seq == self.acked and self.sent > self.acked \
                    and now - self.last_progress >= NACK_MS:
                self.sent = self.acked
                self.last_progress = now
        elif f.msg_type in (W.MSG_CMD, W.MSG_PROFILE):
            seq = f.seq
            code = p[0] if f.msg_type == W.MSG_CMD else 0
            if seq <= self.last_cmd_seq:
                result = (self._cmd_res[seq & 7] if self.last_cmd_seq - seq < 8
                          else W.ACK_DUPLICATE)
            elif seq != self.last_cmd_seq + 1:
                return  # an earlier command is missing: the host resends them in order
            else:
                if f.msg_type == W.MSG_CMD:
                    code, a, b, _c, x, y = struct.unpack_from(W.CMD_FMT, p, 0)
                    result = self.command(code, a, b, x, y)
                else:
                    result = self._set_profile(bytes(p))
                self.last_cmd_seq = seq
                self._cmd_res[seq & 7] = result
            self._frame(W.MSG_CMD_ACK, seq, struct.pack(W.CMD_ACK_FMT, result, code, 0))
        elif f.msg_type == W.MSG_PING:
            self._frame(W.MSG_PONG, 0, bytes(p[:4]))

    def _set_profile(self, payload: bytes) -> int:
        result = int(self.clock.take_profile(payload))
        if result == W.ACK_OK:
            self.push(W.EV_PROFILE_SET, 0, 0, self.clock.period_ms)
        return result

    def poll(self) -> None:
        """One pass of the device loop: the clocks, then the link (announce, resend, send)."""
        now = self.ticks()
        self.clock.poll(now)
        self.lance.poll(now)
        real = self.real_ms()
        if self._announce and (self._announce == ANNOUNCE_TIMES
                               or real - self._announce_at >= ANNOUNCE_MS):
            self._announce -= 1
            self._announce_at = real
            self._write(self._hello_ack())
        if not self.connected:
            return
        if real - self.last_rx >= SILENCE_MS:
            self.connected = False
            return
        if self.sent > self.acked and real - self.last_progress >= self.resend_ms:
            self.sent = self.acked
            self.last_progress = real
            self.resend_ms = min(self.resend_ms * 2, RESEND_MAX_MS)
        while self.sent < self.newest and self.sent - self.acked < WINDOW:
            self.sent += 1
            self._write(self.frames[self.sent - 1])
            if self.on_event is not None:
                self.on_event(self.sent, self.kinds[self.sent - 1])
        if self.status_dirty or real - self.last_status >= STATUS_MS:
            self._send_status(now)
            self.last_status = real
            self.status_dirty = False
        if self._out:
            self.flush()

    def _send_status(self, now: int) -> None:
        c = self.clock
        flags = c.flags() | (W.ST_LANCE_RUNNING if self.lance.running else 0)
        flags |= W.ST_HOST_LINK if self.connected else 0
        payload = struct.pack(W.STATUS_FMT, c.period, flags, self.palheta_pos, self.lance.side,
                              c.ms(now), c.length(), c.added_ms, self.lance.remaining(now),
                              c.lance_ms, self.newest, self.acked)
        self._write(W.encode_frame(W.MSG_STATUS, self.boot_id, self.newest, now & 0xFFFFFFFF,
                                   payload))

    def close(self) -> None:
        for fd in (self.master, self._slave):
            try:
                os.close(fd)
            except OSError:
                pass


class LightFleet:
    """Many light tables on one asyncio loop: a reader per pty and one pass every 50 ms."""

    def __init__(self, count: int, prefix: str = "LT", speed: float = 1.0) -> None:
        self.tables = [LightTable(f"{prefix}{i:0{8 - len(prefix)}d}", speed)
                       for i in range(count)]
        self._task: asyncio.Task[None] | None = None

    @property
    def paths(self) -> list[str]:
        return [t.path for t in self.tables]

    def start(self) -> None:
        """Start serving the ptys on the running loop."""
        loop = asyncio.get_running_loop()
        for t in self.tables:
            loop.add_reader(t.master, t.on_readable)
        self._task = asyncio.create_task(self._passes())

    async def _passes(self) -> None:
        while True:
            for t in self.tables:
                t.poll()
            await asyncio.sleep(TICK_S)

    async def stop(self) -> None:
        loop = asyncio.get_running_loop()
        if self._task is not None:
            self._task.cancel()
        for t in self.tables:
            loop.remove_reader(t.master)
            t.close()


# -- the demo's scripted match, the referee over HTTP ------------------------------------------
Referee = Callable[[str, dict[str, Any]], Awaitable[dict[str, Any]]]
Reader = Callable[[], Awaitable[dict[str, Any]]]


async def _until(cond: Callable[[], bool], timeout_s: float, what: str) -> None:
    deadline = time.monotonic() + timeout_s
    while not cond():
        if time.monotonic() > deadline:
            raise TimeoutError(f"timed out waiting for {what}")
        await asyncio.sleep(0.01)


async def play_script(table: LightTable, referee: Referee, state: Reader,
                      period_ms: int = 25 * 60_000,
                      on_goal: Callable[[LightTable, float], None] | None = None) -> None:
    """Play :data:`futmesa.sim.demo_match.SCRIPT` on ``table`` to the final whistle.

    ``referee(kind, data)`` sends a referee input (and raises on a refusal); ``state()`` reads
    the table's state from the host. The script's moments are in match time, scaled to
    ``period_ms``, and waited for on the table's own clock; the scripted referee answers the
    rules' questions as the demo's does (lance timeouts let go, everything else accepted).
    ``on_goal(table, wall_time)`` is called as each goal's beam is broken.
    """
    from futmesa.sim.demo_match import FULL_HALF_MS, SCRIPT, TEAMS
    from futmesa.sim.referee_moves import lance_towards

    c = table.clock
    per_ms = table.speed * 1000
    half_s = period_ms / per_ms + 30

    async def answer_pending() -> None:
        for question in (await state()).get("match", {}).get("pending", []):
            accept = question.get("kind") != "lance_timeout"
            await referee("confirm", {"target": question["id"], "accept": accept})

    await _until(lambda: table.connected, 120, f"{table.table_id} to connect")
    await _until_async(state, lambda s: s.get("match_id") is not None, 120,
                       f"{table.table_id}'s match to open")
    if (await state()).get("status") == "not_started":
        await referee("set_up", {"teams": TEAMS, "kickoff": "A"})
    for period in (1, 2):
        await referee("start_period", {})
        await _until(lambda p=period: c.period == p and c.running, half_s,
                     f"{table.table_id}'s period {period} to start")
        for step in (s for s in SCRIPT if s.period == period):
            at = step.at_ms * period_ms // FULL_HALF_MS
            await _until(lambda at=at: c.ms(table.ticks()) >= at or not c.running, half_s,
                         f"{step.at} of period {period}")
            if not c.running:
                raise RuntimeError(f"{table.table_id}: period {period} ended before its "
                                   f"{step.at} {step.action}: the host fell behind the script")
            await answer_pending()
            if step.action == "shot":
                for _lance in range(6):  # only the team with the lance asks (000 Art. 12 §3 A)
                    move = lance_towards((await state()).get("match", {}), step.side)
                    if move is None:
                        break
                    await referee(*move)
                await referee("shot_asked", {"side": step.side, "disc": int(step.arg)})
            elif step.action == "goal":
                ends = (await state()).get("match", {}).get("ends", {"A": 0, "B": 1})
                defender = "B" if step.side == "A" else "A"
                if on_goal is not None:
                    on_goal(table, time.time())
                table.goal(int(ends[defender]))
            elif step.action == "out":
                table.ball_out(int(step.arg))
            elif step.action == "palheta":
                table.palheta(str(step.arg))
        await _until(lambda: c.interval or c.over, half_s, f"the end of period {period}")
        await _until_async(state, lambda s, p=period: s.get("status") in ("interval", "finished")
                           or bool(s.get("finished")), half_s, f"the host's end of period {period}")
        await answer_pending()
    await _until_async(state, lambda s: bool(s.get("finished")), half_s, "the final whistle")


async def _until_async(read: Reader, cond: Callable[[dict[str, Any]], bool], timeout_s: float,
                       what: str) -> None:
    # every half second: 128 tables asking for their state 20 times a second were most of
    # what a bench's daemon did (2,500 requests/s of full states)
    deadline = time.monotonic() + timeout_s
    while not cond(await read()):
        if time.monotonic() > deadline:
            raise TimeoutError(f"timed out waiting for {what}")
        await asyncio.sleep(0.5)


def http_referee(client: Any, base_url: str, table_id: str,
                 token: str | None = None) -> tuple[Referee, Reader]:
    """A referee and a state reader for ``play_script`` over ``futmesa serve``'s HTTP API.

    ``client`` is an ``httpx.AsyncClient``; ``token`` the table's own referee token (None:
    asked at the first input from ``/console/recover``, which answers the host's own machine).
    Every refused input raises (a bench counts it as an error), with the host's reason.
    """
    tokens = [token] if token else []

    async def referee(kind: str, data: dict[str, Any]) -> dict[str, Any]:
        if not tokens:
            got = await client.get(f"{base_url}/console/recover",
                                   params={"format": "json", "table": table_id})
            got.raise_for_status()
            tokens.append(str(got.json()["token"]))
        token = tokens[0]
        r = await client.post(f"{base_url}/api/referee", json={"kind": kind, "data": data,
                                                               "table": table_id,
                                                               "input_id": uuid.uuid4().hex},
                              headers={"Authorization": f"Bearer {token}"})
        body = r.json() if r.status_code in (200, 202, 409) else {"error": r.text}
        rid = body.get("id")
        while body.get("pending"):  # still being applied (202): ask for the outcome
            await asyncio.sleep(0.05)
            got = await client.get(f"{base_url}/api/referee/{rid}", params={"table": table_id},
                                   headers={"Authorization": f"Bearer {token}"})
            body = got.json() if got.status_code == 200 else {"error": got.text}
        if not body.get("ok"):
            raise RuntimeError(f"{table_id}: referee {kind} refused ({r.status_code}): "
                               f"{body.get('error')}")
        return dict(body)

    async def state() -> dict[str, Any]:
        r = await client.get(f"{base_url}/api/state", params={"table": table_id})
        r.raise_for_status()
        return dict(r.json())

    return referee, state
