"""A scripted referee for a simulated table at a simulated tournament (demo, tests, bench).

It works the table like a person at the console would, over the table's own
HTTP API: when the desk's next match shows up it starts it with one press
(``new_match`` with the settings the desk filled in), starts each period,
asks each shot and breaks the simulated goal-line beam, answers the rules'
questions, and goes on to the next match. The goals of a match are drawn
from its competition match number, so a run is repeatable; a knockout match
always gets a winner in normal time.
"""

from __future__ import annotations

import asyncio
import logging
import random
import uuid
from collections.abc import Callable
from typing import Any

import httpx

from futmesa.i18n import _
from futmesa.matchbook.wording import table_name
from futmesa.sim.referee_moves import lance_towards, shootout_kick

log = logging.getLogger("futmesa.venue.simref")


def goal_plan(competition_match: int, knockout: bool, seed: int = 15) -> dict[int, list[str]]:
    """Which side scores, in order, in each period."""
    rng = random.Random(competition_match * 7919 + seed)
    plan = {p: [rng.choice("AB") for _goal in range(rng.randint(0, 2))] for p in (1, 2)}
    goals = plan[1] + plan[2]
    if knockout and goals.count("A") == goals.count("B"):
        plan[2].append(rng.choice("AB"))
    return plan


class SimReferee:
    def __init__(self, base_url: str, table_id: str, goal: Callable[[int], None],
                 say: Callable[[str], None] | None = None, seed: int = 15) -> None:
        self.base_url = base_url.rstrip("/")
        self.table_id = table_id
        self.goal = goal  # breaks goal line 0 or 1 on the simulated table
        self.say = say or (lambda text: log.info("%s", text))
        self.seed = seed
        self.token = ""
        self.started: set[int] = set()  # competition matches this referee started
        self.own: dict[int, dict[int, list[str]]] = {}  # table match id -> goal plan
        self.scored: dict[tuple[int, int], int] = {}  # (match id, period) -> goals made
        self.finished: list[int] = []
        self.http = httpx.AsyncClient(timeout=5)

    async def close(self) -> None:
        await self.http.aclose()

    async def state(self) -> dict[str, Any]:
        r = await self.http.get(f"{self.base_url}/api/state", params={"table": self.table_id})
        return dict(r.json())

    async def _recover(self) -> None:
        r = await self.http.get(f"{self.base_url}/console/recover",
                                params={"format": "json", "table": self.table_id})
        self.token = r.json().get("token", "")

    async def press(self, kind: str, data: dict[str, Any] | None = None) -> dict[str, Any]:
        """One referee action; a refusal is logged, not raised (a person would look again)."""
        input_id = uuid.uuid4().hex  # one id per action: a resend is applied once
        for _attempt in range(2):
            if not self.token:
                await self._recover()
            r = await self.http.post(f"{self.base_url}/api/referee",
                                     headers={"Authorization": f"Bearer {self.token}"},
                                     json={"kind": kind, "data": data or {},
                                           "author": _("simulated referee"),
                                           "table": self.table_id, "input_id": input_id})
            if r.status_code in (401, 403):
                self.token = ""
                continue
            body = dict(r.json())
            for _poll in range(200):  # "received; still being applied": ask for the outcome
                if body.get("ok") is not None or not body.get("id"):
                    break
                await asyncio.sleep(0.05)
                r = await self.http.get(f"{self.base_url}/api/referee/{body['id']}",
                                        headers={"Authorization": f"Bearer {self.token}"})
                if r.status_code in (401, 403):  # a new match brings a new token
                    await self._recover()
                    continue
                body = {**dict(r.json()), "id": body["id"]}
            if body.get("ok") is False:
                log.debug(_("%s: %s refused: %s"), self.table_id, kind, body.get("error"))
            return body
        return {"ok": False, "error": "no token"}

    async def run(self, stop: asyncio.Event | None = None, poll_s: float = 0.05) -> None:
        stop = stop or asyncio.Event()
        while not stop.is_set():
            try:
                await self.step(await self.state())
            except (httpx.HTTPError, ValueError) as exc:
                log.debug(_("%s: %r (the table may be restarting)"), self.table_id, exc)
                await asyncio.sleep(0.5)
            except Exception:  # noqa: BLE001 - a scripted referee keeps refereeing
                log.exception(_("%s: the scripted referee tripped"), self.table_id)
                await asyncio.sleep(0.5)
            try:
                await asyncio.wait_for(stop.wait(), poll_s)
            except TimeoutError:
                pass

    async def step(self, st: dict[str, Any]) -> None:
        if not (st.get("link") or {}).get("connected"):
            return
        nxt = st.get("next")
        match_id = st.get("match_id")
        status = st.get("status")
        if nxt and nxt.get("competition_match") not in self.started and (
                status in ("not_started", "finished") or st.get("finished")
                or match_id not in self.own):
            cm = int(nxt["competition_match"])
            body = await self.press("new_match", nxt["start"])
            if body.get("ok"):
                self.started.add(cm)
                new_id = int((body.get("result") or {}).get("match_id") or 0)
                knockout = nxt["start"]["settings"].get("competition") == "knockout"
                self.own[new_id] = goal_plan(cm, knockout, self.seed)
                self.say(_("{table}: starts {title} ({label})").format(
                    table=table_name(self.table_id), title=nxt.get("title"),
                    label=nxt.get("label")))
            return
        if match_id not in self.own:
            return
        m = st.get("match") or {}
        for q in m.get("pending") or []:
            accept = q.get("kind") != "lance_timeout"
            await self.press("confirm", {"target": q["id"], "accept": accept})
        if st.get("finished"):
            if match_id not in self.finished:
                self.finished.append(match_id)
                sc = st.get("score") or {}
                teams = st.get("teams") or {}
                self.say(_("{table}: full time {team_a} {a} × {b} {team_b}").format(
                    table=table_name(self.table_id), team_a=teams.get("A", {}).get("name"),
                    a=sc.get("A"), b=sc.get("B"), team_b=teams.get("B", {}).get("name")))
            return
        if status in ("not_started", "interval"):
            await self.press("start_period")
            return
        if status == "shootout":  # a level knockout: the kicks, until one side wins
            move = shootout_kick(m)
            if move is not None:
                await self.press(*move)
            return
        if status == "last_lance":
            # time is up with a shot asked: the rules give that side its last lance; this
            # referee lets it go by and says it is over, as at the console ("Último lance
            # terminado"), or the match would wait for it for ever
            await self.press("lance_done")
            return
        clock = st.get("clock") or {}
        period = int(st.get("period") or 0)
        plan = self.own[match_id].get(period, [])
        done = self.scored.get((match_id, period), 0)
        left = clock.get("length_ms", 0) - clock.get("ms", 0)
        if status == "running" and clock.get("running") and done < len(plan) and left > 15000:
            side = plan[done]
            self.scored[(match_id, period)] = done + 1
            before = sum((st.get("score") or {}).values())
            for _lance in range(6):  # only the team with the lance asks (000 Art. 12 §3 A)
                move = lance_towards(m, side)
                if move is None:
                    break
                await self.press(*move)
                m = (await self.state()).get("match") or {}
            await self.press("shot_asked", {"side": side, "disc": 5})
            ends = m.get("ends") or {"A": 0, "B": 1}
            self.goal(int(ends["B" if side == "A" else "A"]))
            for _poll in range(100):  # until the goal is on the scoreboard (or asked about)
                await asyncio.sleep(0.02)
                now = await self.state()
                if (sum((now.get("score") or {}).values()) > before
                        or (now.get("match") or {}).get("pending")):
                    break
