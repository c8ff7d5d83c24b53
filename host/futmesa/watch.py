"""`futmesa watch`: a terminal scoreboard reading a running daemon's /ws stream (rich Live).

For a set-up with no screen browser. Like the kiosk it counts the clocks locally from
``ms``/``at``/``rate``, reconnects by itself, and says when the table or host is gone.
"""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any
from urllib.parse import quote

from rich.align import Align
from rich.console import Group
from rich.live import Live
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from futmesa.i18n import _, language
from futmesa.matchbook.citations import plain
from futmesa.matchbook.wording import ruleset_title, table_name

RECONNECT_S = (0.5, 1.0, 2.0, 5.0)


def now_ms() -> float:
    return time.time() * 1000


def clock_ms(timer: dict[str, Any] | None, now: float, *, countdown: bool = False) -> float | None:
    """The value of a device timer at host wall time ``now`` (see architecture.md)."""
    if not timer or not isinstance(timer.get("ms"), int | float):
        return None
    value = float(timer["ms"])
    if not timer.get("running"):
        return value
    elapsed = (now - float(timer.get("at") or now)) * abs(float(timer.get("rate") or 1.0))
    return value - elapsed if countdown else value + elapsed


def mmss(ms: float) -> str:
    total = max(0, int(ms // 1000))
    return f"{total // 60:02d}:{total % 60:02d}"


def _name(state: dict[str, Any], side: str) -> str:
    team = (state.get("teams") or {}).get(side) or {}
    return str(team.get("name") or side)


def _color(state: dict[str, Any], side: str) -> str:
    team = (state.get("teams") or {}).get(side) or {}
    color = team.get("color")
    if isinstance(color, str) and len(color) in (4, 7) and color.startswith("#"):
        try:
            int(color[1:], 16)
        except ValueError:
            return "white"
        return color
    return "white"


def _luminance(color: str) -> float:
    """Relative luminance (WCAG) of "#rgb"/"#rrggbb"; 1.0 for a named colour."""
    if not color.startswith("#"):
        return 1.0
    digits = color[1:]
    if len(digits) == 3:
        digits = "".join(c * 2 for c in digits)
    channels = []
    for i in (0, 2, 4):
        c = int(digits[i:i + 2], 16) / 255
        channels.append(c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4)
    r, g, b = channels
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def team_style(color: str) -> str:
    """The team's colour as a background with black or white text, whichever reads better:
    legible on a dark and on a light terminal (a dark colour as text vanishes on black)."""
    text = "#000000" if _luminance(color) > 0.179 else "#ffffff"
    return f"bold {text} on {color}"


def waiting_text(error: str | None) -> str:
    if error:
        return _("no connection to the server: {problem} — trying again…").format(problem=error)
    return _("connecting to the server…")


def _said(item: dict[str, Any]) -> str:
    """An announcement's or a fault's words in the process language (they carry both)."""
    return str(item.get("en" if language() == "en" else "pt") or item.get("pt")
               or item.get("code") or "")


def _period_text(state: dict[str, Any]) -> str:
    period, periods = state.get("period"), state.get("periods")
    if not isinstance(period, int) or not period:
        return ""
    if isinstance(periods, int) and periods and period > periods:
        return _("Extra time {n}").format(n=period - periods)
    return _("Half {n}").format(n=period)


def render(state: dict[str, Any] | None, *, connected: bool, offset_ms: float = 0.0,
           last_message: float | None = None, error: str | None = None) -> Panel:
    """One frame of the terminal scoreboard. Team names are plain Text, never markup."""
    now = now_ms() + offset_ms
    if state is None:
        return Panel(Text(waiting_text(error)), title="futmesa")
    match = state.get("match") or {}
    score = state.get("score") or {}
    grid = Table.grid(expand=True, padding=(0, 2))
    grid.add_column(justify="right", ratio=2)
    grid.add_column(justify="center", ratio=1)
    grid.add_column(justify="left", ratio=2)
    turn = match.get("turn")
    name_a = Text(("▶ " if turn == "A" else "") + f" {_name(state, 'A')} ",
                  style=team_style(_color(state, "A")))
    name_b = Text(f" {_name(state, 'B')} " + (" ◀" if turn == "B" else ""),
                  style=team_style(_color(state, "B")))
    grid.add_row(name_a, Text(f"{score.get('A', 0)} × {score.get('B', 0)}", style="bold"), name_b)
    clock = clock_ms(state.get("clock"), now)
    status = _("Full time") if state.get("finished") else _period_text(state)
    lance = clock_ms(state.get("lance"), now, countdown=True)
    lance_text = ""
    if lance is not None and (state.get("lance") or {}).get("running"):
        left = max(0, int(-(-lance // 1000)))
        lance_text = _("lance") + f" {left}" + (" ⚠" if left <= 5 else "")
    grid.add_row(Text(status), Text(mmss(clock) if clock is not None else "--:--",
                                    style="bold"), Text(lance_text))
    lines: list[Any] = [grid]
    shot = match.get("shot_asked")
    if isinstance(shot, dict):
        disc, team = shot.get("disc"), _name(state, str(shot.get("side")))
        asked = (_("SHOT ASKED — {team}, disc {disc}").format(team=team, disc=disc)
                 if disc is not None else _("SHOT ASKED — {team}").format(team=team))
        lines.append(Align.center(Text(asked, style="black on yellow")))
    so = match.get("shootout")
    if isinstance(so, dict) and (so.get("kicks") or so.get("tally")):
        tally = so.get("tally") or {}
        lines.append(Align.center(Text(_("penalties {a} × {b}").format(
            a=tally.get("A", 0), b=tally.get("B", 0)))))
    expelled = match.get("expelled") or {}
    for side in ("A", "B"):
        if expelled.get(side):
            lines.append(Text(_("sent off, {team}: {discs}").format(
                team=_name(state, side), discs=", ".join(map(str, expelled[side]))),
                style="red"))
    for item in newest_announcements(match.get("announcements") or []):
        text = _said(item) if isinstance(item, dict) else str(item)
        goal = isinstance(item, dict) and item.get("code") == "goal"
        lines.append(Align.center(Text(plain(text), style="bold black on green" if goal
                                       else "italic")))
    link = state.get("link") or {}
    if not connected:
        age = _(" (last message {seconds} s ago)").format(
            seconds=int((now_ms() - last_message) / 1000)) if last_message else ""
        lines.append(Text(_("NO CONNECTION TO THE SERVER") + age, style="bold black on red"))
    elif link.get("connected") is False:
        last = link.get("last_event_at")
        age = " — " + _("last event {ago} ago").format(ago=f"{int((now - last) / 1000)} s") \
            if last else ""
        lines.append(Text(_("TABLE DISCONNECTED") + age, style="bold black on red"))
    health = state.get("health") or {}
    faults = health.get("faults") or [] if health.get("ok") is False else []
    for fault in faults:
        lines.append(Text(_said(fault).upper(),
                          style="bold black on yellow"))
    ruleset = state.get("ruleset_title") or ruleset_title(state.get("ruleset"))
    table = state.get("table_name") or table_name(state.get("table_id"), lang=language())
    title = f"futmesa — {table} — {ruleset}"
    return Panel(Group(*lines), title=title)


def newest_announcements(items: list[Any]) -> list[Any]:
    """Every announcement the engine made for the newest entry, in order (a goal, then the
    restart), so the goal is not hidden behind the words that follow it."""
    if not items:
        return []
    last = items[-1]
    entry = last.get("entry") if isinstance(last, dict) else None
    if entry is None:
        return [last]
    return [a for a in items if isinstance(a, dict) and a.get("entry") == entry]


def describe_error(exc: BaseException) -> str:
    """A connection failure in words a person acts on."""
    if isinstance(exc, TimeoutError | asyncio.TimeoutError):
        return _("the server did not answer in time")
    if isinstance(exc, ConnectionRefusedError):
        return _("connection refused (is futmesa serve running on that port?)")
    if isinstance(exc, OSError) and "Name or service not known" in str(exc):
        return _("unknown address (check the computer's name)")
    text = str(exc) or type(exc).__name__
    return text.splitlines()[0][:120]


def check_server(url: str, timeout_s: float = 5.0) -> str | None:
    """None when ``url`` is a futmesa server; else one line saying what is wrong."""
    import httpx

    base = url.rstrip("/")
    if not base.startswith(("http://", "https://")):
        return _("{url} is not an http://… address: use for example --url "
                 "http://192.168.0.10:8000").format(url=url)
    try:
        r = httpx.get(base + "/api/state", timeout=timeout_s)
    except httpx.ConnectError as exc:
        reason = str(exc) or _("connection refused")
        if "Name or service not known" in reason or "nodename" in reason:
            return _("{url} not found: unknown address (check the name or the IP)").format(
                url=base)
        return _("could not connect to {url} ({problem}): is futmesa serve running on that "
                 "computer and on that port?").format(url=base, problem=reason)
    except httpx.HTTPError as exc:
        return _("could not connect to {url}: {problem}").format(url=base,
                                                                problem=describe_error(exc))
    try:
        body = r.json()
    except ValueError:
        body = None
    if r.status_code != 200 or not isinstance(body, dict):
        return _("{url} answered, but it is not a futmesa server (HTTP {status} on /api/state): "
                 "check the address futmesa serve printed").format(url=base, status=r.status_code)
    return None


def find_table(url: str, wanted: str, timeout_s: float = 5.0) -> tuple[str | None, str | None]:
    """(the table id, None) for what a person calls a table ("2", "Mesa 2", its id), or
    (None, one line saying which tables there are)."""
    import httpx

    from futmesa.wordmatch import fold

    tables = httpx.get(url.rstrip("/") + "/api/tables", timeout=timeout_s).json().get("tables")
    names: dict[str, str] = {}
    for st in tables or []:
        table_id = str(st.get("table_id") or "")
        if table_id:
            names[table_id] = str(st.get("table_name") or table_name(table_id, lang=language()))
    key = fold(wanted)
    for table_id, name in names.items():
        number = name.rsplit(" ", 1)[-1]
        if key in (fold(table_id), fold(name), fold(number)):
            return table_id, None
    listed = ", ".join(f"{name} ({table_id})" for table_id, name in names.items())
    return None, _("no table {table} on this host; it serves: {tables}").format(
        table=wanted, tables=listed or _("no table yet"))


class Watcher:
    """Keeps the newest state from /ws and the host clock offset; reconnects forever. With a
    table, only that table's states (a host serving several)."""

    def __init__(self, url: str, table: str | None = None) -> None:
        base = url.rstrip("/")
        if base.startswith("http"):
            base = "ws" + base[4:]
        self.table = table
        self.ws_url = base if base.endswith("/ws") else base + "/ws"
        if table:
            self.ws_url += "?table=" + quote(table)
        self.state: dict[str, Any] | None = None
        self.connected = False
        self.offset_ms = 0.0
        self.last_message: float | None = None
        self.error: str | None = None  # why the last connection failed, in words

    def take(self, raw: str | bytes) -> None:
        msg = json.loads(raw)
        self.last_message = now_ms()
        if isinstance(msg.get("now"), int | float):
            self.offset_ms = float(msg["now"]) - now_ms()
        if msg.get("type") == "state" and isinstance(msg.get("state"), dict):
            if self.table and msg["state"].get("table_id") not in (None, self.table):
                return  # another table of the same host
            self.state = msg["state"]

    async def run(self) -> None:
        import websockets

        attempt = 0
        while True:
            try:
                async with websockets.connect(self.ws_url, open_timeout=5) as ws:
                    self.connected = True
                    attempt = 0
                    while True:
                        raw = await asyncio.wait_for(ws.recv(), timeout=16)
                        self.take(raw)
            except (TimeoutError, OSError, Exception) as exc:  # noqa: BLE001 - retry always
                self.connected = False
                self.error = describe_error(exc)
            await asyncio.sleep(RECONNECT_S[min(attempt, len(RECONNECT_S) - 1)])
            attempt += 1


async def watch(url: str, *, table: str | None = None, refresh_per_second: float = 10.0
                ) -> None:
    """Show the live scoreboard of the daemon at ``url`` (of ``table``) until interrupted."""
    watcher = Watcher(url, table)
    task = asyncio.create_task(watcher.run())
    try:
        with Live(render(None, connected=False), refresh_per_second=refresh_per_second,
                  screen=False) as live:
            while True:
                live.update(render(watcher.state, connected=watcher.connected,
                                   offset_ms=watcher.offset_ms,
                                   last_message=watcher.last_message, error=watcher.error))
                await asyncio.sleep(1 / refresh_per_second)
    finally:
        task.cancel()
