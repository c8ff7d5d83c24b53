"""A table whose match is played to the final whistle over a real SQLite log, served by the real
web app, and signed through the real signing routes (tests of issue 25: the provable record)."""

from __future__ import annotations

import io
import time
import uuid
from pathlib import Path
from typing import Any

import httpx
from PIL import Image, ImageDraw

import futmesa_wire as W
from futmesa.hub import StateHub
from futmesa.link.messages import DeviceInfo, Profile
from futmesa.matchbook import MatchLibrary
from futmesa.store import EventLog
from futmesa.table import TableDaemon
from futmesa.web.app import create_app
from futmesa_testkit.liveserver import TOKEN, LiveServer

AUTH = {"Authorization": f"Bearer {TOKEN}"}


def drawing(seed: int = 0) -> str:
    """A signature-like PNG data URL: a few strokes on white, 400 × 150."""
    import base64

    img = Image.new("RGB", (400, 150), "white")
    pen = ImageDraw.Draw(img)
    points = [(20 + 30 * i, 75 + (35 if (i + seed) % 2 else -35)) for i in range(12)]
    pen.line(points, fill="black", width=4)
    pen.line([(40, 120), (360, 110)], fill="black", width=3)
    out = io.BytesIO()
    img.convert("1").save(out, "PNG", optimize=True)
    return "data:image/png;base64," + base64.b64encode(out.getvalue()).decode()


class SignedTable:
    """A daemon (no serial port) over ``m.sqlite``, the web app on a live server."""

    def __init__(self, tmp_path: Path) -> None:
        self.db = tmp_path / "m.sqlite"
        self.store = EventLog(self.db)
        self.hub = StateHub()
        self.daemon = TableDaemon(self.store, self.hub, str(tmp_path / "no-port"), "cbfm-1toque")
        self.live = LiveServer(self.hub, create_app(self.hub, console_token=TOKEN,
                                                    history=MatchLibrary(self.store)))
        self.seq = 0

    def start(self) -> None:
        self.live.start()
        self.daemon.loop = self.live.loop
        self.daemon.on_device(DeviceInfo(
            proto=1, firmware="0.1.0", board="sim", uid="T1", boot_id=1, oldest=1, newest=0,
            tick_rate=1000, tick_bits=32,
            profile=Profile(2, 0, 0, 0, 1_500_000, 300_000, 0, 15_000, 0), last_cmd_seq=0))

    def stop(self) -> None:
        self.live.stop()
        self.store.close()

    @property
    def match_id(self) -> int:
        assert self.daemon.match is not None
        return int(self.daemon.match["id"])

    def device(self, kind: int, a: int = 0, period: int = 1, clock_ms: int = 0) -> None:
        self.seq += 1
        assert self.daemon.info is not None
        self.daemon.on_event(self.daemon.info, 1, self.seq, 100_000 * self.seq,
                             (kind, a, 0, period, clock_ms, 0))

    def post(self, path: str, body: dict[str, Any]) -> httpx.Response:
        r = httpx.post(self.live.url + path, json={**body, "table": "sim-T1"}, headers=AUTH,
                       timeout=20)
        if r.status_code == 202:  # still being applied: follow it
            rid = r.json()["id"]
            deadline = time.monotonic() + 20
            while time.monotonic() < deadline:
                r = httpx.get(f"{self.live.url}/api/referee/{rid}", headers=AUTH, timeout=20)
                if not r.json().get("pending"):
                    break
                time.sleep(0.02)
        return r

    def referee(self, kind: str, data: dict[str, Any]) -> httpx.Response:
        return self.post("/api/referee", {"kind": kind, "data": data,
                                          "input_id": uuid.uuid4().hex})

    def play(self) -> None:
        """Alvorada 1 × 0 Botafogo: a goal with a shot asked, two halves, the final whistle."""
        ok = self.referee("set_up", {"kickoff": "A", "teams": {"A": {"name": "Alvorada"},
                                                               "B": {"name": "Botafogo"}}})
        assert ok.json()["ok"], ok.text
        self.device(W.EV_CLOCK_STARTED)
        # Alvorada's kick-off first: no shot from it (000 Art. 12 §5)
        assert self.referee("touch", {"side": "A", "disc": 8}).json()["ok"]
        assert self.referee("shot_asked", {"side": "A", "disc": 9}).json()["ok"]
        self.device(W.EV_GOAL_LINE, a=1, clock_ms=60_000)
        self.device(W.EV_ALARM, clock_ms=1_500_000)
        self.device(W.EV_PERIOD_OVER, clock_ms=1_500_000)
        self.device(W.EV_CLOCK_STARTED, period=2)
        self.device(W.EV_ALARM, period=2, clock_ms=1_500_000)
        self.device(W.EV_PERIOD_OVER, period=2, clock_ms=1_500_000)
        for question in self.daemon.state.to_dict().get("pending") or []:
            # a goal the simulated clock put at the alarm's instant: the referee says it counts
            assert self.referee("confirm", {"target": question["id"],
                                            "choice": question["default"]}).json()["ok"]
        state = self.daemon.state.to_dict()
        assert state["finished"] and state["score"] == {"A": 1, "B": 0}, state

    def view(self, match: int | None = None) -> dict[str, Any]:
        which = f"match={match}&table=sim-T1" if match is not None else "table=sim-T1"
        r = httpx.get(f"{self.live.url}/api/assinaturas?{which}", timeout=20)
        assert r.status_code == 200, r.text
        return r.json()

    def sign(self, role: str, name: str, *, image: str | None = None,
             signs: str | None = None, match: int | None = None) -> httpx.Response:
        return self.post("/api/assinar", {
            "role": role, "name": name, "image": image or drawing(len(name)),
            "signs": signs if signs is not None else self.view(match)["chain"]["final_hash"],
            **({"match": match} if match is not None else {})})
