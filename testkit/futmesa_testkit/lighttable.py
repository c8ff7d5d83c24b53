"""A lightweight simulated table: the firmware's own link, clock and lance in CPython, on a pty.

For scale benchmarks: many tables in one process (one asyncio loop), so a bench can put 64–256
tables on one ``futmesa serve`` and measure the daemon, not 256 MicroPython processes. The
MicroPython sims (:mod:`futmesa.sim.table`) stay for the firmware's own tests. The device side
of the protocol is not written again here: ``firmware/link.py`` (``DeviceLink``: the event
ring, the boot announcement, HELLO/RESUME, acks, go-back-N resend, STATUS, PONG, commands
once each), ``firmware/matchclock.py`` and ``firmware/lance.py`` run as they do on the Pico,
on a small board (:class:`PtyBoard`: ticks ``speed`` times faster than real time, the pty's
master end as the serial port) with this table as their app (``emit``, ``status_changed``,
``clock_changed``, ``command``, ``set_profile``, as ``firmware/app.py``). Sensors are not
filtered: ``goal(line)`` is one ``goal_line`` event. No flash, no buzzer: a table lives as
long as its process (one boot).

:class:`LightFleet` runs many tables on one asyncio loop; :func:`play_script` plays the demo's
scripted match (:data:`futmesa.sim.demo_match.SCRIPT`) on one table, the referee's inputs
going to ``futmesa serve`` over HTTP with that table's own token.
"""

from __future__ import annotations

import asyncio
import importlib.util
import os
import sys
import time
import tty
import uuid
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import futmesa_wire as W
from lance import LanceTimer
from matchclock import MatchClock, clock_command


def _firmware_module(name: str) -> Any:
    """A firmware module by its file beside ``futmesa_wire`` (firmware/): ``link`` is also
    the name of a test package, which a test run may put first on the path."""
    key = f"futmesa_firmware_{name}"
    if key not in sys.modules:
        path = Path(W.__file__).with_name(f"{name}.py")
        spec = importlib.util.spec_from_file_location(key, path)
        assert spec is not None and spec.loader is not None, path
        module = importlib.util.module_from_spec(spec)
        sys.modules[key] = module
        spec.loader.exec_module(module)
    return sys.modules[key]


DeviceLink = _firmware_module("link").DeviceLink

RING = 4096  # events kept (a match makes a few hundred): reported in the boot event
OUT_LIMIT = 64 * 1024  # bytes waiting for a host that stopped reading: then frames are dropped
TICK_BITS = 30  # the device's tick counter wraps at 2**30, as on the Pico
TICKS_MAX = (1 << TICK_BITS) - 1
TICK_S = 0.05  # the fleet's loop pass (frames go out at once: this is for the timers)


class _NoBuzzer:
    """A light table makes no sound: the host hears the alarm as its event."""

    def play(self, code: int, now: int) -> bool:
        return True


class _Inputs:
    """What the link's STATUS reads of the table's inputs: where the palheta stands."""

    palheta = 1


class PtyBoard:
    """The board ``firmware/link.py`` talks through: ticks ``speed`` times faster than real
    time, the pty's master end as its serial port (writes never block: a host that stopped
    reading has its frames dropped past OUT_LIMIT; it resends from its cursor anyway)."""

    name = "sim"
    tick_bits = TICK_BITS

    def __init__(self, uid: bytes, speed: float) -> None:
        self.uid = uid
        self.speed = speed
        self.tick_rate = round(speed * 1000)
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)  # no echo, no line discipline, before the host opens it
        os.set_blocking(self.master, False)
        self.path = os.ttyname(self.slave)
        self._t0 = time.monotonic()
        self._out = bytearray()

    def ticks_ms(self) -> int:
        return int((time.monotonic() - self._t0) * 1000 * self.speed) & TICKS_MAX

    def real_ms(self) -> int:
        return int((time.monotonic() - self._t0) * 1000) & TICKS_MAX

    def unique_id(self) -> bytes:
        return self.uid

    def port_ready(self) -> bool:
        return True

    def port_readinto(self, buf: bytearray) -> int:
        try:
            data = os.read(self.master, len(buf))
        except (BlockingIOError, InterruptedError):
            return 0
        except OSError:
            return 0  # the host's end is closed
        buf[:len(data)] = data
        return len(data)

    def port_write(self, buf: bytes | bytearray, n: int | None = None) -> None:
        if len(self._out) < OUT_LIMIT:
            self._out += buf if n is None else memoryview(buf)[:n]
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

    def log(self, message: str, *args: Any) -> None:
        pass

    def close(self) -> None:
        for fd in (self.master, self.slave):
            try:
                os.close(fd)
            except OSError:
                pass


