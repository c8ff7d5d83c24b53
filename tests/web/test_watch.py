"""`futmesa watch`: the terminal scoreboard reads /ws from a live server and renders it."""

from __future__ import annotations

import asyncio
import time

from rich.console import Console

from futmesa import watch
from futmesa_testkit.liveserver import LiveServer, make_state


def text_of(panel: object) -> str:
    console = Console(width=100, record=True, color_system=None)
    console.print(panel)
    return console.export_text()


def test_clock_counts_locally() -> None:
    timer = {"ms": 60_000, "running": True, "at": 1_000_000, "rate": 2.0}
    assert watch.clock_ms(timer, 1_001_000) == 62_000
    assert watch.clock_ms({**timer, "running": False}, 1_001_000) == 60_000
    assert watch.clock_ms(timer, 1_001_000, countdown=True) == 58_000
    assert watch.mmss(62_000) == "01:02"


def test_render_shows_score_names_and_markup_as_text() -> None:
    st = make_state(score={"A": 3, "B": 1})
    st["teams"]["A"]["name"] = "[bold red]Alvo[/]"
    st["match"]["shot_asked"] = {"side": "B", "disc": 4}
    out = text_of(watch.render(st, connected=True))
    assert "[bold red]Alvo[/]" in out
    assert "3 × 1" in out
    assert "CHUTE PEDIDO — Botafogo, botão 4" in out


def test_render_disconnected_states() -> None:
    st = make_state()
    st["link"] = {"connected": False, "last_event_at": time.time() * 1000 - 7_000}
    assert "MESA DESCONECTADA — último evento há 7 s" in text_of(watch.render(st, connected=True))
    assert "SEM CONEXÃO COM O SERVIDOR" in text_of(watch.render(st, connected=False))


def test_watcher_follows_a_live_server(live: LiveServer) -> None:
    live.publish(make_state(score={"A": 0, "B": 2}))

    async def run() -> dict:
        watcher = watch.Watcher(live.url)
        task = asyncio.create_task(watcher.run())
        try:
            for _ in range(200):
                if watcher.state and watcher.state["score"]["B"] == 2:
                    break
                await asyncio.sleep(0.01)
            await asyncio.to_thread(live.publish, make_state(score={"A": 1, "B": 2}))
            for _ in range(200):
                if watcher.state and watcher.state["score"]["A"] == 1:
                    break
                await asyncio.sleep(0.01)
            assert watcher.connected
            return watcher.state or {}
        finally:
            task.cancel()

    assert asyncio.run(run())["score"] == {"A": 1, "B": 2}


def test_render_shows_the_tables_health() -> None:
    st = make_state()
    st["health"] = {"ok": False, "faults": [{
        "code": "log_read_only", "since": 0,
        "pt": "log de eventos sem gravação (somente leitura) — placar pausado, nada se perde",
        "en": "event log not writable (read-only) — scores paused, nothing lost"}]}
    assert "LOG DE EVENTOS SEM GRAVAÇÃO (SOMENTE LEITURA)" in text_of(
        watch.render(st, connected=True))
    st["health"] = {"ok": True, "faults": []}
    assert "SEM GRAVAÇÃO" not in text_of(watch.render(st, connected=True))
# -- issue 14: a wrong URL, dark team colours, Brazilian wording --------------------------

def test_watch_against_a_wrong_url_says_why_in_one_line() -> None:
    import http.server
    import threading

    from click.testing import CliRunner

    from futmesa.cli import cli
    from futmesa_testkit.livetable import free_port

    refused = watch.check_server(f"http://127.0.0.1:{free_port()}")
    assert refused is not None and "não consegui conectar" in refused
    assert "não é um endereço http" in (watch.check_server("192.168.0.10:8000") or "")
    # something else answers on that port (another web server)
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

    other = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Quiet)
    threading.Thread(target=other.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{other.server_address[1]}"
        assert "não é um servidor futmesa" in (watch.check_server(url) or "")
        result = CliRunner().invoke(cli, ["watch", "--url", url])
    finally:
        other.shutdown()
        other.server_close()
    assert result.exit_code == 1
    assert "Traceback" not in result.output
    assert len(result.output.strip().splitlines()) == 1


def _contrast(fg: tuple[int, int, int], bg: tuple[int, int, int]) -> float:
    def lum(rgb: tuple[int, int, int]) -> float:
        return watch._luminance("#" + "".join(f"{c:02x}" for c in rgb))

    hi, lo = sorted((lum(fg), lum(bg)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_team_names_are_legible_on_a_dark_and_a_light_terminal() -> None:
    from rich.style import Style

    for color in ("#101010", "#0b1e5b", "#ffffff", "#ffd400", "#1f6feb", "#c62828"):
        style = Style.parse(watch.team_style(color))
        fg = style.color.get_truecolor()
        bg = style.bgcolor.get_truecolor()
        # the name sits on the team colour itself, so the terminal's background never matters
        assert bg == style.bgcolor.get_truecolor() and style.bgcolor.name == color
        assert _contrast(tuple(fg), tuple(bg)) >= 4.5, color


def test_waiting_and_errors_are_in_brazilian_portuguese() -> None:
    waiting = text_of(watch.render(None, connected=False))
    assert "conectando ao servidor" in waiting and "a ligar" not in waiting
    failed = text_of(watch.render(None, connected=False,
                                  error=watch.describe_error(ConnectionRefusedError())))
    assert "sem conexão com o servidor: conexão recusada" in failed


def test_watch_follows_the_table_asked_for_on_a_host_of_several(live: LiveServer) -> None:
    """Issue 31 §15: on a tournament host `watch` showed whichever table spoke last."""
    for n, score in ((1, {"A": 1, "B": 0}), (2, {"A": 0, "B": 3})):
        st = make_state(score=score, table_id=f"mesa-{n}")
        st["table_name"] = f"Mesa {n}"
        live.publish(st)
    assert watch.find_table(live.url, "2") == ("mesa-2", None)
    assert watch.find_table(live.url, "mesa 1") == ("mesa-1", None)
    assert watch.find_table(live.url, "Mesa-2") == ("mesa-2", None)
    missing, why = watch.find_table(live.url, "9")
    assert missing is None and why and "Mesa 1 (mesa-1)" in why and "\n" not in why

    async def run() -> list[str]:
        watcher = watch.Watcher(live.url, "mesa-1")
        task = asyncio.create_task(watcher.run())
        seen: list[str] = []
        try:
            for step in range(400):
                if watcher.state:
                    seen.append(watcher.state["table_id"])
                if step == 50:  # table 2 scores meanwhile: table 1's watch does not move
                    st = make_state(score={"A": 0, "B": 4}, table_id="mesa-2")
                    await asyncio.to_thread(live.publish, st)
                await asyncio.sleep(0.005)
            return seen
        finally:
            task.cancel()

    seen = asyncio.run(run())
    assert seen and set(seen) == {"mesa-1"}


def test_the_lance_counts_down_and_warns() -> None:
    """Issue 31 §15: the per-move timer on the terminal, counting down from the device's
    figure at the host's time, with the warning in its last 5 s; none when it is stopped."""
    st = make_state()
    now = watch.now_ms()
    st["lance"] = {"ms": 12_000, "running": True, "at": now, "rate": 1.0, "length_ms": 15_000,
                   "side": "A"}
    assert "lance 12" in text_of(watch.render(st, connected=True))
    later = text_of(watch.render(st, connected=True, offset_ms=8_000))  # 8 s on
    assert "lance 4 ⚠" in later
    st["lance"]["running"] = False
    assert "lance" not in text_of(watch.render(st, connected=True)).split("\n")[2]
