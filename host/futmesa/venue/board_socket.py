"""The venue boards' WebSocket (``/ws``): every table once, then only what changed, at most
once per frame of a 60 Hz screen; a board that goes away is let go."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect

from futmesa.venue.desk import Desk

BOARD_FRAME_S = 1 / 60  # a board screen gets at most one update a frame


class BoardSocket:
    def __init__(self, desk: Desk) -> None:
        self.desk = desk
        self._loop: asyncio.AbstractEventLoop | None = None
        self._waiters: set[asyncio.Event] = set()
        desk.listeners.append(self.changed)

    def changed(self) -> None:
        """(any thread) Something changed at the desk: every board socket looks."""
        loop = self._loop
        if loop is None:
            return
        for ev in list(self._waiters):
            loop.call_soon_threadsafe(ev.set)

    async def serve(self, websocket: WebSocket) -> None:
        self._loop = asyncio.get_running_loop()
        await websocket.accept()
        ev = asyncio.Event()
        self._waiters.add(ev)
        closed: asyncio.Future[Any] | None = asyncio.ensure_future(websocket.receive())
        try:
            seq = 0
            while True:
                ev.clear()
                seq_was = seq
                seq, change = self.desk.since(seq)
                # the first message is every table ("venue"); then only what changed
                await websocket.send_json({"type": "venue-delta" if seq_was else "venue",
                                           **change})
                sent = self._loop.time()
                if not ev.is_set():
                    closed = await self._wait(websocket, ev, closed)
                    if closed is None:
                        return
                # a change goes out at once; one that follows a send within a frame of a
                # 60 Hz screen waits out the rest of that frame (what changed meanwhile
                # goes with it)
                rest = BOARD_FRAME_S - (self._loop.time() - sent)
                if rest > 0:
                    await asyncio.sleep(rest)
        except (WebSocketDisconnect, RuntimeError, OSError):
            pass
        finally:
            self._waiters.discard(ev)
            if closed is not None:
                closed.cancel()
                with contextlib.suppress(BaseException):
                    await closed

    @staticmethod
    async def _wait(websocket: WebSocket, ev: asyncio.Event,
                    closed: asyncio.Future[Any]) -> asyncio.Future[Any] | None:
        """Until a change (or 5 s); None when the board went away, else the receive to
        watch next."""
        wait = asyncio.ensure_future(ev.wait())
        done, _ = await asyncio.wait({wait, closed}, timeout=5,
                                     return_when=asyncio.FIRST_COMPLETED)
        wait.cancel()
        if closed not in done:
            return closed
        if closed.result().get("type") == "websocket.disconnect":
            return None
        return asyncio.ensure_future(websocket.receive())