class LightTable:
    """One simulated table on a pty: ``path`` is what ``futmesa serve --device`` opens."""

    def __init__(self, uid: str, speed: float = 1.0, boot_id: int = 1) -> None:
        self.board = PtyBoard(uid.encode()[:8], speed)
        self.uid = self.board.uid
        self.speed = speed
        self.boot_id = boot_id
        self.path = self.board.path
        self.master = self.board.master
        self.store = None  # no flash: the link keeps its records in RAM
        self.inputs = _Inputs()
        self.buzzer = _NoBuzzer()
        self.kinds: list[int] = []  # every event's kind, by seq - 1 (the ground truth)
        self.now = self.board.ticks_ms()
        self.clock = MatchClock(self)
        self.lance = LanceTimer(self)
        self.link = DeviceLink(self.board, self, boot_id, RING)
        self.emit(W.EV_BOOT, 0, 0, RING)

    @property
    def table_id(self) -> str:
        """The id the host gives this table (board name and unique id)."""
        return f"{self.board.name}-{self.uid.decode()}"

    # what the tests and benches read of the link
    @property
    def connected(self) -> bool:
        return bool(self.link.connected)

    @property
    def acked(self) -> int:
        return int(self.link.acked)

    @property
    def newest(self) -> int:
        return int(self.link.next_seq) - 1

    @property
    def bad_frames(self) -> int:
        return int(self.link.bad_frames)

    def ticks(self) -> int:
        """The device's tick counter (ms, ``speed`` times faster than real time)."""
        return self.board.ticks_ms()

    # -- the table's inputs (what the demo's sensors do) ------------------------------------
    def goal(self, line: int) -> None:
        self.now = self.ticks()
        self.emit(W.EV_GOAL_LINE, line, 0, 40)
        self.clock.dead_ball(self.now)
        self.poll()

    def ball_out(self, zone: int) -> None:
        line, end = {0: (1, 0), 1: (0, 0), 2: (0, 0), 3: (1, 1), 4: (0, 1), 5: (0, 1)}[zone]
        self.now = self.ticks()
        self.emit(W.EV_BALL_OUT, zone, line, end)
        self.clock.dead_ball(self.now)
        self.poll()

    def palheta(self, pos: str) -> None:
        code = {"A": 0, "C": 1, "B": 2}[pos]
        self.inputs.palheta = code
        self.now = now = self.ticks()
        self.emit(W.EV_PALHETA, code)
        if code == 1:
            self.clock.play_on(now)
        elif self.clock.running:
            self.lance.restart(now, 0 if code == 0 else 1)
        self.poll()

    # -- the app the firmware's clock, lance timer and link call (firmware/app.py) ---------------
    def emit(self, kind: int, a: int = 0, b: int = 0, value: int = 0) -> None:
        now = self.now
        self.link.push(now, kind, a, b, self.clock.period, self.clock.ms(now), value)
        self.link.status_dirty = True
        self.kinds.append(kind)

    def status_changed(self) -> None:
        self.link.status_dirty = True

    def clock_changed(self, now: int) -> None:
        self.link.status_dirty = True  # no flash to checkpoint: a light table lives one boot

    def command(self, code: int, a: int, b: int, c: int, x: int, y: int) -> int:
        """A host command, as ``firmware/app.py`` runs it (no beeps, no sensor commands)."""
        result = clock_command(self.clock, self.lance, code, a, b, x, self.now)
        if result is not None:
            return int(result)
        if code == W.CMD_BEEP:
            return W.ACK_OK
        return W.ACK_UNKNOWN

    def set_profile(self, payload: bytes) -> int:
        result = int(self.clock.take_profile(payload))
        if result == W.ACK_OK:
            self.emit(W.EV_PROFILE_SET, 0, 0, self.clock.period_ms)
        return result

    # -- the loop ------------------------------------------------------------------------------
    def poll(self) -> None:
        """One pass of the device loop (firmware/app.py: App.step): the clocks, then the link
        (what the host wrote, the announcement, resends, new events, STATUS)."""
        now = self.ticks()
        self.now = now
        self.clock.poll(now)
        self.lance.poll(now)
        self.link.poll(self.board.real_ms(), now)
        self.board.flush()

    def on_readable(self) -> None:
        """The host wrote: a pass now (the link reads it), not at the next tick."""
        self.poll()

    def close(self) -> None:
        self.board.close()


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
        # one at a time, read again after each: an answer may settle or withdraw another
        # question (a lance's question goes once the next lance is played), and the state
        # read may not show that yet — a question already gone is not an error
        for _ in range(20):
            pending = (await state()).get("match", {}).get("pending", [])
            if not pending:
                return
            question = pending[0]
            accept = question.get("kind") != "lance_timeout"
            try:
                await referee("confirm", {"target": question["id"], "accept": accept})
            except RuntimeError:
                for _wait in range(100):  # the state catches up within a few seconds
                    await asyncio.sleep(0.1)
                    still = (await state()).get("match", {}).get("pending", [])
                    if not any(q.get("id") == question["id"] for q in still):
                        break
                else:
                    raise

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
