"""`futmesa watch`: a terminal scoreboard reading a running daemon's /ws stream (rich Live).

For a set-up with no screen browser. Like the kiosk it counts the clocks locally from
``ms``/``at``/``rate``, reconnects by itself, and says when the table or host is gone.
"""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

from rich.align import Align
from rich.console import Group
from rich.live import Live
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

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
        return f"sem conexão com o servidor: {error} — tentando de novo…"
    return "conectando ao servidor… / connecting…"


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
    period = state.get("period")
    status = "FIM" if state.get("finished") else (f"{period}º tempo" if period else "")
    lance = clock_ms(state.get("lance"), now, countdown=True)
    lance_text = ""
    if lance is not None and (state.get("lance") or {}).get("running"):
        left = max(0, int(-(-lance // 1000)))
        lance_text = f"lance {left}" + (" ⚠" if left <= 5 else "")
    grid.add_row(Text(status), Text(mmss(clock) if clock is not None else "--:--",
                                    style="bold"), Text(lance_text))
    lines: list[Any] = [grid]
    shot = match.get("shot_asked")
    if isinstance(shot, dict):
        disc = shot.get("disc")
        lines.append(Align.center(Text(
            f"CHUTE PEDIDO — {_name(state, str(shot.get('side')))}"
            + (f", botão {disc}" if disc is not None else ""), style="black on yellow")))
    so = match.get("shootout")
    if isinstance(so, dict) and (so.get("kicks") or so.get("tally")):
        tally = so.get("tally") or {}
        lines.append(Align.center(Text(f"pênaltis {tally.get('A', 0)} × {tally.get('B', 0)}")))
    expelled = match.get("expelled") or {}
    for side in ("A", "B"):
        if expelled.get(side):
            lines.append(Text(f"expulsos {_name(state, side)}: "
                              + ", ".join(map(str, expelled[side])), style="red"))
    for item in newest_announcements(match.get("announcements") or []):
        text = item.get("pt") if isinstance(item, dict) else str(item)
        goal = isinstance(item, dict) and item.get("code") == "goal"
        lines.append(Align.center(Text(plain(text), style="bold black on green" if goal
                                       else "italic")))
    link = state.get("link") or {}
    if not connected:
        age = f" (última mensagem há {int((now_ms() - last_message) / 1000)} s)" \
            if last_message else ""
        lines.append(Text("SEM CONEXÃO COM O SERVIDOR" + age, style="bold black on red"))
    elif link.get("connected") is False:
        last = link.get("last_event_at")
        age = f" — último evento há {int((now - last) / 1000)} s" if last else ""
        lines.append(Text("MESA DESCONECTADA" + age, style="bold black on red"))
    health = state.get("health") or {}
    faults = health.get("faults") or [] if health.get("ok") is False else []
    for fault in faults:
        lines.append(Text(str(fault.get("pt") or fault.get("code")).upper(),
                          style="bold black on yellow"))
    ruleset = state.get("ruleset_title") or ruleset_title(state.get("ruleset"))
    title = f"futmesa — {state.get('table_name') or table_name(state.get('table_id'))} — {ruleset}"
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
        return "o servidor não respondeu a tempo"
    if isinstance(exc, ConnectionRefusedError):
        return "conexão recusada (o futmesa serve está rodando nessa porta?)"
    if isinstance(exc, OSError) and "Name or service not known" in str(exc):
        return "endereço desconhecido (confira o nome do computador)"
    text = str(exc) or type(exc).__name__
    return text.splitlines()[0][:120]


def check_server(url: str, timeout_s: float = 5.0) -> str | None:
    """None when ``url`` is a futmesa server; else one line saying what is wrong."""
    import httpx

    base = url.rstrip("/")
    if not base.startswith(("http://", "https://")):
        return f"{url} não é um endereço http://…: use por exemplo --url http://192.168.0.10:8000"
    try:
        r = httpx.get(base + "/api/state", timeout=timeout_s)
    except httpx.ConnectError as exc:
        reason = str(exc) or "conexão recusada"
        if "Name or service not known" in reason or "nodename" in reason:
            return f"não encontrei {base}: endereço desconhecido (confira o nome ou o IP)"
        return (f"não consegui conectar a {base} ({reason}): o futmesa serve está rodando "
                "nesse computador e nessa porta?")
    except httpx.HTTPError as exc:
        return f"não consegui conectar a {base}: {describe_error(exc)}"
    try:
        body = r.json()
    except ValueError:
        body = None
    if r.status_code != 200 or not isinstance(body, dict):
        return (f"{base} respondeu, mas não é um servidor futmesa (HTTP {r.status_code} em "
                "/api/state): confira o endereço que o futmesa serve imprimiu")
    return None


class Watcher:
    """Keeps the newest state from /ws and the host clock offset; reconnects forever."""

    def __init__(self, url: str) -> None:
        base = url.rstrip("/")
        if base.startswith("http"):
            base = "ws" + base[4:]
        self.ws_url = base if base.endswith("/ws") else base + "/ws"
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


async def watch(url: str, *, refresh_per_second: float = 10.0) -> None:
    """Show the live scoreboard of the daemon at ``url`` until interrupted."""
    watcher = Watcher(url)
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
